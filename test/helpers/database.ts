// A fresh database per test file, cloned from a migrated template so that files stay fast:
// PGlite from a dumped data directory, PostgreSQL with CREATE DATABASE … TEMPLATE.
// TEST_DATABASE=pglite (default) or postgres; TEST_DATABASE_URL names the PostgreSQL database
// the run may use to create its own (default postgres://postgres@127.0.0.1:5432/test).
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { Database } from '../../src/platform/db/database.ts';
import { migrate, readMigrations } from '../../src/platform/db/migrate.ts';
import { openPglite } from '../../src/platform/db/pglite.ts';
import { openPostgres } from '../../src/platform/db/postgres.ts';

export const backend = (process.env.TEST_DATABASE ?? 'pglite') as 'pglite' | 'postgres';
export const adminUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

const schemaHash = createHash('sha256')
  .update(readMigrations().map((m) => m.checksum).join())
  .digest('hex')
  .slice(0, 12);

export interface TestDatabase {
  db: Database;
  /** A connection string for child processes (PostgreSQL only). */
  url?: string;
  drop(): Promise<void>;
}

export function databaseUrl(name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function withAdmin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

async function ensurePostgresTemplate(): Promise<string> {
  const template = `pvs_tpl_${schemaHash}`;
  await withAdmin(async (client) => {
    // Test files run in parallel processes: one builds the template, the others wait for it.
    await client.query('SELECT pg_advisory_lock(7311842100)');
    try {
      const exists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [template]);
      if (exists.rowCount) return;
      // Built under another name and renamed when complete, so a run that died half-way leaves no
      // half-migrated template behind for the next run to trust.
      const building = `${template}_building`;
      await client.query(`DROP DATABASE IF EXISTS ${building}`);
      await client.query(`CREATE DATABASE ${building}`);
      const db = openPostgres(databaseUrl(building), { max: 1 });
      try {
        await migrate(db);
      } finally {
        await db.close();
      }
      await client.query(`ALTER DATABASE ${building} RENAME TO ${template}`);
    } finally {
      await client.query('SELECT pg_advisory_unlock(7311842100)');
    }
  });
  return template;
}

/** An empty database (no migrations), for migration tests. */
export async function createEmptyDatabase(): Promise<TestDatabase> {
  if (backend === 'pglite') {
    const db = await openPglite();
    return { db, drop: () => db.close() };
  }
  const name = `pvs_t_${randomBytes(6).toString('hex')}`;
  await withAdmin((c) => c.query(`CREATE DATABASE ${name}`));
  return postgresDatabase(name);
}

function postgresDatabase(name: string): TestDatabase {
  const url = databaseUrl(name);
  const db = openPostgres(url, { max: 10 });
  return {
    db,
    url,
    async drop() {
      await db.close();
      await withAdmin((c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    },
  };
}

/**
 * A Blob over bytes already in memory, whose arrayBuffer() hands them over as they are. Node 20's own
 * Blob.arrayBuffer() streams its contents in small chunks and joins them: for the 43 MB template that cost
 * every test file a second of CPU, and PGlite reads the template with arrayBuffer() alone.
 */
class BytesBlob extends Blob {
  readonly #bytes: Buffer;
  constructor(bytes: Buffer) {
    super([]);
    this.#bytes = bytes;
  }
  override arrayBuffer(): Promise<ArrayBuffer> {
    const { buffer, byteOffset, byteLength } = this.#bytes;
    return Promise.resolve(byteOffset === 0 && byteLength === buffer.byteLength ? (buffer as ArrayBuffer) : (buffer.slice(byteOffset, byteOffset + byteLength) as ArrayBuffer));
  }
}

async function pgliteTemplate(): Promise<Blob> {
  // Kept as a plain tar: every test file loads it, and gunzipping it cost each 0.2 s of CPU.
  const file = path.join(os.tmpdir(), `pvs-pglite-template-${schemaHash}.tar`);
  if (!existsSync(file)) {
    const db = await openPglite();
    await migrate(db);
    const dump = await db.raw.dumpDataDir('none');
    await db.close();
    const temporary = `${file}.${process.pid}.tmp`;
    writeFileSync(temporary, Buffer.from(await dump.arrayBuffer()));
    renameSync(temporary, file);
  }
  return new BytesBlob(readFileSync(file));
}

/** A migrated database of its own for one test file. */
export async function createTestDatabase(): Promise<TestDatabase> {
  if (backend === 'pglite') {
    const db = await openPglite({ loadDataDir: await pgliteTemplate() });
    return { db, drop: () => db.close() };
  }
  const template = await ensurePostgresTemplate();
  const name = `pvs_t_${randomBytes(6).toString('hex')}`;
  await withAdmin((c) => c.query(`CREATE DATABASE ${name} TEMPLATE ${template}`));
  return postgresDatabase(name);
}
