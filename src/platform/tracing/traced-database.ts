// A span for every statement a request, job or delivery sends, on either database: here rather than
// through @opentelemetry/instrumentation-pg, because the embedded database is not pg, because this is
// the one place every statement passes, and because that instrumentation records the statement's whole
// text. A span here carries a summary made of the statement's keywords and table names only: never a
// parameter, never a literal.
import type { Database, Queryable, Tx } from '../db/database.ts';
import { childSpan, SpanKind, tracingOn } from './spans.ts';

const summaries = new Map<string, { name: string; operation: string }>();
const summariesMax = 2000;

/** "SELECT jobs", "INSERT webhook_notifications", "WITH jobs"; bounded by the code's statements. */
export function querySummary(sql: string): { name: string; operation: string } {
  let summary = summaries.get(sql);
  if (summary) return summary;
  // Quoted text and comments are dropped before anything is read from the statement.
  const bare = sql.replace(/'(?:[^']|'')*'/g, '?').replace(/--[^\n]*/g, ' ').replace(/\/\*[\s\S]*?\*\//g, ' ');
  const operation = (/^\s*([A-Za-z]+)/.exec(bare)?.[1] ?? 'QUERY').toUpperCase();
  const tables = new Set<string>();
  for (const match of bare.matchAll(/\b(?:FROM|INTO|UPDATE|JOIN|TABLE)\s+"?([a-z_][a-z0-9_]*)"?/gi)) {
    const table = match[1]!.toLowerCase();
    if (!/^(?:unnest|jsonb_to_recordset|generate_series|lateral|only|select)$/.test(table)) tables.add(table);
    if (tables.size === 3) break;
  }
  summary = { name: [operation, ...tables].join(' '), operation };
  if (summaries.size < summariesMax) summaries.set(sql, summary);
  return summary;
}

function statement<T>(sql: string, run: () => Promise<T>): Promise<T> {
  const { name, operation } = querySummary(sql);
  return childSpan(name, SpanKind.CLIENT, { 'db.system.name': 'postgresql', 'db.operation.name': operation, 'db.query.summary': name }, run);
}

function traced<Q extends Queryable>(inner: Q, holdsWrites: boolean): Queryable {
  return {
    query: (sql, params, options) => statement(sql, () => inner.query(sql, params, options)),
    exec: (sql) => statement(sql, () => inner.exec(sql)),
    // Inside a transaction a write is held and sent with the next statement or the commit (its time is
    // the transaction's); outside one it runs at once.
    write: holdsWrites ? (sql, params, options) => inner.write(sql, params, options) : (sql, params, options) => statement(sql, () => inner.write(sql, params, options)),
  };
}

/** The database, its statements traced when tracing is on (started before the services are made). */
export function traceWhenTracing(db: Database): Database {
  return tracingOn() ? traceDatabase(db) : db;
}

export function traceDatabase(db: Database): Database {
  return {
    ...traced(db, false),
    kind: db.kind,
    poolStats: db.poolStats?.bind(db),
    close: () => db.close(),
    transaction: (fn) =>
      childSpan('transaction', SpanKind.INTERNAL, {}, () =>
        db.transaction((tx) => fn({ ...traced(tx, true), afterCommit: (cb) => tx.afterCommit(cb) } satisfies Tx)),
      ),
  };
}
