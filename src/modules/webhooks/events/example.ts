// The example delivery of an event type: the catalogue's example in the envelope every body has. The
// envelope is fixed, so the generated reference (docs/events.md) and the partner's OpenAPI document
// (its `webhooks`) change only when the catalogue does, and both show the same bytes.
import type { EventDefinition } from '../../../platform/outbox.ts';
import { notificationEnvelope } from '../body.ts';

export const exampleEnvelope = { eventId: 'evt_01JD0000000000000000000000', occurredAt: new Date('2026-11-21T10:20:00.000Z') };

/** The body PVS would deliver for the definition's example, as an object in the order it is sent. */
export function exampleDelivery(definition: EventDefinition): Record<string, unknown> {
  if (definition.example === undefined) throw new Error(`Event ${definition.type} has no example`);
  return notificationEnvelope({
    id: exampleEnvelope.eventId,
    type: definition.type,
    occurredAt: exampleEnvelope.occurredAt,
    payload: definition.example as Record<string, unknown>,
    test: false,
  });
}
