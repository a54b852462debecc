// Logs: one access line per request with the route pattern and status, and never a secret or a token.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { createTestContext, type TestContext, type TestPartner } from './helpers/context.ts';

let t: TestContext;
let alice: TestPartner;

before(async () => {
  t = await createTestContext();
  alice = await t.f.partner({ name: 'Alice Accounting' });
});
after(() => t.close());

function tokenRequest(fields: Record<string, string>, headers: Record<string, string> = {}) {
  return t.app.inject({
    method: 'POST',
    url: '/oauth2/token',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    payload: new URLSearchParams(fields).toString(),
  });
}

/** The access lines written for one response, found by its request id. */
function accessLines(res: LightMyRequestResponse) {
  const requestId = res.headers['x-request-id'];
  assert.ok(requestId, 'every response has an X-Request-Id');
  return t.logs.filter((l) => l.requestId === requestId && l.msg === 'request');
}

describe('logging', () => {
  it('runs at info in tests, so that what follows is really checked', () => {
    assert.equal(t.config.LOG_LEVEL, 'info');
  });

  it('writes one access line per request with the route pattern, the status and the partner; never a secret or a token', async () => {
    const wrongSecret = 'pvs_secret_wrong_0123456789abcdefghijklmnop';
    const forgedToken = 'eyJhbGciOiJFUzI1NiJ9.eyJmb3JnZWQiOnRydWV9.c2lnbmF0dXJlLWZvcmdlZA';
    const basic = Buffer.from(`${alice.clientId}:${alice.clientSecret}`).toString('base64');

    const issued = await tokenRequest({ grant_type: 'client_credentials', client_id: alice.clientId, client_secret: alice.clientSecret });
    assert.equal(issued.statusCode, 200, issued.body);
    const accessToken = issued.json().access_token as string;
    const headers = { authorization: `Bearer ${accessToken}`, 'x-partner-id': alice.partnerId };

    const failed = await tokenRequest({ grant_type: 'client_credentials', client_id: alice.clientId, client_secret: wrongSecret });
    assert.equal(failed.statusCode, 401);
    const viaBasic = await tokenRequest({ grant_type: 'client_credentials' }, { authorization: `Basic ${basic}` });
    assert.equal(viaBasic.statusCode, 200);

    const me = await t.app.inject({ method: 'GET', url: '/v1/channel-partners/me', headers });
    assert.equal(me.statusCode, 200);
    const list = await t.app.inject({ method: 'GET', url: '/v1/api-clients?limit=5', headers });
    assert.equal(list.statusCode, 200);
    const one = await t.app.inject({ method: 'GET', url: `/v1/api-clients/${alice.clientId}`, headers });
    assert.equal(one.statusCode, 200);
    const created = await t.app.inject({ method: 'POST', url: '/v1/api-clients', headers, payload: { label: 'second deployment' } });
    assert.equal(created.statusCode, 201);
    const secondSecret = created.json().clientSecret as string;
    const secondId = created.json().id as string;
    assert.ok(secondSecret);
    const revoked = await t.app.inject({ method: 'DELETE', url: `/v1/api-clients/${secondId}`, headers });
    assert.equal(revoked.statusCode, 200);
    const invalid = await t.app.inject({ method: 'POST', url: '/v1/api-clients', headers, payload: { clientSecret: 'pvs_secret_in_a_bad_body' } });
    assert.equal(invalid.statusCode, 400);
    const forged = await t.app.inject({ method: 'GET', url: '/v1/api-clients', headers: { authorization: `Bearer ${forgedToken}`, 'x-partner-id': alice.partnerId } });
    assert.equal(forged.statusCode, 401);
    const unknown = await t.app.inject({ method: 'GET', url: `/v1/nothing/${secondId}`, headers });
    assert.equal(unknown.statusCode, 404);

    const expected: Array<[LightMyRequestResponse, string, string, number, string | undefined]> = [
      [issued, 'POST', '/oauth2/token', 200, undefined],
      [failed, 'POST', '/oauth2/token', 401, undefined],
      [viaBasic, 'POST', '/oauth2/token', 200, undefined],
      [me, 'GET', '/v1/channel-partners/me', 200, alice.partnerId],
      [list, 'GET', '/v1/api-clients', 200, alice.partnerId],
      [one, 'GET', '/v1/api-clients/:id', 200, alice.partnerId],
      [created, 'POST', '/v1/api-clients', 201, alice.partnerId],
      [revoked, 'DELETE', '/v1/api-clients/:id', 200, alice.partnerId],
      [invalid, 'POST', '/v1/api-clients', 400, alice.partnerId],
      [forged, 'GET', '/v1/api-clients', 401, undefined],
      [unknown, 'GET', '(unmatched)', 404, undefined],
    ];
    for (const [res, method, route, status, partnerId] of expected) {
      const lines = accessLines(res);
      assert.equal(lines.length, 1, `one access line for ${method} ${route}, found ${JSON.stringify(lines)}`);
      const line = lines[0]!;
      assert.equal(line.level, 'info');
      assert.equal(line.method, method);
      assert.equal(line.route, route, `${method} ${route}`);
      assert.equal(line.status, status, `${method} ${route}`);
      assert.equal(line.partnerId, partnerId, `${method} ${route}`);
      assert.equal(line.service, 'pvs');
      assert.equal(typeof line.ms, 'number');
      assert.equal(typeof line.time, 'string');
      assert.equal('url' in line, false, 'the raw URL is not logged');
      assert.equal('req' in line || 'res' in line, false, 'no request or response dumps');
    }

    // The concrete ids in the paths never reach the access lines.
    for (const res of [one, revoked, unknown]) {
      const text = JSON.stringify(accessLines(res)[0]);
      assert.equal(text.includes(alice.clientId) || text.includes(secondId), false, text);
    }

    const text = t.logText();
    assert.ok(text.length > 0);
    for (const [what, secret] of [
      ['the client secret', alice.clientSecret],
      ['the second client secret', secondSecret],
      ['the wrong secret', wrongSecret],
      ['a secret sent in a bad body', 'pvs_secret_in_a_bad_body'],
      ['the Basic credentials', basic],
      ['the access token from /oauth2/token', accessToken],
      ['the access token from the factory', alice.token],
      ['the forged token', forgedToken],
      ['a bearer header', 'Bearer '],
      ['a Basic header', 'Basic '],
    ] as const) {
      assert.equal(text.includes(secret), false, `the logs hold ${what}`);
    }
    // Nor a recognisable part of a token (its signature alone would do harm in a log search).
    assert.equal(text.includes(accessToken.split('.')[2]!), false);
    assert.equal(text.includes('pvs_secret_'), false);
  });

  it('logs an unhandled error at error level with its request id, and the access line with status 500', async () => {
    const own = await createTestContext({
      app: {
        extraPartnerRoutes: (api) => {
          api.get('/test/boom', async () => {
            throw new Error('secret detail');
          });
        },
      },
    });
    try {
      const bob = await own.f.partner();
      const res = await own.app.inject({ method: 'GET', url: '/v1/test/boom', headers: bob.headers });
      assert.equal(res.statusCode, 500);
      const requestId = res.headers['x-request-id'];
      const lines = own.logs.filter((l) => l.requestId === requestId);
      const error = lines.find((l) => l.msg === 'unhandled error');
      assert.ok(error, JSON.stringify(lines));
      assert.equal(error.level, 'error');
      assert.equal((error.err as { message: string }).message, 'secret detail');
      const access = lines.filter((l) => l.msg === 'request');
      assert.equal(access.length, 1);
      assert.equal(access[0]!.route, '/v1/test/boom');
      assert.equal(access[0]!.status, 500);
      assert.equal(own.logText().includes(bob.token), false);
      assert.equal(own.logText().includes('Bearer '), false);
    } finally {
      await own.close();
    }
  });
});
