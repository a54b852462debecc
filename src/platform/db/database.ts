// The one database interface every repository uses. Two implementations: embedded PGlite (the
// default) and PostgreSQL through a pool. The SQL is the same on both.

export interface Queryable {
  query<Row = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<Row[]>;
  /** Runs a script of several statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
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
}

/** Repositories take either the database or an open transaction. */
export type Executor = Queryable;

/** A connection problem (as opposed to a bad query): the caller answers 503, not 500. */
export function isUnavailableError(error: unknown): boolean {
  const e = error as { code?: string; message?: string } | undefined;
  if (!e) return false;
  if (typeof e.code === 'string') {
    if (['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', '57P01', '57P02', '57P03', '53300'].includes(e.code)) return true;
    if (e.code.startsWith('08')) return true;
  }
  return /Connection terminated|connection timeout|Client has encountered a connection error|PGlite is closed/i.test(e.message ?? '');
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
