// The event catalogue: every type PVS sends, with its category, its fields and an example.
// docs/events.md is generated from it (scripts/generate-event-docs.ts), in this order.
import type { EventDefinition } from '../../../platform/outbox.ts';
import { billingEvents } from './billing.events.ts';
import { deedEvents } from './deeds.events.ts';
import { lookupEvents } from './lookups.events.ts';
import { monitoringEvents } from './monitoring.events.ts';
import { paymentEvents } from './payments.events.ts';
import { verificationEvents } from './verifications.events.ts';

export { categories, categoryDescriptions, type Category } from './define.ts';
export * from './billing.events.ts';
export * from './deeds.events.ts';
export * from './lookups.events.ts';
export * from './monitoring.events.ts';
export * from './payments.events.ts';
export * from './verifications.events.ts';

// Each group lists its definitions in lifecycle order (a module namespace would sort them by name);
// test/webhooks/catalogue.test.ts checks that no exported definition is missing from its group.
export const eventCatalogue: readonly EventDefinition[] = [
  ...paymentEvents,
  ...verificationEvents,
  ...lookupEvents,
  ...billingEvents,
  ...deedEvents,
  ...monitoringEvents,
] as readonly EventDefinition[];

export function findEventDefinition(type: string): EventDefinition | undefined {
  return eventCatalogue.find((d) => d.type === type);
}
