// Numbered, forward-only SQL migrations (`migrations/0001_name.sql`). All pending files apply in one
// transaction under an advisory lock, so two processes starting at once apply each file once and a
// failure leaves the schema as it was. An applied file that has since changed stops the start.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Database } from './database.ts';

export const migrationsDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../migrations');

// An arbitrary constant: the advisory lock key every PVS process uses for migrations.
const migrationLockKey = 7_311_842_001;

export interface Migration {
  version: number;
  name: string;
  sql: string;
  checksum: string;
}

export function readMigrations(dir = migrationsDir): Migration[] {
  return readdirSync(dir)
    .filter((f) => /^\d{4}_[a-z0-9_]+\.sql$/.test(f))
    .sort()
    .map((file) => {
      const sql = readFileSync(path.join(dir, file), 'utf8');
      return {
        version: Number(file.slice(0, 4)),
        name: file.slice(5, -4),
        sql,
        checksum: createHash('sha256').update(sql).digest('hex'),
      };
    });
}

/** The migration's file name without `.sql` (`0001_foundation`), as operators know it. */
function fileName(m: Migration): string {
  return `${String(m.version).padStart(4, '0')}_${m.name}`;
}

export async function migrate(db: Database, migrations = readMigrations()): Promise<{ applied: string[] }> {
  return db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [migrationLockKey]);
    await tx.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version integer PRIMARY KEY,
      name text NOT NULL,
      checksum text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
    const rows = await tx.query<{ version: number; name: string; checksum: string }>(
      'SELECT version, name, checksum FROM schema_migrations ORDER BY version',
    );
    const done = new Map(rows.map((r) => [r.version, r]));
    const applied: string[] = [];
    for (const m of migrations) {
      const previous = done.get(m.version);
      if (previous) {
        if (previous.checksum !== m.checksum) {
          throw new Error(`Migration ${fileName(m)} was changed after it was applied; add a new migration instead`);
        }
        continue;
      }
      await tx.exec(m.sql);
      await tx.query('INSERT INTO schema_migrations (version, name, checksum) VALUES ($1, $2, $3)', [m.version, m.name, m.checksum]);
      applied.push(fileName(m));
    }
    return { applied };
  });
}

/** True when every known migration is applied (what /ready checks). */
export async function isMigrated(db: Database, migrations = readMigrations()): Promise<boolean> {
  const latest = migrations.at(-1)?.version ?? 0;
  const rows = await db.query<{ version: number | null }>('SELECT max(version) AS version FROM schema_migrations');
  return (rows[0]?.version ?? 0) >= latest;
}
