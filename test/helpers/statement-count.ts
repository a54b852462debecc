// What a piece of work asks of the database: the statements it sends, counted at the Database object
// (src/platform/db/database.ts). Used by the hosted path's statement test and by the bench's trace.
import type { Database, QueryOptions, Tx } from '../../src/platform/db/database.ts';

export interface StatementCount {
  /** Statements sent outside a transaction. */
  statements: number;
  transactions: number;
  /** Statements sent inside the transactions, without their BEGIN and COMMIT: each query, and each batch of held writes (sent as one). */
  inTransactions: number;
  /** Held writes inside the transactions (Queryable.write), however they were batched. */
  heldWrites: number;
}

/** Everything sent, BEGIN and COMMIT aside. */
export const totalStatements = (c: StatementCount) => c.statements + c.inTransactions;

export const describeCount = (c: StatementCount) =>
  `${c.statements} + ${c.transactions} transaction(s) of ${c.inTransactions}${c.heldWrites ? ` (${c.heldWrites} held write(s) among them)` : ''}`;

/**
 * Counts what `db` is asked during `fn` (the rate limiter's counter syncs excepted: they run on a timer,
 * not for the work), then puts the object back. Held writes are counted as the database receives them:
 * the ones held together before a query, or before the commit, are one statement.
 */
export async function countStatements(db: Database, fn: () => Promise<void>): Promise<StatementCount> {
  const count: StatementCount = { statements: 0, transactions: 0, inTransactions: 0, heldWrites: 0 };
  const counted = (sql: string) => !sql.includes('rate_limit_counters');
  const original = { query: db.query, write: db.write, transaction: db.transaction };
  db.query = ((sql: string, params?: readonly unknown[]) => {
    if (counted(sql)) count.statements++;
    return original.query.call(db, sql, params);
  }) as Database['query'];
  db.write = (sql, params, options) => {
    if (counted(sql)) count.statements++;
    return original.write.call(db, sql, params, options);
  };
  db.transaction = (<T>(fn: (tx: Tx) => Promise<T>) => {
    count.transactions++;
    return original.transaction.call(db, async (tx: Tx) => {
      let holding = false;
      let holdingCounted = false;
      const flush = () => {
        if (holding) count.inTransactions++;
        holding = false;
        holdingCounted = false;
      };
      const traced: Tx = {
        query: ((sql: string, params?: readonly unknown[], options?: QueryOptions) => {
          // A query sent with the held writes (combineWritesWithQuery) is one statement with them.
          if (options?.withHeldWrites && !holdingCounted && /^\s*SELECT\b/i.test(sql)) holding = false;
          flush();
          count.inTransactions++;
          return tx.query(sql, params, options);
        }) as Tx['query'],
        write: (sql, params, options) => {
          count.heldWrites++;
          holding = true;
          if (options?.rows) holdingCounted = true;
          return tx.write(sql, params, options);
        },
        exec: (sql) => tx.exec(sql),
        afterCommit: (callback) => tx.afterCommit(callback),
      };
      const result = await fn(traced);
      flush();
      return result;
    });
  }) as Database['transaction'];
  try {
    await fn();
  } finally {
    Object.assign(db, original);
  }
  return count;
}
