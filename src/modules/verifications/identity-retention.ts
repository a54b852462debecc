// Identity retention (decision 132): the identity provider is told to forget a person (their details,
// document images and selfie) once PVS no longer needs them, and the individual records when and why.
//
// - ABANDONED: an unfinished individual that never submitted, with no live link or session for
//   IDENTITY_ABANDONED_DAYS. A link sent later starts them afresh, with a new subject.
// - RETENTION: a finished individual (PASSED, MANUALLY_PASSED, FAILED, LOCKED_OUT) IDENTITY_RETENTION_DAYS
//   after its outcome (seven years: the partner's AML/CTF record keeping), and an unfinished one that
//   submitted and then stopped, IDENTITY_RETENTION_DAYS after it went quiet.
// - Never an individual in MANUAL_REVIEW (an operator owes it a decision on that evidence) or with an
//   attempt being checked. The SQL: identity-retention.repository.ts.
//
// The provider forgets first (forgetting twice succeeds there), then the subject is cleared only if the
// individual still holds that one: a crash between the two forgets again on the next run, and an outage
// leaves the individual for the next run. Log lines name the individual, never the person.
import type { Clock } from '../../platform/clock.ts';
import type { Database } from '../../platform/db/database.ts';
import type { Logger } from '../../platform/logger.ts';
import type { IdentityProvider } from '../../providers/identity/identity-provider.ts';
import * as repo from './identity-retention.repository.ts';

/** Individuals forgotten per run; the job runs hourly, so a backlog drains at 2,400 a day. */
export const retentionBatchSize = 100;

const dayMs = 86_400_000;

export interface RetentionRun {
  /** Due when the run began. */
  due: number;
  forgotten: number;
  /** Left for the next run: the provider did not answer. */
  unavailable: number;
}

/** The moments an individual must have finished, or gone quiet, by to be due at `now`. */
export function retentionCutoffs(now: Date, days: { abandonedDays: number; retentionDays: number }): repo.RetentionCutoffs {
  return {
    abandonedBefore: new Date(now.getTime() - days.abandonedDays * dayMs),
    retainedBefore: new Date(now.getTime() - days.retentionDays * dayMs),
  };
}

export function createIdentityRetention(deps: {
  db: Database;
  clock: Clock;
  identity: Pick<IdentityProvider, 'forget'>;
  logger: Logger;
  abandonedDays: number;
  retentionDays: number;
  batchSize?: number;
}) {
  const { db, clock, logger } = deps;

  async function forget(due: repo.DueSubject, cutoffs: repo.RetentionCutoffs): Promise<'forgotten' | 'unavailable' | 'kept'> {
    const individualId = due.individual_id;
    // Read again just before the call: a link sent or an attempt submitted since the list was read keeps them.
    if (!(await repo.isStillDue(db, due, cutoffs))) return 'kept';
    const answer = await deps.identity.forget(due.subject_ref);
    if (!answer.ok) {
      logger.warn({ individualId }, 'the identity provider is unavailable; the individual’s subject is forgotten on a later run');
      return 'unavailable';
    }
    const recorded = await repo.recordForgotten(db, individualId, due.subject_ref, due.reason, clock.now());
    // Not recorded: another run cleared it first. The provider forgot the same subject either way.
    if (recorded) logger.info({ individualId, reason: due.reason }, 'identity subject forgotten at the provider');
    return 'forgotten';
  }

  return {
    /** One batch: the longest due first. Throws after the batch if any individual failed unexpectedly. */
    async run(): Promise<RetentionRun> {
      const cutoffs = retentionCutoffs(clock.now(), deps);
      const due = await repo.listDueSubjects(db, cutoffs, deps.batchSize ?? retentionBatchSize);
      const run: RetentionRun = { due: due.length, forgotten: 0, unavailable: 0 };
      let failed = 0;
      for (const subject of due) {
        try {
          const outcome = await forget(subject, cutoffs);
          if (outcome !== 'kept') run[outcome] += 1;
        } catch (error) {
          // A bug on one individual must not keep the rest of the batch waiting behind it.
          failed += 1;
          logger.error({ err: error, individualId: subject.individual_id }, 'forgetting an identity subject failed');
        }
      }
      if (due.length > 0) logger.info({ ...run, failed }, 'identity retention run');
      if (failed > 0) throw new Error(`Identity retention: ${failed} of ${due.length} individuals could not be forgotten; see the log`);
      return run;
    },
  };
}

export type IdentityRetention = ReturnType<typeof createIdentityRetention>;
