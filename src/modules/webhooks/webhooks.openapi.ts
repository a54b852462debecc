// The `webhooks` of the partner's OpenAPI document: one POST per event type of the catalogue, in its
// order. Each body schema is built from the catalogue's own payload schema (the one emit validates
// against) inside the envelope every delivery has, and each example is the one docs/events.md shows
// (events/example.ts), so the document cannot drift from what is sent.
import { Type, type TObject } from '@sinclair/typebox';
import type { EventDefinition } from '../../platform/outbox.ts';
import { eventCatalogue } from './events/index.ts';
import { exampleDelivery } from './events/example.ts';

/** The tag the webhook operations carry. */
export const eventsTag = { name: 'events', description: 'What PVS POSTs to your webhook destinations, one operation per event type; see docs/events.md and docs/webhooks.md.' };

/** The headers of every delivery (docs/webhooks.md, "What a delivery looks like"; body.ts signs them). */
const deliveryHeaders = [
  { name: 'user-agent', required: true, schema: { type: 'string', const: 'PVS-Webhooks/1.0' }, description: 'Always `PVS-Webhooks/1.0`.' },
  {
    name: 'x-timestamp',
    required: true,
    schema: { type: 'string', pattern: '^[0-9]{1,12}$', maxLength: 12 },
    description: 'Unix time in seconds when this attempt was signed. Answer 400 when it is more than 300 s from your clock (docs/webhooks.md#verifying-a-delivery).',
    example: '1795256400',
  },
  {
    name: 'x-signature',
    required: true,
    schema: { type: 'string', pattern: '^[0-9a-f]{64}$', maxLength: 64 },
    description: 'HMAC-SHA256(secret, `x-timestamp` + "." + raw body), lowercase hex. Compare in constant time; answer 401 when it does not match.',
  },
  {
    name: 'x-signature-previous',
    required: false,
    schema: { type: 'string', pattern: '^[0-9a-f]{64}$', maxLength: 64 },
    description: 'Only for 24 h after a secret rotation: the same signature made with the previous secret; accept either.',
  },
  { name: 'x-event-id', required: true, schema: { type: 'string', pattern: '^evt_[0-9A-Z]{26}$', maxLength: 30 }, description: 'The `eventId` of the body: de-duplicate on it.' },
  {
    name: 'x-notification-id',
    required: true,
    schema: { type: 'string', pattern: '^whn_[0-9A-Z]{26}$', maxLength: 30 },
    description: 'This delivery (`whn_…`), as in `GET /v1/webhook-notifications/{id}`.',
  },
].map((header) => ({ in: 'header', ...header }));

/** The delivered body: `type`, `eventId`, the payload's own fields (the catalogue's schemas), `occurredAt`, and `test` on samples. */
function deliverySchema(definition: EventDefinition): TObject {
  const payload = definition.payload as TObject;
  if (payload.type !== 'object' || !payload.properties) throw new Error(`Event ${definition.type}: its payload is not an object schema`);
  return Type.Object(
    {
      type: Type.Literal(definition.type, { description: 'The event type.' }),
      eventId: Type.String({ pattern: '^evt_[0-9A-Z]{26}$', description: 'The event (`evt_…`), the same on every retry and destination: de-duplicate on it.' }),
      ...payload.properties,
      occurredAt: Type.String({ format: 'date-time', description: 'When it happened (UTC, milliseconds).' }),
      test: Type.Optional(Type.Literal(true, { description: 'Present only on samples sent by `POST /v1/webhook-notifications/test`.' })),
    },
    { additionalProperties: false, description: payload.description },
  );
}

function webhookOperation(definition: EventDefinition): Record<string, unknown> {
  const sealed = definition.sealed ? ' Delivered once: delivery history shows `payload: null`, and a manual retry answers 410 `PAYLOAD_EXPIRED`.' : '';
  return {
    post: {
      operationId: `webhook.${definition.type}`,
      summary: definition.type,
      description: `${definition.description ?? ''}${sealed} Category \`${definition.category}\`; its fields: docs/events.md#${definition.type.replace(/[^a-z0-9_-]/g, '')}.`,
      tags: [eventsTag.name],
      // The receiver authenticates PVS by the signature headers, not by a scheme of this document.
      security: [],
      parameters: deliveryHeaders,
      requestBody: {
        required: true,
        content: { 'application/json': { schema: deliverySchema(definition), example: exampleDelivery(definition) } },
      },
      responses: {
        '2XX': { description: 'Received: any 2xx within 5 seconds. Anything else, or no answer, is retried (docs/webhooks.md#retries).' },
        '4XX': { description: 'The delivery failed verification (400 for a stale or missing `x-timestamp`, 401 for a bad signature); retried like any failure.' },
      },
    },
  };
}

/** The document's `webhooks`, keyed by event type. */
export function eventWebhooks(catalogue: readonly EventDefinition[] = eventCatalogue): Record<string, unknown> {
  return Object.fromEntries(catalogue.map((definition) => [definition.type, webhookOperation(definition)]));
}
