// Signing-key rotation on two nodes sharing one database and one clock: the new key is published at once
// and signs on both nodes a minute later; tokens of either key verify on either node; the old key leaves
// the JWKS, and its tokens are 401, once every token it signed has expired plus the JWKS cache time. The
// schedule (SIGNING_KEY_ROTATION_DAYS) rotates when the newest key is that old, and not before, making one
// key when two workers run it at once.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify, SignJWT, type CryptoKey } from 'jose';
import { createAuthModule } from '../../src/modules/auth/auth.module.ts';
import { jwksCacheSeconds, publishLeadSeconds, reloadSeconds, tokenLifetimeLimitSeconds } from '../../src/modules/auth/signing-keys.ts';
import { createManualClock } from '../../src/platform/clock.ts';
import type { JobContext } from '../../src/platform/jobs/job.ts';
import { createJobQueue } from '../../src/platform/jobs/queue.ts';
import { createWorker } from '../../src/platform/jobs/worker.ts';
import { createKeyRing } from '../../src/platform/keys/key-ring.ts';
import { createTestContext, testSecretKey, type TestContext, type TestPartner } from '../helpers/context.ts';

const second = 1000;
const day = 24 * 3600 * second;

function kidOf(token: string): string | undefined {
  return decodeProtectedHeader(token).kid;
}

async function jwksOf(t: TestContext) {
  const res = await t.app.inject({ method: 'GET', url: '/.well-known/jwks.json' });
  assert.equal(res.statusCode, 200);
  assert.equal(res.headers['cache-control'], `public, max-age=${jwksCacheSeconds}`);
  return res.json<{ keys: Array<{ kid: string; kty: string; alg: string }> }>();
}

const kidsOf = async (t: TestContext) => (await jwksOf(t)).keys.map((k) => k.kid);

function me(t: TestContext, partner: TestPartner, token = partner.token) {
  return t.app.inject({ method: 'GET', url: '/v1/channel-partners/me', headers: { authorization: `Bearer ${token}`, 'x-partner-id': partner.partnerId } });
}

describe('rotating the signing key on two nodes', () => {
  const clock = createManualClock(new Date('2026-03-02T09:00:00.000Z'));
  let a: TestContext;
  let b: TestContext;

  before(async () => {
    a = await createTestContext({ clock });
    b = await createTestContext({ clock, database: a.database });
  });
  after(async () => {
    await b.app.close();
    await b.services.close();
    await a.close();
  });

  it('publishes the new key at once, signs with it a minute later everywhere, and retires the old one after its tokens', async () => {
    const partner = await a.f.partner();
    const oldKid = (await a.services.keys.active()).kid;
    assert.equal(kidOf(partner.token), oldKid);
    assert.deepEqual(await kidsOf(a), [oldKid]);
    assert.equal((await b.services.keys.active()).kid, oldKid, 'both nodes sign with the one key');

    // A token of the old key that outlives the key (PVS issues none), to see the key itself refused.
    const { privateKey: oldPrivate } = await a.services.keys.active();
    const longLived = await mint(partner, oldKid, oldPrivate, clock.now(), 2 * day);
    const operator = await a.f.operator();

    const rotation = await a.services.keys.rotate();
    assert.equal(rotation.replaced.kid, oldKid);
    assert.notEqual(rotation.kid, oldKid);
    assert.equal(rotation.createdAt.getTime(), clock.now().getTime());
    assert.equal(rotation.signsFrom.getTime() - rotation.createdAt.getTime(), publishLeadSeconds * second);
    assert.equal(rotation.replaced.leavesAt.getTime() - rotation.signsFrom.getTime(), (tokenLifetimeLimitSeconds + jwksCacheSeconds) * second);
    const newKid = rotation.kid;

    // Published at once on the node that rotated; the other reads it within reloadSeconds.
    assert.deepEqual(await kidsOf(a), [newKid, oldKid]);
    assert.deepEqual(await kidsOf(b), [oldKid]);
    clock.advance((reloadSeconds + 1) * second);
    assert.deepEqual(await kidsOf(b), [newKid, oldKid]);

    // Until signsFrom, both nodes still sign with the old key; the last such token is the old key's latest.
    clock.set(new Date(rotation.signsFrom.getTime() - second));
    const lastOfOld = await a.f.signIn(partner);
    assert.equal(kidOf(lastOfOld.token), oldKid);
    assert.equal(kidOf((await b.f.signIn(partner)).token), oldKid);

    clock.set(rotation.signsFrom);
    const fromA = await a.f.signIn(partner);
    const fromB = await b.f.signIn(partner);
    assert.equal(kidOf(fromA.token), newKid);
    assert.equal(kidOf(fromB.token), newKid);
    for (const node of [a, b]) {
      for (const token of [partner.token, lastOfOld.token, fromA.token, fromB.token, longLived]) {
        const res = await me(node, partner, token);
        assert.equal(res.statusCode, 200, `${kidOf(token)} on ${node === a ? 'a' : 'b'}: ${res.body}`);
      }
    }
    // An operator token of the old key still opens /ops/v1, and new ones are of the new key.
    assert.equal((await a.app.inject({ method: 'GET', url: '/ops/v1/me', headers: operator.headers })).statusCode, 200);
    assert.equal(kidOf(operator.token), oldKid);
    assert.equal(kidOf((await a.f.operator()).token), newKid);

    // A partner verifying with the published JWKS, as a library would.
    const jwks = createLocalJWKSet(await jwksOf(b));
    for (const token of [lastOfOld.token, fromB.token]) await jwtVerify(token, jwks, { currentDate: clock.now() });

    // The old key's last token verifies until it expires; the key stays until the JWKS cache time after.
    clock.set(new Date(expiresAt(lastOfOld.token) - second));
    assert.equal((await me(b, partner, lastOfOld.token)).statusCode, 200);
    clock.set(new Date(rotation.replaced.leavesAt.getTime() - second));
    assert.equal((await me(b, partner, lastOfOld.token)).statusCode, 401, 'expired');
    for (const node of [a, b]) {
      assert.deepEqual(await kidsOf(node), [newKid, oldKid]);
      assert.equal((await me(node, partner, longLived)).statusCode, 200);
    }

    clock.set(rotation.replaced.leavesAt);
    for (const node of [a, b]) {
      assert.deepEqual(await kidsOf(node), [newKid]);
      const refused = await me(node, partner, longLived);
      assert.equal(refused.statusCode, 401, refused.body);
      assert.equal(refused.json().code, 'UNAUTHENTICATED');
      assert.equal((await me(node, partner, (await node.f.signIn(partner)).token)).statusCode, 200);
    }
    // Signed by a key that has left and whose row is gone: 401 still, on both nodes.
    assert.deepEqual(await a.services.keys.deleteRetired(), [oldKid]);
    assert.deepEqual(
      (await a.services.db.query<{ kid: string }>('SELECT kid FROM signing_keys')).map((r) => r.kid),
      [newKid],
    );
    clock.advance((reloadSeconds + 1) * second);
    for (const node of [a, b]) assert.equal((await me(node, partner, longLived)).statusCode, 401);
  });

  it('tokens of a key made on one node verify on the other', async () => {
    const partner = await b.f.partner();
    const rotation = await b.services.keys.rotate();
    clock.set(rotation.signsFrom);
    const fromB = await b.f.signIn(partner);
    assert.equal(kidOf(fromB.token), rotation.kid);
    assert.equal((await me(a, partner, fromB.token)).statusCode, 200);
    const fromA = await a.f.signIn(partner);
    assert.equal(kidOf(fromA.token), rotation.kid);
    assert.equal((await me(b, partner, fromA.token)).statusCode, 200);
  });

  it('a made-up kid is 401 and costs no read of the keys', async () => {
    const partner = await a.f.partner();
    await a.services.keys.jwks();
    const reads = countKeyReads(a);
    const forged = await mint(partner, 'key_made_up', (await a.services.keys.active()).privateKey, clock.now(), 600);
    for (let i = 0; i < 5; i++) assert.equal((await me(a, partner, forged)).statusCode, 401);
    assert.equal(reads.stop(), 0);
  });
});

describe('the signing-key schedule', () => {
  const clock = createManualClock(new Date('2026-04-01T00:00:00.000Z'));
  let t: TestContext;

  before(async () => {
    t = await createTestContext({ clock, env: { SIGNING_KEY_ROTATION_DAYS: '30' } });
  });
  after(() => t.close());

  /** The auth module as services.ts makes it: another node of the same database, with its job. */
  async function authNode(rotationDays = t.config.SIGNING_KEY_ROTATION_DAYS) {
    return createAuthModule({
      db: t.services.db,
      clock,
      logger: t.services.logger,
      config: { ...t.config, SIGNING_KEY_ROTATION_DAYS: rotationDays },
      keyRing: createKeyRing(testSecretKey),
      clients: { findActiveClient: async () => undefined, replaceSecretHash: async () => undefined, isClientActive: async () => false },
      limiter: t.services.tokenLimiter,
    });
  }

  const rows = () => t.services.db.query<{ kid: string; created_at: Date }>('SELECT kid, created_at FROM signing_keys ORDER BY created_at');

  it('is on the queue', () => {
    assert.ok(t.services.jobDefinitions.some((d) => d.kind === 'auth.signing-keys'));
  });

  it('rotates when the newest key is older than SIGNING_KEY_ROTATION_DAYS, and not before', async () => {
    const node = await authNode();
    const queue = createJobQueue({ clock, definitions: node.jobs });
    const worker = createWorker({ db: t.services.db, clock, queue, definitions: node.jobs, logger: t.services.logger, leaseSeconds: 60, pollMilliseconds: 250 });
    const [first] = await rows();

    assert.ok((await worker.drain()) >= 1, 'the slot of this hour ran');
    clock.advance(30 * day - 3600 * second);
    assert.ok((await worker.drain()) >= 1);
    assert.equal((await rows()).length, 1, '29 days 23 hours: not yet');

    clock.advance(2 * 3600 * second);
    assert.ok((await worker.drain()) >= 1);
    const after = await rows();
    assert.equal(after.length, 2, '30 days 1 hour: rotated');
    assert.equal(after[1]!.created_at.getTime(), clock.now().getTime());
    assert.equal(after[0]!.kid, first!.kid);

    clock.advance(2 * 3600 * second);
    assert.ok((await worker.drain()) >= 1);
    assert.deepEqual((await rows()).map((r) => r.kid), [after[1]!.kid], 'no second rotation; the replaced key deleted once it left (66 minutes on)');
  });

  it('makes one key when two workers run it at once', async () => {
    const [x, y] = await Promise.all([authNode(), authNode()]);
    clock.advance(31 * day);
    const before = await rows();
    const run = (node: Awaited<ReturnType<typeof authNode>>) => node.jobs[0]!.handler({ slot: clock.now().toISOString() }, {} as JobContext);
    await Promise.all([run(x), run(y), run(x), run(y)]);
    const now = await rows();
    assert.equal(now.length, before.length + 1);
    assert.equal(now.filter((r) => r.created_at.getTime() === clock.now().getTime()).length, 1);
  });

  it('never rotates with SIGNING_KEY_ROTATION_DAYS=0', async () => {
    const node = await authNode(0);
    clock.advance(400 * day);
    const before = (await rows()).at(-1)!.kid;
    await node.jobs[0]!.handler({ slot: clock.now().toISOString() }, {} as JobContext);
    const now = await rows();
    assert.deepEqual(now.map((r) => r.kid), [before], 'no new key; the replaced one deleted');
  });
});

function expiresAt(token: string): number {
  const payload = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as { exp: number };
  return payload.exp * 1000;
}

async function mint(partner: TestPartner, kid: string, privateKey: CryptoKey, at: Date, lifetimeSeconds: number): Promise<string> {
  const now = Math.floor(at.getTime() / 1000);
  return new SignJWT({ partner_id: partner.partnerId, scope: 'channel-partner-api/server', env: 'sandbox' })
    .setProtectedHeader({ alg: 'ES256', kid, typ: 'JWT' })
    .setIssuer('http://pvs.test')
    .setSubject(partner.clientId)
    .setIssuedAt(now)
    .setExpirationTime(now + lifetimeSeconds)
    .sign(privateKey);
}

/** Counts the statements that read signing_keys on t's database until stop(). */
function countKeyReads(t: TestContext) {
  const db = t.services.db;
  const original = db.query.bind(db);
  let count = 0;
  db.query = (async (sql: string, params?: readonly unknown[]) => {
    if (/FROM signing_keys/.test(sql)) count++;
    return original(sql, params);
  }) as typeof db.query;
  return {
    stop() {
      db.query = original;
      return count;
    },
  };
}
