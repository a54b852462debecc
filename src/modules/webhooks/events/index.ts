// The event catalogue: every type PVS sends, with its category, its fields and an example.
// docs/events.md is generated from it (scripts/generate-event-docs.ts).
import type { EventDefinition } from '../../../platform/outbox.ts';
import * as billing from './billing.events.ts';
import * as deeds from './deeds.events.ts';
import * as lookups from './lookups.events.ts';
import * as monitoring from './monitoring.events.ts';
import * as payments from './payments.events.ts';
import * as verifications from './verifications.events.ts';

export { categories, type Category } from './define.ts';
export * from './billing.events.ts';
export * from './deeds.events.ts';
export * from './lookups.events.ts';
export * from './monitoring.events.ts';
export * from './payments.events.ts';
export * from './verifications.events.ts';

export const eventCatalogue: readonly EventDefinition[] = [payments, verifications, lookups, billing, deeds, monitoring].flatMap(
  (group) => Object.values(group) as EventDefinition[],
);

export function findEventDefinition(type: string): EventDefinition | undefined {
  return eventCatalogue.find((d) => d.type === type);
}
