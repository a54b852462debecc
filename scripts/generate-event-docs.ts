// Writes docs/events.md, the partner's reference of every webhook event, from the event catalogue
// (src/modules/webhooks/events/). The reference is never edited by hand: test/webhooks/catalogue.test.ts
// fails when the file differs from what this script writes now.
//
//   npm run docs:events            rewrite docs/events.md
//   npm run docs:events -- --check exit 1 when docs/events.md is out of date
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Kind, KindGuard, type TSchema } from '@sinclair/typebox';
import type { EventDefinition } from '../src/platform/outbox.ts';
import { exampleDelivery } from '../src/modules/webhooks/events/example.ts';
import { categories, categoryDescriptions, eventCatalogue } from '../src/modules/webhooks/events/index.ts';

export const eventDocsPath = fileURLToPath(new URL('../docs/events.md', import.meta.url));


export interface FieldRow {
  name: string;
  type: string;
  required: boolean;
  description: string;
}

const code = (text: string) => `\`${text}\``;
const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

function isNullable(schema: TSchema): TSchema | undefined {
  if (!KindGuard.IsUnion(schema)) return undefined;
  const others = schema.anyOf.filter((s) => !KindGuard.IsNull(s));
  return others.length === 1 && others.length < schema.anyOf.length ? others[0] : undefined;
}

function constraints(schema: TSchema): string[] {
  const notes: string[] = [];
  if (typeof schema.format === 'string') notes.push(schema.format === 'date-time' ? 'ISO-8601 date-time' : schema.format);
  if (typeof schema.pattern === 'string') notes.push(`pattern ${code(schema.pattern)}`);
  if (typeof schema.minimum === 'number') notes.push(`≥ ${schema.minimum}`);
  if (typeof schema.maximum === 'number') notes.push(`≤ ${schema.maximum}`);
  if (typeof schema.maxProperties === 'number') notes.push(`at most ${schema.maxProperties} keys`);
  if (schema.uniqueItems === true) notes.push('no duplicates');
  return notes;
}

/** A type written for a reader: `string (ISO-8601 date-time)`, one of `A`, `B`, `object or null` … */
function typeName(schema: TSchema): string {
  const inner = isNullable(schema);
  if (inner) return `${typeName(inner)} or null`;
  const notes = constraints(schema);
  const withNotes = (name: string) => (notes.length > 0 ? `${name} (${notes.join(', ')})` : name);
  if (KindGuard.IsLiteral(schema)) return `${code(String(schema.const))} (always)`;
  if (KindGuard.IsUnion(schema) && schema.anyOf.every((s) => KindGuard.IsLiteral(s))) {
    return `one of ${schema.anyOf.map((s) => code(String(s.const))).join(', ')}`;
  }
  if (KindGuard.IsString(schema)) return withNotes('string');
  if (KindGuard.IsInteger(schema)) return withNotes('integer');
  if (KindGuard.IsNumber(schema)) return withNotes('number');
  if (KindGuard.IsBoolean(schema)) return 'boolean';
  if (KindGuard.IsRecord(schema)) {
    const values = Object.values(schema.patternProperties as Record<string, TSchema>)[0];
    return withNotes(`object of ${values ? typeName(values) : 'any'} values`);
  }
  if (KindGuard.IsObject(schema)) return 'object';
  if (KindGuard.IsArray(schema)) return withNotes(`array of ${itemsName(schema.items)}`);
  throw new Error(`No reader's name for a schema of kind ${String(schema[Kind])}`);
}

/** What an array holds: `objects`, `strings`, `` `A`, `B` or `C` ``. */
function itemsName(items: TSchema): string {
  if (KindGuard.IsObject(items)) return 'objects';
  if (KindGuard.IsUnion(items) && items.anyOf.every((s) => KindGuard.IsLiteral(s))) {
    const values = items.anyOf.map((s) => code(String(s.const)));
    return `${values.slice(0, -1).join(', ')} or ${values.at(-1)}`;
  }
  const name = typeName(items);
  return /^(string|integer|number|boolean)$/.test(name) ? `${name}s` : name;
}

/** One row per field; nested object fields follow their parent as `parent.field` or `parent[].field`. */
export function fieldRows(object: TSchema, prefix = ''): FieldRow[] {
  if (!KindGuard.IsObject(object)) return [];
  const required = new Set(object.required ?? []);
  return Object.entries(object.properties).flatMap(([name, schema]) => {
    const path = `${prefix}${name}`;
    const own: FieldRow = { name: path, type: typeName(schema), required: required.has(name), description: (schema.description as string | undefined) ?? '' };
    const value = isNullable(schema) ?? schema;
    const nested = KindGuard.IsObject(value) ? fieldRows(value, `${path}.`) : KindGuard.IsArray(value) ? fieldRows(value.items, `${path}[].`) : [];
    return [own, ...nested];
  });
}

function table(list: FieldRow[]): string[] {
  return [
    '| Field | Type | Required | Description |',
    '|---|---|---|---|',
    ...list.map((r) => `| ${code(r.name)} | ${cell(r.type)} | ${r.required ? 'required' : 'optional'} | ${cell(r.description)} |`),
  ];
}

/** GitHub's heading anchor: lower case, punctuation other than `-` and `_` dropped. */
function anchor(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^a-z0-9 _-]/g, '')
    .replace(/ /g, '-');
}

/** How to ask for a sample of the type: `monitoring.alert.created` → `monitoring` + `alert_created`. */
function testParameters(type: string): { type: string; variant: string } {
  const [prefix, ...rest] = type.split('.');
  return { type: prefix!, variant: rest.join('_') };
}

/** The exact bytes delivered, with the fixed envelope of example.ts (the OpenAPI document shows the same bodies). */
function exampleBody(definition: EventDefinition): string {
  return JSON.stringify(exampleDelivery(definition));
}

function eventSection(definition: EventDefinition): string[] {
  const sample = testParameters(definition.type);
  return [
    `### ${definition.type}`,
    '',
    definition.description ?? '',
    '',
    ...(definition.sealed
      ? [
          'Delivered once: the body is held encrypted only until it is delivered (at most 33 hours). Delivery history shows `payload: null`, and a manual retry answers 410 `PAYLOAD_EXPIRED`.',
          '',
        ]
      : []),
    ...table(fieldRows(definition.payload)),
    '',
    `Example body, exactly as delivered (a sample: \`POST /v1/webhook-notifications/test\` with \`{"type": "${sample.type}", "variant": "${sample.variant}"}\`):`,
    '',
    '```json',
    exampleBody(definition),
    '```',
    '',
  ];
}

export function renderEventDocs(catalogue: readonly EventDefinition[] = eventCatalogue): string {
  const byCategory = categories.map((category) => ({ category, events: catalogue.filter((d) => d.category === category) }));
  const lines = [
    '# Webhook events',
    '',
    '<!-- Generated by scripts/generate-event-docs.ts from src/modules/webhooks/events/ (`npm run docs:events`). Do not edit by hand. -->',
    '',
    'Every event PVS sends, by category: when it is sent, its fields and an example body. How deliveries are signed, retried and',
    'de-duplicated is in [webhooks.md](webhooks.md).',
    '',
    'Every body is one flat JSON object (there is no `data` wrapper). Besides the fields of its type, every event carries:',
    '',
    ...table([
      { name: 'type', type: 'string', required: true, description: 'The event type. Branch on it, and ignore types you do not know: new types may be added.' },
      {
        name: 'eventId',
        type: 'string',
        required: true,
        description: 'The event (`evt_…`). The same on every retry, manual retry and destination: de-duplicate on it. Also in the `x-event-id` header.',
      },
      { name: 'occurredAt', type: 'string (ISO-8601 date-time)', required: true, description: 'When it happened (UTC, milliseconds).' },
      { name: 'test', type: '`true` (always)', required: false, description: 'Present only on samples sent by `POST /v1/webhook-notifications/test`.' },
    ]),
    '',
    'In the tables, a nested field (`entity.name`, `parties[].role`) is required when its parent is present. A field that is',
    '"or null" is always present, with null when there is no value; an optional field may be absent. No event carries a field',
    'that is not listed.',
    '',
    '| Category | What it holds | Events |',
    '|---|---|---|',
    ...byCategory.map(
      ({ category, events }) =>
        `| ${code(category)} | ${cell(categoryDescriptions[category])} | ${events.map((d) => `[${d.type}](#${anchor(d.type)})`).join(', ')} |`,
    ),
    '',
    ...byCategory.flatMap(({ category, events }) => [`## ${category}`, '', categoryDescriptions[category], '', ...events.flatMap(eventSection)]),
  ];
  return `${lines.join('\n').replace(/\n{3,}/g, '\n\n').trimEnd()}\n`;
}

function main(): void {
  const rendered = renderEventDocs();
  if (process.argv.includes('--check')) {
    let current = '';
    try {
      current = readFileSync(eventDocsPath, 'utf8');
    } catch {
      // A missing file is out of date like any other.
    }
    if (current !== rendered) {
      console.error('docs/events.md is out of date: run `npm run docs:events`');
      process.exit(1);
    }
    console.log('docs/events.md is up to date');
    return;
  }
  writeFileSync(eventDocsPath, rendered);
  console.log(`wrote ${eventDocsPath} (${eventCatalogue.length} event types)`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) main();
