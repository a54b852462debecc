// Per-key token buckets (per partner on /v1, per client and per IP on the token endpoint).
// Decisions are made in memory so that a request never waits on a counter; when several API nodes
// run, each node adds what it consumed to a shared counter (PostgreSQL or Redis) every `syncMs` and
// takes off its bucket what the other nodes consumed meanwhile. One node is exact; N nodes can
// over-admit by at most what the others take within one sync interval. While the shared store cannot be
// reached, each node keeps deciding from its own buckets (limits are per node), and says so once.
import type { Logger } from 'pino';
import type { Clock } from './clock.ts';
import type { Database } from './db/database.ts';

export interface RateLimitStore {
  /** Adds n to the key's shared counter and answers the counter's new total. */
  add(key: string, n: number): Promise<number>;
}

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the bucket is full again. */
  resetSeconds: number;
  /** Seconds until one request is allowed (0 when allowed). */
  retryAfterSeconds: number;
  policy: string;
}

export interface RateLimiter {
  take(key: string): RateDecision;
  /** Exchanges consumption with the shared store (called on a timer; exposed for tests). */
  sync(): Promise<void>;
  close(): void;
}

interface Bucket {
  tokens: number;
  updatedMs: number;
  pending: number;
  lastGlobal: number | undefined;
}

export function createRateLimiter(options: {
  ratePerSecond: number;
  burst: number;
  clock: Clock;
  store?: RateLimitStore;
  syncMs?: number;
}): RateLimiter {
  const { ratePerSecond: rate, burst, clock, store } = options;
  const buckets = new Map<string, Bucket>();
  const policy = `${burst};w=${Math.ceil(burst / rate)};burst=${burst}`;

  function refill(bucket: Bucket, nowMs: number) {
    bucket.tokens = Math.min(burst, bucket.tokens + ((nowMs - bucket.updatedMs) / 1000) * rate);
    bucket.updatedMs = nowMs;
  }

  async function sync() {
    if (!store) return;
    const nowMs = clock.now().getTime();
    for (const [key, bucket] of buckets) {
      refill(bucket, nowMs);
      const sent = bucket.pending;
      bucket.pending = 0;
      let total: number;
      try {
        total = await store.add(key, sent);
      } catch (error) {
        // Not delivered: sent with the next sync instead, or the other nodes would never see these calls
        // (a first sync while the Redis client was still connecting lost them). An add whose answer alone
        // was lost counts twice: a stricter limit for a moment, never a looser one.
        bucket.pending += sent;
        throw error;
      }
      const others = bucket.lastGlobal === undefined ? 0 : Math.max(0, total - bucket.lastGlobal - sent);
      bucket.lastGlobal = total;
      bucket.tokens = Math.max(-burst, bucket.tokens - others);
      // A full bucket that nobody here used since the last sync can go; it would be recreated full.
      if (sent === 0 && others === 0 && bucket.tokens >= burst) buckets.delete(key);
    }
  }

  let running = false;
  const timer = store
    ? setInterval(() => {
        if (running) return;
        running = true;
        // A store that cannot be reached is reported by watchRateLimitStore; the buckets decide meanwhile.
        sync()
          .catch(() => {})
          .finally(() => {
            running = false;
          });
      }, options.syncMs ?? 200)
    : undefined;
  timer?.unref();

  return {
    take(key) {
      const nowMs = clock.now().getTime();
      let bucket = buckets.get(key);
      if (!bucket) {
        bucket = { tokens: burst, updatedMs: nowMs, pending: 0, lastGlobal: undefined };
        buckets.set(key, bucket);
      }
      refill(bucket, nowMs);
      const allowed = bucket.tokens >= 1;
      if (allowed) {
        bucket.tokens -= 1;
        bucket.pending += 1;
      }
      return {
        allowed,
        limit: burst,
        remaining: Math.max(0, Math.floor(bucket.tokens)),
        resetSeconds: Math.ceil((burst - bucket.tokens) / rate),
        retryAfterSeconds: allowed ? 0 : Math.ceil((1 - bucket.tokens) / rate),
        policy,
      };
    },
    sync,
    close() {
      if (timer) clearInterval(timer);
    },
  };
}

/**
 * The store as this process's limiters see it: one log line when it stops answering (the limiters go on
 * deciding from their own buckets, so limits are per node) and one when it answers again, however many
 * syncs failed meanwhile.
 */
export function watchRateLimitStore(store: RateLimitStore, options: { name: string; logger: Logger }): RateLimitStore {
  let reachable = true;
  return {
    async add(key, n) {
      let total: number;
      try {
        total = await store.add(key, n);
      } catch (error) {
        if (reachable) {
          reachable = false;
          options.logger.warn({ err: String(error), store: options.name }, `rate-limit counters unreachable (${options.name}): rate limits are per node until it returns`);
        }
        throw error;
      }
      if (!reachable) {
        reachable = true;
        options.logger.info({ store: options.name }, `rate-limit counters reachable again (${options.name}): rate limits are shared across nodes again`);
      }
      return total;
    },
  };
}

export function createDatabaseRateLimitStore(db: Database, clock: Clock): RateLimitStore {
  return {
    async add(key, n) {
      const rows = await db.query<{ consumed: string | number }>(
        `INSERT INTO rate_limit_counters (key, consumed, updated_at) VALUES ($1, $2, $3)
         ON CONFLICT (key) DO UPDATE SET consumed = rate_limit_counters.consumed + EXCLUDED.consumed, updated_at = EXCLUDED.updated_at
         RETURNING consumed`,
        [key, n, clock.now()],
      );
      return Number(rows[0]!.consumed);
    },
  };
}

/** Counters idle for an hour are dropped by the purge job; a dropped counter simply starts again. */
export async function purgeRateLimitCounters(db: Database, before: Date): Promise<number> {
  const rows = await db.query('DELETE FROM rate_limit_counters WHERE updated_at < $1 RETURNING key', [before]);
  return rows.length;
}
