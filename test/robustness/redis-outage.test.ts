// Redis (REDIS_URL, the shared rate-limit counters) going away and coming back, through a TCP proxy the
// test cuts. Calls keep being answered, rate limited from the node's own buckets; the log says so once
// when Redis goes and once when it is back, not on every sync.
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, it } from 'node:test';
import { Redis } from 'ioredis';
import { createManualClock } from '../../src/platform/clock.ts';
import { createTestContext, type TestContext, type TestPartner } from '../helpers/context.ts';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy.ts';

const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const wentAway = 'rate-limit counters unreachable (Redis): rate limits are per node until it returns';
const cameBack = 'rate-limit counters reachable again (Redis): rate limits are shared across nodes again';

let t: TestContext;
let proxy: TcpProxy;

before(async () => {
  const target = new URL(redisUrl);
  proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 6379) });
  // The clock stands still, so no token comes back between the calls, however slow the machine is.
  t = await createTestContext({
    env: { REDIS_URL: proxy.urlFor(redisUrl), RATE_LIMIT_BURST: '5', RATE_LIMIT_PER_SECOND: '1' },
    clock: createManualClock(new Date()),
  });
});
after(async () => {
  await t.close();
  await proxy.close();
});

const me = (partner: TestPartner) => t.app.inject({ method: 'GET', url: '/v1/channel-partners/me', headers: partner.headers });
const logged = (msg: string) => t.logs.filter((l) => l.msg === msg).length;

async function until(what: string, condition: () => boolean | Promise<boolean>, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

it('keeps answering with per-node limits while Redis is cut, says so once, and once again when it is back', async () => {
  const partner = await t.f.partner();
  // Shared counting works: this node's consumption reaches Redis.
  assert.equal((await me(partner)).statusCode, 200);
  const redis = new Redis(redisUrl);
  try {
    // The client connects to Redis at its first use; on a loaded machine that, and the next sync, can take seconds.
    await until('the consumption to reach Redis', async () => Number(await redis.get(`pvs:rl:partner:${partner.partnerId}`)) >= 1, 20_000);
  } finally {
    redis.disconnect();
  }

  proxy.cut();
  // The calls are answered all the same, limited by this node's own bucket: the burst, then 429.
  const during = await t.f.partner();
  const statuses: number[] = [];
  for (let i = 0; i < 7; i++) {
    const res = await me(during);
    statuses.push(res.statusCode);
    assert.equal(res.headers['ratelimit-limit'], '5');
  }
  assert.deepEqual(statuses, [200, 200, 200, 200, 200, 429, 429]);
  // Syncs run every 200 ms and fail while Redis is away: one line says so, however many fail.
  await until('the log to say limits are per node', () => logged(wentAway) === 1);
  await sleep(1_000);
  assert.equal((await me(partner)).statusCode, 200);
  assert.equal(logged(wentAway), 1, 'said once, not once per failed sync');
  assert.equal(logged(cameBack), 0);

  proxy.restore();
  // ioredis reconnects on its own (its retry waits grow to 2 s); the next sync that succeeds says so.
  await until(
    'the log to say limits are shared again',
    async () => {
      await me(partner);
      return logged(cameBack) === 1;
    },
    20_000,
  );
  await sleep(600);
  assert.equal(logged(wentAway), 1);
  assert.equal(logged(cameBack), 1);
  assert.equal(t.logs.filter((l) => /rate-limit sync failed/.test(String(l.msg))).length, 0);
});
