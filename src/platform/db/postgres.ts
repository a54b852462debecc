import pg from 'pg';
import { combineWritesWithQuery, createWriteBuffer, isUnavailableError, runAfterCommit, sendWrites, type Database, type Statement, type Tx } from './database.ts';

// timestamptz → Date (pg's default); int8 and numeric stay strings unless cast in SQL.

/**
 * Combined held writes run as named prepared statements: PostgreSQL parses and plans each text once per
 * connection instead of on every request. The texts come from code paths, so they are few; past the cap
 * (a code path holding a varying number of writes) they run unnamed.
 */
const heldStatementNames = new Map<string, string>();
const heldStatementNamesMax = 200;

function heldStatement(writes: Statement) {
  let name = heldStatementNames.get(writes.sql);
  if (name === undefined && heldStatementNames.size < heldStatementNamesMax) {
    name = `pvs_held_${heldStatementNames.size + 1}`;
    heldStatementNames.set(writes.sql, name);
  }
  return { name, text: writes.sql, values: writes.params as unknown[] };
}

export interface PostgresOptions {
  /** Connections in the pool. */
  max?: number;
  /**
   * How long a query may go unanswered before it fails (and its connection is dropped). Without it a
   * connection whose packets vanish (a network partition, a server that froze) holds its request for
   * as long as TCP takes to notice, which can be hours. Scripts (`exec`: migrations) are exempt.
   */
  queryTimeoutMs?: number;
  /** How long making a connection, or waiting for a free one in the pool, may take. */
  connectionTimeoutMs?: number;
}

/** Long enough for any query the service makes, short enough that nothing waits for ever. */
export const defaultQueryTimeoutMs = 30_000;
const scriptTimeoutMs = 60 * 60_000;

export function openPostgres(connectionString: string, options: PostgresOptions = {}): Database {
  const pool = new pg.Pool({
    connectionString,
    max: options.max ?? 10,
    connectionTimeoutMillis: options.connectionTimeoutMs ?? 3_000,
    query_timeout: options.queryTimeoutMs ?? defaultQueryTimeoutMs,
    // TCP keepalive on every connection: an idle connection to a server that went away is noticed and
    // dropped by the pool rather than handed to the next request.
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
  });
  // An idle client losing its connection must not crash the process; the next query reconnects.
  pool.on('error', () => {});
  const script = (sql: string) => ({ text: sql, query_timeout: scriptTimeoutMs });
  let ended: Promise<void> | undefined;

  return {
    kind: 'postgres',
    poolStats: () => ({ idle: pool.idleCount, busy: pool.totalCount - pool.idleCount, waiting: pool.waitingCount }),
    async query(sql, params = []) {
      const result = await pool.query(sql, params as unknown[]);
      return result.rows;
    },
    async exec(sql) {
      await pool.query(script(sql));
    },
    async write(sql, params = [], options) {
      const result = await pool.query(sql, params as unknown[]);
      options?.rows?.(result.rows.length);
    },
    async transaction(fn) {
      const client = await pool.connect();
      // A checked-out client has no listener of the pool's: a connection that dies between two of the
      // transaction's statements would emit an 'error' nobody hears and take the process down. The next
      // statement fails on its own ("Client has encountered a connection error"); the client is dropped.
      let broken = false;
      const onError = () => {
        broken = true;
      };
      client.on('error', onError);
      const callbacks: Array<() => void> = [];
      // BEGIN waits for the first statement that needs it, so that a transaction of held writes only is
      // one statement: one round trip instead of three (the create of a lookup, its charge and its job).
      const held = createWriteBuffer();
      let begun = false;
      const sendHeld = async (writes: Statement[] | undefined) => {
        if (writes) await sendWrites(writes, async (combined) => (await client.query(heldStatement(combined))).rows);
      };
      const begin = async () => {
        if (!begun) {
          begun = true;
          await client.query('BEGIN');
        }
      };
      const send = async () => {
        await begin();
        await sendHeld(held.take());
      };
      const tx: Tx = {
        async query(sql, params = [], options) {
          await begin();
          const writes = held.take();
          const combined = options?.withHeldWrites ? combineWritesWithQuery(writes, { sql, params }) : undefined;
          if (combined) return (await client.query(heldStatement(combined))).rows;
          await sendHeld(writes);
          return (await client.query(sql, params as unknown[])).rows;
        },
        async exec(sql) {
          await send();
          await client.query(script(sql));
        },
        async write(sql, params = [], options) {
          held.hold(sql, params, options);
        },
        afterCommit: (cb) => callbacks.push(cb),
      };
      try {
        const result = await fn(tx);
        if (begun || held.counted) {
          await send();
          await client.query('COMMIT');
        } else {
          await sendHeld(held.take());
        }
        runAfterCommit(callbacks);
        return result;
      } catch (error) {
        // A connection that failed (or whose query got no answer) is dropped, not asked to roll back:
        // the server rolls back a transaction whose connection closes, and a ROLLBACK sent down a dead
        // connection would only wait for its own timeout.
        if (isUnavailableError(error)) broken = true;
        else if (begun) {
          await client.query('ROLLBACK').catch(() => {
            broken = true;
          });
        }
        throw error;
      } finally {
        // A broken client keeps the listener: it is discarded, and may still report its end.
        if (!broken) client.removeListener('error', onError);
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
