// The two screening jobs. A list version's re-screen takes monitored contacts in id order, a batch at a
// time; each batch's alerts, events, subscription states and the cursor commit together, so a crash
// resumes after the last batch committed and nothing is found twice. A contact's own screening runs
// when it is enabled, changed or renamed.
import type { Clock } from '../../platform/clock.ts';
import type { Database } from '../../platform/db/database.ts';
import type { JobContext } from '../../platform/jobs/job.ts';
import type { Logger } from '../../platform/logger.ts';
import type { ScreeningService } from '../screening/screening.service.ts';
import * as repo from './monitoring.repository.ts';
import type { Screener } from './screener.ts';

export interface RescreenDeps {
  db: Database;
  clock: Clock;
  logger: Logger;
  screening: Pick<ScreeningService, 'freshIndex'>;
  screener: Screener;
  /** Contacts per batch (one transaction each). */
  batchSize: number;
}

const progressEveryBatches = 20;

export function createRescreenService(deps: RescreenDeps) {
  const { db, clock, logger, screener } = deps;

  /** Subscriptions not yet screened by a failed run are not reliably monitored: say so, once each. */
  async function reportFailure(version: number | null, afterContactId: string | null, contactIds: readonly string[] | null, error: unknown): Promise<void> {
    logger.error({ err: error, version }, 'monitoring screening failed; the subscriptions it had not reached are in ERROR until it recovers');
    try {
      await db.transaction(async (tx) => {
        const rows = await repo.lockHealthySubscriptions(tx, { afterContactId, contactIds });
        await screener.markError(tx, rows, 'SCREENING_FAILED');
      });
    } catch (markError) {
      // The database itself is likely what failed; the job is retried and tries this again then.
      logger.warn({ err: markError }, 'could not mark monitoring subscriptions in error');
    }
  }

  return {
    async screenContact(contactId: string, ctx: JobContext): Promise<void> {
      let loaded;
      try {
        loaded = await deps.screening.freshIndex();
      } catch (error) {
        await reportFailure(null, null, [contactId], error);
        throw error;
      }
      const [row] = await repo.monitoredBatch(db, null, 1, { contactIds: [contactId] });
      if (!row) return ctx.complete(async () => {});
      if (!loaded) {
        // No list: nothing can be screened, which is not "clear". The first import screens it.
        return ctx.complete(async (tx) => {
          const [locked] = await repo.lockMonitored(tx, [contactId]);
          if (locked && !(locked.status === 'ERROR' && locked.error_code === 'NO_LIST_LOADED')) await screener.markError(tx, [locked], 'NO_LIST_LOADED');
        });
      }
      const run = screener.startRun(loaded);
      const screened = await screener.screen(run, [row]);
      await ctx.complete((tx) => screener.record(tx, run, screened));
    },

    async rescreen(version: number, ctx: JobContext): Promise<void> {
      const started = performance.now();
      let cursor: string | null = null;
      try {
        const loaded = await deps.screening.freshIndex();
        if (!loaded) return ctx.complete(async () => {});
        // The index keeps the version it holds when a newer one cannot be loaded; screening against that
        // would report this version's re-screen done without having seen it.
        if (loaded.version < version) throw new Error(`list version ${version} could not be loaded (this node holds version ${loaded.version})`);
        const progress = await repo.openRescreen(db, version, clock.now());
        if (progress.finished_at) return ctx.complete(async () => {});
        cursor = progress.after_contact_id;
        const run = screener.startRun(loaded);
        let screened = progress.screened;
        let alerts = progress.alerts;
        // Where the time goes, for the log: reading batches, matching, writing what was found.
        const ms = { read: 0, match: 0, write: 0 };
        const lap = (key: keyof typeof ms, since: number) => (ms[key] += performance.now() - since);
        logger.info({ version, screenedAgainst: loaded.version, resumingAfter: cursor, screened }, 'monitoring re-screen started');
        for (let batch = 1; ; batch++) {
          if (ctx.signal.aborted) throw new Error('monitoring re-screen stopped: the worker is shutting down or lost its lease');
          let t = performance.now();
          const rows = await repo.monitoredBatch(db, cursor, deps.batchSize);
          lap('read', t);
          if (rows.length === 0) break;
          t = performance.now();
          const found = await screener.screen(run, rows);
          lap('match', t);
          t = performance.now();
          const last = rows.at(-1)!.contact_id;
          const outcome = await db.transaction(async (tx) => {
            const recorded = await screener.record(tx, run, found);
            await repo.advanceRescreen(tx, version, last, rows.length, recorded.alerts);
            return recorded;
          });
          lap('write', t);
          cursor = last;
          screened += rows.length;
          alerts += outcome.alerts;
          if (batch % progressEveryBatches === 0) logger.info({ version, screened, alerts, seconds: Math.round((performance.now() - started) / 1000) }, 'monitoring re-screen progress');
        }
        await ctx.complete((tx) => repo.finishRescreen(tx, version, clock.now()));
        const spent = Object.fromEntries(Object.entries(ms).map(([k, v]) => [`${k}Ms`, Math.round(v)]));
        logger.info({ version, screened, alerts, ms: Math.round(performance.now() - started), ...spent }, 'monitoring re-screen finished');
      } catch (error) {
        if (!ctx.signal.aborted) await reportFailure(version, cursor, null, error);
        throw error;
      }
    },
  };
}

export type RescreenService = ReturnType<typeof createRescreenService>;
