// The hosted verification flow's JSON API (tag `hosted`): what the page at /v/{token} calls, and what a
// test can drive without a browser. No partner credentials: the link, then the session, is the authority.
import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../../platform/errors.ts';
import { bearer } from '../../platform/http/partner-api.ts';
import type { HttpApp } from '../../platform/http/types.ts';
import type { VerificationSessionService } from './verification-sessions.service.ts';
import type { IndividualRow } from './verifications.repository.ts';

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

const Name = (description: string) => Type.String({ minLength: 1, maxLength: 100, description });
const DetailsBody = Type.Object(
  {
    firstName: Name('Given name, as on the identity document.'),
    middleName: Type.Optional(Name('Middle names, if any.')),
    lastName: Name('Family name, as on the identity document.'),
    dateOfBirth: Type.String({ format: 'date', maxLength: 10, 'x-message': 'must be a date as YYYY-MM-DD', description: 'YYYY-MM-DD.' }),
    address: Type.Object(
      {
        line1: Type.String({ minLength: 1, maxLength: 200 }),
        line2: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
        locality: Type.String({ minLength: 1, maxLength: 100, description: 'Suburb or town.' }),
        state: Type.String({ minLength: 1, maxLength: 50 }),
        postcode: Type.String({ minLength: 1, maxLength: 10 }),
        country: Type.String({ pattern: '^[A-Z]{2}$', maxLength: 60, 'x-message': 'must be a two-letter country code such as AU', description: 'ISO 3166-1 alpha-2.' }),
      },
      { additionalProperties: false, description: 'The residential address.' },
    ),
    email: Type.Optional(Type.String({ format: 'email', maxLength: 254 })),
    phone: Type.Optional(Type.String({ pattern: '^\\+?[0-9 ()-]{6,20}$', maxLength: 21, 'x-message': 'must be a phone number: digits, spaces, brackets or dashes, optionally starting with +' })),
  },
  { additionalProperties: false },
);

export function registerVerificationSessionRoutes(app: HttpApp, deps: { sessions: VerificationSessionService }): void {
  const tags = ['hosted'];

  // The session is checked first, before the body is read: a caller without one learns nothing more.
  const sessions = new WeakMap<FastifyRequest, { individual: IndividualRow; expiresAt: Date }>();
  const withSession = async (request: FastifyRequest) => {
    const session = await deps.sessions.individualOf(bearer(request));
    if (!session) throw new AppError('UNAUTHENTICATED', 'The verification session is unknown, has expired or was replaced; open your latest link again');
    sessions.set(request, session);
  };
  const sessionOf = (request: FastifyRequest) => sessions.get(request)!;

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
      onRequest: withSession,
    },
    async (request, reply) => {
      const session = sessionOf(request);
      return reply.header('cache-control', 'no-store').send(await deps.sessions.view(session.individual, session.expiresAt));
    },
  );

  app.put(
    '/hosted/v1/verification-session/details',
    {
      schema: {
        tags,
        summary: 'Save the person’s details',
        description:
          'With `Authorization: Bearer <sessionToken>`. The details go to the identity provider; PVS keeps none of them. Saving again replaces them. 400 with a pointer and words for each problem; 409 INVALID_STATE once the verification has an outcome; 503 when the identity service does not answer.',
        operationId: 'saveVerificationDetails',
        body: DetailsBody,
        response: { 200: Session },
      },
      onRequest: withSession,
    },
    async (request, reply) => {
      const session = sessionOf(request);
      await deps.sessions.saveDetails(session.individual, request.body);
      return reply.header('cache-control', 'no-store').send(await deps.sessions.view(session.individual, session.expiresAt));
    },
  );
}
