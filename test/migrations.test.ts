// Migrations: applied in order, once, all-or-nothing, refused when an applied file changed, and safe
// when two processes start at once.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { after, describe, it } from 'node:test';
import type { Database } from '../src/platform/db/database.ts';
import { isMigrated, migrate, migrationsDir, readMigrations, type Migration } from '../src/platform/db/migrate.ts';
import { openPostgres } from '../src/platform/db/postgres.ts';
import { backend, createEmptyDatabase, createTestDatabase, type TestDatabase } from './helpers/database.ts';

const opened: TestDatabase[] = [];
after(async () => {
  for (const database of opened) await database.drop();
});

async function emptyDatabase(): Promise<TestDatabase> {
  const database = await createEmptyDatabase();
  opened.push(database);
  return database;
}

/** A database with every file of migrations/ applied (cloned from the test template: faster). */
async function migratedDatabase(): Promise<TestDatabase> {
  const database = await createTestDatabase();
  opened.push(database);
  return database;
}

/** The files in migrations/, by name without `.sql`, in order. */
const files = readdirSync(migrationsDir)
  .filter((f) => f.endsWith('.sql'))
  .sort()
  .map((f) => f.slice(0, -4));

function migration(version: number, name: string, sql: string): Migration {
  return { version, name, sql, checksum: createHash('sha256').update(sql).digest('hex') };
}

async function tableExists(db: Database, name: string): Promise<boolean> {
  const rows = await db.query<{ found: string | null }>('SELECT to_regclass($1)::text AS found', [name]);
  return rows[0]?.found != null;
}

async function appliedVersions(db: Database): Promise<Array<{ version: number; name: string; checksum: string }>> {
  return db.query('SELECT version, name, checksum FROM schema_migrations ORDER BY version');
}

describe('migrate', () => {
  it('applies every file of migrations/ in order on an empty database, then nothing more', async () => {
    assert.ok(files.length > 0);
    const { db } = await emptyDatabase();
    assert.equal(await isMigrated(db).catch(() => false), false);

    const first = await migrate(db);
    assert.deepEqual(first.applied, files);
    assert.equal(await isMigrated(db), true);
    const known = readMigrations();
    assert.deepEqual(
      await appliedVersions(db),
      known.map((m) => ({ version: m.version, name: m.name, checksum: m.checksum })),
    );
    for (const table of ['partners', 'api_clients', 'signing_keys', 'jobs', 'events', 'idempotency_keys', 'rate_limit_counters']) {
      assert.ok(await tableExists(db, table), `${table} exists`);
    }

    const second = await migrate(db);
    assert.deepEqual(second.applied, []);
    assert.equal(await isMigrated(db), true);
    assert.equal((await appliedVersions(db)).length, known.length);
  });

  it('applies only the new files, and isMigrated is false until it has', async () => {
    const { db } = await migratedDatabase();
    const known = readMigrations();
    assert.deepEqual((await migrate(db, known)).applied, []);
    const next = migration(known.at(-1)!.version + 1, 'test_addition', 'CREATE TABLE test_addition (id integer PRIMARY KEY);');
    assert.equal(await isMigrated(db, [...known, next]), false);
    const result = await migrate(db, [...known, next]);
    assert.deepEqual(result.applied, [`${String(next.version).padStart(4, '0')}_test_addition`]);
    assert.equal(await isMigrated(db, [...known, next]), true);
    assert.ok(await tableExists(db, 'test_addition'));
  });

  it('refuses to start when an applied migration has changed, naming it', async () => {
    const { db } = await migratedDatabase();
    const known = readMigrations();
    assert.deepEqual((await migrate(db, known)).applied, []);
    const changed = known.map((m, i) => (i === 0 ? migration(m.version, m.name, `${m.sql}\n-- edited afterwards\n`) : m));
    await assert.rejects(migrate(db, changed), (error: Error) => {
      assert.match(error.message, new RegExp(`Migration ${files[0]} was changed after it was applied`));
      return true;
    });
    // A changed file stops even a run that had something new to apply, and applies none of it.
    const next = migration(known.at(-1)!.version + 1, 'test_never', 'CREATE TABLE test_never (id integer);');
    await assert.rejects(migrate(db, [...changed, next]), new RegExp(files[0]!));
    assert.equal(await tableExists(db, 'test_never'), false);
    assert.equal((await appliedVersions(db)).length, known.length);
  });

  it('leaves no trace of a migration that fails half-way, and the error propagates', async () => {
    const { db } = await migratedDatabase();
    const known = readMigrations();
    assert.deepEqual((await migrate(db, known)).applied, []);
    const broken = migration(
      known.at(-1)!.version + 1,
      'test_broken',
      `CREATE TABLE test_half_done (id integer);
       INSERT INTO test_half_done VALUES (1);
       INSERT INTO test_no_such_table VALUES (1);`,
    );
    await assert.rejects(migrate(db, [...known, broken]), /test_no_such_table/);
    assert.equal(await tableExists(db, 'test_half_done'), false);
    assert.deepEqual(
      (await appliedVersions(db)).map((r) => r.version),
      known.map((m) => m.version),
    );
    assert.equal(await isMigrated(db, [...known, broken]), false);
    // The database is still usable and the fixed file applies.
    const fixed = migration(broken.version, broken.name, 'CREATE TABLE test_half_done (id integer);');
    assert.deepEqual((await migrate(db, [...known, fixed])).applied, [`${String(fixed.version).padStart(4, '0')}_test_broken`]);
  });

  it('applies nothing at all when a later file of the same run fails', async () => {
    const { db } = await emptyDatabase();
    const known = readMigrations();
    const broken = migration(known.at(-1)!.version + 1, 'test_broken', 'SELECT * FROM test_no_such_table;');
    await assert.rejects(migrate(db, [...known, broken]), /test_no_such_table/);
    assert.equal(await tableExists(db, 'jobs'), false);
    assert.equal(await tableExists(db, 'schema_migrations'), false);
    assert.deepEqual((await migrate(db, known)).applied, files);
  });

  it(
    'applies each file once when two processes migrate the same fresh database at the same time',
    { skip: backend === 'pglite' ? 'PGlite is one connection in one process: there is no second migrator to race' : false },
    async () => {
      const { url } = await emptyDatabase();
      assert.ok(url);
      const one = openPostgres(url, { max: 1 });
      const two = openPostgres(url, { max: 1 });
      try {
        const results = await Promise.all([migrate(one), migrate(two)]);
        assert.deepEqual(results.map((r) => r.applied).flat().sort(), files, 'each file applied by exactly one of them');
        const counts = await one.query<{ version: number; n: string }>('SELECT version, count(*)::text AS n FROM schema_migrations GROUP BY version ORDER BY version');
        assert.deepEqual(
          counts,
          readMigrations().map((m) => ({ version: m.version, n: '1' })),
        );
        assert.equal(await isMigrated(one), true);
        assert.equal(await isMigrated(two), true);
      } finally {
        await one.close();
        await two.close();
      }
    },
  );
});
