// How an event type is declared. The catalogue in index.ts is the one list of what PVS sends.
import { Type, type ObjectOptions, type SchemaOptions, type Static, type TLiteral, type TObject, type TProperties, type TUnion } from '@sinclair/typebox';
import type { EventDefinition } from '../../../platform/outbox.ts';

export const categories = ['PAYMENTS', 'VERIFICATIONS', 'BUSINESS_LOOKUPS', 'CONTACT_BILLING', 'DEED_ANALYSIS', 'MONITORING'] as const;
export type Category = (typeof categories)[number];

/** What each category holds (SPEC, Events: Delivery), for the generated reference and the portal. */
export const categoryDescriptions: Record<Category, string> = {
  PAYMENTS: 'Payment status and payment-link events.',
  VERIFICATIONS: 'Verification request and individual status events.',
  BUSINESS_LOOKUPS: 'Finished business lookups.',
  CONTACT_BILLING: 'Billing runs and saved-card changes of your contacts.',
  DEED_ANALYSIS: 'Completed or failed trust deed analyses.',
  MONITORING: 'Alerts and subscription changes of monitored contacts; delivered only to partners eligible for monitoring.',
};

/** An event's own fields; unknown fields are refused, so no capability can add one SPEC forbids. */
export function fields<P extends TProperties>(properties: P, options: Omit<ObjectOptions, 'additionalProperties'> = {}): TObject<P> {
  return Type.Object(properties, { ...options, additionalProperties: false });
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

type Literals<V extends readonly string[]> = { -readonly [K in keyof V]: TLiteral<V[K] & string> };

/** A closed set of UPPER_SNAKE values: the reference lists them, and emit refuses any other. */
export function oneOf<const V extends readonly [string, ...string[]]>(values: V, options: SchemaOptions = {}): TUnion<Literals<V>> {
  return Type.Union(
    values.map((v) => Type.Literal(v)),
    options,
  ) as unknown as TUnion<Literals<V>>;
}

export const Timestamp = (description?: string) => Type.String({ format: 'date-time', ...(description ? { description } : {}) });
export const nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T, description?: string) =>
  Type.Union([schema, Type.Null()], description ? { description } : {});
