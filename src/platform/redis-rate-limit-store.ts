import { Redis } from 'ioredis';
import type { RateLimitStore } from './rate-limit.ts';

const connectTimeoutMs = 2_000;

/**
 * Shared rate-limit counters in Redis (REDIS_URL); they expire after an hour idle. A counter that cannot
 * be reached fails fast (no queueing while disconnected, a bounded wait on a connection that went
 * silent); the limiter then decides from its own buckets until Redis answers again.
 */

export function createRedisRateLimitStore(url: string): RateLimitStore & { close(): Promise<void> } {
  const redis = new Redis(url, { lazyConnect: false, maxRetriesPerRequest: 1, enableOfflineQueue: false, connectTimeout: connectTimeoutMs, commandTimeout: 1_000 });
  // Connection errors are what watchRateLimitStore reports, once; ioredis keeps reconnecting meanwhile.
  redis.on('error', () => {});
  // A process's first syncs can come before its connection is made: they wait for it, as long as a connection
  // may take, instead of failing at once and reporting an outage that is only the start.
  let connected = false;
  const firstConnection = new Promise<void>((resolve) => redis.once('ready', resolve)).then(() => {
    connected = true;
  });
  const connectionWait = () =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, connectTimeoutMs);
      timer.unref();
      void firstConnection.then(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  return {
    async add(key, n) {
      if (!connected) await connectionWait();
      const replies = await redis.multi().incrby(`pvs:rl:${key}`, n).expire(`pvs:rl:${key}`, 3600).exec();
      // ioredis answers null, not an error, for a transaction Redis did not run (EXEC aborted): a failure
      // too, or the limiter would take NaN for the shared total.
      if (!replies) throw new Error('Redis did not run the transaction');
      const [[incrError, total] = [], [expireError] = []] = replies;
      if (incrError || expireError) throw incrError ?? expireError;
      const counted = Number(total);
      if (!Number.isFinite(counted)) throw new Error(`Redis answered ${String(total)} for a counter`);
      return counted;
    },
    async close() {
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}
