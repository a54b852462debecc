// The job queue: enqueueing inside transactions, schedules, retries, leases, concurrency and shutdown.
// Everything runs on a manual clock; workers are driven with drain() (one claim round, waiting for its
// handlers) or started and stopped, and tests wait on promises the handlers resolve, never on time.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Type } from '@sinclair/typebox';
import { createManualClock } from '../src/platform/clock.ts';
import type { Database } from '../src/platform/db/database.ts';
import { openPostgres } from '../src/platform/db/postgres.ts';
import { defineJob, JobWaitError, PermanentJobError, SlotPayload, type JobContext, type JobDefinition } from '../src/platform/jobs/job.ts';
import { claimJobs, extendLease, findJob, markFailed, markRetry, markSucceeded, type JobRow } from '../src/platform/jobs/jobs.repository.ts';
import { createJobQueue, slotKey } from '../src/platform/jobs/queue.ts';
import { createWorker, type Worker, type WorkerOptions } from '../src/platform/jobs/worker.ts';
import { createLogger } from '../src/platform/logger.ts';
import { createTestDatabase, type TestDatabase } from './helpers/database.ts';

const logger = createLogger({ level: 'silent' });
const leaseSeconds = 30;
let t: TestDatabase;
let db: Database;

before(async () => {
  t = await createTestDatabase();
  db = t.db;
  // A table of the tests' own, standing in for a handler's business writes.
  await db.exec('CREATE TABLE test_job_writes (job_id text NOT NULL, note text NOT NULL)');
});
after(() => t.drop());

function deferred<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/** A count that tests can wait on: reached(n) resolves once it is at least n. */
function counter() {
  let value = 0;
  const waiters: Array<{ n: number; resolve: () => void }> = [];
  return {
    get value() {
      return value;
    },
    increment() {
      value += 1;
      for (const w of waiters.filter((w) => value >= w.n)) w.resolve();
    },
    reached(n: number): Promise<void> {
      return value >= n ? Promise.resolve() : new Promise((resolve) => waiters.push({ n, resolve }));
    },
  };
}

function harness(definitions: JobDefinition[], clock = createManualClock()) {
  const queue = createJobQueue({ clock, definitions });
  const worker = (options: Partial<WorkerOptions> = {}): Worker =>
    createWorker({ db, clock, queue, definitions, logger, leaseSeconds, pollMilliseconds: 5, ...options });
  return { clock, queue, worker };
}

async function jobsOf(kind: string): Promise<JobRow[]> {
  return db.query<JobRow>('SELECT * FROM jobs WHERE kind = $1 ORDER BY run_at, id', [kind]);
}

async function job(id: string): Promise<JobRow> {
  const row = await findJob(db, id);
  assert.ok(row, `job ${id} exists`);
  return row;
}

async function writesOf(jobId: string): Promise<string[]> {
  const rows = await db.query<{ note: string }>('SELECT note FROM test_job_writes WHERE job_id = $1 ORDER BY note', [jobId]);
  return rows.map((r) => r.note);
}

/** A logger whose lines a test can wait for (the worker logs each attempt's outcome). */
function watchedLogger() {
  const lines: Array<Record<string, unknown>> = [];
  const waiters: Array<{ match: (line: Record<string, unknown>) => boolean; resolve: (line: Record<string, unknown>) => void }> = [];
  const watched = createLogger({
    level: 'info',
    destination: {
      write(chunk: string) {
        for (const text of chunk.split('\n').filter(Boolean)) {
          const line = JSON.parse(text) as Record<string, unknown>;
          lines.push(line);
          for (const w of waiters.filter((w) => w.match(line))) w.resolve(line);
        }
      },
    },
  });
  return {
    logger: watched,
    waitFor(match: (line: Record<string, unknown>) => boolean): Promise<Record<string, unknown>> {
      const found = lines.find(match);
      return found ? Promise.resolve(found) : new Promise((resolve) => waiters.push({ match, resolve }));
    },
  };
}

const outcomes = [
  'job succeeded',
  'job failed',
  'job attempt failed; will retry',
  'job finished after its lease was lost; another worker owns it now',
  'job attempt failed after its lease was lost; another worker owns it now',
];
const isOutcomeOf = (jobId: string) => (line: Record<string, unknown>) => line.jobId === jobId && outcomes.includes(String(line.msg));

const at = (date: Date, ms: number) => new Date(date.getTime() + ms);

describe('enqueueing', () => {
  it('creates no job when the transaction rolls back, and a job that runs when it commits', async () => {
    const ran: unknown[] = [];
    const def = defineJob({
      kind: 'test.enqueue-tx',
      payload: Type.Object({ n: Type.Number() }),
      handler: async (payload) => {
        ran.push(payload);
      },
    });
    const { clock, queue, worker } = harness([def]);
    let nudges = 0;
    queue.onEnqueued(() => (nudges += 1));

    await assert.rejects(
      db.transaction(async (tx) => {
        await queue.enqueue(tx, def, { n: 1 });
        throw new Error('roll back');
      }),
      /roll back/,
    );
    assert.deepEqual(await jobsOf(def.kind), []);
    assert.equal(nudges, 0, 'no nudge for a rolled-back enqueue');
    const w = worker();
    assert.equal(await w.drain(), 0);
    assert.deepEqual(ran, []);

    const { id, created } = await db.transaction((tx) => queue.enqueue(tx, def, { n: 2 }));
    assert.equal(created, true);
    assert.match(id, /^job_/);
    assert.equal(nudges, 1);
    const queued = await job(id);
    assert.equal(queued.status, 'QUEUED');
    assert.equal(queued.attempts, 0);
    assert.deepEqual(queued.payload, { n: 2 });
    assert.equal(queued.run_at.getTime(), clock.now().getTime());

    assert.equal(await w.drain(), 1);
    assert.deepEqual(ran, [{ n: 2 }]);
    const done = await job(id);
    assert.equal(done.status, 'SUCCEEDED');
    assert.equal(done.attempts, 1);
    assert.equal(done.lease_owner, null);
    assert.equal(done.lease_expires_at, null);
    assert.equal(done.finished_at?.getTime(), clock.now().getTime());
    assert.equal(await w.drain(), 0, 'a succeeded job is not claimed again');
    assert.equal(ran.length, 1);
  });

  it('does not claim a job before its runAt', async () => {
    const ran: string[] = [];
    const def = defineJob({
      kind: 'test.run-at',
      payload: Type.Object({}),
      handler: async (_payload, ctx) => {
        ran.push(ctx.jobId);
      },
    });
    const { clock, queue, worker } = harness([def]);
    const runAt = at(clock.now(), 60_000);
    const { id } = await db.transaction((tx) => queue.enqueue(tx, def, {}, { runAt }));
    assert.equal((await job(id)).run_at.getTime(), runAt.getTime());
    const w = worker();

    assert.equal(await w.drain(), 0);
    clock.advance(59_999);
    assert.equal(await w.drain(), 0);
    assert.equal((await job(id)).status, 'QUEUED');
    clock.advance(1);
    assert.equal(await w.drain(), 1);
    assert.deepEqual(ran, [id]);
    assert.equal((await job(id)).status, 'SUCCEEDED');
  });

  it('refuses a payload that does not match the schema, and writes nothing', async () => {
    const def = defineJob({ kind: 'test.bad-payload', payload: Type.Object({ n: Type.Number() }), handler: async () => {} });
    const { queue } = harness([def]);
    await db.transaction(async (tx) => {
      await assert.rejects(queue.enqueue(tx, def, { n: 'one' } as never), /test\.bad-payload: payload does not match its schema at \/n/);
      await assert.rejects(queue.enqueue(tx, def, {} as never), /payload does not match its schema/);
    });
    assert.deepEqual(await jobsOf(def.kind), []);
  });

  it('refuses a definition the queue was not built with', async () => {
    const def = defineJob({ kind: 'test.unregistered', payload: Type.Object({}), handler: async () => {} });
    // Same kind, another payload schema: not what the queue was built with.
    const lookalike = defineJob({ ...def, payload: Type.Object({}) });
    const { queue } = harness([def]);
    await db.transaction(async (tx) => {
      await assert.rejects(queue.enqueue(tx, lookalike, {}), /test\.unregistered is not registered/);
    });
    assert.deepEqual(await jobsOf(def.kind), []);
  });

  it('creates one job per key: enqueueing the key again returns the first job', async () => {
    const ran: unknown[] = [];
    const def = defineJob({
      kind: 'test.keyed',
      payload: Type.Object({ n: Type.Number() }),
      handler: async (payload) => {
        ran.push(payload);
      },
    });
    const { queue, worker } = harness([def]);
    const first = await db.transaction((tx) => queue.enqueue(tx, def, { n: 1 }, { key: 'keyed-1' }));
    const second = await db.transaction((tx) => queue.enqueue(tx, def, { n: 2 }, { key: 'keyed-1' }));
    assert.equal(first.created, true);
    assert.deepEqual(second, { id: first.id, created: false });
    // Twice in one transaction too.
    const [third, fourth] = await db.transaction(async (tx) => [
      await queue.enqueue(tx, def, { n: 3 }, { key: 'keyed-2' }),
      await queue.enqueue(tx, def, { n: 4 }, { key: 'keyed-2' }),
    ]);
    assert.equal(third!.created, true);
    assert.deepEqual(fourth, { id: third!.id, created: false });

    const rows = await jobsOf(def.kind);
    assert.equal(rows.length, 2);
    assert.deepEqual(rows.map((r) => [r.key, r.payload]).sort(), [
      ['keyed-1', { n: 1 }],
      ['keyed-2', { n: 3 }],
    ]);
    assert.equal(await worker().drain(), 2);
    assert.deepEqual(ran.sort((a, b) => (a as { n: number }).n - (b as { n: number }).n), [{ n: 1 }, { n: 3 }]);
    // Still one job per key once it has run.
    const again = await db.transaction((tx) => queue.enqueue(tx, def, { n: 5 }, { key: 'keyed-1' }));
    assert.deepEqual(again, { id: first.id, created: false });
  });
});

describe('retries', () => {
  it('retries after each backoff (the last value repeating), then fails after maxAttempts with the last error', async () => {
    const attempts: Array<[number, number]> = [];
    const def = defineJob({
      kind: 'test.flaky',
      payload: Type.Object({}),
      retry: { maxAttempts: 4, backoffSeconds: [5, 30] },
      handler: async (_payload, ctx) => {
        attempts.push([ctx.attempt, ctx.maxAttempts]);
        throw new Error(`boom ${ctx.attempt}`);
      },
    });
    const { clock, queue, worker } = harness([def]);
    const { id } = await db.transaction((tx) => queue.enqueue(tx, def, {}));
    assert.equal((await job(id)).max_attempts, 4);
    const w = worker();

    for (const [index, backoff] of [5, 30, 30].entries()) {
      const failedAt = clock.now();
      assert.equal(await w.drain(), 1);
      const row = await job(id);
      assert.equal(row.status, 'QUEUED');
      assert.equal(row.attempts, index + 1);
      assert.equal(row.run_at.getTime(), failedAt.getTime() + backoff * 1000, `run_at after attempt ${index + 1}`);
      assert.equal(row.last_error, `Error: boom ${index + 1}`);
      assert.equal(row.lease_owner, null);
      assert.equal(row.finished_at, null);

      clock.set(at(row.run_at, -1));
      assert.equal(await w.drain(), 0, 'not claimed before its backoff is over');
      // A little after run_at, so the next backoff visibly counts from the failure, not from run_at.
      clock.set(at(row.run_at, 250));
    }

    const lastRunAt = (await job(id)).run_at;
    assert.equal(await w.drain(), 1);
    const failed = await job(id);
    assert.equal(failed.status, 'FAILED');
    assert.equal(failed.attempts, 4);
    assert.equal(failed.last_error, 'Error: boom 4');
    assert.equal(failed.finished_at?.getTime(), clock.now().getTime());
    assert.equal(failed.run_at.getTime(), lastRunAt.getTime());
    assert.equal(failed.lease_owner, null);
    assert.deepEqual(attempts, [
      [1, 4],
      [2, 4],
      [3, 4],
      [4, 4],
    ]);

    clock.advance(24 * 3600_000);
    assert.equal(await w.drain(), 0, 'a failed job is not claimed again');
    assert.equal(attempts.length, 4);
  });

  it('fails at once on PermanentJobError', async () => {
    let calls = 0;
    const def = defineJob({
      kind: 'test.permanent',
      payload: Type.Object({}),
      retry: { maxAttempts: 5, backoffSeconds: [1] },
      handler: async () => {
        calls += 1;
        throw new PermanentJobError('trying again cannot help');
      },
    });
    const { clock, queue, worker } = harness([def]);
    const { id } = await db.transaction((tx) => queue.enqueue(tx, def, {}));
    const w = worker();
    assert.equal(await w.drain(), 1);
    const row = await job(id);
    assert.equal(row.status, 'FAILED');
    assert.equal(row.attempts, 1);
    assert.equal(row.last_error, 'PermanentJobError: trying again cannot help');
    assert.equal(row.finished_at?.getTime(), clock.now().getTime());
    clock.advance(3600_000);
    assert.equal(await w.drain(), 0);
    assert.equal(calls, 1);
  });

  it('waits uncounted on JobWaitError, as often as it is thrown, and wake runs the waiting job now', async () => {
    const seen: number[] = [];
    let waits = 3;
    const def = defineJob({
      kind: 'test.waiting',
      payload: Type.Object({}),
      retry: { maxAttempts: 2, backoffSeconds: [1] },
      handler: async (_payload, ctx) => {
        seen.push(ctx.attempt);
        if (waits-- > 0) throw new JobWaitError('the provider is still checking', 600);
      },
    });
    const { clock, queue, worker } = harness([def]);
    const { id } = await db.transaction((tx) => queue.enqueue(tx, def, {}, { key: 'waiting:1' }));
    const w = worker();
    const waitedAt = clock.now();
    assert.equal(await w.drain(), 1);
    let row = await job(id);
    assert.deepEqual([row.status, row.attempts, row.last_error], ['QUEUED', 0, 'the provider is still checking']);
    assert.equal(row.run_at.getTime(), waitedAt.getTime() + 600_000);
    assert.equal(await w.drain(), 0, 'not before its time');

    clock.advance(60_000);
    assert.equal(await queue.wake(db, 'waiting:1'), true, 'woken');
    assert.equal(await queue.wake(db, 'waiting:unknown'), false);
    assert.equal(await w.drain(), 1, 'runs at once when woken');
    assert.equal(await queue.wake(db, 'waiting:1'), true);
    assert.equal(await w.drain(), 1);
    assert.equal((await job(id)).attempts, 0, 'three waits spent none of the two attempts');
    assert.equal(await queue.wake(db, 'waiting:1'), true);
    assert.equal(await w.drain(), 1);
    row = await job(id);
    assert.deepEqual([row.status, row.attempts], ['SUCCEEDED', 1]);
    assert.deepEqual(seen, [1, 1, 1, 1], 'every run is the first attempt');
    assert.equal(await queue.wake(db, 'waiting:1'), false, 'a finished job is not woken');
  });
});

describe('recurring jobs', () => {
  it('creates exactly one job per slot, for the current and the next, however many workers ensure them', async () => {
    const runs: string[] = [];
    const def = defineJob({
      kind: 'test.every-minute',
      payload: SlotPayload,
      everySeconds: 60,
      handler: async (payload) => {
        runs.push(payload.slot);
      },
    });
    const clock = createManualClock(new Date('2026-03-01T10:00:30.000Z'));
    // Two workers, each with its own queue, as two processes would have.
    const a = harness([def], clock);
    const b = harness([def], clock);

    await Promise.all([a.queue.ensureSchedules(db), b.queue.ensureSchedules(db), a.queue.ensureSchedules(db), b.queue.ensureSchedules(db)]);
    const slots = ['2026-03-01T10:00:00.000Z', '2026-03-01T10:01:00.000Z'];
    let rows = await jobsOf(def.kind);
    assert.deepEqual(
      rows.map((r) => ({ key: r.key, runAt: r.run_at.toISOString(), payload: r.payload, status: r.status })),
      slots.map((slot) => ({ key: `slot:test.every-minute:${slot}`, runAt: slot, payload: { slot }, status: 'QUEUED' })),
    );
    assert.equal(slotKey(def.kind, new Date(slots[0]!)), `slot:test.every-minute:${slots[0]}`);

    // Both workers poll (and ensure schedules) at once: the current slot runs once, the next waits.
    const workerA = a.worker();
    const workerB = b.worker();
    const claimed = await Promise.all([workerA.drain(), workerB.drain()]);
    assert.equal(claimed[0] + claimed[1], 1);
    assert.deepEqual(runs, [slots[0]]);
    assert.equal((await jobsOf(def.kind)).length, 2);

    clock.set(new Date('2026-03-01T10:01:00.000Z'));
    const claimedNext = await Promise.all([workerA.drain(), workerB.drain()]);
    assert.equal(claimedNext[0] + claimedNext[1], 1);
    assert.deepEqual(runs, [slots[0], slots[1]]);
    rows = await jobsOf(def.kind);
    assert.deepEqual(
      rows.map((r) => [r.key, r.status]),
      [
        [`slot:test.every-minute:${slots[0]}`, 'SUCCEEDED'],
        [`slot:test.every-minute:${slots[1]}`, 'SUCCEEDED'],
        ['slot:test.every-minute:2026-03-01T10:02:00.000Z', 'QUEUED'],
      ],
    );
  });
});

describe('leases', () => {
  it('lets another worker take a job whose lease expired, and refuses the first worker’s late outcome', async () => {
    const gate = deferred();
    const started = deferred<JobContext>();
    const def = defineJob({
      kind: 'test.lease',
      payload: Type.Object({}),
      handler: async (_payload, ctx) => {
        started.resolve(ctx);
        await gate.promise;
      },
    });
    const { clock, queue, worker } = harness([def]);
    const { id } = await db.transaction((tx) => queue.enqueue(tx, def, {}));

    // Worker A claims the job and dies without a word.
    const claimedAt = clock.now();
    const [claimedByA] = await claimJobs(db, { kind: def.kind, limit: 5, owner: 'wrk_dead', now: claimedAt, leaseSeconds });
    assert.ok(claimedByA);
    assert.equal(claimedByA.id, id);
    assert.equal(claimedByA.status, 'RUNNING');
    assert.equal(claimedByA.attempts, 1);
    assert.equal(claimedByA.lease_owner, 'wrk_dead');
    assert.equal(claimedByA.lease_expires_at?.getTime(), claimedAt.getTime() + leaseSeconds * 1000);

    const b = worker();
    assert.equal(await b.drain(), 0, 'the lease is still held');
    clock.advance(leaseSeconds * 1000);
    assert.equal(await b.drain(), 0, 'a lease is held up to its expiry');
    clock.advance(1);

    const draining = b.drain();
    const ctx = await started.promise;
    assert.equal(ctx.jobId, id);
    assert.equal(ctx.attempt, 2, 'the dead attempt counts');
    const running = await job(id);
    assert.equal(running.status, 'RUNNING');
    assert.equal(running.attempts, 2);
    assert.notEqual(running.lease_owner, 'wrk_dead');

    // A wakes up: none of its updates match any more.
    const now = clock.now();
    assert.equal(await markSucceeded(db, claimedByA, now), false);
    assert.equal(await markFailed(db, claimedByA, now, 'late'), false);
    assert.equal(await markRetry(db, claimedByA, now, now, 'late'), false);
    assert.equal(await extendLease(db, claimedByA, now, leaseSeconds), false);
    const stillRunning = await job(id);
    assert.equal(stillRunning.status, 'RUNNING');
    assert.equal(stillRunning.lease_owner, running.lease_owner);
    assert.equal(stillRunning.last_error, null);

    gate.resolve();
    assert.equal(await draining, 1);
    const done = await job(id);
    assert.equal(done.status, 'SUCCEEDED');
    assert.equal(done.attempts, 2);
    assert.equal(await markSucceeded(db, claimedByA, clock.now()), false, 'nor once the job is done');
  });

  it('fails a job whose workers died on every attempt, without running it again', async () => {
    let calls = 0;
    const def = defineJob({
      kind: 'test.always-dies',
      payload: Type.Object({}),
      retry: { maxAttempts: 2, backoffSeconds: [1] },
      handler: async () => {
        calls += 1;
      },
    });
    const { clock, queue, worker } = harness([def]);
    const { id } = await db.transaction((tx) => queue.enqueue(tx, def, {}));
    for (const owner of ['wrk_dead1', 'wrk_dead2']) {
      const claimed = await claimJobs(db, { kind: def.kind, limit: 5, owner, now: clock.now(), leaseSeconds });
      assert.deepEqual(claimed.map((r) => r.id), [id]);
      clock.advance(leaseSeconds * 1000 + 1);
    }
    assert.equal(await worker().drain(), 1);
    const row = await job(id);
    assert.equal(row.status, 'FAILED');
    assert.equal(row.attempts, 3);
    assert.match(row.last_error ?? '', /^PermanentJobError: Gave up after 2 attempts/);
    assert.equal(calls, 0);
  });
});

describe('concurrency', () => {
  it('runs each of 30 jobs exactly once when two workers drain them at the same time', async () => {
    const runs = new Map<string, number>();
    const def = defineJob({
      kind: 'test.many',
      payload: Type.Object({ n: Type.Integer() }),
      concurrency: 8,
      handler: async (_payload, ctx) => {
        runs.set(ctx.jobId, (runs.get(ctx.jobId) ?? 0) + 1);
        await new Promise((resolve) => setImmediate(resolve));
      },
    });
    const { clock, queue } = harness([def]);
    const ids = await db.transaction(async (tx) => {
      const out: string[] = [];
      for (let n = 0; n < 30; n++) out.push((await queue.enqueue(tx, def, { n })).id);
      return out;
    });

    // On PostgreSQL worker B has a connection pool of its own, as another process would.
    const otherDb = t.url ? openPostgres(t.url, { max: 4 }) : db;
    try {
      const workerA = createWorker({ db, clock, queue, definitions: [def], logger, leaseSeconds, pollMilliseconds: 5 });
      const workerB = createWorker({ db: otherDb, clock, queue, definitions: [def], logger, leaseSeconds, pollMilliseconds: 5 });
      const drainAll = async (w: Worker) => {
        let total = 0;
        for (let n = await w.drain(); n > 0; n = await w.drain()) total += n;
        return total;
      };
      const [a, b] = await Promise.all([drainAll(workerA), drainAll(workerB)]);
      assert.equal(a + b, 30);
    } finally {
      if (otherDb !== db) await otherDb.close();
    }

    assert.deepEqual([...runs.keys()].sort(), [...ids].sort());
    assert.deepEqual(
      [...runs.values()].filter((count) => count !== 1),
      [],
      'every job ran exactly once',
    );
    const rows = await jobsOf(def.kind);
    assert.equal(rows.length, 30);
    assert.deepEqual(new Set(rows.map((r) => `${r.status}/${r.attempts}`)), new Set(['SUCCEEDED/1']));
  });

  it('runs at most `concurrency` handlers of a kind at once in one worker, without holding up other kinds', async () => {
    let active = 0;
    let maxActive = 0;
    const gates: Array<() => void> = [];
    const started = counter();
    const finished = counter();
    const limited = defineJob({
      kind: 'test.limited',
      payload: Type.Object({ n: Type.Integer() }),
      concurrency: 2,
      handler: async () => {
        active += 1;
        maxActive = Math.max(maxActive, active);
        const gate = deferred();
        gates.push(gate.resolve);
        started.increment();
        await gate.promise;
        active -= 1;
        finished.increment();
      },
    });
    const otherRan = deferred();
    const other = defineJob({
      kind: 'test.unlimited',
      payload: Type.Object({}),
      handler: async () => {
        otherRan.resolve();
      },
    });
    const { queue, worker } = harness([limited, other]);
    await db.transaction(async (tx) => {
      for (let n = 0; n < 6; n++) await queue.enqueue(tx, limited, { n });
    });

    const w = worker();
    w.start();
    try {
      await started.reached(2);
      // While both slots are taken, a job of another kind still runs.
      await db.transaction((tx) => queue.enqueue(tx, other, {}));
      await otherRan.promise;
      assert.equal(started.value, 2);

      // Free one slot at a time: each frees room for exactly one more.
      for (let i = 0; i < 6; i++) {
        gates[i]!();
        if (i + 3 <= 6) await started.reached(i + 3);
      }
      await finished.reached(6);
    } finally {
      for (const release of gates) release();
      await w.stop(5_000);
    }
    assert.equal(maxActive, 2);
    assert.equal(started.value, 6);
    assert.deepEqual(new Set((await jobsOf(limited.kind)).map((r) => r.status)), new Set(['SUCCEEDED']));
  });
});

describe('ctx.complete', () => {
  it('commits the handler’s write and the job’s success together', async () => {
    const def = defineJob({
      kind: 'test.complete',
      payload: Type.Object({}),
      handler: async (_payload, ctx) => {
        const inside = await ctx.complete(async (tx) => {
          await tx.query('INSERT INTO test_job_writes (job_id, note) VALUES ($1, $2)', [ctx.jobId, 'done']);
          return 'result';
        });
        assert.equal(inside, 'result');
      },
    });
    const { clock, queue, worker } = harness([def]);
    const { id } = await db.transaction((tx) => queue.enqueue(tx, def, {}));
    assert.equal(await worker().drain(), 1);
    assert.deepEqual(await writesOf(id), ['done']);
    const row = await job(id);
    assert.equal(row.status, 'SUCCEEDED');
    assert.equal(row.finished_at?.getTime(), clock.now().getTime());
  });

  it('rolls the write back with the success when the function throws, and retries the job', async () => {
    const def = defineJob({
      kind: 'test.complete-throws',
      payload: Type.Object({}),
      retry: { maxAttempts: 3, backoffSeconds: [10] },
      handler: async (_payload, ctx) => {
        await ctx.complete(async (tx) => {
          await tx.query('INSERT INTO test_job_writes (job_id, note) VALUES ($1, $2)', [ctx.jobId, `attempt ${ctx.attempt}`]);
          throw new Error('half-way');
        });
      },
    });
    const { queue, worker } = harness([def]);
    const { id } = await db.transaction((tx) => queue.enqueue(tx, def, {}));
    assert.equal(await worker().drain(), 1);
    assert.deepEqual(await writesOf(id), []);
    const row = await job(id);
    assert.equal(row.status, 'QUEUED');
    assert.equal(row.attempts, 1);
    assert.equal(row.last_error, 'Error: half-way');
  });

  it('rolls the write back when the lease was lost before complete', async () => {
    const gate = deferred();
    const started = deferred();
    let completeError: unknown;
    const def = defineJob({
      kind: 'test.complete-late',
      payload: Type.Object({}),
      handler: async (_payload, ctx) => {
        started.resolve();
        await gate.promise;
        try {
          await ctx.complete((tx) => tx.query('INSERT INTO test_job_writes (job_id, note) VALUES ($1, $2)', [ctx.jobId, 'late']));
        } catch (error) {
          completeError = error;
          throw error;
        }
      },
    });
    const { clock, queue, worker } = harness([def]);
    const { id } = await db.transaction((tx) => queue.enqueue(tx, def, {}));
    const a = worker();
    const draining = a.drain();
    await started.promise;

    // A's lease runs out and another worker takes the job over.
    clock.advance(leaseSeconds * 1000 + 1);
    const [taken] = await claimJobs(db, { kind: def.kind, limit: 1, owner: 'wrk_other', now: clock.now(), leaseSeconds });
    assert.equal(taken?.id, id);

    gate.resolve();
    assert.equal(await draining, 1);
    assert.match(String(completeError), /Lease on job .* was lost/);
    assert.deepEqual(await writesOf(id), [], 'the write was rolled back');
    const row = await job(id);
    assert.equal(row.status, 'RUNNING', 'A recorded nothing on the job it lost');
    assert.equal(row.lease_owner, 'wrk_other');
    assert.equal(row.attempts, 2);
    assert.equal(row.last_error, null);
  });
});

describe('stopping', () => {
  it('waits for handlers that finish within the timeout', async () => {
    const gate = deferred();
    const started = deferred();
    const def = defineJob({
      kind: 'test.stop-in-time',
      payload: Type.Object({}),
      handler: async () => {
        started.resolve();
        await gate.promise;
      },
    });
    const { queue, worker } = harness([def]);
    const { id } = await db.transaction((tx) => queue.enqueue(tx, def, {}));
    const w = worker();
    w.start();
    await started.promise;
    const stopping = w.stop(60_000);
    gate.resolve();
    await stopping;
    const row = await job(id);
    assert.equal(row.status, 'SUCCEEDED');
    assert.equal(row.attempts, 1);
  });

  it('releases a job still running past the timeout, without counting the attempt', async () => {
    const gate = deferred();
    const started = deferred<JobContext>();
    const attempts: number[] = [];
    const def = defineJob({
      kind: 'test.stop-late',
      payload: Type.Object({}),
      handler: async (_payload, ctx) => {
        attempts.push(ctx.attempt);
        started.resolve(ctx);
        // Ignores ctx.signal on purpose: a handler that does not stop in time.
        await gate.promise;
      },
    });
    const { queue, worker } = harness([def]);
    const { id } = await db.transaction((tx) => queue.enqueue(tx, def, {}));
    const a = worker();
    a.start();
    const ctx = await started.promise;
    const running = await job(id);
    assert.equal(running.status, 'RUNNING');
    assert.equal(running.attempts, 1);

    await a.stop(20);
    assert.ok(ctx.signal.aborted, 'the handler was told to stop');
    let row = await job(id);
    assert.equal(row.status, 'QUEUED');
    assert.equal(row.attempts, 0, 'the attempt does not count');
    assert.equal(row.lease_owner, null);
    assert.equal(row.lease_expires_at, null);
    assert.equal(row.last_error, null);

    // The handler finishes after all; its success must not be recorded on the released job.
    gate.resolve();
    await a.stop(60_000); // waits for the handler (and its attempt to record an outcome) to end
    row = await job(id);
    assert.equal(row.status, 'QUEUED');
    assert.equal(row.attempts, 0);

    // Another worker runs it as attempt 1.
    assert.equal(await worker().drain(), 1);
    row = await job(id);
    assert.equal(row.status, 'SUCCEEDED');
    assert.equal(row.attempts, 1);
    assert.deepEqual(attempts, [1, 1]);
  });
});

describe('a job claimed again while its earlier handler still runs', () => {
  function blockingJob(kind: string) {
    const gates = [deferred(), deferred()];
    const started = counter();
    const def = defineJob({
      kind,
      payload: Type.Object({}),
      handler: async () => {
        const gate = gates[started.value]!;
        started.increment();
        await gate.promise; // ignores ctx.signal: a handler slow to stop
      },
    });
    return { def, gates, started };
  }

  it('by the same worker started again after stop: the released handler cannot record an outcome for the new attempt', async () => {
    const { def, gates, started } = blockingJob('test.restarted');
    const { queue, worker } = harness([def]);
    const { id } = await db.transaction((tx) => queue.enqueue(tx, def, {}));
    const watched = watchedLogger();
    const w = worker({ logger: watched.logger });
    try {
      w.start();
      await started.reached(1);
      await w.stop(20);
      assert.deepEqual([(await job(id)).status, (await job(id)).attempts], ['QUEUED', 0]);

      w.start();
      await started.reached(2);
      const second = await job(id);
      assert.deepEqual([second.status, second.attempts], ['RUNNING', 1]);

      // The released first run ends while the second is still going.
      gates[0]!.resolve();
      const outcome = await watched.waitFor(isOutcomeOf(id));
      assert.equal(outcome.msg, 'job finished after its lease was lost; another worker owns it now');
      const row = await job(id);
      assert.equal(row.status, 'RUNNING', 'the second run is still going');
      assert.equal(row.lease_owner, second.lease_owner);

      gates[1]!.resolve();
      await w.stop(60_000);
      const done = await job(id);
      assert.deepEqual([done.status, done.attempts], ['SUCCEEDED', 1]);
    } finally {
      for (const gate of gates) gate.resolve();
      await w.stop(60_000);
    }
  });

  it('by the same worker after its own lease ran out: stop still waits for and releases the newer run', async () => {
    const { def, gates, started } = blockingJob('test.reclaimed');
    const { clock, queue, worker } = harness([def]);
    const { id } = await db.transaction((tx) => queue.enqueue(tx, def, {}));
    const watched = watchedLogger();
    const w = worker({ logger: watched.logger });
    try {
      w.start();
      await started.reached(1);
      // The worker's own lease runs out (a stalled heartbeat, say) and its next poll takes the job again.
      clock.advance(leaseSeconds * 1000 + 1);
      await started.reached(2);
      const second = await job(id);
      assert.deepEqual([second.status, second.attempts], ['RUNNING', 2]);

      gates[0]!.resolve();
      const outcome = await watched.waitFor(isOutcomeOf(id));
      assert.equal(outcome.attempt, 1);
      assert.equal(outcome.msg, 'job finished after its lease was lost; another worker owns it now');

      // The second run is still going and past the timeout: stop releases it.
      await w.stop(20);
      const released = await job(id);
      assert.deepEqual([released.status, released.attempts, released.lease_owner], ['QUEUED', 1, null]);

      gates[1]!.resolve();
      await w.stop(60_000);
      const after = await job(id);
      assert.deepEqual([after.status, after.attempts], ['QUEUED', 1]);
    } finally {
      for (const gate of gates) gate.resolve();
      await w.stop(60_000);
    }
  });
});
