// Delivers webhook notifications. It keeps up to `maxInFlight` deliveries going at once: whenever
// slots are free it claims that many due notifications (SKIP LOCKED, with a lease), posts each on its
// own, and records finished outcomes in batches. A dispatcher that dies leaves its claims leased; once
// the lease runs out another dispatcher takes them, so a notification is never lost (at least once)
// and never in flight in two places. While the database is unreachable it claims nothing and keeps the
// outcomes it cannot record, recording them first when the database is back: a delivery that reached
// its receiver is not sent again because of an outage.
import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import type { Clock } from '../../platform/clock.ts';
import type { DatabaseAvailability } from '../../platform/db/availability.ts';
import { isUnavailableError, type Database } from '../../platform/db/database.ts';
import { notificationBody, signedHeaders } from './body.ts';
import type { Deliverer } from './delivery.ts';
import * as repo from './notifications.repository.ts';
import { deliveryWindowMs, nextAttemptAt, parseRetryAfter } from './schedule.ts';
import type { DeliveryOutcome, Metrics } from '../../platform/metrics/metrics.ts';
import { continuedSpan, SpanKind, type Span } from '../../platform/tracing/spans.ts';

/** How often a notification for a disabled destination looks again. */
const disabledRecheckMs = 5 * 60_000;

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
  /** The database's availability (db/availability.ts): claiming resumes as soon as it is back. */
  availability?: DatabaseAvailability;
  /** Counts each attempt by outcome and times a delivery from its event's commit (pvs_webhook_*). */
  metrics?: Pick<Metrics, 'webhookDelivery'>;
  /** How long a finished delivery's outcome may wait for others to be recorded with (2 ms). */
  flushDelayMs?: number;
}

/** Deliveries in flight at once when `maxInFlight` is not given (the bench posts its baseline at this concurrency). */
export const defaultMaxInFlight = 32;

const firstBackoffMs = 1_000;
const maxBackoffMs = 30_000;

export function createDispatcher(options: DispatcherOptions): Dispatcher {
  const { db, clock, deliverer, logger } = options;
  const maxInFlight = options.maxInFlight ?? defaultMaxInFlight;
  const leaseSeconds = options.leaseSeconds ?? 30;
  const pollMilliseconds = options.pollMilliseconds ?? 250;
  const random = options.random ?? Math.random;
  const owner = `dsp_${randomBytes(6).toString('hex')}`;

  let stopped = true;
  let stopping = false;
  let inFlight = 0;
  let claiming: Promise<number> | undefined;
  let timer: NodeJS.Timeout | undefined;
  let outcomes: repo.Outcome[] = [];
  let flushing: Promise<void> | undefined;
  /** Set while the database is unreachable: no claims, outcomes kept, the next try after `delayMs`. */
  let outage: { since: number; delayMs: number } | undefined;
  let unsubscribe: (() => void) | undefined;
  const isDown = (error: unknown) => isUnavailableError(error) || (options.availability?.isOutage(error) ?? false);
  const sending = new Set<Promise<void>>();
  // Opened signing secrets by their sealed text: a destination's deliveries would otherwise decrypt the
  // same secret each time. Bounded; a rotated secret has a new sealed text, so nothing goes stale.
  const openedSecrets = new Map<string, string>();
  function openSecret(sealed: string): string {
    let secret = openedSecrets.get(sealed);
    if (secret === undefined) {
      if (openedSecrets.size >= 1000) openedSecrets.delete(openedSecrets.keys().next().value!);
      secret = options.openSecret(sealed);
      openedSecrets.set(sealed, secret);
    }
    return secret;
  }
  // Outcomes are recorded together, one statement per batch: when half as many as can be in flight are
  // waiting, when nothing else is in flight or claimed, or `flushDelayMs` after the first, whichever is
  // first. Recording one at a time, as each delivery ended, cost PostgreSQL a statement per delivery on
  // the cores the deliveries need.
  const flushBatch = Math.max(1, Math.floor(maxInFlight / 2));
  const flushDelayMs = options.flushDelayMs ?? 2;
  let flushTimer: NodeJS.Timeout | undefined;
  function flushSoon() {
    if (outcomes.length >= flushBatch || (inFlight === 0 && waiting.length === 0)) {
      clearTimeout(flushTimer);
      flushTimer = undefined;
      flush().catch(pause);
      return;
    }
    flushTimer ??= setTimeout(() => {
      flushTimer = undefined;
      flush().catch(pause);
    }, flushDelayMs);
  }
  /** Claimed (leased to this dispatcher) and not yet sent. */
  const waiting: repo.ClaimedNotification[] = [];
  // Claimed notifications whose event payload is sealed: only their outcomes can have a payload to purge.
  const sealedPayloads = new Set<string>();

  function outcomeWithoutAttempt(n: repo.ClaimedNotification, now: Date, errorClass: string, nextAttemptAt: Date | null = null): repo.Outcome {
    const status = nextAttemptAt ? 'PENDING' : 'FAILED';
    return { id: n.id, owner, attempt: null, status, nextAttemptAt, startedAt: now, durationMs: 0, statusCode: null, errorClass, excerpt: null };
  }

  /** One attempt; `span`, when tracing, is told its outcome (none when no attempt was made). */
  async function send(n: repo.ClaimedNotification, span?: Span): Promise<repo.Outcome> {
    const now = clock.now();
    if (n.destination_deleted) return outcomeWithoutAttempt(n, now, 'DESTINATION_REMOVED');
    if (!n.destination_enabled) {
      // A disabled destination is paused, not abandoned: look again in a while, until the delivery
      // window of the notification closes.
      const windowEnd = (n.first_attempt_at ?? n.created_at).getTime() + deliveryWindowMs;
      const later = Math.min(now.getTime() + disabledRecheckMs, windowEnd);
      return outcomeWithoutAttempt(n, now, 'DESTINATION_DISABLED', later > now.getTime() ? new Date(later) : null);
    }
    const payload = n.payload ?? (n.payload_sealed ? (JSON.parse(options.openPayload(n.payload_sealed)) as Record<string, unknown>) : null);
    if (!payload) return outcomeWithoutAttempt(n, now, 'PAYLOAD_EXPIRED');
    const body = notificationBody({ id: n.event_id, type: n.type, occurredAt: n.occurred_at, payload, test: n.test });
    const previousLive = n.previous_secret_sealed && n.previous_secret_expires_at && n.previous_secret_expires_at > now;
    const headers = signedHeaders({
      body,
      timestamp: Math.floor(now.getTime() / 1000),
      secret: openSecret(n.secret_sealed),
      previousSecret: previousLive ? openSecret(n.previous_secret_sealed!) : undefined,
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
    // Lag from the notification's creation: in its event's transaction, so from the event's commit; a manual
    // retry's notification is new, and its lag counts from the retry (an old event would otherwise read as late).
    const outcome: DeliveryOutcome = result.ok ? 'delivered' : next ? 'attempt_failed' : 'exhausted';
    options.metrics?.webhookDelivery(outcome, (finished.getTime() - n.created_at.getTime()) / 1000);
    span?.setAttribute('pvs.webhook.outcome', outcome);
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

  /**
   * Records the finished outcomes. When the database cannot be reached they are kept, in order, and
   * this throws; they are recorded before anything new is claimed. Kept outcomes cannot pile up: nothing
   * is claimed meanwhile, so only the claims already in hand (at most 2 × maxInFlight) can finish.
   */
  async function flush(): Promise<void> {
    while (flushing) await flushing.catch(() => {});
    if (outcomes.length === 0) return;
    const batch = outcomes;
    outcomes = [];
    flushing = (async () => {
      try {
        // payload_sealed is only ever set when an event is inserted, so a notification claimed without
        // one has nothing to purge; most batches are then one statement, with no transaction around it.
        const mayPurge = batch.some((o) => o.status !== 'PENDING' && sealedPayloads.has(o.id));
        if (!mayPurge) {
          await repo.recordOutcomes(db, batch);
        } else {
          await db.transaction(async (tx) => {
            const recorded = new Set(await repo.recordOutcomes(tx, batch));
            const finished = batch.filter((o) => o.status !== 'PENDING' && recorded.has(o.id)).map((o) => o.id);
            await repo.purgeDeliveredSealedPayloads(tx, finished, clock.now());
          });
        }
      } catch (error) {
        if (isDown(error)) {
          outcomes = batch.concat(outcomes);
          throw error;
        }
        // Not the database being away but a statement that fails: the leases run out and the
        // notifications are delivered again (at least once).
        logger.error({ err: String(error), count: batch.length }, 'could not record webhook outcomes');
      }
      for (const o of batch) sealedPayloads.delete(o.id);
    })();
    try {
      await flushing;
    } finally {
      flushing = undefined;
    }
  }

  function begin(n: repo.ClaimedNotification) {
    inFlight += 1;
    if (n.payload_sealed) sealedPayloads.add(n.id);
    const attributes = { 'pvs.notification.id': n.id, 'pvs.event.type': n.type, 'pvs.webhook.attempt': n.attempts + 1 };
    const job: Promise<void> = continuedSpan('webhook delivery', SpanKind.PRODUCER, n.trace_parent, attributes, async (span) => {
      const outcome = await send(n, span);
      // Why it was not delivered: an attempt's failure, or a destination that was disabled or removed.
      if (outcome.errorClass && outcome.errorClass !== 'NONE') span?.setAttribute('error.type', outcome.errorClass);
      return outcome;
    })
      .catch((error) => {
        // A bug (a secret that no longer opens, say): on record as a failure, never claimed forever.
        logger.error({ err: String(error), notificationId: n.id }, 'webhook delivery crashed');
        return outcomeWithoutAttempt(n, clock.now(), 'INTERNAL_ERROR');
      })
      .then((outcome) => {
        outcomes.push(outcome);
        inFlight -= 1;
        sending.delete(job);
        startWaiting();
        // During an outage the outcome waits for the round that finds the database back.
        if (outage) return;
        flushSoon();
        wake(0);
      });
    sending.add(job);
  }

  function startWaiting() {
    while (!stopping && inFlight < maxInFlight && waiting.length > 0) begin(waiting.shift()!);
  }

  /** Resolves once nothing is in flight; a finishing delivery starts the next waiting one first. */
  async function settled() {
    while (sending.size > 0) await Promise.race([...sending]);
  }

  async function claimOnce(): Promise<number> {
    // Claim ahead: hold up to one batch beyond what is in flight, so that the next claim overlaps the
    // deliveries of this one instead of waiting for slots to free one at a time.
    const room = 2 * maxInFlight - inFlight - waiting.length;
    if (room < Math.min(8, maxInFlight)) return 0;
    const claimed = await repo.claimDue(db, { owner, now: clock.now(), limit: room, leaseSeconds });
    waiting.push(...claimed);
    startWaiting();
    return claimed.length;
  }


  function wake(delay: number) {
    if (stopped) return;
    clearTimeout(timer);
    timer = setTimeout(tick, delay);
  }

  /** One round: what an outage held back first (so nothing delivered is sent again), then a claim. */
  async function round(): Promise<number> {
    if (outage) await flush();
    return claimOnce();
  }

  async function tick() {
    timer = undefined;
    if (claiming || stopped) return;
    let claimed = 0;
    try {
      claiming = round();
      claimed = await claiming;
      if (outage) {
        logger.info({ downMs: Date.now() - outage.since }, 'webhook dispatcher claiming again: the database is back and its held outcomes are recorded');
        outage = undefined;
      }
    } catch (error) {
      if (isDown(error)) {
        pause(error, true);
        return;
      }
      logger.error({ err: String(error) }, 'webhook claim failed');
    } finally {
      claiming = undefined;
    }
    if (waiting.length < maxInFlight) wake(claimed > 0 ? 0 : pollMilliseconds);
  }

  /**
   * Stops claiming until the database answers: the next round after a backoff that doubles with each
   * round that fails, or at once when the availability says it is back.
   */
  function pause(error: unknown, roundFailed = false) {
    if (!outage) {
      outage = { since: Date.now(), delayMs: firstBackoffMs };
      logger.warn({ err: String(error), held: outcomes.length }, 'database unavailable: webhook dispatcher stopped claiming and keeps its outcomes until it is back');
    } else if (roundFailed) {
      outage.delayMs = Math.min(maxBackoffMs, outage.delayMs * 2);
    } else {
      return; // a late flush of the same outage: the round already waiting stands
    }
    // Back already (it returned while this round was failing): no need to wait out the whole backoff.
    wake(options.availability?.available ? firstBackoffMs : outage.delayMs);
  }

  return {
    start() {
      if (!stopped) return;
      stopped = false;
      stopping = false;
      unsubscribe = options.availability?.onAvailable(() => {
        if (outage && !claiming) wake(0);
      });
      wake(0);
    },
    nudge() {
      if (!stopped && !claiming && !outage) wake(0);
    },
    async drain() {
      let total = 0;
      for (;;) {
        while (claiming) await claiming.catch(() => 0);
        const claimed = await claimOnce();
        total += claimed;
        await settled();
        await flush();
        if (claimed === 0) return total;
      }
    },
    async stop(timeoutMs) {
      stopped = true;
      stopping = true;
      clearTimeout(timer);
      clearTimeout(flushTimer);
      unsubscribe?.();
      await claiming?.catch(() => 0);
      // Claimed but never sent: give them back now rather than after their lease.
      const unsent = waiting.splice(0);
      await repo.releaseClaims(db, unsent.map((n) => n.id), owner).catch(() => {});
      await Promise.race([settled(), new Promise((r) => setTimeout(r, timeoutMs).unref())]);
      await flush().catch((error) =>
        // Their leases run out and they are delivered again: at least once.
        logger.error({ err: String(error), count: outcomes.length }, 'webhook outcomes not recorded at shutdown: the database is unavailable'),
      );
    },
  };
}
