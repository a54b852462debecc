// A job is a name, a payload schema and a handler, kept apart from the code that enqueues it.
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import type { Tx } from '../db/database.ts';

export interface RetryPolicy {
  /** Attempts in all, the first included. */
  maxAttempts: number;
  /** Seconds to wait after failed attempt n (index n-1); the last value repeats. */
  backoffSeconds: readonly number[];
}

export interface JobContext {
  jobId: string;
  key: string | null;
  /** 1 for the first attempt. */
  attempt: number;
  maxAttempts: number;
  /** Aborted when the worker shuts down or the lease is lost; long handlers should stop. */
  signal: AbortSignal;
  /**
   * Runs fn in a transaction that also marks this job succeeded. Either both commit or neither:
   * a crash before the commit leaves the job to run again with none of fn's writes, a crash after
   * it leaves the job done. This is what makes a database-only handler exactly-once. If the lease
   * was lost meanwhile (another worker took the job), the transaction rolls back.
   */
  complete<T>(fn: (tx: Tx) => Promise<T>): Promise<T>;
}

export interface JobDefinition<S extends TSchema = TSchema> {
  kind: string;
  payload: S;
  // Method syntax on purpose: a list of definitions of different payloads is a list of JobDefinition.
  handler(payload: Static<S>, ctx: JobContext): Promise<void>;
  retry?: RetryPolicy;
  /** Handlers of this kind running at once in one worker process. */
  concurrency?: number;
  /** Recurring: one job per slot of this many seconds, keyed by the slot's start. */
  everySeconds?: number;
}

/**
 * What the queue needs to know of a kind: name, payload and retry policy, without the handler. A
 * service that enqueues a kind needs only this, so it can exist before the handler that calls it.
 */
export type JobSpec<S extends TSchema = TSchema> = Omit<JobDefinition<S>, 'handler' | 'concurrency'>;

export function defineJobSpec<S extends TSchema>(spec: JobSpec<S>): JobSpec<S> {
  return spec;
}

export const defaultRetry: RetryPolicy = { maxAttempts: 5, backoffSeconds: [10, 60, 300, 1800] };

export function defineJob<S extends TSchema>(definition: JobDefinition<S>): JobDefinition<S> {
  return definition;
}

/** Thrown by a handler when trying again cannot help: the job fails at once. */
export class PermanentJobError extends Error {
  override name = 'PermanentJobError';
}

/**
 * Thrown by a handler whose job waits on another system still at work (an identity provider's checks):
 * the job runs again after `seconds` and the attempt is not counted, so waiting never spends the tries
 * kept for failures. The handler bounds the wait itself (it throws an ordinary error once it has waited
 * too long), and `wake` brings the next run forward when the other system says it has finished.
 */
export class JobWaitError extends Error {
  override name = 'JobWaitError';
  constructor(
    message: string,
    readonly seconds: number,
  ) {
    super(message);
  }
}

export function backoffFor(policy: RetryPolicy, failedAttempt: number): number {
  const list = policy.backoffSeconds;
  return list[Math.min(failedAttempt - 1, list.length - 1)] ?? 60;
}

/** The payload of a recurring job: the start of the slot it runs for. */
export const SlotPayload = Type.Object({ slot: Type.String() });
