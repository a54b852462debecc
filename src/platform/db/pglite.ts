import { PGlite } from '@electric-sql/pglite';
import { combineWritesWithQuery, createWriteBuffer, runAfterCommit, sendWrites, type Database, type Statement, type Tx } from './database.ts';

/**
 * PGlite's own default of 128 MB of shared buffers is memory the process touches at start, whatever
 * it holds: about 300 MB resident for a small database against 190 MB with 16 MB. Its files are read
 * through the operating system's page cache, so the buffers save a copy, not a disk read;
 * bench/README.md (cli) has the figures.
 */
const sharedBuffers = '16MB';

/**
 * Embedded PostgreSQL. PGlite is one connection in this process: its transactions are serialised,
 * and only one process may open a data directory at a time (see lock-file.ts).
 */
export async function openPglite(options: { dataDir?: string; loadDataDir?: Blob } = {}): Promise<Database & { raw: PGlite }> {
  // A start parameter, not `postgresqlconf`, which would replace the data directory's postgresql.conf whole.
  const startParams = [...PGlite.defaultStartParams, '-c', `shared_buffers=${sharedBuffers}`];
  const db = new PGlite({ dataDir: options.dataDir, loadDataDir: options.loadDataDir, startParams });
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
    async write(sql, params = [], options) {
      const result = await db.query(sql, params as unknown[]);
      options?.rows?.(result.rows.length);
    },
    async transaction(fn) {
      const callbacks: Array<() => void> = [];
      const result = await db.transaction(async (inner) => {
        // In-process, so a round trip costs little: held writes are only sent together, before the next
        // statement or the commit, as on PostgreSQL.
        const held = createWriteBuffer();
        const sendHeld = async (writes: Statement[] | undefined) => {
          if (writes) await sendWrites(writes, async (combined) => (await inner.query(combined.sql, combined.params as unknown[])).rows);
        };
        const flush = () => sendHeld(held.take());
        const tx: Tx = {
          async query(sql, params = [], options) {
            const writes = held.take();
            const combined = options?.withHeldWrites ? combineWritesWithQuery(writes, { sql, params }) : undefined;
            if (combined) return (await inner.query(combined.sql, combined.params as unknown[])).rows as never[];
            await sendHeld(writes);
            return (await inner.query(sql, params as unknown[])).rows as never[];
          },
          async exec(sql) {
            await flush();
            await inner.exec(sql);
          },
          async write(sql, params = [], options) {
            held.hold(sql, params, options);
          },
          afterCommit: (cb) => callbacks.push(cb),
        };
        const value = await fn(tx);
        await flush();
        return value;
      });
      runAfterCommit(callbacks);
      return result;
    },
    async close() {
      if (!db.closed) await db.close();
    },
  };
}
