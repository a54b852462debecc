// Crash safety: a worker process killed (SIGKILL) in the middle of a job loses nothing, and the job's
// effect happens exactly once after another worker takes it over.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, it } from 'node:test';
import { systemClock } from '../src/platform/clock.ts';
import type { Database } from '../src/platform/db/database.ts';
import { migrate } from '../src/platform/db/migrate.ts';
import { createJobQueue } from '../src/platform/jobs/queue.ts';
import { crashJob } from './fixtures/crash-worker.ts';
import { spawnFixture, withSharedDb } from './helpers/crash.ts';
import { backend, createTestDatabase, type TestDatabase } from './helpers/database.ts';

const fixture = path.resolve(import.meta.dirname, 'fixtures/crash-worker.ts');
let target: string;
let pgDatabase: TestDatabase | undefined;
let dataDir: string | undefined;

function runWorker(mode: 'hang' | 'finish') {
  return spawnFixture(fixture, { CRASH_DB: target, CRASH_MODE: mode });
}

const withDb = <T>(fn: (db: Database) => Promise<T>) => withSharedDb({ db: pgDatabase?.db, dataDir: target }, fn);

before(async () => {
  if (backend === 'postgres') {
    pgDatabase = await createTestDatabase();
    target = pgDatabase.url!;
  } else {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'pvs-crash-'));
    target = path.join(dataDir, 'pglite');
    await withDb((db) => migrate(db).then(() => undefined));
  }
  await withDb(async (db) => {
    await db.query('CREATE TABLE crash_effects (job_id text NOT NULL, label text NOT NULL, attempt integer NOT NULL)');
    const queue = createJobQueue({ clock: systemClock, definitions: [crashJob] });
    await db.transaction((tx) => queue.enqueue(tx, crashJob, { label: 'the only effect' }));
  });
});

after(async () => {
  await pgDatabase?.drop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

it('a job whose worker is killed mid-job completes exactly once on another worker', async () => {
  const first = runWorker('hang');
  await first.waitFor(() => first.output().includes('IN_JOB'), 'IN_JOB');
  first.child.kill('SIGKILL');
  assert.deepEqual(await first.exited, { code: null, signal: 'SIGKILL' });

  // The second worker waits out the dead worker's lease (2 s), claims the job again and finishes it.
  const second = runWorker('finish');
  await second.waitFor(() => second.output().includes('DONE'), 'DONE');
  assert.equal((await second.exited).code, 0);

  await withDb(async (db) => {
    const effects = await db.query<{ label: string; attempt: number }>('SELECT label, attempt FROM crash_effects');
    assert.deepEqual(effects, [{ label: 'the only effect', attempt: 2 }], 'the killed attempt wrote nothing; the second wrote once');
    const [job] = await db.query<{ status: string; attempts: number; lease_owner: string | null }>(
      "SELECT status, attempts, lease_owner FROM jobs WHERE kind = 'test.crash-effect'",
    );
    assert.deepEqual(job, { status: 'SUCCEEDED', attempts: 2, lease_owner: null });
  });
});
