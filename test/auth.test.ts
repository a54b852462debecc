// The authentication matrix: token endpoint, bearer tokens and X-Partner-Id, and tenancy.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createLocalJWKSet, generateKeyPair, jwtVerify, SignJWT } from 'jose';
import { createManualClock } from '../src/platform/clock.ts';
import { hashSecret } from '../src/platform/crypto.ts';
import { createTestContext, type TestContext, type TestPartner } from './helpers/context.ts';

const clock = createManualClock(new Date());
let t: TestContext;
let alice: TestPartner;
let bob: TestPartner;

before(async () => {
  t = await createTestContext({ clock });
  alice = await t.f.partner({ name: 'Alice Accounting' });
  bob = await t.f.partner({ name: 'Bob Tax' });
});
after(() => t.close());

function form(fields: Record<string, string>) {
  return new URLSearchParams(fields).toString();
}

async function token(body: string, headers: Record<string, string> = {}) {
  return t.app.inject({ method: 'POST', url: '/oauth2/token', payload: body, headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers } });
}

function me(headers: Record<string, string>) {
  return t.app.inject({ method: 'GET', url: '/v1/channel-partners/me', headers });
}

describe('POST /oauth2/token', () => {
  it('issues an ES256 token for form credentials, verifiable with the published JWKS', async () => {
    const res = await token(form({ grant_type: 'client_credentials', client_id: alice.clientId, client_secret: alice.clientSecret, scope: 'channel-partner-api/server' }));
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['cache-control'], 'no-store');
    const body = res.json();
    assert.equal(body.token_type, 'Bearer');
    assert.equal(body.expires_in, 3600);
    assert.equal(body.scope, 'channel-partner-api/server');
    const jwks = (await t.app.inject({ method: 'GET', url: '/.well-known/jwks.json' })).json();
    const { payload, protectedHeader } = await jwtVerify(body.access_token, createLocalJWKSet(jwks), { currentDate: clock.now() });
    assert.equal(protectedHeader.alg, 'ES256');
    assert.equal(payload.partner_id, alice.partnerId);
    assert.equal(payload.sub, alice.clientId);
    assert.equal(payload.env, 'sandbox');
    assert.equal(payload.iss, 'http://pvs.test');
    assert.equal((payload.exp as number) - (payload.iat as number), 3600);
  });

  it('accepts HTTP Basic client authentication', async () => {
    const basic = Buffer.from(`${encodeURIComponent(alice.clientId)}:${encodeURIComponent(alice.clientSecret)}`).toString('base64');
    const res = await token(form({ grant_type: 'client_credentials' }), { authorization: `Basic ${basic}` });
    assert.equal(res.statusCode, 200);
  });

  it('answers RFC 6749 error bodies', async () => {
    const cases: Array<[string, Record<string, string>, number, string]> = [
      [form({ grant_type: 'client_credentials', client_id: alice.clientId, client_secret: 'wrong' }), {}, 401, 'invalid_client'],
      [form({ grant_type: 'client_credentials', client_id: 'cli_unknown', client_secret: 'x' }), {}, 401, 'invalid_client'],
      [form({ client_id: alice.clientId, client_secret: alice.clientSecret }), {}, 400, 'invalid_request'],
      [form({ grant_type: 'password', client_id: alice.clientId, client_secret: alice.clientSecret }), {}, 400, 'unsupported_grant_type'],
      [form({ grant_type: 'client_credentials', client_id: alice.clientId, client_secret: alice.clientSecret, scope: 'admin' }), {}, 400, 'invalid_scope'],
      [form({ grant_type: 'client_credentials' }), {}, 400, 'invalid_request'],
      [
        form({ grant_type: 'client_credentials', client_id: alice.clientId, client_secret: alice.clientSecret }),
        { authorization: `Basic ${Buffer.from(`${alice.clientId}:${alice.clientSecret}`).toString('base64')}` },
        400,
        'invalid_request',
      ],
    ];
    for (const [body, headers, status, error] of cases) {
      const res = await token(body, headers);
      assert.equal(res.statusCode, status, `${body} → ${res.body}`);
      assert.equal(res.json().error, error);
      assert.equal(typeof res.json().error_description, 'string');
      if (status === 401) assert.match(String(res.headers['www-authenticate']), /^Basic/);
    }
  });

  it('refuses a JSON token request', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/oauth2/token',
      payload: { grant_type: 'client_credentials', client_id: alice.clientId, client_secret: alice.clientSecret },
    });
    assert.equal(res.statusCode, 400);
    assert.equal(res.json().error, 'invalid_request');
  });
});

describe('client secrets at rest (decision 136)', () => {
  const storedHash = async (clientId: string) =>
    (await t.services.db.query<{ secret_hash: string }>('SELECT secret_hash FROM api_clients WHERE id = $1', [clientId]))[0]!.secret_hash;
  const grant = (partner: TestPartner, secret = partner.clientSecret) =>
    token(form({ grant_type: 'client_credentials', client_id: partner.clientId, client_secret: secret }));

  it('keeps a new secret as its SHA-256 digest, never the secret', async () => {
    const stored = await storedHash(alice.clientId);
    assert.match(stored, /^sha256\$[A-Za-z0-9_-]{43}$/);
    assert.ok(!stored.includes(alice.clientSecret.slice('pvs_secret_'.length)));
  });

  it('still accepts a secret hashed with scrypt before, and keeps its digest instead once it matches; a wrong secret changes nothing', async () => {
    const carol = await t.f.partner({ name: 'Carol Ledgers' });
    const scrypted = await hashSecret(carol.clientSecret);
    await t.services.db.query('UPDATE api_clients SET secret_hash = $2 WHERE id = $1', [carol.clientId, scrypted]);
    assert.equal((await grant(carol, `${carol.clientSecret}x`)).statusCode, 401);
    assert.equal(await storedHash(carol.clientId), scrypted, 'a wrong secret does not move it');
    assert.equal((await grant(carol)).statusCode, 200);
    assert.match(await storedHash(carol.clientId), /^sha256\$/);
    assert.equal((await grant(carol)).statusCode, 200, 'and the digest verifies the same secret');
    assert.equal((await grant(carol, `${carol.clientSecret}x`)).statusCode, 401);
  });
});

describe('/v1 authentication', () => {
  it('answers the partner for a valid token and matching X-Partner-Id', async () => {
    const res = await me(alice.headers);
    assert.equal(res.statusCode, 200);
    const body = res.json();
    assert.deepEqual(Object.keys(body).sort(), ['commissionBps', 'createdAt', 'environment', 'id', 'monitoringEligible', 'name']);
    assert.equal(body.id, alice.partnerId);
    assert.equal(body.name, 'Alice Accounting');
    assert.equal(body.environment, 'sandbox');
    assert.equal(body.monitoringEligible, false);
  });

  it('401 without a token, with WWW-Authenticate', async () => {
    const res = await me({ 'x-partner-id': alice.partnerId });
    assert.equal(res.statusCode, 401);
    assert.equal(res.json().code, 'UNAUTHENTICATED');
    assert.match(String(res.headers['www-authenticate']), /^Bearer/);
  });

  it('401 for a malformed or non-bearer Authorization header', async () => {
    for (const authorization of ['Bearer', 'Basic abc', `bearer ${alice.token}x!`, 'Bearer not.a.jwt']) {
      const res = await me({ authorization, 'x-partner-id': alice.partnerId });
      assert.equal(res.statusCode, 401, authorization);
    }
  });

  it('401 for a bad signature', async () => {
    const [header, payload, signature] = alice.token.split('.');
    const flipped = `${signature!.slice(0, 10)}${signature![10] === 'A' ? 'B' : 'A'}${signature!.slice(11)}`;
    assert.equal((await me({ authorization: `Bearer ${header}.${payload}.${flipped}`, 'x-partner-id': alice.partnerId })).statusCode, 401);

    // Signed by a key of our own making that claims the service's kid.
    const { privateKey } = await generateKeyPair('ES256');
    const forged = await new SignJWT({ partner_id: alice.partnerId, scope: 'channel-partner-api/server', env: 'sandbox' })
      .setProtectedHeader({ alg: 'ES256', kid: (await t.services.keys.active()).kid })
      .setIssuer('http://pvs.test')
      .setSubject(alice.clientId)
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(privateKey);
    assert.equal((await me({ authorization: `Bearer ${forged}`, 'x-partner-id': alice.partnerId })).statusCode, 401);
  });

  async function mint(claims: Record<string, unknown>, expiresIn = 3600) {
    const now = Math.floor(clock.now().getTime() / 1000);
    const { kid, privateKey } = await t.services.keys.active();
    return new SignJWT({ partner_id: alice.partnerId, scope: 'channel-partner-api/server', env: 'sandbox', ...claims })
      .setProtectedHeader({ alg: 'ES256', kid })
      .setIssuer('http://pvs.test')
      .setSubject(alice.clientId)
      .setIssuedAt(now)
      .setExpirationTime(now + expiresIn)
      .sign(privateKey);
  }

  it('401 for a token of another environment, another issuer or another scope', async () => {
    assert.equal((await me({ authorization: `Bearer ${await mint({})}`, 'x-partner-id': alice.partnerId })).statusCode, 200, 'control: a well-formed token passes');
    for (const claims of [{ env: 'production' }, { scope: 'other' }]) {
      const res = await me({ authorization: `Bearer ${await mint(claims)}`, 'x-partner-id': alice.partnerId });
      assert.equal(res.statusCode, 401, JSON.stringify(claims));
    }
    const { kid, privateKey } = await t.services.keys.active();
    const otherIssuer = await new SignJWT({ partner_id: alice.partnerId, scope: 'channel-partner-api/server', env: 'sandbox' })
      .setProtectedHeader({ alg: 'ES256', kid })
      .setIssuer('https://elsewhere.example')
      .setSubject(alice.clientId)
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(privateKey);
    assert.equal((await me({ authorization: `Bearer ${otherIssuer}`, 'x-partner-id': alice.partnerId })).statusCode, 401);
  });

  it('401 once the token has expired', async () => {
    const fresh = await t.f.partner();
    assert.equal((await me(fresh.headers)).statusCode, 200);
    clock.advance(3601 * 1000);
    const res = await me(fresh.headers);
    clock.advance(-3601 * 1000);
    assert.equal(res.statusCode, 401);
    assert.equal(res.json().code, 'UNAUTHENTICATED');
  });

  it('400 pointing at the header when X-Partner-Id is missing', async () => {
    const res = await me({ authorization: alice.headers.authorization });
    assert.equal(res.statusCode, 400);
    assert.equal(res.json().code, 'VALIDATION_ERROR');
    assert.deepEqual(res.json().errors.map((e: { pointer: string }) => e.pointer), ['header:X-Partner-Id']);
  });

  it('403 PARTNER_MISMATCH when X-Partner-Id is another partner', async () => {
    const res = await me({ authorization: alice.headers.authorization, 'x-partner-id': bob.partnerId });
    assert.equal(res.statusCode, 403);
    assert.equal(res.json().code, 'PARTNER_MISMATCH');
  });

  it("404 for another partner's row, exactly as for an id that does not exist", async () => {
    const bobClient = (await t.app.inject({ method: 'GET', url: '/v1/api-clients', headers: bob.headers })).json().data[0].id;
    const theirs = await t.app.inject({ method: 'GET', url: `/v1/api-clients/${bobClient}`, headers: alice.headers });
    const missing = await t.app.inject({ method: 'GET', url: '/v1/api-clients/cli_01M7YSX1AMSAS76PW5S6WMSP39', headers: alice.headers });
    assert.equal(theirs.statusCode, 404);
    assert.equal(missing.statusCode, 404);
    assert.equal(theirs.json().code, 'NOT_FOUND');
    const revoke = await t.app.inject({ method: 'DELETE', url: `/v1/api-clients/${bobClient}`, headers: alice.headers });
    assert.equal(revoke.statusCode, 404);
    assert.equal((await t.app.inject({ method: 'GET', url: `/v1/api-clients/${bobClient}`, headers: bob.headers })).json().revokedAt, null);
  });

  it("a revoked client's tokens stop working within a minute", async () => {
    const carol = await t.f.partner();
    const second = await t.app.inject({ method: 'POST', url: '/v1/api-clients', headers: carol.headers, payload: { label: 'new deployment' } });
    assert.equal(second.statusCode, 201);
    const revoked = await t.app.inject({ method: 'DELETE', url: `/v1/api-clients/${carol.clientId}`, headers: carol.headers });
    assert.equal(revoked.statusCode, 200);
    assert.ok(revoked.json().revokedAt);
    clock.advance(61_000);
    assert.equal((await me(carol.headers)).statusCode, 401);
    const issued = await token(form({ grant_type: 'client_credentials', client_id: carol.clientId, client_secret: carol.clientSecret }));
    assert.equal(issued.statusCode, 401);
    const next = await token(form({ grant_type: 'client_credentials', client_id: second.json().id, client_secret: second.json().clientSecret }));
    assert.equal(next.statusCode, 200);
  });

  it('refuses to revoke the last active client', async () => {
    const dave = await t.f.partner();
    const res = await t.app.inject({ method: 'DELETE', url: `/v1/api-clients/${dave.clientId}`, headers: dave.headers });
    assert.equal(res.statusCode, 409);
    assert.equal(res.json().code, 'INVALID_STATE');
  });
});
