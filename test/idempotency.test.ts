// Idempotency-Key on a creating POST, through POST /v1/api-clients: replays, reuse with another body,
// per-partner keys, validation, concurrency, expiry, and that the stored replay never holds the secret.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createManualClock } from '../src/platform/clock.ts';
import { idempotencyRetentionHours } from '../src/platform/http/idempotency.ts';
import { createTestContext, type TestContext, type TestPartner } from './helpers/context.ts';

const clock = createManualClock(new Date('2026-03-02T09:00:00.000Z'));
let t: TestContext;

before(async () => {
  t = await createTestContext({ clock });
});
after(() => t.close());

function create(partner: TestPartner, payload: Record<string, unknown>, key?: string) {
  return t.app.inject({
    method: 'POST',
    url: '/v1/api-clients',
    headers: { ...partner.headers, ...(key === undefined ? {} : { 'idempotency-key': key }) },
    payload,
  });
}

async function clientIds(partner: TestPartner): Promise<string[]> {
  const res = await t.app.inject({ method: 'GET', url: '/v1/api-clients?limit=100', headers: partner.headers });
  assert.equal(res.statusCode, 200);
  return res.json().data.map((c: { id: string }) => c.id);
}

async function storedRows(partner: TestPartner) {
  return t.services.db.query<{ key: string; response_status: number; response_body: unknown; body_text: string }>(
    'SELECT key, response_status, response_body, response_body::text AS body_text FROM idempotency_keys WHERE partner_id = $1 ORDER BY key',
    [partner.partnerId],
  );
}

/** A fresh token for a partner whose token the clock has outlived. */
async function refreshed(partner: TestPartner): Promise<TestPartner> {
  const issued = await t.services.tokens.issue({ clientId: partner.clientId, clientSecret: partner.clientSecret });
  assert.ok(issued.ok);
  return { ...partner, token: issued.body.access_token, headers: { authorization: `Bearer ${issued.body.access_token}`, 'x-partner-id': partner.partnerId } };
}

function pointers(body: { errors?: Array<{ pointer: string }> }): string[] {
  return (body.errors ?? []).map((e) => e.pointer);
}

describe('Idempotency-Key on POST /v1/api-clients', () => {
  it('replays the first answer for the same key and body, without the secret and without a second row', async () => {
    const alice = await t.f.partner();
    const before = await clientIds(alice);

    const first = await create(alice, { label: 'blue' }, 'create-blue-1');
    assert.equal(first.statusCode, 201);
    assert.equal(first.headers['idempotent-replayed'], undefined);
    const created = first.json();
    assert.match(created.clientSecret, /^pvs_secret_/);

    const again = await create(alice, { label: 'blue' }, 'create-blue-1');
    assert.equal(again.statusCode, 201);
    assert.equal(again.headers['idempotent-replayed'], 'true');
    const replayed = again.json();
    assert.equal(replayed.id, created.id);
    assert.equal(replayed.label, 'blue');
    assert.equal(replayed.createdAt, created.createdAt);
    assert.equal(replayed.revokedAt, null);
    assert.equal('clientSecret' in replayed, false, 'a replay never carries the secret');
    assert.ok(!again.body.includes(created.clientSecret));

    const after = await clientIds(alice);
    assert.equal(after.length, before.length + 1);
    assert.equal(after.filter((id) => id === created.id).length, 1);

    // The secret still works: the replay did not rotate it.
    const issued = await t.services.tokens.issue({ clientId: created.id, clientSecret: created.clientSecret });
    assert.ok(issued.ok);
  });

  it('never keeps the secret in the idempotency record', async () => {
    const bob = await t.f.partner();
    const res = await create(bob, { label: 'kept' }, 'secret-check');
    assert.equal(res.statusCode, 201);
    const { id, clientSecret } = res.json();
    const rows = await storedRows(bob);
    assert.equal(rows.length, 1);
    const [row] = rows;
    assert.equal(row!.key, 'secret-check');
    assert.equal(row!.response_status, 201);
    assert.deepEqual(row!.response_body, { id, label: 'kept', createdAt: res.json().createdAt, revokedAt: null });
    assert.ok(!row!.body_text.includes(clientSecret));
    assert.ok(!row!.body_text.includes('clientSecret'));
    assert.ok(!row!.body_text.includes('pvs_secret_'));
  });

  it('treats a body that differs only in JSON formatting as the same request', async () => {
    const partner = await t.f.partner();
    const first = await t.app.inject({
      method: 'POST',
      url: '/v1/api-clients',
      headers: { ...partner.headers, 'idempotency-key': 'ordered', 'content-type': 'application/json' },
      payload: '{"label":"x"}',
    });
    const second = await t.app.inject({
      method: 'POST',
      url: '/v1/api-clients',
      headers: { ...partner.headers, 'idempotency-key': 'ordered', 'content-type': 'application/json' },
      payload: '{ "label" : "x" }',
    });
    assert.equal(first.statusCode, 201);
    assert.equal(second.statusCode, 201);
    assert.equal(second.headers['idempotent-replayed'], 'true');
    assert.equal(second.json().id, first.json().id);
  });

  it('422 IDEMPOTENCY_KEY_REUSED for the same key with a different body', async () => {
    const carol = await t.f.partner();
    const first = await create(carol, { label: 'one' }, 'reused-key');
    assert.equal(first.statusCode, 201);
    const countAfterFirst = (await clientIds(carol)).length;

    for (const payload of [{ label: 'two' }, {}]) {
      const res = await create(carol, payload, 'reused-key');
      assert.equal(res.statusCode, 422, JSON.stringify(payload));
      assert.match(String(res.headers['content-type']), /^application\/problem\+json/);
      assert.equal(res.headers['idempotent-replayed'], undefined);
      const body = res.json();
      assert.equal(body.code, 'IDEMPOTENCY_KEY_REUSED');
      assert.equal(body.status, 422);
      assert.deepEqual(pointers(body), ['header:Idempotency-Key']);
    }
    assert.equal((await clientIds(carol)).length, countAfterFirst, 'a refused reuse creates nothing');

    // The original request still replays.
    const replay = await create(carol, { label: 'one' }, 'reused-key');
    assert.equal(replay.statusCode, 201);
    assert.equal(replay.json().id, first.json().id);
  });

  it("keeps keys per partner: another partner's identical key is independent", async () => {
    const dave = await t.f.partner();
    const erin = await t.f.partner();
    const ofDave = await create(dave, { label: 'shared' }, 'same-key-everywhere');
    const ofErin = await create(erin, { label: 'shared' }, 'same-key-everywhere');
    assert.equal(ofDave.statusCode, 201);
    assert.equal(ofErin.statusCode, 201);
    assert.equal(ofErin.headers['idempotent-replayed'], undefined);
    assert.notEqual(ofErin.json().id, ofDave.json().id);
    assert.match(ofErin.json().clientSecret, /^pvs_secret_/);
    assert.ok((await clientIds(erin)).includes(ofErin.json().id));
    assert.ok(!(await clientIds(erin)).includes(ofDave.json().id));

    // A different body under the same key is fine for the other partner too.
    const frank = await t.f.partner();
    const ofFrank = await create(frank, { label: 'different' }, 'same-key-everywhere');
    assert.equal(ofFrank.statusCode, 201);
  });

  it('400 VALIDATION_ERROR pointing at the header for an invalid key, creating nothing', async () => {
    const gina = await t.f.partner();
    const before = (await clientIds(gina)).length;
    for (const key of ['k'.repeat(256), 'has space', 'tab\there', 'ünïcode']) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/v1/api-clients',
        headers: { ...gina.headers, 'idempotency-key': key },
        payload: { label: 'bad key' },
      });
      assert.equal(res.statusCode, 400, `${JSON.stringify(key)} → ${res.body}`);
      assert.equal(res.json().code, 'VALIDATION_ERROR');
      assert.ok(pointers(res.json()).includes('header:Idempotency-Key'), res.body);
    }
    assert.equal((await clientIds(gina)).length, before);
    assert.deepEqual(await storedRows(gina), []);

    // The longest valid key is accepted.
    const longest = await create(gina, { label: 'ok' }, 'k'.repeat(255));
    assert.equal(longest.statusCode, 201);
  });

  it('five concurrent requests with one key create exactly one client', async () => {
    const hank = await t.f.partner();
    const before = await clientIds(hank);
    const answers = await Promise.all(Array.from({ length: 5 }, () => create(hank, { label: 'racing' }, 'concurrent-key')));
    for (const res of answers) assert.equal(res.statusCode, 201, res.body);
    const ids = new Set(answers.map((r) => r.json().id));
    assert.equal(ids.size, 1, `answers named ${[...ids].join(', ')}`);
    const fresh = answers.filter((r) => r.headers['idempotent-replayed'] === undefined);
    assert.equal(fresh.length, 1, 'exactly one answer is the original');
    assert.match(fresh[0]!.json().clientSecret, /^pvs_secret_/);
    for (const res of answers.filter((r) => r !== fresh[0])) assert.equal('clientSecret' in res.json(), false);

    const after = await clientIds(hank);
    assert.equal(after.length, before.length + 1);
    assert.ok(after.includes([...ids][0]!));
    assert.equal((await storedRows(hank)).length, 1);
  });

  it(`lets a key be used again after ${idempotencyRetentionHours} hours, creating a new client`, async () => {
    let ivy = await t.f.partner();
    const first = await create(ivy, { label: 'daily' }, 'daily-key');
    assert.equal(first.statusCode, 201);

    clock.advance(idempotencyRetentionHours * 3600_000 - 60_000);
    ivy = await refreshed(ivy);
    const stillKept = await create(ivy, { label: 'daily' }, 'daily-key');
    assert.equal(stillKept.headers['idempotent-replayed'], 'true', 'a minute before expiry the key still replays');
    assert.equal(stillKept.json().id, first.json().id);

    clock.advance(60_000);
    ivy = await refreshed(ivy);
    const second = await create(ivy, { label: 'daily' }, 'daily-key');
    assert.equal(second.statusCode, 201);
    assert.equal(second.headers['idempotent-replayed'], undefined);
    assert.notEqual(second.json().id, first.json().id);
    assert.match(second.json().clientSecret, /^pvs_secret_/);
    const ids = await clientIds(ivy);
    assert.ok(ids.includes(first.json().id) && ids.includes(second.json().id));

    // The renewed key now replays the new client, and an expired key may take another body.
    const replay = await create(ivy, { label: 'daily' }, 'daily-key');
    assert.equal(replay.json().id, second.json().id);
    const other = await create(ivy, { label: 'first of its kind' }, 'soon-expired');
    assert.equal(other.statusCode, 201);
    clock.advance(idempotencyRetentionHours * 3600_000);
    ivy = await refreshed(ivy);
    const differentBody = await create(ivy, { label: 'something else' }, 'soon-expired');
    assert.equal(differentBody.statusCode, 201);
    assert.notEqual(differentBody.json().id, other.json().id);
  });

  it('without a key, every call creates', async () => {
    const jack = await t.f.partner();
    const before = (await clientIds(jack)).length;
    const one = await create(jack, { label: 'same' });
    const two = await create(jack, { label: 'same' });
    assert.equal(one.statusCode, 201);
    assert.equal(two.statusCode, 201);
    assert.equal(two.headers['idempotent-replayed'], undefined);
    assert.notEqual(one.json().id, two.json().id);
    assert.match(two.json().clientSecret, /^pvs_secret_/);
    assert.equal((await clientIds(jack)).length, before + 2);
    assert.deepEqual(await storedRows(jack), []);
  });
});
