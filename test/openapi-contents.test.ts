// What the partner's document says beyond the routes' own schemas (src/platform/http/openapi-partner.ts):
// the webhooks, built from the event catalogue; the closed list of problem codes, the same as errors.ts
// and docs/errors.md; an example on every request body, success answer and parameter, valid against its
// schema, and a problem example of each status an operation answers; every tag declared; and the
// rate-limit headers and 401/429/500 answers of /v1. That the request body examples are accepted as they
// are is test/openapi-examples.test.ts.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { OpenAPIV3_1 } from 'openapi-types';
import { exampleDelivery } from '../src/modules/webhooks/events/example.ts';
import { eventCatalogue } from '../src/modules/webhooks/events/index.ts';
import { errorCatalogue, errorCodes, type ErrorCode } from '../src/platform/errors.ts';
import { pathIdKind } from '../src/platform/http/openapi-examples.ts';
import { idPrefixes } from '../src/platform/ids.ts';
import { createTestContext, type TestContext } from './helpers/context.ts';

type Json = Record<string, unknown>;
type Media = { schema?: unknown; example?: unknown; examples?: unknown };
type Operation = {
  operationId?: string;
  tags?: string[];
  requestBody?: { required?: boolean; content?: Record<string, Media> };
  responses?: Record<string, { headers?: Json; content?: Record<string, Media> }>;
  parameters?: Json[];
  security?: unknown[];
};

let t: TestContext;
let doc: OpenAPIV3_1.Document;
let validate: (schema: unknown, value: unknown) => string | undefined;

before(async () => {
  t = await createTestContext();
  const res = await t.app.inject({ method: 'GET', url: '/openapi.json' });
  assert.equal(res.statusCode, 200);
  doc = res.json();
  // The document's schemas are JSON Schema 2020-12 (OpenAPI 3.1); its `$ref`s point into its components.
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  ajv.addSchema({ $id: 'https://pvs.test/openapi.json', components: doc.components });
  validate = (schema, value) => {
    const check = ajv.compile(rebased(schema));
    return check(value) ? undefined : ajv.errorsText(check.errors);
  };
});
after(() => t.close());

/** `schema` with its `#/components/…` references made absolute, so that it compiles on its own. */
function rebased(schema: unknown): Json {
  return JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"https://pvs.test/openapi.json#/components/')) as Json;
}

function operations(): Array<{ where: string; path: string; operation: Operation }> {
  return Object.entries(doc.paths ?? {}).flatMap(([path, item]) => Object.entries(item ?? {}).map(([method, operation]) => ({ where: `${method} ${path}`, path, operation: operation as Operation })));
}

const json = (content: Record<string, Media> | undefined) => Object.entries(content ?? {}).filter(([type]) => /^application\/(json|x-www-form-urlencoded)$/.test(type));

describe('webhooks', () => {
  it('has one POST per event type of the catalogue, in its order', () => {
    const webhooks = (doc as unknown as { webhooks: Record<string, { post: Operation }> }).webhooks;
    assert.deepEqual(Object.keys(webhooks), eventCatalogue.map((definition) => definition.type));
    for (const definition of eventCatalogue) assert.ok(webhooks[definition.type]!.post, definition.type);
  });

  it('gives each the body that is delivered: the envelope around the exact payload schema emit validates against', () => {
    const webhooks = (doc as unknown as { webhooks: Record<string, { post: Operation }> }).webhooks;
    for (const definition of eventCatalogue) {
      const media = webhooks[definition.type]!.post.requestBody!.content!['application/json']!;
      const schema = media.schema as { properties: Json; required: string[]; additionalProperties: boolean };
      const payload = JSON.parse(JSON.stringify(definition.payload)) as { properties: Json; required?: string[] };
      const { type, eventId, occurredAt, test, ...own } = schema.properties;
      assert.ok(type && eventId && occurredAt && test, definition.type);
      // The document adds integer formats; otherwise the payload's fields are the catalogue's, unchanged.
      assert.deepEqual(JSON.parse(JSON.stringify(own).replace(/,"format":"int(32|64)"/g, '')), payload.properties, definition.type);
      assert.deepEqual(schema.required, ['type', 'eventId', ...(payload.required ?? []), 'occurredAt'], definition.type);
      assert.equal(schema.additionalProperties, false);
      assert.deepEqual(media.example, exampleDelivery(definition), `${definition.type}: the example of docs/events.md`);
      assert.equal(validate(media.schema, media.example), undefined, definition.type);
    }
  });

  it('documents the signature headers and the 2xx a receiver answers', () => {
    const webhooks = (doc as unknown as { webhooks: Record<string, { post: Operation }> }).webhooks;
    for (const [type, { post }] of Object.entries(webhooks)) {
      const headers = Object.fromEntries((post.parameters ?? []).map((p) => [p.name, p]));
      for (const name of ['x-timestamp', 'x-signature', 'x-event-id', 'x-notification-id']) assert.equal(headers[name]?.required, true, `${type}: ${name}`);
      assert.equal(headers['x-signature-previous']?.required, false, type);
      assert.ok(post.responses?.['2XX'], type);
    }
  });
});

describe('Problem.code', () => {
  const problemCodes = () => ((doc.components?.schemas?.Problem as { properties: { code: { enum: string[] } } }).properties.code.enum);

  it('is the closed list of errors.ts', () => {
    assert.deepEqual(problemCodes(), errorCodes);
  });

  it('lists every code docs/errors.md documents, and docs/errors.md documents every one', () => {
    const documented = readFileSync(new URL('../docs/errors.md', import.meta.url), 'utf8')
      .split('\n')
      .map((line) => /^\| ([A-Z_]+(?:, [A-Z_]+)*) \| \d{3} \|/.exec(line)?.[1])
      .filter((cell): cell is string => cell !== undefined)
      .flatMap((cell) => cell.split(', '));
    assert.ok(documented.length > 20, `only ${documented.length} codes read from docs/errors.md`);
    assert.deepEqual([...documented].sort(), [...problemCodes()].sort());
  });
});

describe('examples', () => {
  it('every JSON request body and success answer has one, valid against its schema', () => {
    let checked = 0;
    for (const { where, operation } of operations()) {
      const successes = Object.entries(operation.responses ?? {}).filter(([status]) => status.startsWith('2'));
      for (const [what, content] of [['request body', operation.requestBody?.content], ...successes.map(([status, answer]) => [status, answer.content] as const)] as const) {
        for (const [type, media] of json(content)) {
          assert.ok('example' in media || 'examples' in media, `${where} ${what} ${type} has no example`);
          assert.equal(validate(media.schema, media.example), undefined, `${where} ${what}: ${JSON.stringify(media.example)}`);
          checked += 1;
        }
      }
    }
    assert.ok(checked > 80, `only ${checked} examples checked`);
  });
});

describe('parameter examples', () => {
  it('every parameter has one, valid against its schema; a path id has the prefix of the collection it names', () => {
    let checked = 0;
    for (const { where, path, operation } of operations()) {
      for (const parameter of operation.parameters ?? []) {
        const what = `${where} ${String(parameter.in)} ${String(parameter.name)}`;
        assert.ok('example' in parameter, `${what} has no example`);
        assert.equal(validate(parameter.schema, parameter.example), undefined, `${what}: ${JSON.stringify(parameter.example)}`);
        const kind = parameter.in === 'path' ? pathIdKind(path, String(parameter.name)) : undefined;
        if (kind) assert.match(String(parameter.example), new RegExp(`^${idPrefixes[kind]}_[0-9A-Z]{26}$`), what);
        checked += 1;
      }
    }
    assert.ok(checked > 100, `only ${checked} parameters checked`);
  });

  it('leaves the page parameters optional: they have defaults', () => {
    const lists = operations().filter(({ operation }) => operation.parameters?.some((p) => p.in === 'query' && p.name === 'limit'));
    assert.ok(lists.length >= 8, `only ${lists.length} list operations`);
    for (const { where, operation } of lists) {
      for (const name of ['limit', 'from']) {
        const parameter = operation.parameters!.find((p) => p.in === 'query' && p.name === name)!;
        assert.notEqual(parameter.required, true, `${where} ${name}`);
        assert.equal(typeof (parameter.schema as Json).default, 'number', `${where} ${name}`);
      }
    }
  });
});

describe('problem examples', () => {
  const problemMedia = (operation: Operation, status: string) => operation.responses?.[status]?.content?.['application/problem+json'];
  const examplesOf = (media: Media | undefined) => Object.entries((media?.examples ?? {}) as Record<string, { summary: string; value: Json }>);

  it('show, for each problem answer, bodies of the Problem schema whose code and status agree with the error table', () => {
    let checked = 0;
    for (const { where, operation } of operations()) {
      for (const status of Object.keys(operation.responses ?? {})) {
        const media = problemMedia(operation, status);
        if (!media) continue;
        const examples = examplesOf(media);
        // A public operation that takes nothing (health, the JWKS) names no refusal of its own.
        if (status === '4XX' && examples.length === 0 && !where.includes(' /v1/') && !operation.requestBody) continue;
        assert.ok(examples.length > 0, `${where} ${status} has no example problem`);
        for (const [key, { summary, value }] of examples) {
          const code = value.code as ErrorCode;
          assert.equal(key, code, `${where} ${status}`);
          assert.equal(value.status, errorCatalogue[code].status, `${where} ${status} ${code}`);
          assert.equal(summary, `${errorCatalogue[code].status} ${code}`);
          assert.equal(value.title, errorCatalogue[code].title);
          assert.ok(/^[45]XX$/.test(status) ? String(value.status).startsWith(status[0]!) : String(value.status) === status, `${where} ${status}: ${code}`);
          assert.equal(validate(media.schema, value), undefined, `${where} ${status} ${code}`);
          checked += 1;
        }
      }
    }
    assert.ok(checked > 300, `only ${checked} problem examples`);
  });

  it('show a 400 with its pointer where there is input, a 403 PARTNER_MISMATCH on /v1, and a 404 where the path names a resource', () => {
    for (const { where, path, operation } of operations().filter((o) => o.path.startsWith('/v1/'))) {
      const codes = Object.fromEntries(examplesOf(problemMedia(operation, '4XX')).map(([code, { value }]) => [code, value]));
      assert.ok(codes.PARTNER_MISMATCH, `${where}: PARTNER_MISMATCH`);
      if (json(operation.requestBody?.content).length > 0) {
        const errors = codes.VALIDATION_ERROR?.errors as Array<{ pointer: string }> | undefined;
        assert.match(errors?.[0]?.pointer ?? '', /^\/\w+/, `${where}: a 400 with a pointer into the body`);
      }
      if (/\{(id|individualId|paymentId|notificationId)\}/.test(path)) {
        assert.match(String(codes.NOT_FOUND?.detail), /^[A-Z][\w ]+ [a-z]{3}_01JD0{22} was not found$/, `${where}: 404`);
      }
    }
    const ownership = problemMedia(doc.paths!['/v1/business-lookups/{id}/ownership']!.get as Operation, '429');
    assert.deepEqual(examplesOf(ownership).map(([code]) => code), ['RATE_LIMITED', 'READ_BUDGET_EXHAUSTED']);
    const links = problemMedia(doc.paths!['/v1/verifications/{id}/links']!.post as Operation, '4XX');
    assert.deepEqual(examplesOf(links).map(([code]) => code), ['VALIDATION_ERROR', 'PARTNER_MISMATCH', 'NOT_FOUND', 'STRUCTURE_NOT_CONFIRMED', 'INVALID_STATE']);
  });
});

describe('tags', () => {
  it('declares every tag an operation uses, once, with a description', () => {
    const declared = (doc.tags ?? []).map((tag) => tag.name);
    assert.equal(new Set(declared).size, declared.length, declared.join(', '));
    for (const tag of doc.tags ?? []) assert.ok(tag.description && tag.description.length > 10, tag.name);
    const used = new Set(operations().flatMap(({ operation }) => operation.tags ?? []));
    for (const tag of used) assert.ok(declared.includes(tag), `${tag} is used but not declared`);
    assert.deepEqual(declared.filter((tag) => !used.has(tag) && tag !== 'events'), [], 'declared but used by no operation');
  });
});

describe('POST /v1/webhook-notifications/test', () => {
  it('takes type and variant one way: a JSON body that requires both', () => {
    const operation = doc.paths!['/v1/webhook-notifications/test']!.post as Operation;
    assert.deepEqual(operation.parameters?.filter((p) => p.in === 'query') ?? [], []);
    assert.equal(operation.requestBody?.required, true);
    assert.deepEqual((operation.requestBody?.content?.['application/json']?.schema as { required: string[] }).required, ['type', 'variant']);
  });
});

describe('descriptions', () => {
  it('link each guide they cite once: no link is wrapped in another', () => {
    const descriptions: string[] = [];
    const walk = (value: unknown): void => {
      if (Array.isArray(value)) value.forEach(walk);
      else if (value && typeof value === 'object') {
        for (const [key, member] of Object.entries(value)) {
          if (key === 'description' && typeof member === 'string') descriptions.push(member);
          else walk(member);
        }
      }
    };
    walk(doc);
    assert.deepEqual(descriptions.filter((text) => text.includes('[[')), []);
  });
});

describe('/v1 answers', () => {
  it('document the rate-limit headers on every 2xx and 4xx but the 401, and a 401, 429 and 500 problem', () => {
    const partnerOperations = operations().filter((o) => o.path.startsWith('/v1/'));
    assert.ok(partnerOperations.length > 40);
    for (const { where, operation } of partnerOperations) {
      const responses = operation.responses ?? {};
      for (const status of ['401', '429', '500']) assert.ok(responses[status]?.content?.['application/problem+json'], `${where} ${status}`);
      assert.ok(responses['429']!.headers?.['Retry-After'], `${where} 429 Retry-After`);
      for (const [status, answer] of Object.entries(responses).filter(([status]) => /^[24]/.test(status) && status !== '401')) {
        assert.deepEqual(Object.keys(answer.headers ?? {}).filter((name) => name.startsWith('RateLimit-')), ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'RateLimit-Policy'], `${where} ${status}`);
      }
      assert.equal(responses['401']!.headers, undefined, `${where}: a 401 is answered before the partner's bucket is known`);
    }
  });
});
