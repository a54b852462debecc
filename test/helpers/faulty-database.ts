// A database whose connection a test can break, on PGlite as on PostgreSQL: every statement failing as a
// lost connection does (`cut`), or one statement that runs and then loses its answer (the connection
// dying between the server's commit and the client hearing of it).
import type { Database, QueryOptions, Tx } from '../../src/platform/db/database.ts';

export interface FaultyDatabase extends Database {
  cut(): void;
  restore(): void;
  readonly isCut: boolean;
  /** The next statement that matches runs, then fails as if its connection died; resolves then. */
  loseAnswerOnce(match: Match): Promise<void>;
}

export type Match = (sql: string, params: readonly unknown[]) => boolean;

const lostConnection = () => new Error('Connection terminated unexpectedly');

export function faultyDatabase(inner: Database): FaultyDatabase {
  let isCut = false;
  let loseAnswer: { match: Match; lost: () => void } | undefined;

  async function run<T>(sql: string, params: readonly unknown[] = [], statement: () => Promise<T>): Promise<T> {
    if (isCut) throw lostConnection();
    const lose = loseAnswer?.match(sql, params) ? loseAnswer : undefined;
    if (lose) loseAnswer = undefined;
    const result = await statement();
    if (lose) {
      lose.lost();
      throw lostConnection();
    }
    return result;
  }

  return {
    kind: inner.kind,
    query: <Row>(sql: string, params?: readonly unknown[], options?: QueryOptions) => run(sql, params, () => inner.query<Row>(sql, params, options)),
    exec: (sql) => run(sql, [], () => inner.exec(sql)),
    write: (sql, params, options) => run(sql, params, () => inner.write(sql, params, options)),
    async transaction(fn) {
      if (isCut) throw lostConnection();
      return inner.transaction((tx) => {
        const faulty: Tx = {
          query: <Row>(sql: string, params?: readonly unknown[], options?: QueryOptions) => run(sql, params, () => tx.query<Row>(sql, params, options)),
          exec: (sql) => run(sql, [], () => tx.exec(sql)),
          // Held writes reach the database with the transaction's next statement or its commit.
          write: (sql, params, options) => tx.write(sql, params, options),
          afterCommit: (cb) => tx.afterCommit(cb),
        };
        return fn(faulty).then((value) => {
          if (isCut) throw lostConnection(); // the commit cannot reach a database that is gone
          return value;
        });
      });
    },
    close: () => inner.close(),
    cut() {
      isCut = true;
    },
    restore() {
      isCut = false;
    },
    get isCut() {
      return isCut;
    },
    loseAnswerOnce(match) {
      return new Promise((resolve) => {
        loseAnswer = { match, lost: resolve };
      });
    },
  };
}
