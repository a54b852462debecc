// For crash tests: a worker process of our own to kill, and the database it shares with the test.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Database } from '../../src/platform/db/database.ts';
import { migrate } from '../../src/platform/db/migrate.ts';
import { openPglite } from '../../src/platform/db/pglite.ts';
import { backend, createTestDatabase, type TestDatabase } from './database.ts';

export interface SharedDatabase {
  /** What a child process opens: a PostgreSQL URL or a PGlite data directory. */
  target: string;
  /** For the test's own set-up (createTestContext({ database })); on PGlite, close it before a child starts. */
  setup: TestDatabase;
  /** Runs fn on the shared database (see withSharedDb). */
  withDb<T>(fn: (db: Database) => Promise<T>): Promise<T>;
  drop(): Promise<void>;
}

/** A migrated database of the test's back-end that child processes can open once the test lets go of it. */
export async function createSharedDatabase(name: string): Promise<SharedDatabase> {
  if (backend === 'postgres') {
    const pg = await createTestDatabase();
    return { target: pg.url!, setup: { ...pg, drop: async () => {} }, withDb: (fn) => fn(pg.db), drop: () => pg.drop() };
  }
  const dataDir = mkdtempSync(path.join(os.tmpdir(), `pvs-${name}-`));
  const target = path.join(dataDir, 'pglite');
  const db = await openPglite({ dataDir: target });
  await migrate(db);
  return {
    target,
    setup: { db, drop: () => db.close() },
    withDb: (fn) => withSharedDb({ dataDir: target }, fn),
    drop: async () => rmSync(dataDir, { recursive: true, force: true }),
  };
}

/**
 * Runs fn on the shared database: the PostgreSQL one the test holds, or the PGlite data directory,
 * opened only for fn (PGlite is one process at a time, so never while a child has it).
 */
export async function withSharedDb<T>(shared: { db?: Database; dataDir?: string }, fn: (db: Database) => Promise<T>): Promise<T> {
  if (shared.db) return fn(shared.db);
  const db = await openPglite({ dataDir: shared.dataDir });
  try {
    return await fn(db);
  } finally {
    await db.close();
  }
}

/** Starts a TypeScript fixture in its own process and collects what it prints. */
export function spawnFixture(fixture: string, env: Record<string, string>) {
  const child = spawn(process.execPath, [...process.execArgv.filter((flag) => flag === '--liftoff-only'), '--import', 'tsx', fixture], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (err += d));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  /** Polls until done() holds; fails with the child's output when it never does or the child exits. */
  const waitFor = async (done: () => boolean, what: string, attempts = 600) => {
    for (let i = 0; i < attempts && !done(); i++) {
      if (child.exitCode !== null) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    assert.ok(done(), `${what} never happened; stdout: ${out}; stderr: ${err}`);
  };
  return { child, exited, waitFor, output: () => out };
}
