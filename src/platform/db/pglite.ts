import { PGlite } from '@electric-sql/pglite';
import { runAfterCommit, type Database, type Tx } from './database.ts';

/**
 * Embedded PostgreSQL. PGlite is one connection in this process: its transactions are serialised,
 * and only one process may open a data directory at a time (see lock-file.ts).
 */
export async function openPglite(options: { dataDir?: string; loadDataDir?: Blob } = {}): Promise<Database & { raw: PGlite }> {
  const db = new PGlite({ dataDir: options.dataDir, loadDataDir: options.loadDataDir });
  await db.waitReady;

  return {
    kind: 'pglite',
    raw: db,
    async query(sql, params = []) {
      const result = await db.query(sql, params as unknown[]);
      return result.rows as never[];
    },
    async exec(sql) {
      await db.exec(sql);
    },
    async transaction(fn) {
      const callbacks: Array<() => void> = [];
      const result = await db.transaction(async (inner) => {
        const tx: Tx = {
          async query(sql, params = []) {
            return (await inner.query(sql, params as unknown[])).rows as never[];
          },
          async exec(sql) {
            await inner.exec(sql);
          },
          afterCommit: (cb) => callbacks.push(cb),
        };
        return fn(tx);
      });
      runAfterCommit(callbacks);
      return result;
    },
    async close() {
      if (!db.closed) await db.close();
    },
  };
}
