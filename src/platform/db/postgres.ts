import pg from 'pg';
import { createWriteBuffer, runAfterCommit, type Database, type Tx } from './database.ts';

// timestamptz → Date (pg's default); int8 and numeric stay strings unless cast in SQL.

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
        if (writes) await client.query(writes.sql, writes.params as unknown[]);
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
          if (writes) await client.query(writes.sql, writes.params as unknown[]);
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
