// A migrated database per back-end, made for this run and thrown away after it:
// PostgreSQL: a fresh `pvs_bench_<random>` database created from BENCH_DATABASE_URL and dropped at the end;
// PGlite: in memory. Both are migrated with the service's own `migrate` and given filler partners.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { Database } from '../../src/platform/db/database.ts';
import { migrate } from '../../src/platform/db/migrate.ts';
import { openPglite } from '../../src/platform/db/pglite.ts';
import { openPostgres } from '../../src/platform/db/postgres.ts';
import type { Backend } from './types.ts';

export interface BenchDatabase {
  db: Database;
  /** Where it lives, for the report (never contains a password: the URL's is removed). */
  where: string;
  /** Closes and, for PostgreSQL, drops it. Safe to call twice. */
  dispose(): Promise<void>;
}

/** Extra partners so that primary-key lookups go through an index, not a scan of a one-row table. */
const fillerPartners = 10_000;

async function prepare(db: Database): Promise<void> {
  await migrate(db);
  await db.query(
    `INSERT INTO partners (id, name, environment, monitoring_eligible, created_at)
     SELECT 'ptn_bench_filler_' || g, 'Filler ' || g, 'sandbox', false, now() FROM generate_series(1, $1::int) AS g`,
    [fillerPartners],
  );
  await db.exec('ANALYZE partners');
}

async function withAdmin<T>(adminUrl: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

function redact(url: URL): string {
  const copy = new URL(url);
  if (copy.password) copy.password = '***';
  return copy.toString();
}

async function openBenchPostgres(adminUrl: string): Promise<BenchDatabase> {
  const name = `pvs_bench_${randomBytes(6).toString('hex')}`;
  await withAdmin(adminUrl, (c) => c.query(`CREATE DATABASE ${name}`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  // The pool the service itself would open (openDatabase → openPostgres with its default size).
  const db = openPostgres(url.toString());
  let disposed = false;
  const dispose = async () => {
    if (disposed) return;
    disposed = true;
    await db.close().catch(() => {});
    await withAdmin(adminUrl, (c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
  };
  try {
    await prepare(db);
  } catch (error) {
    await dispose();
    throw error;
  }
  return { db, where: redact(url), dispose };
}

async function openBenchPglite(): Promise<BenchDatabase> {
  const db = await openPglite();
  try {
    await prepare(db);
  } catch (error) {
    await db.close();
    throw error;
  }
  return { db, where: 'PGlite in memory', dispose: () => db.close() };
}

export function openBenchDatabase(backend: Backend, adminUrl: string): Promise<BenchDatabase> {
  return backend === 'postgres' ? openBenchPostgres(adminUrl) : openBenchPglite();
}
