import pg from 'pg';
import { createWriteBuffer, runAfterCommit, type Database, type Tx } from './database.ts';

// timestamptz → Date (pg's default); int8 and numeric stay strings unless cast in SQL.

/**
 * Combined held writes run as named prepared statements: PostgreSQL parses and plans each text once per
 * connection instead of on every request. The texts come from code paths, so they are few; past the cap
 * (a code path holding a varying number of writes) they run unnamed.
 */
const heldStatementNames = new Map<string, string>();
const heldStatementNamesMax = 200;

function heldStatement(writes: { sql: string; params: readonly unknown[] }) {
  let name = heldStatementNames.get(writes.sql);
  if (name === undefined && heldStatementNames.size < heldStatementNamesMax) {
    name = `pvs_held_${heldStatementNames.size + 1}`;
    heldStatementNames.set(writes.sql, name);
  }
  return { name, text: writes.sql, values: writes.params as unknown[] };
}

export function openPostgres(connectionString: string, options: { max?: number } = {}): Database {
  const pool = new pg.Pool({ connectionString, max: options.max ?? 10, connectionTimeoutMillis: 5_000 });
  // An idle client losing its connection must not crash the process; the next query reconnects.
  pool.on('error', () => {});
  let ended: Promise<void> | undefined;

  return {
    kind: 'postgres',
    async query(sql, params = []) {
      const result = await pool.query(sql, params as unknown[]);
      return result.rows;
    },
    async exec(sql) {
      await pool.query(sql);
    },
    async write(sql, params = []) {
      await pool.query(sql, params as unknown[]);
    },
    async transaction(fn) {
      const client = await pool.connect();
      const callbacks: Array<() => void> = [];
      // BEGIN waits for the first statement that needs it, so that a transaction of held writes only is
      // one statement: one round trip instead of three (the create of a lookup, its charge and its job).
      const held = createWriteBuffer();
      let begun = false;
      const send = async () => {
        if (!begun) {
          begun = true;
          await client.query('BEGIN');
        }
        const writes = held.take();
        if (writes) await client.query(heldStatement(writes));
      };
      const tx: Tx = {
        async query(sql, params = []) {
          await send();
          return (await client.query(sql, params as unknown[])).rows;
        },
        async exec(sql) {
          await send();
          await client.query(sql);
        },
        async write(sql, params = []) {
          held.hold(sql, params);
        },
        afterCommit: (cb) => callbacks.push(cb),
      };
      let broken = false;
      try {
        const result = await fn(tx);
        if (begun) {
          await send();
          await client.query('COMMIT');
        } else {
          const writes = held.take();
          if (writes) await client.query(heldStatement(writes));
        }
        runAfterCommit(callbacks);
        return result;
      } catch (error) {
        if (begun) {
          await client.query('ROLLBACK').catch(() => {
            broken = true;
          });
        }
        throw error;
      } finally {
        client.release(broken);
      }
    },
    async close() {
      // Idempotent, as on PGlite: pg's Pool rejects a second end(); a second close waits for the first.
      ended ??= pool.end();
      await ended;
    },
  };
}
