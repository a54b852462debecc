// Enqueueing: always inside the caller's transaction, so a job exists exactly when the state change
// that asked for it committed.
import { Value } from '@sinclair/typebox/value';
import '../schema-formats.ts';
import type { Static, TSchema } from '@sinclair/typebox';
import type { Clock } from '../clock.ts';
import type { Executor, Tx } from '../db/database.ts';
import { newId } from '../ids.ts';
import { currentTraceparent } from '../tracing/spans.ts';
import { defaultRetry, type JobSpec } from './job.ts';
import { insertJob, wakeJob, writeJob, type NewJob } from './jobs.repository.ts';

export interface EnqueueOptions {
  /** When to run; now by default. */
  runAt?: Date;
  /** At most one job per key, ever: enqueueing a key again returns the first job. */
  key?: string;
}

export interface JobQueue {
  enqueue<S extends TSchema>(tx: Tx, definition: JobSpec<S>, payload: Static<S>, options?: EnqueueOptions): Promise<{ id: string; created: boolean }>;
  /**
   * enqueue as a held write (Queryable.write), for a caller that needs no answer: the job reaches the
   * database with the transaction's other held writes. A key already taken leaves the first job.
   */
  enqueueHeld<S extends TSchema>(tx: Tx, definition: JobSpec<S>, payload: Static<S>, options?: EnqueueOptions): Promise<void>;
  /** Creates the current and next slot of every recurring definition; safe to call from every worker. */
  ensureSchedules(db: Executor): Promise<void>;
  /** Called after an enqueue commits, so a worker in this process can start at once. */
  onEnqueued(listener: () => void): void;
  /** Runs the queued job of this key now rather than at its time (it waits on something that has arrived). */
  wake(db: Executor, key: string): Promise<boolean>;
}

export function slotKey(kind: string, slotStart: Date): string {
  return `slot:${kind}:${slotStart.toISOString()}`;
}

export function createJobQueue(deps: { clock: Clock; definitions: readonly JobSpec[] }): JobQueue {
  const known = new Map(deps.definitions.map((d) => [d.kind, d]));
  const listeners: Array<() => void> = [];

  function jobRow<S extends TSchema>(definition: JobSpec<S>, payload: Static<S>, options: EnqueueOptions): NewJob {
    // A spec and the definition with its handler share the payload schema object.
    const registered = known.get(definition.kind);
    if (registered?.payload !== definition.payload) throw new Error(`Job kind ${definition.kind} is not registered with the queue`);
    if (!Value.Check(definition.payload, payload)) {
      const first = Value.Errors(definition.payload, payload).First();
      throw new Error(`Job ${definition.kind}: payload does not match its schema at ${first?.path}: ${first?.message}`);
    }
    const now = deps.clock.now();
    return {
      id: newId('job', now.getTime()),
      kind: definition.kind,
      key: options.key ?? null,
      payload,
      runAt: options.runAt ?? now,
      maxAttempts: (registered.retry ?? defaultRetry).maxAttempts,
      now,
      // The job's span continues the trace of the request or job that asked for it.
      traceParent: currentTraceparent(),
    };
  }

  return {
    async enqueue(tx, definition, payload, options = {}) {
      const result = await insertJob(tx, jobRow(definition, payload, options));
      tx.afterCommit(() => listeners.forEach((l) => l()));
      return result;
    },

    async wake(db, key) {
      const woken = await wakeJob(db, key, deps.clock.now());
      if (woken) listeners.forEach((l) => l());
      return woken;
    },

    async enqueueHeld(tx, definition, payload, options = {}) {
      await writeJob(tx, jobRow(definition, payload, options));
      tx.afterCommit(() => listeners.forEach((l) => l()));
    },

    async ensureSchedules(db) {
      const now = deps.clock.now();
      for (const definition of known.values()) {
        if (!definition.everySeconds) continue;
        const period = definition.everySeconds * 1000;
        const current = Math.floor(now.getTime() / period) * period;
        for (const start of [current, current + period]) {
          const slotStart = new Date(start);
          await insertJob(db, {
            id: newId('job', now.getTime()),
            kind: definition.kind,
            key: slotKey(definition.kind, slotStart),
            payload: { slot: slotStart.toISOString() },
            runAt: slotStart,
            maxAttempts: (definition.retry ?? defaultRetry).maxAttempts,
            now,
          });
        }
      }
    },

    onEnqueued(listener) {
      listeners.push(listener);
    },
  };
}
