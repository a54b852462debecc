// What the client does beyond one call, against the real app over HTTP: paging, idempotent creates and
// their retries, typed errors, the shared token and its refresh, PVS's own rate limit, and answers
// passed through untouched.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { TestPartner } from '../../test/helpers/context.ts';
import { AuthenticationError, BadRequestError, NotFoundError, PermissionDeniedError, type Pvs, RateLimitError, UnprocessableEntityError } from '../src/index.ts';
import { clientFor, recordingFetch, serve, type Served } from './helpers.ts';

let served: Served;
let partner: TestPartner;

before(async () => {
  served = await serve();
  partner = await served.t.f.partner();
});
after(() => served.close());

describe('pagination', () => {
  it('awaiting a list answers one page as PVS gives it; iterating follows nextFrom through every page', async () => {
    const own = await served.t.f.partner();
    const recorder = recordingFetch(served);
    const pvs = clientFor(served, own, { fetch: recorder.fetch });
    const ids: string[] = [];
    for (let i = 0; i < 7; i += 1) ids.push((await pvs.contacts.create({ name: `Contact ${i}` })).id);

    const page = await pvs.contacts.list({ limit: 3 });
    assert.equal(page.data.length, 3);
    assert.equal(page.limit, 3);
    assert.equal(page.from, 0);
    assert.equal(page.nextFrom, 3);

    const before = recorder.count('GET', '/v1/contacts');
    const seen: string[] = [];
    for await (const contact of pvs.contacts.list({ limit: 3 })) seen.push(contact.id);
    assert.deepEqual([...seen].sort(), [...ids].sort());
    assert.equal(recorder.count('GET', '/v1/contacts') - before, 3, 'three pages: 3 + 3 + 1');
    const froms = recorder.exchanges.slice(-3).map((e) => new URL(e.url).searchParams.get('from'));
    assert.deepEqual(froms, [null, '3', '6'], 'the first page at PVS\'s default (0), then each nextFrom');
  });

  it('a list starts where `from` says, and stops at an empty page', async () => {
    const own = await served.t.f.partner();
    const pvs = clientFor(served, own);
    for (let i = 0; i < 4; i += 1) await pvs.contacts.create({ name: `Contact ${i}` });
    const rest: string[] = [];
    for await (const contact of pvs.contacts.list({ limit: 2, from: 2 })) rest.push(contact.name);
    assert.equal(rest.length, 2);
    const none: unknown[] = [];
    for await (const item of pvs.charges.list()) none.push(item);
    assert.deepEqual(none, []);
  });
});

describe('idempotent creates', () => {
  it('the same key twice: PVS replays the first answer, and only one thing is made', async () => {
    const own = await served.t.f.partner();
    const recorder = recordingFetch(served);
    const pvs = clientFor(served, own, { fetch: recorder.fetch });
    const first = await pvs.contacts.create({ name: 'Once Only' }, { idempotencyKey: 'order-7731' });
    const again = await pvs.contacts.create({ name: 'Once Only' }, { idempotencyKey: 'order-7731' });
    assert.deepEqual(again, first);
    assert.equal((await pvs.contacts.list()).data.length, 1);
    const posts = recorder.exchanges.filter((e) => e.method === 'POST' && e.url.endsWith('/v1/contacts'));
    assert.deepEqual(posts.map((e) => e.headers['idempotency-key']), ['order-7731', 'order-7731']);
  });

  it('without a key the client makes one per call, and sends that same key on every retry of the call', async () => {
    const own = await served.t.f.partner();
    // The first attempt reaches PVS and is done there, but its answer is lost on the way back.
    const recorder = recordingFetch(served);
    let lost = false;
    const losing: typeof recorder.fetch = async (input, init) => {
      const response = await recorder.fetch(input, init);
      if (!lost && init.method === 'POST' && input.endsWith('/v1/business-lookups')) {
        lost = true;
        throw new TypeError('fetch failed: socket hang up');
      }
      return response;
    };
    const pvs = clientFor(served, own, { fetch: losing });
    const created = await pvs.businessLookups.create({ abn: '54 222 222 228' });
    const posts = recorder.exchanges.filter((e) => e.method === 'POST' && e.url.endsWith('/v1/business-lookups'));
    assert.equal(posts.length, 2, 'the lost attempt and its retry');
    assert.match(posts[0]!.headers['idempotency-key']!, /^[0-9a-f-]{36}$/);
    assert.equal(posts[1]!.headers['idempotency-key'], posts[0]!.headers['idempotency-key']);
    const lookups = await pvs.businessLookups.list();
    assert.deepEqual(lookups.data.map((l) => l.lookupRequestId), [created.lookupRequestId], 'one lookup, not two');

    await pvs.businessLookups.create({ abn: '54 222 222 228' });
    const third = recorder.exchanges.filter((e) => e.method === 'POST' && e.url.endsWith('/v1/business-lookups'))[2]!;
    assert.notEqual(third.headers['idempotency-key'], posts[0]!.headers['idempotency-key'], 'another call, another key');
  });

  it('a key reused with another body is refused as UnprocessableEntityError IDEMPOTENCY_KEY_REUSED', async () => {
    const pvs = clientFor(served, partner);
    await pvs.contacts.create({ name: 'First' }, { idempotencyKey: 'reused-key' });
    await assert.rejects(pvs.contacts.create({ name: 'Second' }, { idempotencyKey: 'reused-key' }), (error: unknown) => {
      assert.ok(error instanceof UnprocessableEntityError);
      assert.equal(error.code, 'IDEMPOTENCY_KEY_REUSED');
      return true;
    });
  });

  it('a POST PVS cannot deduplicate (deed analyses) carries no key and is not retried after a lost answer', async () => {
    const own = await served.t.f.partner();
    const recorder = recordingFetch(served, ({ method, url }) => (method === 'POST' && url.endsWith('/v1/deed-analyses') ? Promise.reject(new TypeError('fetch failed')) : undefined));
    const pvs = clientFor(served, own, { fetch: recorder.fetch });
    await assert.rejects(pvs.deedAnalyses.create(), { name: 'ConnectionError' });
    const posts = recorder.exchanges.filter((e) => e.method === 'POST' && e.url.endsWith('/v1/deed-analyses'));
    assert.equal(posts.length, 1);
    assert.equal(posts[0]!.headers['idempotency-key'], undefined);
  });
});

describe('typed errors', () => {
  it('a bad body: BadRequestError with code, pointers, title, detail and the request id', async () => {
    const pvs = clientFor(served, partner);
    const error = await pvs.verifications.create({ mode: 'AUSTRAC_CDD', individuals: [{ role: 'DIRECTOR', firstName: 'Ann' } as never] }).catch((e: unknown) => e);
    assert.ok(error instanceof BadRequestError, String(error));
    assert.equal(error.status, 400);
    assert.equal(error.code, 'VALIDATION_ERROR');
    assert.equal(error.title, 'Request validation failed');
    assert.ok(error.detail);
    assert.match(error.requestId ?? '', /^req_/);
    assert.ok(error.errors.some((e) => e.pointer === '/individuals/0/firstName'), JSON.stringify(error.errors));
    assert.match(error.message, /\/individuals\/0\/firstName/);
  });

  it('a miss is NotFoundError; a feature the partner lacks is PermissionDeniedError FORBIDDEN', async () => {
    const pvs = clientFor(served, partner);
    await assert.rejects(pvs.businessLookups.retrieve('lkp_01JD0000000000000000000000'), (e: unknown) => e instanceof NotFoundError && e.code === 'NOT_FOUND');
    const contact = await pvs.contacts.create({ name: 'Not Watched' });
    await assert.rejects(pvs.contacts.monitoring.update(contact.id, { enabled: true }), (e: unknown) => e instanceof PermissionDeniedError && e.code === 'FORBIDDEN');
  });

  it('wrong credentials: AuthenticationError with the OAuth error as its code', async () => {
    const pvs = clientFor(served, partner, { clientSecret: 'pvs_secret_wrong' });
    await assert.rejects(pvs.channelPartners.me(), (e: unknown) => e instanceof AuthenticationError && e.status === 401 && e.code === 'invalid_client');
  });

  it('another partner\'s id in X-Partner-Id: PermissionDeniedError PARTNER_MISMATCH', async () => {
    const other = await served.t.f.partner();
    const pvs = clientFor(served, partner, { partnerId: other.partnerId });
    await assert.rejects(pvs.channelPartners.me(), (e: unknown) => e instanceof PermissionDeniedError && e.code === 'PARTNER_MISMATCH');
  });
});

describe('the access token', () => {
  it('concurrent first calls share one token request; later calls reuse the token', async () => {
    const recorder = recordingFetch(served);
    const pvs = clientFor(served, partner, { fetch: recorder.fetch });
    const answers = await Promise.all(Array.from({ length: 8 }, () => pvs.channelPartners.me()));
    assert.ok(answers.every((me) => me.id === partner.partnerId));
    await pvs.contacts.list();
    assert.equal(recorder.count('POST', '/oauth2/token'), 1);
    const calls = recorder.exchanges.filter((e) => e.url.includes('/v1/'));
    assert.ok(calls.every((e) => e.headers.authorization?.startsWith('Bearer ') && e.headers['x-partner-id'] === partner.partnerId));
    assert.ok(calls.every((e) => /^pvs-client-node\/\d+\.\d+\.\d+$/.test(e.headers['user-agent'] ?? '')));
    const token = recorder.exchanges.find((e) => e.url.endsWith('/oauth2/token'))!;
    assert.equal(token.headers['content-type'], 'application/x-www-form-urlencoded');
  });

  it('a refused token (401) is replaced once and the call retried, by one shared refresh', async () => {
    let refusals = 0;
    const recorder = recordingFetch(served, ({ url }) => {
      if (url.endsWith('/v1/channel-partners/me') && refusals < 3) {
        refusals += 1;
        return new Response(JSON.stringify({ status: 401, code: 'UNAUTHENTICATED', title: 'Unauthenticated', detail: 'The token was revoked', requestId: 'req_x' }), {
          status: 401,
          headers: { 'content-type': 'application/problem+json' },
        });
      }
      return undefined;
    });
    const pvs = clientFor(served, partner, { fetch: recorder.fetch });
    const answers = await Promise.all([pvs.channelPartners.me(), pvs.channelPartners.me(), pvs.channelPartners.me()]);
    assert.ok(answers.every((me) => me.id === partner.partnerId));
    assert.equal(recorder.count('POST', '/oauth2/token'), 2, 'the first token, then one refresh shared by the three refused calls');
  });

  it('a second 401 after the refresh is the caller\'s AuthenticationError, not a loop', async () => {
    const recorder = recordingFetch(served, ({ url }) =>
      url.endsWith('/v1/channel-partners/me') ? new Response(JSON.stringify({ status: 401, code: 'UNAUTHENTICATED', detail: 'no' }), { status: 401, headers: { 'content-type': 'application/problem+json' } }) : undefined,
    );
    const pvs = clientFor(served, partner, { fetch: recorder.fetch });
    await assert.rejects(pvs.channelPartners.me(), AuthenticationError);
    assert.equal(recorder.count('GET', '/v1/channel-partners/me'), 2);
    assert.equal(recorder.count('POST', '/oauth2/token'), 2);
  });
});

describe('answers pass through untouched', () => {
  it('fields the client does not know reach the caller, in single answers and in list items', async () => {
    const recorder = recordingFetch(served, async ({ method, url }) => {
      if (method !== 'GET' || !/\/v1\/(channel-partners\/me|contacts)$/.test(new URL(url).pathname)) return undefined;
      const real = await served.fetch(url, { headers: { authorization: `Bearer ${partner.token}`, 'x-partner-id': partner.partnerId } });
      const body = (await real.json()) as Record<string, unknown> & { data?: Array<Record<string, unknown>> };
      const changed = { ...body, futureField: { nested: true }, ...(body.data ? { data: body.data.map((item) => ({ ...item, tier: 'GOLD' })) } : {}) };
      return new Response(JSON.stringify(changed), { status: real.status, headers: { 'content-type': 'application/json' } });
    });
    const pvs = clientFor(served, partner, { fetch: recorder.fetch });
    const me = (await pvs.channelPartners.me()) as Awaited<ReturnType<Pvs['channelPartners']['me']>> & { futureField?: unknown };
    assert.deepEqual(me.futureField, { nested: true });
    assert.equal(me.id, partner.partnerId);
    for await (const contact of pvs.contacts.list()) assert.equal((contact as typeof contact & { tier?: string }).tier, 'GOLD');
  });
});

describe('PVS\'s own rate limit', () => {
  let limited: Served;
  before(async () => {
    limited = await serve({ env: { RATE_LIMIT_BURST: '2', RATE_LIMIT_PER_SECOND: '1' } });
  });
  after(() => limited.close());

  it('a 429 is retried after its Retry-After, and the call succeeds', async () => {
    const own = await limited.t.f.partner();
    const recorder = recordingFetch(limited);
    const pvs = clientFor(limited, own, { fetch: recorder.fetch });
    const started = Date.now();
    const answers = await Promise.all([pvs.channelPartners.me(), pvs.channelPartners.me(), pvs.channelPartners.me()]);
    assert.ok(answers.every((me) => me.id === own.partnerId));
    const statuses = recorder.exchanges.filter((e) => e.url.endsWith('/v1/channel-partners/me')).map((e) => e.status);
    assert.ok(statuses.includes(429), `PVS refused one: ${statuses.join(', ')}`);
    assert.ok(Date.now() - started >= 900, 'the retry waited for Retry-After (1 s)');
  });

  it('with no retries left the caller gets RateLimitError with retryAfter', async () => {
    const own = await limited.t.f.partner();
    const pvs = clientFor(limited, own, { maxRetries: 0 });
    const outcomes = await Promise.allSettled(Array.from({ length: 4 }, () => pvs.channelPartners.me()));
    const refused = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected');
    assert.ok(refused, 'one of four was refused');
    assert.ok(refused.reason instanceof RateLimitError);
    assert.equal(refused.reason.code, 'RATE_LIMITED');
    assert.ok((refused.reason.retryAfter ?? 0) >= 1);
  });
});
