// HTTP conventions every answer follows: X-Request-Id, security headers, caching, liveness and readiness.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestContext, type TestContext, type TestPartner } from './helpers/context.ts';

const generatedRequestId = /^req_[0-9A-HJKMNP-TV-Z]{26}$/;

let t: TestContext;
let alice: TestPartner;

before(async () => {
  t = await createTestContext();
  alice = await t.f.partner({ name: 'Alice Accounting' });
});
after(() => t.close());

describe('X-Request-Id', () => {
  it('is generated as req_ + 26 characters when the client sends none, and differs per request', async () => {
    const ids = new Set<string>();
    for (const url of ['/health', '/v1/channel-partners/me', '/v1/nope']) {
      const res = await t.app.inject({ method: 'GET', url, headers: alice.headers });
      const id = String(res.headers['x-request-id']);
      assert.match(id, generatedRequestId, url);
      ids.add(id);
    }
    assert.equal(ids.size, 3);
  });

  it('echoes a well-formed incoming id, on success and in problem bodies', async () => {
    const incoming = 'trace-0af7651916cd43dd8448eb211c80319c';
    const ok = await t.app.inject({ method: 'GET', url: '/v1/channel-partners/me', headers: { ...alice.headers, 'x-request-id': incoming } });
    assert.equal(ok.statusCode, 200);
    assert.equal(ok.headers['x-request-id'], incoming);

    const missing = await t.app.inject({ method: 'GET', url: '/v1/api-clients/cli_01M7YSX1AMSAS76PW5S6WMSP39', headers: { ...alice.headers, 'x-request-id': incoming } });
    assert.equal(missing.statusCode, 404);
    assert.equal(missing.headers['x-request-id'], incoming);
    assert.equal(missing.json().requestId, incoming);

    const longest = 'a'.repeat(128);
    assert.equal((await t.app.inject({ method: 'GET', url: '/health', headers: { 'x-request-id': longest } })).headers['x-request-id'], longest);
  });

  it('replaces an incoming id that is malformed or too long', async () => {
    for (const incoming of ['has spaces in it', 'x'.repeat(129), 'x'.repeat(200), '<script>', 'semi;colon', '']) {
      const res = await t.app.inject({ method: 'GET', url: '/v1/channel-partners/me', headers: { ...alice.headers, 'x-request-id': incoming } });
      assert.equal(res.statusCode, 200);
      assert.match(String(res.headers['x-request-id']), generatedRequestId, JSON.stringify(incoming));
    }
    const problem = await t.app.inject({ method: 'GET', url: '/v1/nope', headers: { ...alice.headers, 'x-request-id': 'has spaces in it' } });
    assert.equal(problem.statusCode, 404);
    assert.match(problem.json().requestId, generatedRequestId);
    assert.equal(problem.json().requestId, problem.headers['x-request-id']);
  });

  it('problem bodies carry the same id as the header, whatever stage refused the request', async () => {
    const cases = [
      { method: 'GET' as const, url: '/v1/channel-partners/me', headers: {}, status: 401 },
      { method: 'GET' as const, url: '/v1/channel-partners/me', headers: { authorization: alice.headers.authorization, 'x-partner-id': 'ptn_other' }, status: 403 },
      { method: 'GET' as const, url: '/v1/api-clients?limit=0', headers: alice.headers, status: 400 },
      { method: 'GET' as const, url: '/nowhere', headers: {}, status: 404 },
      { method: 'POST' as const, url: '/v1/api-clients', headers: { ...alice.headers, 'content-type': 'application/json' }, payload: '{', status: 400 },
    ];
    for (const { status, ...request } of cases) {
      const res = await t.app.inject(request);
      assert.equal(res.statusCode, status, `${request.url}: ${res.body}`);
      assert.match(String(res.headers['x-request-id']), generatedRequestId);
      assert.equal(res.json().requestId, res.headers['x-request-id'], request.url);
    }
  });
});

describe('security headers', () => {
  function assertSecurityHeaders(headers: Record<string, unknown>, what: string) {
    assert.equal(headers['x-content-type-options'], 'nosniff', what);
    const csp = String(headers['content-security-policy'] ?? '');
    assert.match(csp, /(^|;)\s*frame-ancestors 'none'\s*(;|$)/, `${what}: ${csp}`);
    assert.ok(headers['referrer-policy'], `${what}: referrer-policy`);
    assert.equal(headers['referrer-policy'], 'no-referrer', what);
    assert.equal(headers['x-frame-options'], 'DENY', what);
    assert.match(csp, /^default-src 'none'/, `${what}: nothing may load from a JSON answer`);
    assert.equal(headers['strict-transport-security'], undefined, `${what}: no HSTS in sandbox`);
    assert.equal(headers['x-powered-by'], undefined, what);
  }

  it('on /health and /ready', async () => {
    for (const url of ['/health', '/ready']) {
      const res = await t.app.inject({ method: 'GET', url });
      assert.equal(res.statusCode, 200);
      assertSecurityHeaders(res.headers, url);
    }
  });

  it('on /v1 successes and problems, which are never cached', async () => {
    const answers = [
      ['GET /v1/channel-partners/me', await t.app.inject({ method: 'GET', url: '/v1/channel-partners/me', headers: alice.headers }), 200],
      ['GET /v1/api-clients', await t.app.inject({ method: 'GET', url: '/v1/api-clients', headers: alice.headers }), 200],
      ['401', await t.app.inject({ method: 'GET', url: '/v1/api-clients' }), 401],
      ['400', await t.app.inject({ method: 'GET', url: '/v1/api-clients?limit=0', headers: alice.headers }), 400],
      ['404 route', await t.app.inject({ method: 'GET', url: '/v1/nope', headers: alice.headers }), 404],
      ['404 id', await t.app.inject({ method: 'GET', url: '/v1/api-clients/cli_nope', headers: alice.headers }), 404],
    ] as const;
    for (const [what, res, status] of answers) {
      assert.equal(res.statusCode, status, what);
      assertSecurityHeaders(res.headers, what);
      assert.equal(res.headers['cache-control'], 'no-store', what);
    }
  });

  it('on the token endpoint, which is no-store too', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/oauth2/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ grant_type: 'client_credentials', client_id: alice.clientId, client_secret: alice.clientSecret }).toString(),
    });
    assert.equal(res.statusCode, 200);
    assertSecurityHeaders(res.headers, '/oauth2/token');
    assert.equal(res.headers['cache-control'], 'no-store');
  });
});

describe('/health and /ready', () => {
  it('GET /health answers 200 {status: ok}', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/health' });
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /^application\/json/);
    assert.deepEqual(res.json(), { status: 'ok' });
  });

  it('GET /ready answers 200 {status: ready} on a reachable, migrated database', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/ready' });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json(), { status: 'ready' });
  });

  it('GET /ready answers a 503 problem once the database is gone, while /health still answers', async () => {
    const own = await createTestContext();
    try {
      assert.equal((await own.app.inject({ method: 'GET', url: '/ready' })).statusCode, 200, 'control: ready before');
      await own.database.db.close();

      const res = await own.app.inject({ method: 'GET', url: '/ready' });
      assert.equal(res.statusCode, 503, res.body);
      assert.match(String(res.headers['content-type']), /^application\/problem\+json/);
      assert.equal(res.headers['retry-after'], '5');
      const body = res.json();
      assert.equal(body.type, 'https://docs.pvs.example/errors/SERVICE_UNAVAILABLE');
      assert.equal(body.status, 503);
      assert.equal(body.code, 'SERVICE_UNAVAILABLE');
      assert.equal(body.requestId, res.headers['x-request-id']);
      assert.equal('errors' in body, false);

      const health = await own.app.inject({ method: 'GET', url: '/health' });
      assert.equal(health.statusCode, 200);
      assert.deepEqual(health.json(), { status: 'ok' });
    } finally {
      // The database is closed already; closing the rest must not fail.
      await own.close();
    }
  });
});
