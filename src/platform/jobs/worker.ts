// The worker: claims due jobs in batches, runs their handlers with a lease it keeps renewing, and
// records the outcome. A worker that dies leaves its jobs RUNNING with a lease that runs out; any
// worker then claims them again, so nothing is lost and no job runs in two places at once.
// While the database is unreachable it claims nothing: it backs off (1 s doubling to 30 s, or until the
// database is back), and outcomes it could not record wait in memory to be recorded first on its return.
import { randomBytes } from 'node:crypto';
import { Value } from '@sinclair/typebox/value';
import '../schema-formats.ts';
import type { Logger } from 'pino';
import type { Clock } from '../clock.ts';
import type { DatabaseAvailability } from '../db/availability.ts';
import { DatabaseUnavailableError, isUnavailableError, type Database } from '../db/database.ts';
import { backoffFor, defaultRetry, JobWaitError, PermanentJobError, type JobContext, type JobDefinition } from './job.ts';
import * as repo from './jobs.repository.ts';
import type { JobQueue } from './queue.ts';
import type { JobOutcome, Metrics } from '../metrics/metrics.ts';
import { continuedSpan, SpanKind, SpanStatusCode, type Span } from '../tracing/spans.ts';

export interface WorkerOptions {
  db: Database;
  clock: Clock;
  queue: JobQueue;
  definitions: readonly JobDefinition[];
  logger: Logger;
  leaseSeconds: number;
  pollMilliseconds: number;
  /** Jobs claimed per kind per poll at most. */
  batchSize?: number;
  /**
   * The database's availability (the guard's, see db/availability.ts): the worker resumes as soon as it
   * says the database is back, and tells an attempt that failed for the outage from one that failed.
   */
  availability?: DatabaseAvailability;
  /** Counts and times each attempt's outcome (pvs_jobs_finished_total, pvs_job_duration_seconds). */
  metrics?: Pick<Metrics, 'jobFinished'>;
}

export interface Worker {
  readonly id: string;
  start(): void;
  /** Stops claiming, waits for running handlers up to the timeout, then releases what is left. */
  stop(timeoutMs: number): Promise<void>;
  /** Polls now instead of at the next tick. */
  nudge(): void;
  /** Runs one claim-and-run round and waits for its handlers (tests and the CLI). */
  drain(): Promise<number>;
}

interface Running {
  job: repo.JobRow;
  done: Promise<void>;
  abort: AbortController;
}

/** An outcome that could not be written because the database was unreachable; written when it is back. */
interface HeldOutcome {
  job: repo.JobRow;
  what: 'release' | 'retry' | 'wait' | 'fail';
  record: () => Promise<boolean>;
}

const firstBackoffMs = 1_000;
const maxBackoffMs = 30_000;

function describe(error: unknown): string {
  // Only the class and message: payloads and stacks may carry data that does not belong in a row.
  const e = error as Error;
  return `${e?.name ?? 'Error'}: ${String(e?.message ?? error)}`.slice(0, 500);
}

export function createWorker(options: WorkerOptions): Worker {
  const { db, clock, logger, leaseSeconds } = options;
  const id = `wrk_${randomBytes(6).toString('hex')}`;
  const definitions = new Map(options.definitions.map((d) => [d.kind, d]));
  // One entry per execution, not per job id: a job released or whose lease ran out can be claimed
  // again while its earlier handler is still winding down, and each must be tracked on its own.
  const running = new Set<Running>();
  const batchSize = options.batchSize ?? 10;
  let stopped = true;
  let timer: NodeJS.Timeout | undefined;
  let polling: Promise<number> | undefined;
  let lastScheduleCheck = 0;
  let claimRounds = 0;
  /** Set while the database is unreachable: no claims, the next try after `delayMs`. */
  let outage: { since: number; delayMs: number } | undefined;
  const unrecorded: HeldOutcome[] = [];
  /** Owners of claim rounds that failed on a connection error after being sent. */
  const unansweredClaims: string[] = [];
  let unsubscribe: (() => void) | undefined;
  const isOutage = (error: unknown) => options.availability?.isOutage(error) ?? error instanceof DatabaseUnavailableError;

  const runningOfKind = (kind: string) => [...running.values()].filter((r) => r.job.kind === kind).length;

  async function execute(definition: JobDefinition, job: repo.JobRow, abort: AbortController, span?: Span): Promise<void> {
    let completed = false;
    const heartbeat = setInterval(
      () => {
        repo
          .extendLease(db, job, clock.now(), leaseSeconds)
          .then((held) => {
            if (!held) abort.abort(new Error('lease lost'));
          })
          .catch(() => {});
      },
      Math.max(500, (leaseSeconds * 1000) / 3),
    );
    const ctx: JobContext = {
      jobId: job.id,
      key: job.key,
      attempt: job.attempts,
      maxAttempts: job.max_attempts,
      signal: abort.signal,
      async complete(fn) {
        const result = await db.transaction(async (tx) => {
          const value = await fn(tx);
          // Sent with the work's held writes, as one statement at the commit, which it fails when the lease was lost.
          await repo.holdSucceeded(tx, job, clock.now(), () => new Error(`Lease on job ${job.id} was lost`));
          return value;
        });
        completed = true;
        return result;
      },
    };
    const log = logger.child({ jobId: job.id, kind: job.kind, attempt: job.attempts });
    const started = performance.now();
    const finished = (outcome: JobOutcome) => {
      options.metrics?.jobFinished(job.kind, outcome, (performance.now() - started) / 1000);
      span?.setAttribute('pvs.job.outcome', outcome);
      if (outcome !== 'succeeded') span?.setStatus({ code: SpanStatusCode.ERROR });
    };
    try {
      if (job.attempts > job.max_attempts) {
        // Its worker died on every attempt (a crash, not an error): stop taking the service down with it.
        throw new PermanentJobError(`Gave up after ${job.max_attempts} attempts whose worker stopped mid-job`);
      }
      if (!Value.Check(definition.payload, job.payload)) throw new PermanentJobError('Payload does not match the job schema');
      await definition.handler(job.payload as never, ctx);
      if (!completed && !(await repo.markSucceeded(db, job, clock.now()))) {
        log.warn('job finished after its lease was lost; another worker owns it now');
        return;
      }
      log.info('job succeeded');
      finished('succeeded');
    } catch (error) {
      if (abort.signal.aborted && stopped) return; // shutdown: stop() releases it
      const now = clock.now();
      if (isOutage(error)) {
        // The attempt failed for the database, not for the job: it is given back uncounted (guarded by
        // the lease, like every update), now if the database answers, else first thing when it is back.
        const released = await recordOrHold(log, { job, what: 'release', record: () => repo.releaseJob(db, job, now) }, error);
        if (released === 'recorded') log.info({ err: describe(error) }, 'job attempt given back uncounted: the database was unavailable');
        else if (released === 'lost') log.warn({ err: describe(error) }, 'job attempt failed after its lease was lost; another worker owns it now');
        return;
      }
      if (error instanceof JobWaitError) {
        const runAt = new Date(now.getTime() + error.seconds * 1000);
        const recorded = await recordOrHold(log, { job, what: 'wait', record: () => repo.markWaiting(db, job, now, runAt, error.message) }, error);
        if (recorded !== 'lost') finished('waiting');
        if (recorded === 'lost') log.warn('job waited after its lease was lost; another worker owns it now');
        else log.info({ runAt: runAt.toISOString() }, 'job waiting; runs again uncounted');
        return;
      }
      const retry = definition.retry ?? defaultRetry;
      const permanent = error instanceof PermanentJobError;
      const failed = permanent || job.attempts >= retry.maxAttempts;
      const runAt = new Date(now.getTime() + backoffFor(retry, job.attempts) * 1000);
      const err = describe(error);
      const record = failed ? () => repo.markFailed(db, job, now, err) : () => repo.markRetry(db, job, now, runAt, err);
      const recorded = await recordOrHold(log, { job, what: failed ? 'fail' : 'retry', record }, error);
      if (recorded !== 'lost') finished(failed ? 'failed' : 'retried');
      if (recorded === 'lost') log.warn({ err }, 'job attempt failed after its lease was lost; another worker owns it now');
      else if (failed) log.error({ err }, recorded === 'held' ? 'job failed; recorded when the database is back' : 'job failed');
      else log.warn({ err, retryAt: runAt.toISOString() }, recorded === 'held' ? 'job attempt failed; will retry once the database is back' : 'job attempt failed; will retry');
    } finally {
      clearInterval(heartbeat);
    }
  }

  /**
   * Writes an outcome, or keeps it for when the database is back if it cannot be written now. Held, the
   * job stays RUNNING under this worker's lease, so nothing else runs it and its attempt is not spent
   * again by the lease running out (unless the outage outlasts the lease).
   */
  async function recordOrHold(log: typeof logger, outcome: HeldOutcome, cause: unknown): Promise<'recorded' | 'lost' | 'held'> {
    try {
      return (await outcome.record()) ? 'recorded' : 'lost';
    } catch (error) {
      if (!isOutage(error) && !isUnavailableError(error)) {
        log.error({ err: describe(error) }, 'could not record the job outcome');
        return 'lost';
      }
      unrecorded.push(outcome);
      log.info({ err: describe(cause), outcome: outcome.what }, 'database unavailable: job outcome held until it is back');
      return 'held';
    }
  }

  /** Writes the held outcomes, oldest first; throws (keeping the rest) while the database is still down. */
  async function recordHeld(): Promise<void> {
    while (unansweredClaims.length > 0) {
      const released = await repo.releaseUnansweredClaims(db, unansweredClaims[0]!, clock.now());
      unansweredClaims.shift();
      if (released > 0) logger.info({ released }, 'jobs claimed as the database went away given back uncounted');
    }
    while (unrecorded.length > 0) {
      const outcome = unrecorded[0]!;
      const recorded = await outcome.record();
      unrecorded.shift();
      if (!recorded) logger.warn({ jobId: outcome.job.id, outcome: outcome.what }, 'held job outcome not recorded: its lease ran out during the outage');
    }
  }

  /** One round: what the outage held back first, then new claims. */
  async function round(): Promise<number> {
    await recordHeld();
    return pollOnce();
  }

  async function pollOnce(): Promise<number> {
    const now = clock.now();
    if (now.getTime() - lastScheduleCheck > 5_000) {
      lastScheduleCheck = now.getTime();
      await options.queue.ensureSchedules(db);
    }
    let claimed = 0;
    // A lease owner of its own per claim round: releaseJob gives the attempt back (attempts - 1), so
    // (worker id, attempts) alone would match again when this worker claims the job anew, and the
    // released handler could then record an outcome for the new attempt.
    const owner = `${id}.${++claimRounds}`;
    for (const definition of definitions.values()) {
      const free = (definition.concurrency ?? 5) - runningOfKind(definition.kind);
      if (free <= 0) continue;
      const jobs = await repo
        .claimJobs(db, { kind: definition.kind, limit: Math.min(free, batchSize), owner, now: clock.now(), leaseSeconds })
        .catch((error: unknown) => {
          // Not tried (DatabaseUnavailableError) or sent and unanswered: only the latter may have claimed.
          if (isUnavailableError(error) && !(error instanceof DatabaseUnavailableError)) unansweredClaims.push(owner);
          throw error;
        });
      for (const job of jobs) {
        const abort = new AbortController();
        const entry: Running = { job, done: Promise.resolve(), abort };
        const attributes = { 'pvs.job.kind': job.kind, 'pvs.job.attempt': job.attempts, 'pvs.job.id': job.id };
        entry.done = continuedSpan(`job ${job.kind}`, SpanKind.CONSUMER, job.trace_parent, attributes, (span) => execute(definition, job, abort, span)).finally(() => {
          running.delete(entry);
          if (!outage) schedule(0);
        });
        running.add(entry);
      }
      claimed += jobs.length;
    }
    return claimed;
  }

  function schedule(delay: number) {
    if (stopped) return;
    clearTimeout(timer);
    timer = setTimeout(tick, delay);
  }

  async function tick() {
    timer = undefined;
    if (polling) return;
    let claimed = 0;
    try {
      polling = round();
      claimed = await polling;
      if (outage) {
        logger.info({ downMs: Date.now() - outage.since }, 'worker claiming again: the database is back');
        outage = undefined;
      }
    } catch (error) {
      if (isUnavailableError(error) || isOutage(error)) {
        pause(error);
        return;
      }
      logger.error({ err: describe(error) }, 'worker poll failed');
    } finally {
      polling = undefined;
    }
    schedule(claimed > 0 ? 0 : options.pollMilliseconds);
  }

  /** Stops claiming until the database answers: tried again after a backoff, or at once when it is back. */
  function pause(error: unknown) {
    if (!outage) {
      outage = { since: Date.now(), delayMs: firstBackoffMs };
      logger.warn({ err: describe(error), held: unrecorded.length }, 'database unavailable: worker stopped claiming and backs off until it is back');
    } else {
      outage.delayMs = Math.min(maxBackoffMs, outage.delayMs * 2);
    }
    // Back already (it returned while this round was failing): no need to wait out the whole backoff.
    schedule(options.availability?.available ? firstBackoffMs : outage.delayMs);
  }

  const worker: Worker = {
    id,
    start() {
      if (!stopped) return;
      stopped = false;
      options.queue.onEnqueued(() => worker.nudge());
      unsubscribe = options.availability?.onAvailable(() => {
        if (outage && !polling) schedule(0);
      });
      schedule(0);
    },
    nudge() {
      if (!stopped && !polling && !outage) schedule(0);
    },
    async drain() {
      // Never beside a poll of the running loop: two claim rounds at once would overrun concurrency.
      while (polling) await polling.catch(() => {});
      polling = round();
      let claimed: number;
      try {
        claimed = await polling;
      } finally {
        polling = undefined;
      }
      await Promise.all([...running.values()].map((r) => r.done));
      return claimed;
    },
    async stop(timeoutMs) {
      stopped = true;
      clearTimeout(timer);
      unsubscribe?.();
      await polling?.catch(() => {});
      const all = Promise.all([...running.values()].map((r) => r.done));
      const timedOut = await Promise.race([all.then(() => false), new Promise<boolean>((r) => setTimeout(r, timeoutMs, true).unref())]);
      if (timedOut) {
        for (const r of running.values()) {
          r.abort.abort(new Error('worker stopping'));
          await repo.releaseJob(db, r.job, clock.now()).catch(() => {});
        }
        logger.warn({ released: running.size }, 'released jobs still running at shutdown');
      }
      // Outcomes the outage held: a last try; what is still held then waits for its lease to run out.
      await recordHeld().catch(() => logger.warn({ held: unrecorded.length }, 'job outcomes not recorded at shutdown; their leases will run out'));
    },
  };
  return worker;
}
