// The hosted verification flow's JSON API (tag `hosted`): what the page at /v/{token} calls, and what a
// test can drive without a browser. No partner credentials: the link, then the session, is the authority.
import { Type } from '@sinclair/typebox';
import { AppError } from '../../platform/errors.ts';
import { bearer } from '../../platform/http/partner-api.ts';
import type { HttpApp } from '../../platform/http/types.ts';
import type { VerificationSessionService } from './verification-sessions.service.ts';

const Session = Type.Object(
  {
    expiresAt: Type.String({ format: 'date-time', description: 'When the session ends; the flow must be finished by then.' }),
    individual: Type.Object({
      role: Type.String({ description: 'Why the person is asked: their role (a VerificationRole).' }),
      roleDescription: Type.Union([Type.String(), Type.Null()]),
      status: Type.String({ description: 'The individual status.' }),
    }),
    partner: Type.Object({ name: Type.String({ description: 'Who asked.' }) }),
    attemptsRemaining: Type.Integer(),
  },
  { $id: 'VerificationSession', title: 'VerificationSession' },
);

const OpenedSession = Type.Object(
  {
    sessionToken: Type.String({ description: 'Send as `Authorization: Bearer …` on the session calls. Shown once; only its HMAC is kept.' }),
    expiresAt: Type.String({ format: 'date-time' }),
    individual: Type.Object({ role: Type.String(), roleDescription: Type.Union([Type.String(), Type.Null()]), status: Type.String() }),
    partner: Type.Object({ name: Type.String() }),
    attemptsRemaining: Type.Integer(),
  },
  { $id: 'OpenedVerificationSession', title: 'OpenedVerificationSession' },
);

export function registerVerificationSessionRoutes(app: HttpApp, deps: { sessions: VerificationSessionService }): void {
  const tags = ['hosted'];

  app.post(
    '/hosted/v1/verification-sessions',
    {
      schema: {
        tags,
        summary: 'Exchange a verification link for a session',
        description:
          'Spends the link (the token at the end of `/v/{token}`): the flow then continues with the session, so a reload works but the link cannot be shared. The individual becomes IN_PROGRESS (verification.individual.in_progress, once). 410 LINK_INVALID when the link was already opened, replaced or has expired, or the verification is finished; 404 for a link that never existed.',
        operationId: 'openVerificationSession',
        body: Type.Object({ token: Type.String({ maxLength: 128, description: 'The link token.' }) }, { additionalProperties: false }),
        response: { 201: OpenedSession },
      },
    },
    async (request, reply) => reply.code(201).header('cache-control', 'no-store').send(await deps.sessions.open(request.body.token)),
  );

  app.get(
    '/hosted/v1/verification-session',
    {
      schema: {
        tags,
        summary: 'The session’s state',
        description: 'With `Authorization: Bearer <sessionToken>`. 401 UNAUTHENTICATED when the session is unknown, has expired, or was ended by a newer link.',
        operationId: 'getVerificationSession',
        response: { 200: Session },
      },
    },
    async (request, reply) => {
      const session = await deps.sessions.individualOf(bearer(request));
      if (!session) throw new AppError('UNAUTHENTICATED', 'The verification session is unknown, has expired or was replaced; open your latest link again');
      return reply.header('cache-control', 'no-store').send(await deps.sessions.view(session.individual, session.expiresAt));
    },
  );
}
