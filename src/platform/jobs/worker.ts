// The worker: claims due jobs in batches, runs their handlers with a lease it keeps renewing, and
// records the outcome. A worker that dies leaves its jobs RUNNING with a lease that runs out; any
// worker then claims them again, so nothing is lost and no job runs in two places at once.
import { randomBytes } from 'node:crypto';
import { Value } from '@sinclair/typebox/value';
import '../schema-formats.ts';
import type { Logger } from 'pino';
import type { Clock } from '../clock.ts';
import type { Database } from '../db/database.ts';
import { backoffFor, defaultRetry, PermanentJobError, type JobContext, type JobDefinition } from './job.ts';
import * as repo from './jobs.repository.ts';
import type { JobQueue } from './queue.ts';

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

  const runningOfKind = (kind: string) => [...running.values()].filter((r) => r.job.kind === kind).length;

  async function execute(definition: JobDefinition, job: repo.JobRow, abort: AbortController): Promise<void> {
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
      complete: (fn) =>
        db.transaction(async (tx) => {
          const result = await fn(tx);
          if (!(await repo.markSucceeded(tx, job, clock.now()))) throw new Error(`Lease on job ${job.id} was lost`);
          completed = true;
          return result;
        }),
    };
    const log = logger.child({ jobId: job.id, kind: job.kind, attempt: job.attempts });
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
    } catch (error) {
      if (abort.signal.aborted && stopped) return; // shutdown: stop() releases it
      const retry = definition.retry ?? defaultRetry;
      const now = clock.now();
      const permanent = error instanceof PermanentJobError;
      const failed = permanent || job.attempts >= retry.maxAttempts;
      const runAt = new Date(now.getTime() + backoffFor(retry, job.attempts) * 1000);
      const recorded = await (failed ? repo.markFailed(db, job, now, describe(error)) : repo.markRetry(db, job, now, runAt, describe(error))).catch(
        () => false,
      );
      if (!recorded) log.warn({ err: describe(error) }, 'job attempt failed after its lease was lost; another worker owns it now');
      else if (failed) log.error({ err: describe(error) }, 'job failed');
      else log.warn({ err: describe(error), retryAt: runAt.toISOString() }, 'job attempt failed; will retry');
    } finally {
      clearInterval(heartbeat);
    }
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
      const jobs = await repo.claimJobs(db, {
        kind: definition.kind,
        limit: Math.min(free, batchSize),
        owner,
        now: clock.now(),
        leaseSeconds,
      });
      for (const job of jobs) {
        const abort = new AbortController();
        const entry: Running = { job, done: Promise.resolve(), abort };
        entry.done = execute(definition, job, abort).finally(() => {
          running.delete(entry);
          if (!stopped) schedule(0);
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
      polling = pollOnce();
      claimed = await polling;
    } catch (error) {
      logger.error({ err: describe(error) }, 'worker poll failed');
    } finally {
      polling = undefined;
    }
    schedule(claimed > 0 ? 0 : options.pollMilliseconds);
  }

  const worker: Worker = {
    id,
    start() {
      if (!stopped) return;
      stopped = false;
      options.queue.onEnqueued(() => worker.nudge());
      schedule(0);
    },
    nudge() {
      if (!stopped && !polling) schedule(0);
    },
    async drain() {
      // Never beside a poll of the running loop: two claim rounds at once would overrun concurrency.
      while (polling) await polling.catch(() => {});
      polling = pollOnce();
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
      await polling?.catch(() => {});
      const all = Promise.all([...running.values()].map((r) => r.done));
      const timedOut = await Promise.race([all.then(() => false), new Promise<boolean>((r) => setTimeout(r, timeoutMs, true).unref())]);
      if (!timedOut) return;
      for (const r of running.values()) {
        r.abort.abort(new Error('worker stopping'));
        await repo.releaseJob(db, r.job, clock.now()).catch(() => {});
      }
      logger.warn({ released: running.size }, 'released jobs still running at shutdown');
    },
  };
  return worker;
}
