// Where the identity provider says that checks it was running have finished (Onfido's `check.completed`
// webhook). The signature over the raw body is its only permission, so the route is outside the /v1
// guard, and a notification whose signature fails is refused and logged, never acted on. What it does
// is small on purpose: it wakes the attempt's check job, which reads the results from the provider
// itself; a forged or replayed notification can at most make a job look early.
import type { FastifyRequest } from 'fastify';
import { AppError } from '../../platform/errors.ts';
import type { HttpApp } from '../../platform/http/types.ts';
import type { Logger } from '../../platform/logger.ts';
import type { IdentityProvider } from '../../providers/identity/identity-provider.ts';

/** Onfido's notifications are a few hundred bytes; anything near this is not one. */
const bodyLimit = 64 * 1024;

export async function registerIdentityNotificationRoutes(
  app: HttpApp,
  deps: { identity: IdentityProvider; checksFinished(subjectRef: string, attempt: number): Promise<boolean>; logger: Logger },
): Promise<void> {
  const { identity } = deps;
  if (!identity.notification) return;
  const receive = identity.notification.bind(identity);

  // The raw bytes, in this scope only: the signature is over them, not over a re-serialised parse.
  await app.register(async (scope) => {
    const raw = new WeakMap<FastifyRequest, Buffer>();
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit }, (request, body, done) => {
      raw.set(request, body as Buffer);
      done(null, undefined);
    });

    scope.post(
      `/providers/${identity.name}/webhooks`,
      {
        schema: {
          hide: true,
          summary: `Notifications from ${identity.name} that checks have finished`,
          response: { 200: { type: 'object', properties: { received: { type: 'boolean' } } } },
        },
      },
      async (request, reply) => {
        const note = await receive(raw.get(request) ?? Buffer.alloc(0), request.headers);
        if (!note.ok) {
          deps.logger.warn({ provider: identity.name, reason: note.message, requestId: request.id }, 'identity provider notification refused: its signature does not verify');
          throw new AppError('UNAUTHENTICATED', 'The notification’s signature does not verify');
        }
        if (note.kind === 'checks_finished') {
          const woken = await deps.checksFinished(note.subjectRef, note.attempt);
          deps.logger.info({ provider: identity.name, attempt: note.attempt, woken }, 'identity checks finished at the provider');
        } else {
          deps.logger.info({ provider: identity.name, reason: note.reason }, 'identity provider notification ignored');
        }
        return reply.header('cache-control', 'no-store').send({ received: true });
      },
    );
  });
}
