// The one database interface every repository uses. Two implementations: embedded PGlite (the
// default) and PostgreSQL through a pool. The SQL is the same on both.

export interface Queryable {
  query<Row = Record<string, unknown>>(sql: string, params?: readonly unknown[], options?: QueryOptions): Promise<Row[]>;
  /** Runs a script of several statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
  /**
   * A statement whose result the caller does not need: an INSERT, or a change to a row that exists.
   * Outside a transaction it runs at once. Inside one it is held, and the transaction's held writes go to
   * the database together, as one statement, before its next query or at its commit; an error of theirs
   * surfaces there. A transaction of held writes only is that one statement, with no BEGIN or COMMIT.
   * Held writes see none of each other's effects (foreign keys are checked at the statement's end, so a
   * row and rows that refer to it may be held together): never hold a write to a row another held write
   * inserts or changes.
   */
  write(sql: string, params?: readonly unknown[], options?: WriteOptions): Promise<void>;
}

export interface QueryOptions {
  /**
   * Inside a transaction: the query needs none of the held writes' effects, so it is sent with them, as
   * the statement that ends their WITH (one round trip instead of two), and sees the database as it was
   * before them. A SELECT only; it goes on its own when nothing is held or a held write wants its count.
   */
  withHeldWrites?: boolean;
}

export interface WriteOptions {
  /**
   * Told how many rows the write's RETURNING gave, once it was sent: a job's completion checks its lease
   * this way without a round trip of its own. An error thrown here fails the transaction, so a
   * transaction holding such a write always opens with BEGIN: its held writes can still be rolled back.
   */
  rows?(count: number): void;
}

/** A connection inside an open transaction. */
export interface Tx extends Queryable {
  /** Runs after the transaction commits (never if it rolls back); for nudges, never for state. */
  afterCommit(fn: () => void): void;
}

export interface Database extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /** Runs fn in one transaction: commit when it resolves, roll back when it throws. */
  transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T>;
  close(): Promise<void>;
  /** PostgreSQL's pool: connections idle, busy, and callers waiting for one (the embedded database has none). */
  poolStats?(): { idle: number; busy: number; waiting: number };
}

/** Repositories take either the database or an open transaction. */
export type Executor = Queryable;

/**
 * Thrown without trying while the database is known to be down (see availability.ts), so that a request
 * fails at once instead of waiting on a connection that cannot be made.
 */
export class DatabaseUnavailableError extends Error {
  override name = 'DatabaseUnavailableError';
}

/** A connection problem (as opposed to a bad query): the caller answers 503, not 500. */
export function isUnavailableError(error: unknown): boolean {
  if (error instanceof DatabaseUnavailableError) return true;
  const e = error as { code?: string; message?: string } | undefined;
  if (!e) return false;
  if (typeof e.code === 'string') {
    if (['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', '57P01', '57P02', '57P03', '53300'].includes(e.code)) return true;
    if (e.code.startsWith('08')) return true;
  }
  // pg's words for a connection that died, could not be made in time, waited too long for a pool slot,
  // or sent a query that got no answer within query_timeout.
  return /Connection terminated|connection timeout|Client has encountered a connection error|timeout exceeded when trying to connect|Query read timeout|PGlite is closed/i.test(
    e.message ?? '',
  );
}

export function runAfterCommit(callbacks: Array<() => void>): void {
  for (const fn of callbacks) {
    try {
      fn();
    } catch {
      // After-commit callbacks are nudges; one failing must not turn a committed write into an error.
    }
  }
}

export interface Statement {
  sql: string;
  params: readonly unknown[];
  /** Held writes only: told the write's row count once it was sent (WriteOptions.rows). */
  rows?(count: number): void;
}

/** Combined texts by their parts: the same code path holds the same statements, so the text is built once. */
const combinedTexts = new Map<string, string>();
const combinedTextsMax = 500;

/**
 * Held writes as one statement: each a data-modifying WITH query, its parameters renumbered after those
 * before it. One round trip for the lot, and atomic on its own.
 */
export function combineWrites(writes: readonly Statement[]): Statement {
  if (writes.length === 1) return writes[0]!;
  return combine(writes);
}

/**
 * Held writes and a query that needs none of their effects (QueryOptions.withHeldWrites) as one statement,
 * the query last; undefined when they cannot go so: nothing held, a write that wants its row count (the
 * statement answers the query's rows), or a query that is not a SELECT.
 */
export function combineWritesWithQuery(writes: readonly Statement[] | undefined, query: Statement): Statement | undefined {
  if (!writes?.length || writes.some((w) => w.rows) || !/^\s*SELECT\b/i.test(query.sql)) return undefined;
  return combine(writes, query);
}

function combine(writes: readonly Statement[], query?: Statement): Statement {
  const key = [...writes.map((w) => `${w.params.length}${w.rows ? '#' : ':'}${w.sql}`), ...(query ? [`?${query.sql}`] : [])].join('\u0000');
  let sql = combinedTexts.get(key);
  let offset = 0;
  const renumber = (text: string, params: readonly unknown[]) => {
    const renumbered = text.replace(/\$(\d+)/g, (_, n: string) => `$${Number(n) + offset}`);
    offset += params.length;
    return renumbered;
  };
  if (sql === undefined) {
    const parts = writes.map((w, i) => `w${i} AS (${renumber(w.sql, w.params)})`);
    // The writes that want their row count have it as a column of the one row answered, named as their query.
    const counts = writes.flatMap((w, i) => (w.rows ? [`(SELECT count(*) FROM w${i})::int AS w${i}`] : []));
    const last = query ? renumber(query.sql, query.params) : `SELECT ${counts.length ? counts.join(', ') : '1'}`;
    sql = `WITH ${parts.join(',\n')}\n${last}`;
    if (combinedTexts.size < combinedTextsMax) combinedTexts.set(key, sql);
  }
  return { sql, params: [...writes.flatMap((w) => w.params), ...(query?.params ?? [])] };
}

/**
 * Sends held writes combined by `combineWrites` through `run` (which answers the rows), then tells each
 * write that asked its row count.
 */
export async function sendWrites(writes: readonly Statement[], run: (statement: Statement) => Promise<readonly unknown[]>): Promise<void> {
  const combined = combineWrites(writes);
  const rows = await run(combined);
  if (writes.length === 1) return writes[0]!.rows?.(rows.length);
  const counts = rows[0] as Record<string, number>;
  writes.forEach((w, i) => w.rows?.(counts[`w${i}`]!));
}

/** A transaction's held writes; `take` empties it. */
export function createWriteBuffer() {
  let held: Statement[] = [];
  return {
    hold(sql: string, params: readonly unknown[], options?: WriteOptions) {
      held.push(options?.rows ? { sql, params, rows: options.rows } : { sql, params });
    },
    /** Whether a held write wants its row count (WriteOptions.rows): the transaction must then begin. */
    get counted(): boolean {
      return held.some((w) => w.rows);
    },
    take(): Statement[] | undefined {
      if (held.length === 0) return undefined;
      const writes = held;
      held = [];
      return writes;
    },
  };
}
