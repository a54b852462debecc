// The client sends an Idempotency-Key on exactly the operations whose description in /openapi.json declares
// the header: a create PVS deduplicates is never sent without one (a retry could make it twice), and no key
// is sent where PVS would ignore it (a retry there is not safe, and the client must not treat it as such).
// Read from the resources' sources: each call names its operation in `AnswerOf<'operationId'>`.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { createTestContext, type TestContext } from '../../test/helpers/context.ts';

const resources = fileURLToPath(new URL('../src/resources/', import.meta.url));

interface Operation {
  operationId: string;
  method: string;
  path: string;
  parameters?: Array<{ name?: string; in?: string }>;
}

/** operationId → whether the client marks the call idempotent, from every `api.request<AnswerOf<'…'>>({ … })`. */
function clientCalls(): Map<string, boolean> {
  const calls = new Map<string, boolean>();
  for (const file of readdirSync(resources).filter((f) => f.endsWith('.ts'))) {
    const source = readFileSync(path.join(resources, file), 'utf8');
    for (const match of source.matchAll(/api\.request<AnswerOf<'(\w+)'>>\(\{([\s\S]*?)\boptions \}\)/g)) {
      calls.set(match[1]!, /\bidempotent: true\b/.test(match[2]!));
    }
  }
  return calls;
}

describe('Idempotency-Key: the client and the document agree', () => {
  let t: TestContext;
  let operations: Operation[];
  before(async () => {
    t = await createTestContext();
    const document = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json<{ paths: Record<string, Record<string, Omit<Operation, 'method' | 'path'>>> }>();
    operations = Object.entries(document.paths).flatMap(([p, methods]) =>
      Object.entries(methods)
        .filter(([method]) => ['post', 'put', 'patch', 'delete'].includes(method))
        .map(([method, operation]) => ({ ...operation, method, path: p })),
    );
  });
  after(() => t?.close());

  const declaresKey = (operation: Operation) => (operation.parameters ?? []).some((p) => p.in === 'header' && p.name?.toLowerCase() === 'idempotency-key');

  it('reads the client’s calls (so the comparison below can fail)', () => {
    const calls = clientCalls();
    assert.equal(calls.get('createBusinessLookup'), true);
    assert.equal(calls.get('startDeedAnalysis'), false);
    assert.ok(calls.size > 20, `${calls.size} calls`);
  });

  it('sends a key on every operation that declares the header, and on no other', () => {
    const calls = clientCalls();
    const disagreements = operations
      .filter((operation) => operation.path.startsWith('/v1/'))
      .flatMap((operation) => {
        const declared = declaresKey(operation);
        const sent = calls.get(operation.operationId);
        if (sent === undefined) return [`${operation.operationId} (${operation.method.toUpperCase()} ${operation.path}) has no client method`];
        return sent === declared ? [] : [`${operation.operationId}: the document ${declared ? 'declares' : 'does not declare'} Idempotency-Key, the client ${sent ? 'sends' : 'does not send'} one`];
      });
    assert.deepEqual(disagreements, []);
  });

  it('names in docs/conventions.md exactly the paths that take a key', () => {
    const conventions = readFileSync(fileURLToPath(new URL('../../docs/conventions.md', import.meta.url)), 'utf8');
    const section = conventions.slice(conventions.indexOf('## Idempotency'), conventions.indexOf('## Rate limits'));
    const listed = new Set([...section.matchAll(/`POST (\/v1\/[^`]+)`|`(\/v1\/[^`]+)`/g)].map((m) => m[1] ?? m[2]));
    const declared = new Set(operations.filter(declaresKey).map((operation) => operation.path));
    assert.deepEqual([...listed].sort(), [...declared].sort());
  });
});
