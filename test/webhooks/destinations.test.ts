// Webhook destinations through /v1/webhook-destinations as a partner drives them: create (the secret
// once, defaults, validation), list, get, PATCH, DELETE, rotate-secret, Idempotency-Key replays that
// never carry or keep the secret, secrets sealed at rest, tenancy; and the production URL rules
// through the destination service with an injected resolver.
import assert from 'node:assert/strict';
import type { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { createKeyRing } from '../../src/platform/keys/key-ring.ts';
import { createManualClock } from '../../src/platform/clock.ts';
import { tenantOf } from '../../src/platform/tenancy.ts';
import { AppError } from '../../src/platform/errors.ts';
import { createDestinationService } from '../../src/modules/webhooks/destinations.service.ts';
import { categories } from '../../src/modules/webhooks/events/define.ts';
import { createTestContext, testSecretKey, type TestContext, type TestPartner } from '../helpers/context.ts';

const clock = createManualClock(new Date('2026-03-02T09:00:00.000Z'));
const allCategories = [...categories];
const webhookSecrets = createKeyRing(testSecretKey).sealer('webhook-secrets');
let t: TestContext;

before(async () => {
  t = await createTestContext({ clock });
});
after(() => t.close());

interface Destination {
  id: string;
  url: string;
  categories: string[];
  enabled: boolean;
  createdAt: string;
  updatedAt: string;
  secret?: string;
}

interface Problem {
  status: number;
  code: string;
  detail: string;
  errors?: Array<{ pointer: string; message: string }>;
}

const destinationKeys = ['categories', 'createdAt', 'enabled', 'id', 'updatedAt', 'url'];

function create(partner: TestPartner, payload: unknown, key?: string) {
  return t.app.inject({
    method: 'POST',
    url: '/v1/webhook-destinations',
    headers: { ...partner.headers, ...(key === undefined ? {} : { 'idempotency-key': key }) },
    payload: payload as Record<string, unknown>,
  });
}

async function created(partner: TestPartner, payload: Record<string, unknown> = { url: 'https://hooks.example.com/pvs' }): Promise<Destination> {
  const res = await create(partner, payload);
  assert.equal(res.statusCode, 201, res.body);
  clock.advance(1); // ids sort by creation time: keep list order deterministic
  return res.json<Destination>();
}

function get(partner: TestPartner, id: string) {
  return t.app.inject({ method: 'GET', url: `/v1/webhook-destinations/${id}`, headers: partner.headers });
}

function patch(partner: TestPartner, id: string, payload: unknown) {
  return t.app.inject({ method: 'PATCH', url: `/v1/webhook-destinations/${id}`, headers: partner.headers, payload: payload as Record<string, unknown> });
}

function remove(partner: TestPartner, id: string) {
  return t.app.inject({ method: 'DELETE', url: `/v1/webhook-destinations/${id}`, headers: partner.headers });
}

function rotate(partner: TestPartner, id: string) {
  return t.app.inject({ method: 'POST', url: `/v1/webhook-destinations/${id}/rotate-secret`, headers: partner.headers });
}

async function list(partner: TestPartner, query = '') {
  const res = await t.app.inject({ method: 'GET', url: `/v1/webhook-destinations${query}`, headers: partner.headers });
  assert.equal(res.statusCode, 200, res.body);
  return res.json<{ data: Destination[]; limit: number; from: number; nextFrom: number | null }>();
}

/** A 400 VALIDATION_ERROR whose errors[] include `pointer`. */
function assertValidation(res: LightMyRequestResponse, pointer: string): Problem {
  assert.equal(res.statusCode, 400, res.body);
  assert.match(String(res.headers['content-type']), /^application\/problem\+json/);
  const body = res.json<Problem>();
  assert.equal(body.code, 'VALIDATION_ERROR');
  assert.ok(
    body.errors?.some((e) => e.pointer === pointer),
    `a problem at ${pointer}: ${res.body}`,
  );
  return body;
}

function assertNotFound(res: LightMyRequestResponse): void {
  assert.equal(res.statusCode, 404, res.body);
  assert.equal(res.json<Problem>().code, 'NOT_FOUND');
}

async function storedRow(id: string) {
  const rows = await t.services.db.query<{ partner_id: string; secret_sealed: string; previous_secret_sealed: string | null; previous_secret_expires_at: Date | null; deleted_at: Date | null }>(
    'SELECT partner_id, secret_sealed, previous_secret_sealed, previous_secret_expires_at, deleted_at FROM webhook_destinations WHERE id = $1',
    [id],
  );
  assert.equal(rows.length, 1, `one row for ${id}`);
  return rows[0]!;
}

describe('POST /v1/webhook-destinations', () => {
  it('201 with the secret once; categories default to all six; enabled by default', async () => {
    const alice = await t.f.partner();
    const res = await create(alice, { url: 'https://hooks.example.com/pvs' });
    assert.equal(res.statusCode, 201, res.body);
    const body = res.json<Destination>();
    assert.deepEqual(Object.keys(body).sort(), [...destinationKeys, 'secret'].sort());
    assert.match(body.id, /^whd_[0-9A-Z]{26}$/);
    assert.equal(body.url, 'https://hooks.example.com/pvs');
    assert.deepEqual(body.categories, allCategories);
    assert.equal(body.categories.length, 6);
    assert.equal(body.enabled, true);
    assert.equal(body.createdAt, clock.now().toISOString());
    assert.equal(body.updatedAt, body.createdAt);
    assert.match(body.secret!, /^whsec_[A-Za-z0-9_-]{40,}$/);

    const fetched = await get(alice, body.id);
    assert.equal(fetched.statusCode, 200);
    const { secret: _secret, ...withoutSecret } = body;
    assert.deepEqual(fetched.json(), withoutSecret);
    assert.ok(!fetched.body.includes(body.secret!), 'GET never shows the secret');
    assert.ok(!fetched.body.includes('whsec_'));
  });

  it('keeps the categories and enabled flag given; a sandbox may use http to localhost', async () => {
    const alice = await t.f.partner();
    const body = await created(alice, { url: 'http://localhost:3000/hooks', categories: ['PAYMENTS', 'VERIFICATIONS'], enabled: false });
    assert.deepEqual(body.categories, ['PAYMENTS', 'VERIFICATIONS']);
    assert.equal(body.enabled, false);
    assert.equal(body.url, 'http://localhost:3000/hooks');
    const again = await created(alice, { url: 'http://127.0.0.1:9000/x', categories: ['MONITORING'] });
    assert.deepEqual(again.categories, ['MONITORING']);
    assert.equal(again.enabled, true);
  });

  it('each destination gets its own secret', async () => {
    const alice = await t.f.partner();
    const a = await created(alice);
    const b = await created(alice);
    assert.notEqual(a.secret, b.secret);
  });

  it('400 at /url for a URL the policy refuses, and creates nothing', async () => {
    const alice = await t.f.partner();
    for (const url of ['http://hooks.example.com/pvs', 'ftp://hooks.example.com/', 'https://user:pw@hooks.example.com/', 'https://hooks.example.com/#frag', 'not a url', '']) {
      const body = assertValidation(await create(alice, { url }), '/url');
      assert.match(body.errors!.find((e) => e.pointer === '/url')!.message, /url|URL/);
    }
    assertValidation(await create(alice, { url: `https://hooks.example.com/${'a'.repeat(2048)}` }), '/url');
    assert.deepEqual((await list(alice)).data, []);
  });

  it('400 for a body the schema refuses', async () => {
    const alice = await t.f.partner();
    assertValidation(await create(alice, { url: 'https://hooks.example.com/', categories: ['PAYMENTS_ETC'] }), '/categories/0');
    assertValidation(await create(alice, { url: 'https://hooks.example.com/', categories: ['PAYMENTS', 'payments'] }), '/categories/1');
    assertValidation(await create(alice, { url: 'https://hooks.example.com/', categories: [] }), '/categories');
    assertValidation(await create(alice, { url: 'https://hooks.example.com/', categories: ['PAYMENTS', 'PAYMENTS'] }), '/categories');
    assertValidation(await create(alice, { url: 'https://hooks.example.com/', secret: 'whsec_mine' }), '/secret');
    assertValidation(await create(alice, { url: 'https://hooks.example.com/', enabled: 'yes' }), '/enabled');
    assertValidation(await create(alice, { categories: ['PAYMENTS'] }), '/url');
    assertValidation(await create(alice, { url: 42 }), '/url');
    assert.deepEqual((await list(alice)).data, []);
  });

  it('401 without a token', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/v1/webhook-destinations', payload: { url: 'https://hooks.example.com/' } });
    assert.equal(res.statusCode, 401);
  });
});

describe('Idempotency-Key on POST /v1/webhook-destinations', () => {
  it('replays the first answer without the secret and makes no second destination', async () => {
    const bob = await t.f.partner();
    const first = await create(bob, { url: 'https://hooks.example.com/bob' }, 'dest-1');
    assert.equal(first.statusCode, 201, first.body);
    const original = first.json<Destination>();
    assert.match(original.secret!, /^whsec_/);

    const again = await create(bob, { url: 'https://hooks.example.com/bob' }, 'dest-1');
    assert.equal(again.statusCode, 201, again.body);
    assert.equal(again.headers['idempotent-replayed'], 'true');
    const replayed = again.json<Destination>();
    assert.equal('secret' in replayed, false, 'a replay never carries the secret');
    assert.ok(!again.body.includes('whsec_'));
    const { secret: _secret, ...withoutSecret } = original;
    assert.deepEqual(replayed, withoutSecret);
    assert.deepEqual(
      (await list(bob)).data.map((d) => d.id),
      [original.id],
    );

    // The replay did not rotate anything: the stored secret is still the one answered first.
    assert.equal(webhookSecrets.open((await storedRow(original.id)).secret_sealed), original.secret);
  });

  it('never keeps the secret in idempotency_keys', async () => {
    const bob = await t.f.partner();
    const res = await create(bob, { url: 'https://hooks.example.com/kept', categories: ['PAYMENTS'] }, 'dest-kept');
    assert.equal(res.statusCode, 201);
    const body = res.json<Destination>();
    const rows = await t.services.db.query<{ key: string; response_status: number; response_body: unknown; body_text: string }>(
      'SELECT key, response_status, response_body, response_body::text AS body_text FROM idempotency_keys WHERE partner_id = $1',
      [bob.partnerId],
    );
    assert.equal(rows.length, 1);
    const [row] = rows;
    assert.equal(row!.key, 'dest-kept');
    assert.equal(row!.response_status, 201);
    const { secret, ...withoutSecret } = body;
    assert.deepEqual(row!.response_body, withoutSecret);
    assert.ok(!row!.body_text.includes(secret!));
    assert.ok(!row!.body_text.includes('whsec_'));
    assert.ok(!row!.body_text.includes('"secret"'));
  });

  it('422 IDEMPOTENCY_KEY_REUSED for the same key with another body', async () => {
    const bob = await t.f.partner();
    assert.equal((await create(bob, { url: 'https://hooks.example.com/one' }, 'dest-reused')).statusCode, 201);
    const res = await create(bob, { url: 'https://hooks.example.com/two' }, 'dest-reused');
    assert.equal(res.statusCode, 422, res.body);
    assert.equal(res.json<Problem>().code, 'IDEMPOTENCY_KEY_REUSED');
    assert.equal((await list(bob)).data.length, 1);
  });
});

describe('secrets at rest', () => {
  it('secret_sealed is neither the secret nor contains it, and opens to it with the webhook-secrets key', async () => {
    const carol = await t.f.partner();
    const body = await created(carol);
    const row = await storedRow(body.id);
    assert.equal(row.partner_id, carol.partnerId);
    assert.notEqual(row.secret_sealed, body.secret);
    assert.ok(!row.secret_sealed.includes(body.secret!));
    assert.ok(!row.secret_sealed.includes(body.secret!.slice('whsec_'.length)));
    assert.ok(!row.secret_sealed.includes('whsec_'));
    assert.equal(webhookSecrets.open(row.secret_sealed), body.secret);
    assert.equal(row.previous_secret_sealed, null);
    // No column anywhere in the row holds the plaintext.
    const text = await t.services.db.query<{ row_text: string }>('SELECT d::text AS row_text FROM webhook_destinations d WHERE id = $1', [body.id]);
    assert.ok(!text[0]!.row_text.includes(body.secret!));
  });
});

describe('GET /v1/webhook-destinations', () => {
  it('pages with limit and from, in creation order, without secrets', async () => {
    const dave = await t.f.partner();
    const made: Destination[] = [];
    for (let i = 0; i < 3; i++) made.push(await created(dave, { url: `https://hooks.example.com/${i}` }));

    const all = await list(dave);
    assert.deepEqual(Object.keys(all).sort(), ['data', 'from', 'limit', 'nextFrom']);
    assert.equal(all.limit, 20);
    assert.equal(all.from, 0);
    assert.equal(all.nextFrom, null);
    assert.deepEqual(
      all.data.map((d) => d.id),
      made.map((d) => d.id),
    );
    for (const d of all.data) assert.deepEqual(Object.keys(d).sort(), destinationKeys);

    const first = await list(dave, '?limit=2');
    assert.deepEqual(
      first.data.map((d) => d.url),
      ['https://hooks.example.com/0', 'https://hooks.example.com/1'],
    );
    assert.equal(first.limit, 2);
    assert.equal(first.nextFrom, 2);
    const second = await list(dave, `?limit=2&from=${first.nextFrom}`);
    assert.deepEqual(
      second.data.map((d) => d.url),
      ['https://hooks.example.com/2'],
    );
    assert.equal(second.from, 2);
    assert.equal(second.nextFrom, null);
  });

  it('400 for a bad page parameter or an unknown one', async () => {
    const dave = await t.f.partner();
    for (const [query, pointer] of [
      ['?limit=0', 'query:limit'],
      ['?limit=101', 'query:limit'],
      ['?from=-1', 'query:from'],
      ['?status=PENDING', 'query:status'],
    ]) {
      const res = await t.app.inject({ method: 'GET', url: `/v1/webhook-destinations${query}`, headers: dave.headers });
      assertValidation(res, pointer!);
    }
  });
});

describe('PATCH /v1/webhook-destinations/{id}', () => {
  it('changes the url, categories and enabled flag, each alone, and moves updatedAt only', async () => {
    const erin = await t.f.partner();
    const original = await created(erin, { url: 'https://hooks.example.com/old' });
    clock.advance(60_000);

    const url = await patch(erin, original.id, { url: 'https://other.example.com/new?x=1' });
    assert.equal(url.statusCode, 200, url.body);
    const afterUrl = url.json<Destination>();
    assert.deepEqual(Object.keys(afterUrl).sort(), destinationKeys);
    assert.equal(afterUrl.url, 'https://other.example.com/new?x=1');
    assert.deepEqual(afterUrl.categories, allCategories);
    assert.equal(afterUrl.enabled, true);
    assert.equal(afterUrl.createdAt, original.createdAt);
    assert.equal(afterUrl.updatedAt, clock.now().toISOString());

    const cats = await patch(erin, original.id, { categories: ['DEED_ANALYSIS', 'CONTACT_BILLING'] });
    assert.equal(cats.statusCode, 200, cats.body);
    assert.deepEqual(cats.json<Destination>().categories, ['DEED_ANALYSIS', 'CONTACT_BILLING']);
    assert.equal(cats.json<Destination>().url, 'https://other.example.com/new?x=1');

    const off = await patch(erin, original.id, { enabled: false });
    assert.equal(off.statusCode, 200, off.body);
    assert.equal(off.json<Destination>().enabled, false);
    assert.deepEqual(off.json<Destination>().categories, ['DEED_ANALYSIS', 'CONTACT_BILLING']);

    const on = await patch(erin, original.id, { enabled: true, url: 'http://localhost:4000/again' });
    assert.equal(on.statusCode, 200, on.body);
    assert.equal(on.json<Destination>().enabled, true);
    assert.equal(on.json<Destination>().url, 'http://localhost:4000/again');

    const fetched = (await get(erin, original.id)).json<Destination>();
    assert.deepEqual(fetched, on.json());
    assert.ok(!JSON.stringify(fetched).includes('whsec_'));
    // The secret is untouched by a PATCH.
    assert.equal(webhookSecrets.open((await storedRow(original.id)).secret_sealed), original.secret);
  });

  it('400 for an empty body, a refused url, bad categories or an unknown field; nothing changes', async () => {
    const erin = await t.f.partner();
    const original = await created(erin, { url: 'https://hooks.example.com/keep', categories: ['PAYMENTS'] });
    const empty = await patch(erin, original.id, {});
    assert.equal(empty.statusCode, 400, empty.body);
    assert.equal(empty.json<Problem>().code, 'VALIDATION_ERROR');
    assertValidation(await patch(erin, original.id, { url: 'http://hooks.example.com/plain' }), '/url');
    assertValidation(await patch(erin, original.id, { url: 'https://u:p@hooks.example.com/' }), '/url');
    assertValidation(await patch(erin, original.id, { url: 'https://hooks.example.com/#x' }), '/url');
    assertValidation(await patch(erin, original.id, { categories: [] }), '/categories');
    assertValidation(await patch(erin, original.id, { categories: ['NOPE'] }), '/categories/0');
    assertValidation(await patch(erin, original.id, { enabled: null }), '/enabled');
    assertValidation(await patch(erin, original.id, { url: null }), '/url');
    assertValidation(await patch(erin, original.id, { secret: 'whsec_x' }), '/secret');
    const { secret: _secret, ...unchanged } = original;
    assert.deepEqual((await get(erin, original.id)).json(), unchanged);
  });

  it('404 for an unknown id', async () => {
    const erin = await t.f.partner();
    assertNotFound(await patch(erin, 'whd_01JZZZZZZZZZZZZZZZZZZZZZZZ', { enabled: false }));
  });
});

describe('DELETE /v1/webhook-destinations/{id}', () => {
  it('200 with the record; then 404 on get, patch, rotate and delete, and absent from the list', async () => {
    const frank = await t.f.partner();
    const kept = await created(frank, { url: 'https://hooks.example.com/kept' });
    const gone = await created(frank, { url: 'https://hooks.example.com/gone' });

    const res = await remove(frank, gone.id);
    assert.equal(res.statusCode, 200, res.body);
    const removed = res.json<Destination>();
    assert.deepEqual(Object.keys(removed).sort(), destinationKeys);
    assert.equal(removed.id, gone.id);
    assert.equal(removed.url, gone.url);
    assert.ok(!res.body.includes('whsec_'));

    assertNotFound(await get(frank, gone.id));
    assertNotFound(await patch(frank, gone.id, { enabled: true }));
    assertNotFound(await rotate(frank, gone.id));
    assertNotFound(await remove(frank, gone.id));
    assert.deepEqual(
      (await list(frank)).data.map((d) => d.id),
      [kept.id],
    );
    assert.equal((await get(frank, kept.id)).statusCode, 200);
  });
});

describe('POST /v1/webhook-destinations/{id}/rotate-secret', () => {
  it('answers a new secret once; the old one keeps signing for 24 h; GET shows neither', async () => {
    const gina = await t.f.partner();
    const original = await created(gina);
    clock.advance(5_000);

    const res = await rotate(gina, original.id);
    assert.equal(res.statusCode, 200, res.body);
    const rotated = res.json<Destination>();
    assert.deepEqual(Object.keys(rotated).sort(), [...destinationKeys, 'secret'].sort());
    assert.match(rotated.secret!, /^whsec_/);
    assert.notEqual(rotated.secret, original.secret);
    assert.equal(rotated.id, original.id);
    assert.equal(rotated.url, original.url);
    assert.deepEqual(rotated.categories, original.categories);
    assert.equal(rotated.createdAt, original.createdAt);
    assert.equal(rotated.updatedAt, clock.now().toISOString());

    const row = await storedRow(original.id);
    assert.equal(webhookSecrets.open(row.secret_sealed), rotated.secret);
    assert.equal(webhookSecrets.open(row.previous_secret_sealed!), original.secret);
    assert.equal(row.previous_secret_expires_at!.toISOString(), new Date(clock.now().getTime() + 24 * 3600_000).toISOString());
    assert.ok(!row.secret_sealed.includes(rotated.secret!));

    const fetched = await get(gina, original.id);
    assert.equal(fetched.statusCode, 200);
    assert.equal('secret' in fetched.json<Destination>(), false);
    assert.ok(!fetched.body.includes(rotated.secret!));
    assert.ok(!fetched.body.includes(original.secret!));
    assert.ok(!(await t.app.inject({ method: 'GET', url: '/v1/webhook-destinations', headers: gina.headers })).body.includes('whsec_'));

    // Each rotation answers a fresh secret.
    const again = (await rotate(gina, original.id)).json<Destination>();
    assert.notEqual(again.secret, rotated.secret);
    assert.notEqual(again.secret, original.secret);
  });

  it('404 for an unknown id', async () => {
    const gina = await t.f.partner();
    assertNotFound(await rotate(gina, 'whd_unknown'));
  });
});

describe('tenancy', () => {
  it("another partner's destination is 404 on get, patch, delete and rotate, absent from the list, and unchanged", async () => {
    const owner = await t.f.partner();
    const other = await t.f.partner();
    const theirs = await created(owner, { url: 'https://hooks.example.com/owner', categories: ['PAYMENTS'] });
    const mine = await created(other, { url: 'https://hooks.example.com/other' });

    assertNotFound(await get(other, theirs.id));
    assertNotFound(await patch(other, theirs.id, { url: 'https://attacker.example.com/' }));
    assertNotFound(await patch(other, theirs.id, { enabled: false }));
    assertNotFound(await rotate(other, theirs.id));
    assertNotFound(await remove(other, theirs.id));
    assert.deepEqual(
      (await list(other)).data.map((d) => d.id),
      [mine.id],
    );
    assert.deepEqual(
      (await list(owner)).data.map((d) => d.id),
      [theirs.id],
    );

    const { secret: _secret, ...unchanged } = theirs;
    assert.deepEqual((await get(owner, theirs.id)).json(), unchanged);
    const row = await storedRow(theirs.id);
    assert.equal(row.deleted_at, null);
    assert.equal(row.previous_secret_sealed, null);
    assert.equal(webhookSecrets.open(row.secret_sealed), theirs.secret);
  });

  it('Idempotency-Keys are per partner: the same key makes a destination for each', async () => {
    const one = await t.f.partner();
    const two = await t.f.partner();
    const a = await create(one, { url: 'https://hooks.example.com/same' }, 'shared-key');
    const b = await create(two, { url: 'https://hooks.example.com/same' }, 'shared-key');
    assert.equal(a.statusCode, 201);
    assert.equal(b.statusCode, 201);
    assert.equal(b.headers['idempotent-replayed'], undefined);
    assert.notEqual(a.json<Destination>().id, b.json<Destination>().id);
    assert.match(b.json<Destination>().secret!, /^whsec_/);
  });
});

describe('production URL rules (the destination service with an injected resolver)', () => {
  function resolver(addresses: string[]) {
    const asked: string[] = [];
    const resolve = (async (hostname: string) => {
      asked.push(hostname);
      return addresses.map((address) => ({ address, family: isIP(address) }));
    }) as unknown as typeof lookup;
    return { resolve, asked };
  }

  function productionService(addresses: string[]) {
    const { resolve, asked } = resolver(addresses);
    const service = createDestinationService({ db: t.services.db, clock, environment: 'production', secrets: webhookSecrets, resolve });
    return { service, asked };
  }

  async function refusedAt(promise: Promise<unknown>, pointer: string, message: RegExp): Promise<void> {
    await assert.rejects(promise, (error: unknown) => {
      assert.ok(error instanceof AppError, String(error));
      assert.equal(error.code, 'VALIDATION_ERROR');
      assert.equal(error.status, 400);
      assert.deepEqual(
        error.errors?.map((e) => e.pointer),
        [pointer],
      );
      assert.match(error.message, message);
      return true;
    });
  }

  it('refuses a host that resolves to a private address, at /url', async () => {
    for (const addresses of [['10.0.0.7'], ['93.184.216.34', '127.0.0.1'], ['fd00::5'], ['169.254.169.254']]) {
      const { service, asked } = productionService(addresses);
      await refusedAt(service.checkUrl('https://hooks.example.com/pvs'), '/url', /private, loopback or link-local/);
      assert.deepEqual(asked, ['hooks.example.com']);
    }
  });

  it('refuses a host that does not resolve', async () => {
    const { service } = productionService([]);
    await refusedAt(service.checkUrl('https://nowhere.example.com/'), '/url', /does not resolve/);
  });

  it('refuses http and literal internal addresses without asking the resolver', async () => {
    const { service, asked } = productionService(['93.184.216.34']);
    for (const url of ['http://hooks.example.com/', 'http://localhost:3000/', 'https://localhost/', 'https://10.0.0.1/', 'https://[::1]/', 'https://[::ffff:192.168.0.1]/']) {
      await refusedAt(service.checkUrl(url), '/url', /https|private, loopback or link-local/);
    }
    assert.deepEqual(asked, []);
  });

  it('accepts a host that resolves only to public addresses, and the destination can be saved', async () => {
    const { service, asked } = productionService(['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946']);
    const url = await service.checkUrl('https://Hooks.Example.com/pvs');
    assert.equal(url, 'https://hooks.example.com/pvs');
    assert.deepEqual(asked, ['hooks.example.com']);

    const partner = await t.f.partner();
    const tenant = tenantOf(partner.partnerId);
    const saved = await t.services.db.transaction((tx) => service.create(tx, tenant, { url }));
    assert.match(saved.secret!, /^whsec_/);
    assert.deepEqual(saved.categories, allCategories);
    const res = await get(partner, saved.id);
    assert.equal(res.statusCode, 200);
    assert.equal(res.json<Destination>().url, 'https://hooks.example.com/pvs');
  });

  it('update checks a new url the same way', async () => {
    const partner = await t.f.partner();
    const tenant = tenantOf(partner.partnerId);
    const existing = await created(partner, { url: 'https://hooks.example.com/first' });

    const refusing = productionService(['192.168.10.10']).service;
    await refusedAt(refusing.update(tenant, existing.id, { url: 'https://internal.example.com/' }), '/url', /private, loopback or link-local/);
    assert.equal((await get(partner, existing.id)).json<Destination>().url, 'https://hooks.example.com/first');

    const accepting = productionService(['8.8.8.8']).service;
    const updated = await accepting.update(tenant, existing.id, { url: 'https://public.example.com/' });
    assert.equal(updated.url, 'https://public.example.com/');
    // Changes that carry no url need no resolution.
    const quiet = productionService(['10.0.0.1']);
    assert.equal((await quiet.service.update(tenant, existing.id, { enabled: false })).enabled, false);
    assert.deepEqual(quiet.asked, []);
  });

  it('assertCategories (the CLI path) refuses what the API schema refuses: none, repeats, unknown', () => {
    const { destinations } = t.services;
    destinations.assertCategories(['PAYMENTS', 'VERIFICATIONS']);
    destinations.assertCategories(allCategories);
    for (const [list, message] of [
      [[], /at least one category/],
      [['PAYMENTS', 'PAYMENTS'], /repeated: PAYMENTS/],
      [['PAYMENTS', 'BOGUS'], /Unknown categories BOGUS/],
      [['payments'], /Unknown categories payments/],
    ] as Array<[string[], RegExp]>) {
      assert.throws(
        () => destinations.assertCategories(list),
        (error: unknown) => error instanceof AppError && error.code === 'VALIDATION_ERROR' && error.errors?.[0]?.pointer === '/categories' && message.test(error.message),
        JSON.stringify(list),
      );
    }
  });

  it('the sandbox service never asks the resolver', async () => {
    const { resolve, asked } = resolver(['10.0.0.1']);
    const sandbox = createDestinationService({ db: t.services.db, clock, environment: 'sandbox', secrets: webhookSecrets, resolve });
    assert.equal(await sandbox.checkUrl('https://hooks.example.com/'), 'https://hooks.example.com/');
    assert.equal(await sandbox.checkUrl('http://localhost:3000/x'), 'http://localhost:3000/x');
    assert.deepEqual(asked, []);
  });
});
