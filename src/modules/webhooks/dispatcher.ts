// Delivers webhook notifications. It keeps up to `maxInFlight` deliveries going at once: whenever
// slots are free it claims that many due notifications (SKIP LOCKED, with a lease), posts each on its
// own, and records finished outcomes in batches. A dispatcher that dies leaves its claims leased; once
// the lease runs out another dispatcher takes them, so a notification is never lost (at least once)
// and never in flight in two places.
import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import type { Clock } from '../../platform/clock.ts';
import type { Database } from '../../platform/db/database.ts';
import { notificationBody, signedHeaders } from './body.ts';
import type { Deliverer } from './delivery.ts';
import * as repo from './notifications.repository.ts';
import { nextAttemptAt, parseRetryAfter } from './schedule.ts';

export interface Dispatcher {
  start(): void;
  nudge(): void;
  /** Claims and delivers until nothing is due, then records everything (tests and the bench). */
  drain(): Promise<number>;
  stop(timeoutMs: number): Promise<void>;
}

export interface DispatcherOptions {
  db: Database;
  clock: Clock;
  deliverer: Deliverer;
  openSecret: (sealed: string) => string;
  openPayload: (sealed: string) => string;
  logger: Logger;
  /** [0, 1); jitter of the retry schedule. */
  random?: () => number;
  maxInFlight?: number;
  leaseSeconds?: number;
  pollMilliseconds?: number;
}

export function createDispatcher(options: DispatcherOptions): Dispatcher {
  const { db, clock, deliverer, logger } = options;
  const maxInFlight = options.maxInFlight ?? 32;
  const leaseSeconds = options.leaseSeconds ?? 30;
  const pollMilliseconds = options.pollMilliseconds ?? 250;
  const random = options.random ?? Math.random;
  const owner = `dsp_${randomBytes(6).toString('hex')}`;

  let stopped = true;
  let inFlight = 0;
  let claiming: Promise<number> | undefined;
  let timer: NodeJS.Timeout | undefined;
  let outcomes: repo.Outcome[] = [];
  let flushing: Promise<void> | undefined;
  const sending = new Set<Promise<void>>();

  function outcomeWithoutAttempt(n: repo.ClaimedNotification, now: Date, errorClass: string): repo.Outcome {
    return { id: n.id, owner, attempt: null, status: 'FAILED', nextAttemptAt: null, startedAt: now, durationMs: 0, statusCode: null, errorClass, excerpt: null };
  }

  async function send(n: repo.ClaimedNotification): Promise<repo.Outcome> {
    const now = clock.now();
    if (!n.destination_live) return outcomeWithoutAttempt(n, now, 'DESTINATION_REMOVED');
    const payload = n.payload ?? (n.payload_sealed ? (JSON.parse(options.openPayload(n.payload_sealed)) as Record<string, unknown>) : null);
    if (!payload) return outcomeWithoutAttempt(n, now, 'PAYLOAD_EXPIRED');
    const body = notificationBody({ id: n.event_id, type: n.type, occurredAt: n.occurred_at, payload, test: n.test });
    const previousLive = n.previous_secret_sealed && n.previous_secret_expires_at && n.previous_secret_expires_at > now;
    const headers = signedHeaders({
      body,
      timestamp: Math.floor(now.getTime() / 1000),
      secret: options.openSecret(n.secret_sealed),
      previousSecret: previousLive ? options.openSecret(n.previous_secret_sealed!) : undefined,
      eventId: n.event_id,
      notificationId: n.id,
    });
    const result = await deliverer.deliver({ url: n.url, body, headers });
    const attempt = n.attempts + 1;
    const finished = clock.now();
    const next = result.ok
      ? null
      : nextAttemptAt({
          failedAttempt: attempt,
          firstAttemptAt: n.first_attempt_at ?? now,
          now: finished,
          retryAfterSeconds: parseRetryAfter(result.retryAfter, finished),
          random,
          maxAttempts: n.max_attempts,
        });
    return {
      id: n.id,
      owner,
      attempt,
      status: result.ok ? 'DELIVERED' : next ? 'PENDING' : 'FAILED',
      nextAttemptAt: next,
      startedAt: now,
      durationMs: result.durationMs,
      statusCode: result.statusCode,
      errorClass: result.errorClass,
      excerpt: result.excerpt,
    };
  }

  async function flush(): Promise<void> {
    while (flushing) await flushing;
    if (outcomes.length === 0) return;
    const batch = outcomes;
    outcomes = [];
    flushing = (async () => {
      try {
        await db.transaction(async (tx) => {
          const recorded = await repo.recordOutcomes(tx, batch);
          const finished = batch.filter((o) => o.status !== 'PENDING' && recorded.includes(o.id)).map((o) => o.id);
          await repo.purgeDeliveredSealedPayloads(tx, finished, clock.now());
        });
      } catch (error) {
        // The leases run out and the notifications are delivered again: at least once.
        logger.error({ err: String(error), count: batch.length }, 'could not record webhook outcomes');
      }
    })();
    await flushing;
    flushing = undefined;
  }

  async function claimOnce(): Promise<number> {
    const free = maxInFlight - inFlight;
    if (free <= 0) return 0;
    const claimed = await repo.claimDue(db, { owner, now: clock.now(), limit: free, leaseSeconds });
    for (const n of claimed) {
      inFlight += 1;
      const job: Promise<void> = send(n)
        .catch((error) => {
          logger.error({ err: String(error), notificationId: n.id }, 'webhook delivery crashed');
          return undefined;
        })
        .then((outcome) => {
          if (outcome) outcomes.push(outcome);
          inFlight -= 1;
          sending.delete(job);
          void flush();
          wake(0);
        });
      sending.add(job);
    }
    return claimed.length;
  }

  function wake(delay: number) {
    if (stopped) return;
    clearTimeout(timer);
    timer = setTimeout(tick, delay);
  }

  async function tick() {
    timer = undefined;
    if (claiming || stopped) return;
    let claimed = 0;
    try {
      claiming = claimOnce();
      claimed = await claiming;
    } catch (error) {
      logger.error({ err: String(error) }, 'webhook claim failed');
    } finally {
      claiming = undefined;
    }
    if (inFlight < maxInFlight) wake(claimed > 0 ? 0 : pollMilliseconds);
  }

  return {
    start() {
      if (!stopped) return;
      stopped = false;
      wake(0);
    },
    nudge() {
      if (!stopped && !claiming) wake(0);
    },
    async drain() {
      let total = 0;
      for (;;) {
        while (claiming) await claiming.catch(() => 0);
        const claimed = await claimOnce();
        total += claimed;
        await Promise.all([...sending]);
        await flush();
        if (claimed === 0) return total;
      }
    },
    async stop(timeoutMs) {
      stopped = true;
      clearTimeout(timer);
      await claiming?.catch(() => 0);
      await Promise.race([Promise.all([...sending]), new Promise((r) => setTimeout(r, timeoutMs).unref())]);
      await flush();
    },
  };
}
