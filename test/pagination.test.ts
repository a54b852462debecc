// The one list shape (`?limit=`, `?from=` → `{ data, limit, from, nextFrom }`), through GET /v1/api-clients.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { insertApiClient } from '../src/modules/partners/partners.repository.ts';
import { createManualClock } from '../src/platform/clock.ts';
import { newId } from '../src/platform/ids.ts';
import { createTestContext, type TestContext, type TestPartner } from './helpers/context.ts';

const clock = createManualClock(new Date('2026-04-01T00:00:00.000Z'));
let t: TestContext;
let alice: TestPartner;
let bob: TestPartner;
let aliceIds: string[];
let bobIds: string[];

/** Gives a partner more clients straight in the database (any hash: these never sign in). */
async function addClients(partner: TestPartner, count: number): Promise<void> {
  for (let i = 0; i < count; i += 1) {
    clock.advance(1);
    const at = clock.now();
    await insertApiClient(t.services.db, { id: newId('apiClient', at.getTime()), partnerId: partner.partnerId, label: `client ${i}`, secretHash: 'not-a-real-hash', createdAt: at });
  }
}

before(async () => {
  t = await createTestContext({ clock });
  alice = await t.f.partner();
  bob = await t.f.partner();
  // Each partner starts with its own client; 24 more makes 25.
  await addClients(alice, 24);
  await addClients(bob, 3);
  const ofPartner = (partnerId: string) =>
    t.services.db
      .query<{ id: string }>('SELECT id FROM api_clients WHERE partner_id = $1 ORDER BY id', [partnerId])
      .then((rows) => rows.map((r) => r.id));
  aliceIds = await ofPartner(alice.partnerId);
  bobIds = await ofPartner(bob.partnerId);
  assert.equal(aliceIds.length, 25);
  assert.equal(bobIds.length, 4);
});
after(() => t.close());

async function list(partner: TestPartner, query = '') {
  return t.app.inject({ method: 'GET', url: `/v1/api-clients${query}`, headers: partner.headers });
}

interface ListBody {
  data: Array<{ id: string; label: string | null; createdAt: string; revokedAt: string | null }>;
  limit: number;
  from: number;
  nextFrom: number | null;
}

describe('GET /v1/api-clients pagination', () => {
  it('answers 20 by default with nextFrom, then the last 5 with nextFrom null', async () => {
    const first = await list(alice);
    assert.equal(first.statusCode, 200);
    const page1: ListBody = first.json();
    assert.deepEqual(Object.keys(page1).sort(), ['data', 'from', 'limit', 'nextFrom']);
    assert.equal(page1.limit, 20);
    assert.equal(page1.from, 0);
    assert.equal(page1.nextFrom, 20);
    assert.equal(page1.data.length, 20);
    assert.deepEqual(Object.keys(page1.data[0]!).sort(), ['createdAt', 'id', 'label', 'revokedAt']);

    const second = await list(alice, `?from=${page1.nextFrom}`);
    assert.equal(second.statusCode, 200);
    const page2: ListBody = second.json();
    assert.equal(page2.limit, 20);
    assert.equal(page2.from, 20);
    assert.equal(page2.nextFrom, null);
    assert.equal(page2.data.length, 5);

    const ids = [...page1.data, ...page2.data].map((c) => c.id);
    assert.equal(new Set(ids).size, 25, 'the pages do not overlap');
    assert.deepEqual(ids, aliceIds, 'together the pages are every client once, in a stable order');
  });

  it('answers the same pages in the same order every time', async () => {
    for (const query of ['', '?from=7&limit=6', '?from=20']) {
      const a = (await list(alice, query)).json() as ListBody;
      const b = (await list(alice, query)).json() as ListBody;
      assert.deepEqual(b, a, query);
    }
  });

  it('walks every client with small pages', async () => {
    const seen: string[] = [];
    let from: number | null = 0;
    let pages = 0;
    while (from !== null) {
      const res = await list(alice, `?limit=7&from=${from}`);
      assert.equal(res.statusCode, 200);
      const page: ListBody = res.json();
      assert.equal(page.from, from);
      assert.equal(page.limit, 7);
      seen.push(...page.data.map((c) => c.id));
      from = page.nextFrom;
      pages += 1;
      assert.ok(pages <= 4, 'too many pages');
    }
    assert.equal(pages, 4);
    assert.deepEqual(seen, aliceIds);
  });

  it('a page that ends exactly at the last item has nextFrom null', async () => {
    const page: ListBody = (await list(alice, '?limit=5&from=20')).json();
    assert.equal(page.data.length, 5);
    assert.equal(page.nextFrom, null);
    const exact: ListBody = (await list(alice, '?limit=25')).json();
    assert.equal(exact.data.length, 25);
    assert.equal(exact.nextFrom, null);
    const short: ListBody = (await list(alice, '?limit=24')).json();
    assert.equal(short.nextFrom, 24);
  });

  it('accepts limit=100 and limit=1', async () => {
    const all: ListBody = (await list(alice, '?limit=100')).json();
    assert.equal(all.limit, 100);
    assert.equal(all.data.length, 25);
    assert.equal(all.nextFrom, null);
    assert.deepEqual(
      all.data.map((c) => c.id),
      aliceIds,
    );
    const one: ListBody = (await list(alice, '?limit=1&from=3')).json();
    assert.deepEqual(
      one.data.map((c) => c.id),
      [aliceIds[3]],
    );
    assert.equal(one.nextFrom, 4);
  });

  it('answers an empty page past the end', async () => {
    const res = await list(alice, '?from=500');
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json(), { data: [], limit: 20, from: 500, nextFrom: null });
  });

  it('400 VALIDATION_ERROR pointing at the parameter for a bad limit or from', async () => {
    const cases: Array<[string, string]> = [
      ['?limit=0', 'query:limit'],
      ['?limit=101', 'query:limit'],
      ['?limit=abc', 'query:limit'],
      ['?limit=1.5', 'query:limit'],
      ['?limit=-5', 'query:limit'],
      ['?limit=', 'query:limit'],
      ['?from=-1', 'query:from'],
      ['?from=abc', 'query:from'],
      ['?from=2.5', 'query:from'],
    ];
    for (const [query, pointer] of cases) {
      const res = await list(alice, query);
      assert.equal(res.statusCode, 400, `${query} → ${res.body}`);
      assert.match(String(res.headers['content-type']), /^application\/problem\+json/);
      const body = res.json();
      assert.equal(body.code, 'VALIDATION_ERROR', query);
      assert.deepEqual(
        body.errors.map((e: { pointer: string }) => e.pointer),
        [pointer],
        `${query} → ${res.body}`,
      );
    }
  });

  it('400 pointing at an unknown query parameter', async () => {
    for (const name of ['offset', 'page', 'partnerId']) {
      const res = await list(alice, `?${name}=1`);
      assert.equal(res.statusCode, 400, `${name} → ${res.body}`);
      assert.equal(res.json().code, 'VALIDATION_ERROR');
      assert.deepEqual(
        res.json().errors.map((e: { pointer: string }) => e.pointer),
        [`query:${name}`],
      );
    }
  });

  it("never shows another partner's clients", async () => {
    const ofBob: ListBody = (await list(bob, '?limit=100')).json();
    assert.deepEqual(
      ofBob.data.map((c) => c.id),
      bobIds,
    );
    assert.equal(ofBob.nextFrom, null);
    const ofAlice: ListBody = (await list(alice, '?limit=100')).json();
    for (const id of bobIds) assert.ok(!ofAlice.data.some((c) => c.id === id), `${id} leaked into another partner's list`);
    // Offsets are counted within the partner's own clients.
    const pastBob = await list(bob, '?from=4');
    assert.deepEqual(pastBob.json().data, []);
  });
});
