// docs/collections/pvs.postman_collection.json, the Postman collection partners import: exactly what
// scripts/generate-collection.ts writes now, shaped as partners need it (variables, the token script, the
// headers), and a few of its requests run by newman against a started PVS, as a partner would run them.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
// @ts-expect-error newman 6 ships no types; the little this file uses is typed below (Newman).
import untypedNewman from 'newman';
import { checkCollection, collectionPath, regenerateCommand } from '../scripts/generate-collection.ts';
import { createTestContext, type TestContext, type TestPartner } from './helpers/context.ts';
import { backend } from './helpers/database.ts';

// Neither the document nor a run of the collection depends on the database: the drift check and the run are
// in the PostgreSQL pass only; the file's shape is checked in both.
const pgliteSkip = backend === 'pglite' && 'PostgreSQL pass only';

interface Header { key: string; value: string; disabled?: boolean }
interface Request { method: string; url: { path: string[]; host: string[]; raw: string }; header: Header[]; auth?: { type: string }; body?: { raw?: string } }
interface Item { name: string; item?: Item[]; request?: Request; id?: string }
interface Collection { info: Record<string, unknown>; item: Item[]; auth: { type: string; oauth2: Header[] }; variable: Header[]; event: unknown[] }

interface HeaderList { get(name: string): string | undefined }
interface RunRequest { method: string; url: { getPath(): string }; headers: HeaderList }
interface Execution { item: { name: string }; request: RunRequest; response?: { code: number; text(): string } }
interface Summary { run: { executions: Execution[]; failures: Array<{ error: { message: string } }> } }
interface Newman {
  run(
    options: { collection: Collection; reporters: string[]; timeoutRequest?: number },
    done: (error: Error | null, summary: Summary) => void,
  ): { on(event: 'request', listener: (error: Error | null, args: { request: RunRequest }) => void): void };
}
const newman = untypedNewman as Newman;

const committed = (): Collection => JSON.parse(readFileSync(collectionPath, 'utf8')) as Collection;

function requests(items: Item[]): Item[] {
  return items.flatMap((item) => (item.item ? requests(item.item) : [item]));
}

const operation = (item: Item) => `${item.request!.method} /${item.request!.url.path.join('/')}`;

describe('the committed collection', () => {
  it('is what the generator writes now', { skip: pgliteSkip }, async () => {
    const check = await checkCollection();
    if (!check.upToDate) {
      assert.fail(`docs/collections/pvs.postman_collection.json is out of date from line ${check.line} (run \`${regenerateCommand}\`):\n  on disk:   ${check.onDisk}\n  generated: ${check.generated}`);
    }
  });

  it('has no generated ids, and every URL is based on {{baseUrl}}', () => {
    const collection = committed();
    assert.equal(collection.info._postman_id, undefined);
    assert.doesNotMatch(readFileSync(collectionPath, 'utf8'), /"(_postman_id|id)":/);
    for (const item of requests(collection.item)) {
      assert.deepEqual(item.request!.url.host, ['{{baseUrl}}'], operation(item));
      assert.ok(item.request!.url.raw.startsWith('{{baseUrl}}/'), operation(item));
    }
  });

  it('asks for baseUrl, the credentials and the partner id, with the sandbox as the default address', () => {
    const values = Object.fromEntries(committed().variable.map((v) => [v.key, v.value]));
    assert.deepEqual(
      { baseUrl: values.baseUrl, clientId: values.clientId, clientSecret: values.clientSecret, partnerId: values.partnerId },
      { baseUrl: 'http://localhost:3000', clientId: '', clientSecret: '', partnerId: '' },
    );
  });

  it('authenticates /v1 with OAuth 2.0 client credentials at {{baseUrl}}/oauth2/token, and nothing else', () => {
    const collection = committed();
    const auth = Object.fromEntries(collection.auth.oauth2.map((p) => [p.key, p.value]));
    assert.equal(collection.auth.type, 'oauth2');
    assert.equal(auth.grant_type, 'client_credentials');
    assert.equal(auth.accessTokenUrl, '{{baseUrl}}/oauth2/token');
    assert.equal(auth.scope, 'channel-partner-api/server');
    assert.equal(auth.accessToken, '{{accessToken}}', 'the pre-request script fills it');
    for (const item of requests(collection.item)) {
      const isV1 = item.request!.url.path[0] === 'v1';
      // No auth of its own on /v1: it inherits the collection's.
      assert.equal(item.request!.auth?.type, isV1 ? undefined : 'noauth', operation(item));
    }
  });

  it('sends X-Partner-Id on every /v1 request, and a fresh Idempotency-Key where one is taken', () => {
    const all = requests(committed().item);
    let keys = 0;
    for (const item of all) {
      const headers = item.request!.header;
      const partner = headers.find((h) => h.key.toLowerCase() === 'x-partner-id');
      if (item.request!.url.path[0] === 'v1') assert.deepEqual([partner?.key, partner?.value, partner?.disabled ?? false], ['X-Partner-Id', '{{partnerId}}', false], operation(item));
      else assert.equal(partner, undefined, operation(item));
      const key = headers.find((h) => h.key.toLowerCase() === 'idempotency-key');
      if (key) {
        keys += 1;
        assert.deepEqual([key.key, key.value, key.disabled ?? false], ['Idempotency-Key', '{{$guid}}', false], operation(item));
      }
    }
    assert.ok(keys >= 8, `${keys} requests take an Idempotency-Key`);
  });
});

// Requests that need nothing made before them, in the order a partner trying the API might send them, with
// the document's example bodies as they are (test/openapi-examples.test.ts sends every one).
const chosen = [
  'GET /health',
  'POST /oauth2/token',
  'GET /v1/channel-partners/me',
  'POST /v1/contacts',
  'GET /v1/contacts',
  'POST /v1/business-lookups',
  'GET /v1/business-lookups',
  'POST /v1/verifications',
  'POST /v1/payments',
  'POST /v1/webhook-destinations',
  'GET /v1/webhook-destinations',
];

describe('a run of the collection with newman', { skip: pgliteSkip }, () => {
  let t: TestContext;
  let partner: TestPartner;
  let baseUrl: string;

  before(async () => {
    t = await createTestContext();
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    partner = await t.f.partner();
  });
  after(() => t?.close());

  it('answers 2xx to each chosen request, with one token fetched and reused', async () => {
    const collection = committed();
    const byOperation = new Map(requests(collection.item).map((item) => [operation(item), item]));
    collection.item = chosen.map((key) => {
      const item = byOperation.get(key);
      assert.ok(item, `the collection has ${key}`);
      return item;
    });
    const overrides: Record<string, string> = { baseUrl, clientId: partner.clientId, clientSecret: partner.clientSecret, partnerId: partner.partnerId };
    for (const variable of collection.variable) variable.value = overrides[variable.key] ?? variable.value;

    // Every request newman sends, the token script's included (newman's executions hold the collection's only).
    const sent: string[] = [];
    const summary = await new Promise<Summary>((resolve, reject) => {
      newman
        .run({ collection, reporters: [], timeoutRequest: 30_000 }, (error, result) => (error ? reject(error) : resolve(result)))
        .on('request', (_error, { request }) => sent.push(`${request.method} ${request.url.getPath()}`));
    });

    assert.deepEqual(summary.run.failures.map((f) => f.error.message), []);
    // newman files the token script's request under the cursor of the request it ran before, in the same
    // execution object, which it then pushes a second time: one entry per object is one per request run.
    const executions = [...new Set(summary.run.executions)];
    assert.deepEqual(executions.map((e) => `${e.request.method} ${e.request.url.getPath()}`), chosen);
    for (const execution of executions) {
      const code = execution.response?.code ?? 0;
      // Never the token endpoint's body in a failure message: it is a credential.
      const body = execution.item.name.startsWith('Exchange') ? '' : `: ${execution.response?.text().slice(0, 500)}`;
      assert.ok(code >= 200 && code < 300, `${execution.item.name} answered ${code}${body}`);
    }

    // The script fetched one token, just before the first request that needs one (not before the public
    // ones), and every later request reused it.
    const expected = [...chosen];
    expected.splice(chosen.findIndex((key) => key.includes(' /v1/')), 0, 'POST /oauth2/token');
    assert.deepEqual(sent, expected);
    const v1 = executions.filter((e) => e.request.url.getPath().startsWith('/v1/'));
    const bearers = new Set(v1.map((e) => e.request.headers.get('Authorization')));
    assert.equal(bearers.size, 1, 'one token for every /v1 request');
    assert.match([...bearers][0] ?? '', /^Bearer [\w-]+\.[\w-]+\.[\w-]+$/);
    for (const execution of v1) assert.equal(execution.request.headers.get('X-Partner-Id'), partner.partnerId);
    const keys = v1.filter((e) => e.request.method === 'POST').map((e) => e.request.headers.get('Idempotency-Key'));
    for (const key of keys) assert.match(key ?? '', /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    assert.equal(new Set(keys).size, keys.length, 'a fresh key for each request');
    for (const execution of executions.filter((e) => !e.request.url.getPath().startsWith('/v1/'))) {
      assert.equal(execution.request.headers.get('Authorization'), undefined, `${execution.item.name} is sent without a token`);
    }
  });
});
