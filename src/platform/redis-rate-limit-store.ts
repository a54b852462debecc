import { Redis } from 'ioredis';
import type { RateLimitStore } from './rate-limit.ts';

/**
 * Shared rate-limit counters in Redis (REDIS_URL); they expire after an hour idle. A counter that cannot
 * be reached fails fast (no queueing while disconnected, a bounded wait on a connection that went
 * silent); the limiter then decides from its own buckets until Redis answers again.
 */
export function createRedisRateLimitStore(url: string): RateLimitStore & { close(): Promise<void> } {
  const redis = new Redis(url, { lazyConnect: false, maxRetriesPerRequest: 1, enableOfflineQueue: false, connectTimeout: 2_000, commandTimeout: 1_000 });
  // Connection errors are what watchRateLimitStore reports, once; ioredis keeps reconnecting meanwhile.
  redis.on('error', () => {});
  return {
    async add(key, n) {
      const [[incrError, total] = [], [expireError] = []] = (await redis.multi().incrby(`pvs:rl:${key}`, n).expire(`pvs:rl:${key}`, 3600).exec()) ?? [];
      if (incrError || expireError) throw incrError ?? expireError;
      return Number(total);
    },
    async close() {
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}
