// Every request schema in the served OpenAPI documents (the partner's and the operators') bounds its sizes: each string declares maxLength and
// each array maxItems, in bodies, query strings, path parameters and headers. The edge's backstops
// (input-guard.ts: 64 Ki characters, 1 000 items) stop what no schema could mean; the schema is where a
// field says what it means, and what a partner's client reads. A value with no type at all (any JSON) is
// unbounded too. A string limited by enum or const needs no maxLength. And a string with a pattern says in
// words (x-message) what the pattern asks for.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { createTestContext, type TestContext } from '../helpers/context.ts';

type Schema = Record<string, unknown>;

let t: TestContext;
type Document = { paths?: Record<string, Record<string, unknown>> };
const documents = new Map<string, Document>();
/** The document being walked: `#/…` references resolve in it. */
let document: Document;

before(async () => {
  t = await createTestContext();
  for (const url of ['/openapi.json', '/ops/openapi.json']) {
    const response = await t.app.inject({ method: 'GET', url });
    assert.equal(response.statusCode, 200, url);
    documents.set(url, response.json());
  }
});
after(() => t.close());

const escape = (part: string) => part.replace(/~/g, '~0').replace(/\//g, '~1');
const methods = new Set(['get', 'put', 'post', 'delete', 'patch', 'options']);

function at(pointer: string): unknown {
  return pointer
    .slice(2)
    .split('/')
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], document);
}

/** Unbounded strings and arrays under `schema`, each as the document pointer where it is declared. */
function unbounded(schema: unknown, pointer: string, found: Map<string, string>, visiting = new Set<string>()): void {
  if (!schema || typeof schema !== 'object') return;
  const s = schema as Schema;
  if (typeof s.$ref === 'string') {
    if (!s.$ref.startsWith('#/') || visiting.has(s.$ref)) return;
    unbounded(at(s.$ref), s.$ref, found, new Set([...visiting, s.$ref]));
    return;
  }
  const types = s.type === undefined ? [] : [s.type].flat();
  const limited = s.enum !== undefined || s.const !== undefined;
  const composite = ['anyOf', 'oneOf', 'allOf', 'properties', 'items'].some((k) => k in s);
  if (!limited && types.length === 0 && !composite) found.set(pointer, 'has no type: any JSON value, so strings and arrays of any size');
  if (!limited && types.includes('string') && typeof s.maxLength !== 'number') found.set(pointer, 'is a string without maxLength');
  if (types.includes('array') && typeof s.maxItems !== 'number') found.set(pointer, 'is an array without maxItems');
  // A pattern a value fails is answered in the schema's words (validation.ts), never as the expression.
  if (typeof s.pattern === 'string' && typeof s['x-message'] !== 'string') found.set(pointer, 'has a pattern without x-message, so a refusal would quote the expression');

  for (const key of ['anyOf', 'oneOf', 'allOf', 'prefixItems'] as const) {
    (s[key] as unknown[] | undefined)?.forEach((member, i) => unbounded(member, `${pointer}/${key}/${i}`, found, visiting));
  }
  for (const key of ['properties', 'patternProperties'] as const) {
    for (const [name, member] of Object.entries((s[key] as Record<string, unknown> | undefined) ?? {})) unbounded(member, `${pointer}/${key}/${escape(name)}`, found, visiting);
  }
  if (s.items && typeof s.items === 'object') unbounded(s.items, `${pointer}/items`, found, visiting);
  if (s.additionalProperties && typeof s.additionalProperties === 'object') unbounded(s.additionalProperties, `${pointer}/additionalProperties`, found, visiting);
}

it('bounds every string (maxLength) and array (maxItems) of every request schema, and words every pattern', () => {
  const offenders = new Map<string, { problem: string; operations: Set<string> }>();
  let checked = 0;
  for (const walked of documents.values()) {
    document = walked;
    for (const [path, item] of Object.entries(document.paths ?? {})) {
      for (const [method, operation] of Object.entries(item).filter(([m]) => methods.has(m))) {
        const op = operation as { parameters?: Array<{ in: string; name: string; schema?: unknown }>; requestBody?: { content?: Record<string, { schema?: unknown }> } };
        const base = `#/paths/${escape(path)}/${method}`;
        const found = new Map<string, string>();
        // A parameter is usually declared once and shared (X-Partner-Id on every /v1 operation): named by
        // where and what it is, with the operations listed, rather than once per operation.
        (op.parameters ?? []).forEach((p) => unbounded(p.schema ?? {}, `${p.in} parameter ${p.name}`, found));
        for (const [type, media] of Object.entries(op.requestBody?.content ?? {})) unbounded(media.schema ?? {}, `${base}/requestBody/content/${escape(type)}/schema`, found);
        checked++;
        for (const [pointer, problem] of found) {
          const entry = offenders.get(pointer) ?? { problem, operations: new Set<string>() };
          entry.operations.add(`${method.toUpperCase()} ${path}`);
          offenders.set(pointer, entry);
        }
      }
    }
  }
  assert.ok(checked >= 10, `only ${checked} operations found in /openapi.json and /ops/openapi.json`);
  const list = [...offenders].sort(([a], [b]) => a.localeCompare(b)).map(([pointer, { problem, operations }]) => {
    const shared = pointer.startsWith('#/paths/') ? '' : ` (${operations.size === 1 ? [...operations][0] : `on ${operations.size} operations: ${[...operations].slice(0, 3).join(', ')}…`})`;
    return `  ${pointer} ${problem}${shared}`;
  });
  assert.equal(list.length, 0, `${list.length} request schema(s) without a size bound:\n${list.join('\n')}`);
});

it('finds what it looks for: an unbounded string, array and untyped value, and a pattern without words, are reported', () => {
  const found = new Map<string, string>();
  unbounded(
    {
      type: 'object',
      properties: {
        a: { type: 'string' },
        b: { type: 'array', items: { type: 'string', maxLength: 5 } },
        c: {},
        d: { type: 'string', enum: ['X'] },
        e: { anyOf: [{ type: 'string', maxLength: 3 }, { type: 'null' }] },
        f: { type: 'string', maxLength: 9, pattern: '^[0-9]+$' },
        g: { type: 'string', maxLength: 9, pattern: '^[0-9]+$', 'x-message': 'must be digits' },
      },
    },
    '#',
    found,
  );
  assert.deepEqual([...found.keys()].sort(), ['#/properties/a', '#/properties/b', '#/properties/c', '#/properties/f']);
});
