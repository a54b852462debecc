// The re-seal job: once SECRET_KEY is rotated, every value sealed under a previous key (or before the ring)
// is sealed again under the current one, column by column, in batches of one transaction each. Its state
// is the data itself (what is not yet under the current key), so a crash or a shutdown loses nothing: the
// next attempt picks up where the last batch committed, and a value is replaced only if it is still the one
// that was read (a secret rotated meanwhile is left as its writer made it). One job per current key,
// enqueued at start (services.ts) while anything is left.
import { Type } from '@sinclair/typebox';
import type { Clock } from '../clock.ts';
import type { Database } from '../db/database.ts';
import { defineJob, defineJobSpec, PermanentJobError } from '../jobs/job.ts';
import type { JobQueue } from '../jobs/queue.ts';
import type { Logger } from '../logger.ts';
import { sealedKeyId, sealedBytesKeyId, type KeyRing } from './key-ring.ts';
import { sealedColumns, type KeyUsage, type SealedColumn } from './key-usage.ts';

export const resealJob = defineJobSpec({
  kind: 'keys.reseal',
  payload: Type.Object({ keyId: Type.String({ pattern: '^k[0-9a-f]{12}$' }) }),
  retry: { maxAttempts: 20, backoffSeconds: [30, 60, 300, 900] },
});

const batchSize = 200;

/** Rows of `column` not yet under the current key: SQL for its WHERE, the key id being $1. */
function notCurrent(column: SealedColumn): string {
  if (column.bytesContext) return `NOT (get_byte(${column.column}, 0) = 2 AND substring(${column.column} from 2 for 6) = decode(substr($1, 2), 'hex'))`;
  return `${column.column} NOT LIKE 'v2.' || $1 || '.%'`;
}

/** Seals one batch again; answers how many values it replaced (0: the column is done). */
export async function resealBatch(db: Database, ring: KeyRing, column: SealedColumn): Promise<number> {
  const current = ring.current.id;
  const sealer = ring.sealer(column.purpose);
  const selected = [...column.key, ...(column.bytesContext ?? []).filter((c) => !column.key.includes(c)), column.column];
  return db.transaction(async (tx) => {
    const rows = await tx.query<Record<string, unknown>>(
      `SELECT ${selected.join(', ')} FROM ${column.table} WHERE ${column.column} IS NOT NULL AND ${notCurrent(column)} LIMIT ${batchSize} FOR UPDATE SKIP LOCKED`,
      [current],
    );
    for (const row of rows) {
      const old = row[column.column];
      const resealed = column.bytesContext ? resealBytes(sealer, column, row, old as Uint8Array) : resealText(sealer, column, old as string);
      const keyMatch = column.key.map((k, i) => `${k} = $${i + 2}`).join(' AND ');
      await tx.write(`UPDATE ${column.table} SET ${column.column} = $1 WHERE ${keyMatch} AND ${column.column} = $${column.key.length + 2}`, [
        resealed,
        ...column.key.map((k) => row[k]),
        old,
      ]);
    }
    return rows.length;
  });
}

function resealText(sealer: ReturnType<KeyRing['sealer']>, column: SealedColumn, old: string): string {
  try {
    return sealer.seal(sealer.open(old));
  } catch (error) {
    throw unopened(column, sealedKeyId(old), error);
  }
}

function resealBytes(sealer: ReturnType<KeyRing['sealer']>, column: SealedColumn, row: Record<string, unknown>, old: Uint8Array): Buffer {
  const context = column.bytesContext!.map((c) => String(row[c])).join(':');
  try {
    return sealer.sealBytes(sealer.openBytes(old, context), context);
  } catch (error) {
    throw unopened(column, sealedBytesKeyId(old), error);
  }
}

/** A value none of the ring's keys opens: the job stops, naming where and which key, never the value. */
function unopened(column: SealedColumn, keyId: string | null, error: unknown): Error {
  return new PermanentJobError(`${column.table}.${column.column}: a value under ${keyId ?? 'no recorded key'} did not open (${(error as Error).name}); pvs keys status counts what is left`);
}

export function resealJobs(deps: { db: Database; keyRing: KeyRing; logger: Logger }) {
  const logger = deps.logger.child({ job: resealJob.kind });
  return [
    defineJob({
      ...resealJob,
      concurrency: 1,
      async handler(payload, ctx) {
        // A later key is current now: its own job seals everything under it.
        if (payload.keyId !== deps.keyRing.current.id) return;
        for (const column of sealedColumns) {
          let resealed = 0;
          for (let n = -1; n !== 0; ) {
            // Stopping between batches loses nothing: what is done is committed.
            if (ctx.signal.aborted) throw new Error('stopped between batches; the next attempt goes on from here');
            n = await resealBatch(deps.db, deps.keyRing, column);
            resealed += n;
            if (n > 0) logger.info({ place: `${column.table}.${column.column}`, resealed, keyId: payload.keyId }, 're-sealed a batch under the current key');
          }
        }
        logger.info({ keyId: payload.keyId }, 'every sealed value is under the current key');
      },
    }),
  ];
}

/** Enqueues the re-seal when anything sealed is not under the current key (once per current key). */
export async function enqueueResealIfNeeded(deps: { db: Database; queue: JobQueue; keyRing: KeyRing; clock: Clock }, usage: KeyUsage): Promise<boolean> {
  const current = deps.keyRing.current.id;
  if (!usage.sealed.some((u) => u.keyId !== current)) return false;
  await deps.db.transaction((tx) => deps.queue.enqueue(tx, resealJob, { keyId: current }, { key: `keys.reseal:${current}` }));
  return true;
}
