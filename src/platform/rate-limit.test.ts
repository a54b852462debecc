// Token buckets on a manual clock, and several limiters (API nodes) exchanging consumption through a
// shared store: in memory, in the database (PGlite or PostgreSQL) and in Redis.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { Redis } from 'ioredis';
import { createTestDatabase, type TestDatabase } from '../../test/helpers/database.ts';
import { createManualClock } from './clock.ts';
import { createDatabaseRateLimitStore, createRateLimiter, purgeRateLimitCounters, type RateLimiter, type RateLimitStore } from './rate-limit.ts';
import { createRedisRateLimitStore } from './redis-rate-limit-store.ts';

const redisUrl = 'redis://127.0.0.1:6379';
const hour = 3_600_000;

function memoryStore(): RateLimitStore {
  const totals = new Map<string, number>();
  return {
    async add(key, n) {
      const total = (totals.get(key) ?? 0) + n;
      totals.set(key, total);
      return total;
    },
  };
}

describe('token bucket', () => {
  it('allows the burst, then refuses with the time until the next token', () => {
    const clock = createManualClock();
    const limiter = createRateLimiter({ ratePerSecond: 1, burst: 3, clock });
    const decisions = [1, 2, 3].map(() => limiter.take('k'));
    assert.deepEqual(
      decisions.map((d) => [d.allowed, d.limit, d.remaining, d.resetSeconds, d.retryAfterSeconds]),
      [
        [true, 3, 2, 1, 0],
        [true, 3, 1, 2, 0],
        [true, 3, 0, 3, 0],
      ],
    );
    assert.equal(decisions[0]!.policy, '3;w=3;burst=3');
    const refused = limiter.take('k');
    assert.equal(refused.allowed, false);
    assert.equal(refused.remaining, 0);
    assert.equal(refused.retryAfterSeconds, 1);
    assert.equal(refused.resetSeconds, 3);
    assert.equal(refused.limit, 3);
    limiter.close();
  });

  it('refills at the rate, never beyond the burst, and refusals cost nothing', () => {
    const clock = createManualClock();
    const limiter = createRateLimiter({ ratePerSecond: 1, burst: 3, clock });
    for (let i = 0; i < 3; i += 1) assert.ok(limiter.take('k').allowed);
    for (let i = 0; i < 5; i += 1) assert.equal(limiter.take('k').allowed, false);

    clock.advance(500);
    const half = limiter.take('k');
    assert.equal(half.allowed, false);
    assert.equal(half.retryAfterSeconds, 1, 'half a token: one second, rounded up');
    clock.advance(500);
    const one = limiter.take('k');
    assert.equal(one.allowed, true, 'a second later there is one token');
    assert.equal(one.remaining, 0);
    assert.equal(limiter.take('k').allowed, false);

    clock.advance(2500);
    const partial = limiter.take('k');
    assert.equal(partial.allowed, true);
    assert.equal(partial.remaining, 1, '2.5 tokens less one leaves 1.5, shown as 1');
    assert.equal(partial.resetSeconds, 2);

    clock.advance(hour);
    const full = limiter.take('k');
    assert.equal(full.remaining, 2, 'an idle hour refills to the burst and no further');
    assert.equal(full.resetSeconds, 1);
    limiter.close();
  });

  it('handles rates below one per second', () => {
    const clock = createManualClock();
    const limiter = createRateLimiter({ ratePerSecond: 2 / 60, burst: 2, clock });
    assert.ok(limiter.take('k').allowed);
    const last = limiter.take('k');
    assert.ok(last.allowed);
    assert.equal(last.resetSeconds, 60);
    assert.equal(last.policy, '2;w=60;burst=2');
    assert.equal(limiter.take('k').retryAfterSeconds, 30);
    clock.advance(15_000);
    assert.equal(limiter.take('k').retryAfterSeconds, 15);
    clock.advance(15_000);
    assert.equal(limiter.take('k').allowed, true);
    limiter.close();
  });

  it('keeps a bucket per key', () => {
    const clock = createManualClock();
    const limiter = createRateLimiter({ ratePerSecond: 1, burst: 1, clock });
    assert.ok(limiter.take('a').allowed);
    assert.equal(limiter.take('a').allowed, false);
    assert.ok(limiter.take('b').allowed);
    limiter.close();
  });

  it('syncs to nothing without a store', async () => {
    const clock = createManualClock();
    const limiter = createRateLimiter({ ratePerSecond: 1, burst: 2, clock });
    limiter.take('k');
    await limiter.sync();
    assert.equal(limiter.take('k').remaining, 0);
    limiter.close();
  });
});

/**
 * Two API nodes on one store: after each syncs, what one consumed is taken off the other's bucket.
 * The limiters' own timers are set an hour apart so that only the explicit sync() calls run.
 */
async function sharedBucketScenario(store: RateLimitStore, otherStore: RateLimitStore = store): Promise<void> {
  const clock = createManualClock();
  const key = `partner:test-${randomUUID()}`;
  const nodes: RateLimiter[] = [];
  const node = (s: RateLimitStore) => {
    const limiter = createRateLimiter({ ratePerSecond: 1, burst: 10, clock, store: s, syncMs: hour });
    nodes.push(limiter);
    return limiter;
  };
  const a = node(store);
  const b = node(otherStore);
  try {
    // Each node first learns where the shared counter stands.
    assert.equal(a.take(key).remaining, 9);
    await a.sync();
    assert.equal(b.take(key).remaining, 9);
    await b.sync();
    await a.sync();
    assert.equal(a.take(key).remaining, 7, "a's bucket lost b's one request");

    // a takes 5 more: b hears of a's 6 requests since its first sync at its next sync.
    for (let i = 0; i < 5; i += 1) assert.ok(a.take(key).allowed);
    await a.sync();
    await b.sync();
    assert.equal(b.take(key).remaining, 2, "b: 9 - a's 6 requests - this one");
    for (let i = 0; i < 2; i += 1) assert.ok(b.take(key).allowed);
    assert.equal(b.take(key).allowed, false, 'b is empty');

    // And the other way: b's 3 requests come off a's bucket, which had 2 tokens left.
    await b.sync();
    await a.sync();
    const refused = a.take(key);
    assert.equal(refused.allowed, false, "a's bucket went below zero with b's requests");
    assert.equal(refused.retryAfterSeconds, 2, 'two tokens short of one request: 2 s at 1/s');

    // Both refill at the rate from there; what b takes then still reaches a.
    clock.advance(20_000);
    assert.equal(b.take(key).remaining, 9);
    await b.sync();
    await a.sync();
    assert.equal(a.take(key).remaining, 8, "a: full, less b's one, less this one");
  } finally {
    for (const limiter of nodes) limiter.close();
  }
}

describe('shared rate-limit store', () => {
  it('in memory: consumption on one node comes off the other', async () => {
    await sharedBucketScenario(memoryStore());
  });

  it('exchanges nothing before a bucket exists, then one add per bucket', async () => {
    const clock = createManualClock();
    const store = memoryStore();
    let calls = 0;
    const counting: RateLimitStore = {
      add: (key, n) => {
        calls += 1;
        return store.add(key, n);
      },
    };
    const a = createRateLimiter({ ratePerSecond: 1, burst: 2, clock, store: counting, syncMs: hour });
    await a.sync();
    assert.equal(calls, 0, 'no buckets, nothing to exchange');
    a.take('x');
    await a.sync();
    assert.equal(calls, 1);
    assert.equal(await store.add('x', 0), 1);
    a.close();
  });

  it('keeps what a failed sync did not deliver, and adds it at the next one', async () => {
    const clock = createManualClock();
    const store = memoryStore();
    let down = true;
    const flaky: RateLimitStore = {
      add: async (key, n) => {
        if (down) throw new Error('Stream isn\'t writeable and enableOfflineQueue options is false');
        return store.add(key, n);
      },
    };
    const a = createRateLimiter({ ratePerSecond: 1, burst: 5, clock, store: flaky, syncMs: hour });
    a.take('x');
    a.take('x');
    await assert.rejects(a.sync(), /not writeable|writeable/);
    down = false;
    a.take('x');
    await a.sync();
    assert.equal(await store.add('x', 0), 3, 'every call counted once, none lost with the failed sync');
    a.close();
  });

  describe('in the database', () => {
    let database: TestDatabase;
    before(async () => {
      database = await createTestDatabase();
    });
    after(() => database.drop());

    it('adds to one counter per key', async () => {
      const clock = createManualClock();
      const store = createDatabaseRateLimitStore(database.db, clock);
      const key = `k-${randomUUID()}`;
      assert.equal(await store.add(key, 3), 3);
      assert.equal(await store.add(key, 0), 3);
      assert.equal(await store.add(key, 4), 7);
      assert.equal(await store.add(`${key}-other`, 1), 1);
      // Idle counters are purged and simply start again.
      clock.advance(2 * hour);
      await store.add(`${key}-recent`, 1);
      assert.ok((await purgeRateLimitCounters(database.db, new Date(clock.now().getTime() - hour))) >= 2);
      assert.equal(await store.add(key, 1), 1);
      assert.equal(await store.add(`${key}-recent`, 0), 1);
    });

    it('two nodes: consumption on one node comes off the other', async () => {
      const clock = createManualClock();
      await sharedBucketScenario(createDatabaseRateLimitStore(database.db, clock));
    });
  });

  describe('in Redis', () => {
    // Two nodes, two connections.
    const stores = [createRedisRateLimitStore(redisUrl), createRedisRateLimitStore(redisUrl)];
    const redis = new Redis(redisUrl, { lazyConnect: true });

    before(async () => {
      // The store fails fast rather than queueing while disconnected; wait for the first connection.
      for (const store of stores) {
        for (let attempt = 0; ; attempt += 1) {
          try {
            await store.add(`test:warmup-${randomUUID()}`, 0);
            break;
          } catch (error) {
            if (attempt >= 100) throw error;
            await sleep(20);
          }
        }
      }
      await redis.connect();
    });
    after(async () => {
      for (const store of stores) await store.close();
      await redis.quit();
    });

    it('adds to one counter per key, expiring after an hour idle', async () => {
      const [store] = stores;
      const key = `test:${randomUUID()}`;
      assert.equal(await store!.add(key, 3), 3);
      assert.equal(await store!.add(key, 0), 3);
      assert.equal(await stores[1]!.add(key, 2), 5);
      assert.equal(await redis.get(`pvs:rl:${key}`), '5');
      const ttl = await redis.ttl(`pvs:rl:${key}`);
      assert.ok(ttl > 0 && ttl <= 3600, `ttl ${ttl}`);
      await redis.del(`pvs:rl:${key}`);
    });

    it('two nodes: consumption on one node comes off the other', async () => {
      await sharedBucketScenario(stores[0]!, stores[1]!);
    });
  });
});
