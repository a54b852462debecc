// Every SQL statement of the job queue.
import type { Executor, Tx } from '../db/database.ts';

export interface JobRow {
  id: string;
  kind: string;
  key: string | null;
  payload: unknown;
  status: 'QUEUED' | 'RUNNING' | 'SUCCEEDED' | 'FAILED';
  run_at: Date;
  attempts: number;
  max_attempts: number;
  lease_owner: string | null;
  lease_expires_at: Date | null;
  last_error: string | null;
  created_at: Date;
  updated_at: Date;
  finished_at: Date | null;
  /** The trace that enqueued it (W3C traceparent), when tracing was on. */
  trace_parent: string | null;
}

export interface NewJob {
  id: string;
  kind: string;
  key: string | null;
  payload: unknown;
  runAt: Date;
  maxAttempts: number;
  now: Date;
  traceParent?: string | null;
}

const insertJobSql = `INSERT INTO jobs (id, kind, key, payload, status, run_at, max_attempts, created_at, updated_at, trace_parent)
  VALUES ($1, $2, $3, $4, 'QUEUED', $5, $6, $7, $7, $8)
  ON CONFLICT (key) DO NOTHING`;

const jobParams = (job: NewJob) => [job.id, job.kind, job.key, JSON.stringify(job.payload), job.runAt, job.maxAttempts, job.now, job.traceParent ?? null];

export async function insertJob(db: Executor, job: NewJob): Promise<{ id: string; created: boolean }> {
  const rows = await db.query<{ id: string }>(`${insertJobSql} RETURNING id`, jobParams(job));
  if (rows[0]) return { id: rows[0].id, created: true };
  const existing = await db.query<{ id: string }>('SELECT id FROM jobs WHERE key = $1', [job.key]);
  return { id: existing[0]!.id, created: false };
}

/** insertJob as a held write (Queryable.write): nothing answered, a taken key leaves the first job. */
export async function writeJob(db: Executor, job: NewJob): Promise<void> {
  await db.write(insertJobSql, jobParams(job));
}

/** Whether a job of this kind whose payload holds these fields is still to run, or running. */
export async function hasUnfinishedJob(db: Executor, kind: string, payload: Record<string, unknown>): Promise<boolean> {
  const rows = await db.query(`SELECT 1 FROM jobs WHERE kind = $1 AND status IN ('QUEUED', 'RUNNING') AND payload @> $2::jsonb LIMIT 1`, [
    kind,
    JSON.stringify(payload),
  ]);
  return rows.length > 0;
}

/**
 * Claims up to `limit` due jobs of one kind: queued ones whose time has come, and running ones whose
 * lease has expired (their worker died). SKIP LOCKED lets many workers claim at once without waiting
 * on each other or taking the same row.
 */
export async function claimJobs(
  db: Executor,
  args: { kind: string; limit: number; owner: string; now: Date; leaseSeconds: number },
): Promise<JobRow[]> {
  return db.query<JobRow>(
    `WITH due AS (
       SELECT id FROM jobs
       WHERE kind = $1
         AND ((status = 'QUEUED' AND run_at <= $2) OR (status = 'RUNNING' AND lease_expires_at < $2))
       ORDER BY run_at, id
       LIMIT $3
       FOR UPDATE SKIP LOCKED
     )
     UPDATE jobs SET status = 'RUNNING', attempts = jobs.attempts + 1, lease_owner = $4,
       lease_expires_at = $2::timestamptz + make_interval(secs => $5), updated_at = $2
     FROM due WHERE jobs.id = due.id
     RETURNING jobs.*`,
    [args.kind, args.now, args.limit, args.owner, args.leaseSeconds],
  );
}

/** Each lease-guarded update matches only while this worker still holds this attempt. */
const held = `id = $1 AND lease_owner = $2 AND attempts = $3 AND status = 'RUNNING'`;

export async function extendLease(db: Executor, job: JobRow, now: Date, leaseSeconds: number): Promise<boolean> {
  const rows = await db.query(
    `UPDATE jobs SET lease_expires_at = $4::timestamptz + make_interval(secs => $5), updated_at = $4 WHERE ${held} RETURNING id`,
    [job.id, job.lease_owner, job.attempts, now, leaseSeconds],
  );
  return rows.length === 1;
}

const succeeded = `UPDATE jobs SET status = 'SUCCEEDED', lease_owner = NULL, lease_expires_at = NULL, last_error = NULL,
  finished_at = $4, updated_at = $4 WHERE ${held} RETURNING id`;

export async function markSucceeded(db: Executor, job: JobRow, now: Date): Promise<boolean> {
  const rows = await db.query(succeeded, [job.id, job.lease_owner, job.attempts, now]);
  return rows.length === 1;
}

/**
 * `markSucceeded` held with the transaction's other writes (Queryable.write), so that a job's work and its
 * completion go as one statement at the commit; `lost` is thrown there, failing the transaction, when
 * another worker holds the job now.
 */
export async function holdSucceeded(tx: Tx, job: JobRow, now: Date, lost: () => Error): Promise<void> {
  await tx.write(succeeded, [job.id, job.lease_owner, job.attempts, now], {
    rows: (count) => {
      if (count !== 1) throw lost();
    },
  });
}

export async function markRetry(db: Executor, job: JobRow, now: Date, runAt: Date, error: string): Promise<boolean> {
  const rows = await db.query(
    `UPDATE jobs SET status = 'QUEUED', lease_owner = NULL, lease_expires_at = NULL, run_at = $5,
       last_error = $6, updated_at = $4 WHERE ${held} RETURNING id`,
    [job.id, job.lease_owner, job.attempts, now, runAt, error],
  );
  return rows.length === 1;
}

/** Back to the queue for `runAt`, the attempt uncounted: the job waits on something, it did not fail. */
export async function markWaiting(db: Executor, job: JobRow, now: Date, runAt: Date, reason: string): Promise<boolean> {
  const rows = await db.query(
    `UPDATE jobs SET status = 'QUEUED', lease_owner = NULL, lease_expires_at = NULL, run_at = $5, attempts = attempts - 1,
       last_error = $6, updated_at = $4 WHERE ${held} RETURNING id`,
    [job.id, job.lease_owner, job.attempts, now, runAt, reason],
  );
  return rows.length === 1;
}

/** Brings a queued job's next run forward to now; false when no job has the key or it is not waiting. */
export async function wakeJob(db: Executor, key: string, now: Date): Promise<boolean> {
  const rows = await db.query(`UPDATE jobs SET run_at = $2, updated_at = $2 WHERE key = $1 AND status = 'QUEUED' AND run_at > $2 RETURNING id`, [key, now]);
  return rows.length === 1;
}

export async function markFailed(db: Executor, job: JobRow, now: Date, error: string): Promise<boolean> {
  const rows = await db.query(
    `UPDATE jobs SET status = 'FAILED', lease_owner = NULL, lease_expires_at = NULL, last_error = $5,
       finished_at = $4, updated_at = $4 WHERE ${held} RETURNING id`,
    [job.id, job.lease_owner, job.attempts, now, error],
  );
  return rows.length === 1;
}

/** Gives a claimed job back untouched (shutdown): the attempt does not count. */
export async function releaseJob(db: Executor, job: JobRow, now: Date): Promise<boolean> {
  const rows = await db.query(
    `UPDATE jobs SET status = 'QUEUED', lease_owner = NULL, lease_expires_at = NULL, attempts = attempts - 1,
       updated_at = $4 WHERE ${held} RETURNING id`,
    [job.id, job.lease_owner, job.attempts, now],
  );
  return rows.length === 1;
}

/**
 * Gives back, uncounted, the jobs of a claim round whose answer was lost: the connection died after the
 * claim was sent, so it may have committed without the worker ever seeing the jobs. No handler runs them;
 * without this they would wait out their lease and then spend an attempt.
 */
export async function releaseUnansweredClaims(db: Executor, owner: string, now: Date): Promise<number> {
  const rows = await db.query(
    `UPDATE jobs SET status = 'QUEUED', lease_owner = NULL, lease_expires_at = NULL, attempts = attempts - 1, updated_at = $2
     WHERE lease_owner = $1 AND status = 'RUNNING' RETURNING id`,
    [owner, now],
  );
  return rows.length;
}

export async function findJob(db: Executor, id: string): Promise<JobRow | undefined> {
  const rows = await db.query<JobRow>('SELECT * FROM jobs WHERE id = $1', [id]);
  return rows[0];
}

export async function deleteFinishedBefore(db: Executor, before: Date): Promise<number> {
  const rows = await db.query(`DELETE FROM jobs WHERE finished_at < $1 RETURNING id`, [before]);
  return rows.length;
}

/** Jobs due and not yet claimed, by kind: how many, and the oldest one's due time (metrics). */
export async function readyByKind(db: Executor, now: Date): Promise<Array<{ kind: string; ready: number; oldest: Date }>> {
  const rows = await db.query<{ kind: string; ready: number | string; oldest: Date }>(
    `SELECT kind, count(*) AS ready, min(run_at) AS oldest FROM jobs WHERE status = 'QUEUED' AND run_at <= $1 GROUP BY kind`,
    [now],
  );
  return rows.map((r) => ({ kind: r.kind, ready: Number(r.ready), oldest: r.oldest }));
}
