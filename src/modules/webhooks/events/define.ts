// How an event type is declared. The catalogue in index.ts is the one list of what PVS sends.
import { Type, type Static, type TObject, type TProperties } from '@sinclair/typebox';
import type { EventDefinition } from '../../../platform/outbox.ts';

export const categories = ['PAYMENTS', 'VERIFICATIONS', 'BUSINESS_LOOKUPS', 'CONTACT_BILLING', 'DEED_ANALYSIS', 'MONITORING'] as const;
export type Category = (typeof categories)[number];

/** An event's own fields; unknown fields are refused, so no capability can add one SPEC forbids. */
export function fields<P extends TProperties>(properties: P): TObject<P> {
  return Type.Object(properties, { additionalProperties: false });
}

export function defineEvent<S extends TObject>(definition: {
  type: string;
  category: Category;
  description: string;
  payload: S;
  subject: keyof Static<S> & string;
  example: Static<S>;
  sealed?: boolean;
}): EventDefinition<S> {
  return definition;
}

export const Timestamp = Type.String({ format: 'date-time' });
export const nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);
