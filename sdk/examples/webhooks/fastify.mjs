// Receiving PVS webhooks in Fastify: Fastify parses JSON bodies by default, so the webhook routes get a
// plugin scope of their own whose JSON parser keeps the raw Buffer (the rest of the app is unchanged).
// @ts-check
import Fastify from 'fastify';
import { constructEvent, WebhookVerificationError } from '@pvs/client';

/**
 * @param {{ secrets: string | string[], onEvent: (event: import('@pvs/client').WebhookEvent) => void }} options
 */
export function webhookApp({ secrets, onEvent }) {
  const app = Fastify();

  app.register(async (scope) => {
    // In this scope only: application/json arrives as the exact bytes received.
    scope.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));

    scope.post('/webhooks/pvs', async (request, reply) => {
      let event;
      try {
        event = constructEvent(/** @type {Buffer} */ (request.body), request.headers, secrets);
      } catch (error) {
        if (error instanceof WebhookVerificationError) return reply.code(error.status).send(error.message);
        throw error;
      }
      // Answer first (within 5 s); do the work after, de-duplicating on event.eventId.
      setImmediate(() => onEvent(event));
      return reply.code(200).send();
    });
  });
  return app;
}

// node sdk/examples/webhooks/fastify.mjs, with PVS_WEBHOOK_SECRET set: listens on PORT (3001).
if (import.meta.url === `file://${process.argv[1]}`) {
  const app = webhookApp({ secrets: process.env.PVS_WEBHOOK_SECRET ?? '', onEvent: (event) => console.log(event.type, event.eventId) });
  await app.listen({ port: Number(process.env.PORT ?? 3001) });
}
