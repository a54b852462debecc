// Receiving PVS webhooks in Express: the route reads the raw bytes with express.raw, and is declared
// before the app-wide express.json(): a parser that runs first consumes the body, and a parsed and
// re-serialised body never matches the signature.
// @ts-check
import express from 'express';
import { constructEvent, WebhookVerificationError } from '@pvs/client';

/**
 * @param {{ secrets: string | string[], onEvent: (event: import('@pvs/client').WebhookEvent) => void }} options
 *   secrets: the destination's secret (both, new first, while you rotate it)
 */
export function webhookApp({ secrets, onEvent }) {
  const app = express();

  app.post('/webhooks/pvs', express.raw({ type: 'application/json' }), (req, res) => {
    let event;
    try {
      event = constructEvent(req.body, req.headers, secrets);
    } catch (error) {
      if (error instanceof WebhookVerificationError) return res.status(error.status).send(error.message);
      throw error;
    }
    res.sendStatus(200); // within 5 s; do the work after answering, and de-duplicate on event.eventId
    onEvent(event);
  });

  // The rest of your API parses JSON as usual: after the webhook route, so it never sees that body.
  app.use(express.json());
  return app;
}

// node sdk/examples/webhooks/express.mjs, with PVS_WEBHOOK_SECRET set: listens on PORT (3001).
if (import.meta.url === `file://${process.argv[1]}`) {
  const app = webhookApp({ secrets: process.env.PVS_WEBHOOK_SECRET ?? '', onEvent: (event) => console.log(event.type, event.eventId) });
  app.listen(Number(process.env.PORT ?? 3001), () => console.log('listening on /webhooks/pvs'));
}
