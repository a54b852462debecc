import pg from 'pg';
import { runAfterCommit, type Database, type Tx } from './database.ts';

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
    async transaction(fn) {
      const client = await pool.connect();
      const callbacks: Array<() => void> = [];
      const tx: Tx = {
        async query(sql, params = []) {
          return (await client.query(sql, params as unknown[])).rows;
        },
        async exec(sql) {
          await client.query(sql);
        },
        afterCommit: (cb) => callbacks.push(cb),
      };
      let broken = false;
      try {
        await client.query('BEGIN');
        const result = await fn(tx);
        await client.query('COMMIT');
        runAfterCommit(callbacks);
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {
          broken = true;
        });
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
