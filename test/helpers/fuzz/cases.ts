// A fuzz case: one operation, one place in its request (a path or query parameter, a header, a body
// field, an object in the body, or the whole body) and what is done there (a hostile value, the value
// taken away, an unknown field, a broken body). The request is the operation's valid-looking baseline
// with that one change, so whatever the service refuses, it should name that place.
import fc from 'fast-check';
import { bodyVariants, Entries, hostileValue, Raw, unknownFieldNames, type BodyVariant } from './hostile.ts';
import type { FuzzOperation } from './operations.ts';
import { branches, isObjectSchema, plausibleValue, propertiesOf, typesOf, type JsonSchema } from './schema.ts';

const segmentsOf = (pointer: string) => (pointer === '' ? [] : pointer.slice(1).split('/').map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~')));

function getAt(value: unknown, pointer: string): unknown {
  return segmentsOf(pointer).reduce<unknown>((node, key) => (node && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined), value);
}

export type Location =
  | { in: 'path' | 'query' | 'header'; name: string; schema?: JsonSchema }
  | { in: 'body'; pointer: string; schema?: JsonSchema }
  | { in: 'body-object'; pointer: string }
  | { in: 'whole-body' };

export type Mutation =
  | { kind: 'set'; value: unknown; encoding: 'percent' | 'minimal' }
  | { kind: 'remove' }
  | { kind: 'unknown-field'; key: string; value: unknown }
  | { kind: 'body'; variant: BodyVariant };

export interface FuzzCase {
  location: Location;
  mutation: Mutation;
  /** Path ids: one the test created (when it has one for this path) or one that does not exist. */
  realIds: boolean;
}

export interface Baseline {
  path: Record<string, string>;
  query: Record<string, unknown>;
  headers: Record<string, string>;
  body: unknown;
}

export interface FuzzContext {
  /** Plausible values by property or parameter name, used whether the schema requires them or not. */
  hints: Record<string, unknown>;
  /** Real ids for an operation, by path template prefix: `/v1/contacts/{id}` → a contact the test made. */
  realIds(op: FuzzOperation): Record<string, string>;
  /** The partner's Authorization and X-Partner-Id, sent to every operation that declares bearer auth. */
  partnerHeaders: Record<string, string>;
}

/** Headers PVS reads on every route, fuzzed on every operation besides the ones it declares. */
const headersEveryRouteReads = ['authorization', 'x-request-id', 'content-type'];
/** A query parameter no operation declares. */
export const unknownQueryParameter = 'fuzzUnknown';
const methodsWithBody = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

const fakeId = (name: string) => `${name.replace(/Id$/, '').slice(0, 3).toLowerCase().padEnd(3, 'x')}_01M7YSX1AM3TXGDKX1GDD1CEXA`;

export function baselineOf(op: FuzzOperation, context: FuzzContext, realIds: boolean): Baseline {
  const path: Record<string, string> = {};
  const query: Record<string, unknown> = {};
  const headers: Record<string, string> = op.partnerAuth ? { ...context.partnerHeaders } : {};
  for (const p of op.parameters) {
    if (p.in === 'path') {
      const prefix = op.path.slice(0, op.path.indexOf(`{${p.name}}`) + p.name.length + 2);
      const real = realIds ? context.realIds(op)[prefix] : undefined;
      path[p.name] = op.fixed.path?.[p.name] ?? real ?? (p.name in context.hints ? String(context.hints[p.name]) : fakeId(p.name));
    } else if (p.in === 'query') {
      if (p.required || p.name in context.hints) query[p.name] = context.hints[p.name] ?? plausibleValue(p.schema, op.resolve, context.hints);
    } else if (p.required && headers[p.name] === undefined) {
      headers[p.name] = String(context.hints[p.name] ?? plausibleValue(p.schema, op.resolve, context.hints));
    }
  }
  Object.assign(headers, op.fixed.headers);
  const body = op.fixed.body !== undefined ? structuredClone(op.fixed.body) : op.body ? plausibleValue(op.body.schema, op.resolve, context.hints) : undefined;
  return { path, query, headers, body };
}

/** Every field and object of a body, from its schema and from the baseline value (schema-less bodies). */
function bodyLocations(op: FuzzOperation, baseline: unknown): Location[] {
  const found = new Map<string, Location>();
  const visitSchema = (schema: JsonSchema | undefined, pointer: string, depth: number) => {
    const s = op.resolve(schema);
    if (!s || depth > 4) return;
    for (const branch of branches(s).map((b) => op.resolve(b)!)) {
      if (isObjectSchema(branch)) {
        found.set(`o${pointer}`, { in: 'body-object', pointer });
        for (const [name, member] of Object.entries(propertiesOf(branch).properties)) {
          const child = `${pointer}/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`;
          found.set(`f${child}`, { in: 'body', pointer: child, schema: op.resolve(member) });
          visitSchema(member, child, depth + 1);
        }
      } else if (typesOf(branch).includes('array') && branch.items) {
        found.set(`f${pointer}/0`, { in: 'body', pointer: `${pointer}/0`, schema: op.resolve(branch.items) });
        visitSchema(branch.items, `${pointer}/0`, depth + 1);
      }
    }
  };
  const visitValue = (value: unknown, pointer: string) => {
    if (!value || typeof value !== 'object' || Array.isArray(value)) return;
    if (!found.has(`o${pointer}`)) found.set(`o${pointer}`, { in: 'body-object', pointer });
    for (const [name, member] of Object.entries(value)) {
      const child = `${pointer}/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`;
      if (!found.has(`f${child}`)) found.set(`f${child}`, { in: 'body', pointer: child });
      visitValue(member, child);
    }
  };
  if (op.body) visitSchema(op.body.schema, '', 0);
  visitValue(baseline, '');
  return [...found.values()];
}

export function locationsOf(op: FuzzOperation, baseline: Baseline): Location[] {
  const declaredHeaders = op.parameters.filter((p) => p.in === 'header').map((p) => p.name.toLowerCase());
  const locations: Location[] = [
    ...op.parameters.map((p) => ({ in: p.in, name: p.in === 'header' ? p.name.toLowerCase() : p.name, schema: op.resolve(p.schema) })),
    ...headersEveryRouteReads.filter((h) => !declaredHeaders.includes(h) && (h !== 'content-type' || !op.body)).map((name) => ({ in: 'header' as const, name })),
    { in: 'query', name: unknownQueryParameter },
  ];
  if (op.body || baseline.body !== undefined || methodsWithBody.has(op.method)) {
    locations.push(...bodyLocations(op, baseline.body), { in: 'whole-body' });
  }
  return locations;
}

function plausibleAt(op: FuzzOperation, location: Location, baseline: Baseline): unknown {
  if (location.in === 'path') return baseline.path[location.name];
  if (location.in === 'query') return baseline.query[location.name];
  if (location.in === 'header') return baseline.headers[location.name];
  if (location.in === 'body') return getAt(baseline.body, location.pointer) ?? plausibleValue(location.schema, op.resolve);
  return undefined;
}

function mutationFor(op: FuzzOperation, location: Location, baseline: Baseline): fc.Arbitrary<Mutation> {
  switch (location.in) {
    case 'whole-body':
      return fc.constantFrom(...bodyVariants).map((variant) => ({ kind: 'body', variant }));
    case 'body-object':
      return fc
        .tuple(fc.constantFrom(...unknownFieldNames), fc.oneof(fc.constant<unknown>('fuzz'), hostileValue(undefined, 'fuzz')))
        .map(([key, value]) => ({ kind: 'unknown-field', key, value }));
    default: {
      const schema = 'schema' in location ? location.schema : undefined;
      const set = fc
        .tuple(hostileValue(schema, plausibleAt(op, location, baseline)), fc.constantFrom<'percent' | 'minimal'>('percent', 'minimal'))
        .map(([value, encoding]): Mutation => ({ kind: 'set', value, encoding }));
      return fc.oneof({ arbitrary: set, weight: 9 }, { arbitrary: fc.constant<Mutation>({ kind: 'remove' }), weight: 1 });
    }
  }
}

/** The cases of one operation: which place, what happens there, real or made-up ids. */
export function caseArbitrary(op: FuzzOperation, context: FuzzContext): fc.Arbitrary<FuzzCase> {
  const hasRealId = op.parameters.some((p) => p.in === 'path' && Object.keys(context.realIds(op)).some((prefix) => op.path.startsWith(prefix)));
  return fc.boolean().chain((realIds) => {
    const useReal = realIds && hasRealId;
    const baseline = baselineOf(op, context, useReal);
    return fc
      .constantFrom(...locationsOf(op, baseline))
      .chain((location) => mutationFor(op, location, baseline).map((mutation) => ({ location, mutation, realIds: useReal })));
  });
}

/** One line saying what the case does, for failure messages. */
export function describeCase(fuzzCase: FuzzCase): string {
  const { location, mutation } = fuzzCase;
  const where =
    location.in === 'whole-body' ? 'the whole body' : location.in === 'body' ? `body ${location.pointer || '(root)'}` : location.in === 'body-object' ? `object ${location.pointer || '(root)'}` : `${location.in} ${location.name}`;
  const what =
    mutation.kind === 'remove'
      ? 'removed'
      : mutation.kind === 'body'
        ? mutation.variant.label
        : mutation.kind === 'unknown-field'
          ? `unknown field ${JSON.stringify(mutation.key)} = ${excerpt(mutation.value)}`
          : `set to ${excerpt(mutation.value)} (${mutation.encoding} encoding)`;
  return `${where}: ${what}${fuzzCase.realIds ? ' (real ids)' : ''}`;
}

export function excerpt(value: unknown, max = 120): string {
  const text = value instanceof Raw ? `raw ${value.label}` : value instanceof Entries ? `entries ${JSON.stringify(value.entries).slice(0, max)}` : JSON.stringify(value) ?? String(value);
  return text.length > max ? `${text.slice(0, max)}… (${text.length} chars)` : text;
}
