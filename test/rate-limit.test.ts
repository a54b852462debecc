// Rate limits through HTTP: per partner on /v1 (RateLimit-* headers, 429 RATE_LIMITED with Retry-After)
// and per IP and per client on the token endpoint. A manual clock refills the buckets.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { createManualClock } from '../src/platform/clock.ts';
import { createTestContext, type TestContext, type TestPartner } from './helpers/context.ts';

const clock = createManualClock(new Date('2026-05-04T08:00:00.000Z'));
let t: TestContext;

before(async () => {
  t = await createTestContext({ clock, env: { RATE_LIMIT_BURST: '3', RATE_LIMIT_PER_SECOND: '1', TOKEN_RATE_LIMIT_PER_MINUTE: '2' } });
});
after(() => t.close());

function me(partner: TestPartner, headers: Record<string, string> = partner.headers) {
  return t.app.inject({ method: 'GET', url: '/v1/channel-partners/me', headers });
}

function assertRateLimited(res: LightMyRequestResponse, retryAfter: string) {
  assert.equal(res.statusCode, 429, res.body);
  assert.match(String(res.headers['content-type']), /^application\/problem\+json/);
  const body = res.json();
  assert.equal(body.code, 'RATE_LIMITED');
  assert.equal(body.status, 429);
  assert.equal(body.type, 'https://docs.pvs.example/errors/RATE_LIMITED');
  assert.equal(typeof body.requestId, 'string');
  assert.equal(res.headers['retry-after'], retryAfter);
}

describe('/v1 rate limit per partner', () => {
  let alice: TestPartner;
  let bob: TestPartner;

  before(async () => {
    alice = await t.f.partner();
    bob = await t.f.partner();
  });

  it('lets the burst through with RateLimit headers, then answers 429 with Retry-After', async () => {
    const remaining: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      const res = await me(alice);
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.headers['ratelimit-limit'], '3');
      assert.equal(res.headers['ratelimit-policy'], '3;w=3;burst=3');
      assert.equal(res.headers['retry-after'], undefined);
      remaining.push(String(res.headers['ratelimit-remaining']));
    }
    assert.deepEqual(remaining, ['2', '1', '0']);

    const limited = await me(alice);
    assertRateLimited(limited, '1');
    assert.equal(limited.headers['ratelimit-limit'], '3');
    assert.equal(limited.headers['ratelimit-remaining'], '0');
    assert.ok(limited.headers['x-request-id']);

    // Every /v1 route shares the partner's bucket.
    assertRateLimited(await t.app.inject({ method: 'GET', url: '/v1/api-clients', headers: alice.headers }), '1');
  });

  it('leaves another partner unaffected', async () => {
    const res = await me(bob);
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['ratelimit-remaining'], '2');
  });

  it('does not spend the bucket on unauthenticated or mismatched calls', async () => {
    const ivy = await t.f.partner();
    for (let i = 0; i < 4; i += 1) {
      assert.equal((await me(ivy, { 'x-partner-id': ivy.partnerId })).statusCode, 401);
      assert.equal((await me(ivy, { authorization: ivy.headers.authorization, 'x-partner-id': bob.partnerId })).statusCode, 403);
      assert.equal((await me(ivy, { authorization: ivy.headers.authorization })).statusCode, 400);
    }
    const res = await me(ivy);
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['ratelimit-remaining'], '2');
  });

  it('lets a call through once the clock has moved on a second', async () => {
    clock.advance(1000);
    const res = await me(alice);
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['ratelimit-remaining'], '0');
    assertRateLimited(await me(alice), '1');
    clock.advance(3000);
    const refilled = await me(alice);
    assert.equal(refilled.statusCode, 200);
    assert.equal(refilled.headers['ratelimit-remaining'], '2', 'the bucket refills to the burst and no further');
  });

  it('counts per partner, whichever token the partner uses', async () => {
    const carol = await t.f.partner();
    const issued = await t.services.tokens.issue({ clientId: carol.clientId, clientSecret: carol.clientSecret });
    assert.ok(issued.ok);
    const second = { authorization: `Bearer ${issued.body.access_token}`, 'x-partner-id': carol.partnerId };
    assert.notEqual(second.authorization, carol.headers.authorization);
    assert.equal((await me(carol)).statusCode, 200);
    assert.equal((await me(carol, second)).statusCode, 200);
    assert.equal((await me(carol)).statusCode, 200);
    assertRateLimited(await me(carol, second), '1');
  });
});

describe('/oauth2/token rate limit', () => {
  function token(credentials: { clientId: string; clientSecret: string }, remoteAddress: string) {
    return t.app.inject({
      method: 'POST',
      url: '/oauth2/token',
      remoteAddress,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ grant_type: 'client_credentials', client_id: credentials.clientId, client_secret: credentials.clientSecret }).toString(),
    });
  }

  it('limits requests per IP address, whatever the client and whether or not they succeed', async () => {
    const dave = await t.f.partner();
    const erin = await t.f.partner();
    const ip = '203.0.113.10';
    assert.equal((await token(dave, ip)).statusCode, 200);
    assert.equal((await token({ clientId: erin.clientId, clientSecret: 'wrong' }, ip)).statusCode, 401);
    const limited = await token(erin, ip);
    assertRateLimited(limited, '30');
    assert.equal(limited.headers['ratelimit-limit'], '2');
    assert.equal(limited.headers['ratelimit-remaining'], '0');
    assert.equal(limited.headers['ratelimit-policy'], '2;w=60;burst=2');
    // Another address is not affected.
    assert.equal((await token(erin, '203.0.113.11')).statusCode, 200);
  });

  it('limits requests per client across addresses', async () => {
    const frank = await t.f.partner();
    assert.equal((await token(frank, '198.51.100.1')).statusCode, 200);
    assert.equal((await token(frank, '198.51.100.2')).statusCode, 200);
    const limited = await token(frank, '198.51.100.3');
    assertRateLimited(limited, '30');
    assert.match(limited.json().detail, /client/);
    // Other clients go on from a fresh address.
    const gina = await t.f.partner();
    assert.equal((await token(gina, '198.51.100.4')).statusCode, 200);
  });

  it('refills at the configured rate per minute', async () => {
    const hank = await t.f.partner();
    const ip = '192.0.2.50';
    assert.equal((await token(hank, ip)).statusCode, 200);
    assert.equal((await token(hank, ip)).statusCode, 200);
    assertRateLimited(await token(hank, ip), '30');
    clock.advance(15_000);
    assertRateLimited(await token(hank, ip), '15');
    clock.advance(15_000);
    assert.equal((await token(hank, ip)).statusCode, 200);
    assertRateLimited(await token(hank, ip), '30');
  });
});
