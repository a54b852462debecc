// The checks of a submitted attempt, run by a job (never in the request): the identity provider's
// document, face-match and fraud checks, PVS's own reading of a passport's machine-readable zone
// (mrz/), then AML screening of the identity the person claimed through the in-house screening engine,
// and for a lookup-bound person the date of birth they entered against the register's, read live from
// the register (decision 122; never stored, never logged). The outcome (outcomes.ts) is recorded with
// its event in the job's completing transaction, and so is the request's: its risk, its issues, and
// COMPLETED with verification.request.completed once every individual is terminal. Operators' decisions
// on individuals in MANUAL_REVIEW land here too, so both paths share one way of recording an outcome,
// and so does the queue they decide from (review-queue.repository.ts).
//
// A provider, the screening engine or the register that does not answer is tried again
// (verificationCheckJob's plan). From the third try that finds it down, the request's issueList says the
// checks are delayed; the issue goes when the checks get through. If they never do, the attempt is
// UNAVAILABLE: it does not count against the person, who may submit again, and the issue says so.
import type { Clock } from '../../platform/clock.ts';
import type { Database, Tx } from '../../platform/db/database.ts';
import { AppError, notFound } from '../../platform/errors.ts';
import { JobWaitError, type JobContext } from '../../platform/jobs/job.ts';
import type { Logger } from '../../platform/logger.ts';
import type { Outbox } from '../../platform/outbox.ts';
import { tenantOf } from '../../platform/tenancy.ts';
import type { IdentityProvider } from '../../providers/identity/identity-provider.ts';
import type { LookupService } from '../lookups/lookups.service.ts';
import type { ScreeningService } from '../screening/screening.service.ts';
import type { MrzEvidence } from './mrz/mrz-evidence.ts';
import { enteredOf } from './mrz/mrz-compare.ts';
import { toPage } from '../../platform/http/pagination.ts';
import * as queue from './review-queue.repository.ts';
import { toReviewedIndividual, toReviewItem, type ReviewedIndividual } from './review-queue.ts';
import {
  verificationIndividualFailed,
  verificationIndividualLockedOut,
  verificationIndividualManualReview,
  verificationIndividualPassed,
  verificationRequestCompleted,
} from '../webhooks/events/verifications.events.ts';
import { outcomeOf, registerDateOfBirthCheck, requestRisk, type Outcome } from './outcomes.ts';
import * as repo from './verifications.repository.ts';
import type { CheckResultItem } from './verifications.repository.ts';
import { terminalStatuses } from './verifications.schemas.ts';

/** Tries that find the checks down before the request's issueList says so. */
const triesBeforeIssue = 3;

const delayedIssue = (individualId: string): repo.Issue => ({
  individualId,
  code: 'IDENTITY_CHECKS_DELAYED',
  message: 'The identity checks for this individual are waiting for a service that is not answering; they are being retried.',
});

const unavailableIssue = (individualId: string): repo.Issue => ({
  individualId,
  code: 'IDENTITY_CHECKS_UNAVAILABLE',
  message: 'The identity checks for this individual could not run; the attempt does not count, and the person can submit again from their link.',
});

class ChecksUnavailableError extends Error {
  override name = 'ChecksUnavailableError';
}

export interface Decision {
  decision: 'PASS' | 'FAIL';
  note: string;
}

export interface DecisionResult {
  individualId: string;
  status: 'MANUALLY_PASSED' | 'FAILED';
  manualOverride: true;
  decidedBy: string;
  decidedAt: string;
  note: string;
}

export function createVerificationCheckService(deps: {
  db: Database;
  clock: Clock;
  outbox: Outbox;
  identity: IdentityProvider;
  screening: Pick<ScreeningService, 'screenPerson'>;
  mrz: Pick<MrzEvidence, 'check'>;
  /** A lookup-bound person's party as the register holds it now: the date of birth to compare with. */
  lookups: Pick<LookupService, 'registerPeopleOf'>;
  logger: Logger;
}) {
  const { db, clock, outbox } = deps;

  /** The request, then the individual, locked in that order (every writer of both takes them so). */
  async function lockBoth(tx: Tx, individualId: string) {
    const unlocked = await repo.findIndividual(tx, individualId);
    if (!unlocked) return undefined;
    const request = (await repo.findRequestById(tx, unlocked.request_id, { lock: true }))!;
    const individual = (await repo.findIndividual(tx, individualId, { lock: true }))!;
    return { request, individual };
  }

  /** The request's issues with this individual's check issues replaced by `issue` (or removed). */
  function withIssue(issues: repo.Issue[], individualId: string, issue?: repo.Issue): repo.Issue[] {
    const others = issues.filter((i) => !(i.individualId === individualId && i.code.startsWith('IDENTITY_CHECKS_')));
    return issue ? [...others, issue] : others;
  }

  /**
   * Writes an outcome with its event, then the request's risk and issues, and completes the request when
   * this was its last individual to finish.
   */
  async function record(tx: Tx, request: repo.RequestRow, individual: repo.IndividualRow, outcome: Pick<Outcome, 'status' | 'riskLevel'> & { checkResults?: Outcome['checkResults']; manualOverride?: boolean }) {
    const now = clock.now();
    const terminal = terminalStatuses.includes(outcome.status);
    const completedAt = terminal ? now : null;
    await repo.recordOutcome(tx, individual.id, { ...outcome, completedAt }, now);
    const ids = {
      verificationRequestId: request.id,
      individualId: individual.id,
      ...(individual.external_id ? { externalId: individual.external_id } : {}),
    };
    const partnerId = request.partner_id;
    const manualOverride = outcome.manualOverride ?? individual.manual_override;
    const attemptCount = individual.attempt_count;
    switch (outcome.status) {
      case 'PASSED':
      case 'MANUALLY_PASSED':
        await outbox.emit(tx, verificationIndividualPassed, { partnerId, payload: { ...ids, status: outcome.status, manualOverride, attemptCount, completedAt: now.toISOString() } });
        break;
      case 'FAILED':
        await outbox.emit(tx, verificationIndividualFailed, { partnerId, payload: { ...ids, status: 'FAILED', manualOverride, attemptCount, completedAt: now.toISOString() } });
        break;
      case 'MANUAL_REVIEW':
        await outbox.emit(tx, verificationIndividualManualReview, { partnerId, payload: { ...ids, status: 'MANUAL_REVIEW' } });
        break;
      case 'LOCKED_OUT':
        await outbox.emit(tx, verificationIndividualLockedOut, { partnerId, payload: { ...ids, status: 'LOCKED_OUT', attemptCount, maxAttempts: individual.max_attempts } });
        break;
      default:
        // A failed attempt with attempts left: back to IN_PROGRESS, and no event (SPEC: .failed only at FAILED).
        break;
    }

    const individuals = await repo.listIndividuals(tx, [request.id]);
    const riskLevel = requestRisk(individuals);
    await repo.setRequestRisk(tx, request.id, { riskLevel, issueList: withIssue(request.issue_list, individual.id) }, now);
    const finished = individuals.every((i) => terminalStatuses.includes(i.status));
    if (finished && request.status === 'VERIFICATIONS_SENT') {
      await repo.completeRequest(tx, request.id, now);
      await outbox.emit(tx, verificationRequestCompleted, {
        partnerId,
        payload: { verificationRequestId: request.id, status: 'COMPLETED', riskLevel, completedAt: now.toISOString() },
      });
    }
  }

  /** The checks could not run on this try: say so on the request from the third, give up on the last. */
  async function checksDown(individualId: string, number: number, ctx: JobContext, why: string): Promise<void> {
    if (ctx.attempt < ctx.maxAttempts) {
      if (ctx.attempt >= triesBeforeIssue) {
        await db.transaction(async (tx) => {
          const locked = await lockBoth(tx, individualId);
          if (!locked || locked.request.issue_list.some((i) => i.individualId === individualId && i.code === 'IDENTITY_CHECKS_DELAYED')) return;
          await repo.setRequestRisk(tx, locked.request.id, { riskLevel: locked.request.risk_level, issueList: withIssue(locked.request.issue_list, individualId, delayedIssue(individualId)) }, clock.now());
        });
      }
      throw new ChecksUnavailableError(`Verification checks for ${individualId} attempt ${number}: ${why}`);
    }
    deps.logger.warn({ individualId, attempt: number, why }, 'verification checks could not run; the attempt is uncounted');
    await ctx.complete(async (tx) => {
      const locked = await lockBoth(tx, individualId);
      const attempt = locked && (await repo.findAttempt(tx, individualId, number, { lock: true }));
      if (!locked || attempt?.status !== 'CHECKING') return;
      const now = clock.now();
      await repo.finishAttempt(tx, individualId, number, 'UNAVAILABLE', now);
      await repo.countAttempt(tx, individualId, -1, now);
      await repo.setRequestRisk(tx, locked.request.id, { riskLevel: locked.request.risk_level, issueList: withIssue(locked.request.issue_list, individualId, unavailableIssue(individualId)) }, now);
    });
  }

  /**
   * The machine-readable zone check of a passport attempt, on the front image the provider keeps for it:
   * null for other documents, `unavailable` when the provider cannot give the image now.
   */
  async function mrzCheck(subjectRef: string, number: number): Promise<CheckResultItem | null | 'unavailable'> {
    const answer = await deps.identity.evidence(subjectRef, { includeScans: true });
    if (!answer.ok) return answer.kind === 'unavailable' ? 'unavailable' : null;
    const evidence = answer.evidence;
    if (evidence?.attempt !== number || evidence.document.type !== 'PASSPORT' || !evidence.document.front) return null;
    return deps.mrz.check(evidence.document.front, enteredOf(evidence.details, evidence.document, deps.identity.documentFields));
  }

  /**
   * The date of birth the register holds for a lookup-bound individual's party: null for a hand-built
   * individual or a register that holds none (nothing to compare), `unavailable` when it does not answer.
   */
  async function registerDateOfBirth(individual: repo.IndividualRow): Promise<string | null | 'unavailable'> {
    if (!individual.idv_entity_id) return null;
    const request = await repo.findRequestById(db, individual.request_id);
    if (!request?.lookup_id) return null;
    const read = await deps.lookups.registerPeopleOf(tenantOf(individual.partner_id), request.lookup_id, [individual.idv_entity_id]);
    if (!read.ok) return 'unavailable';
    return read.people.get(individual.idv_entity_id)?.dateOfBirth ?? null;
  }

  return {
    /** The check job's handler for attempt `number` of an individual. */
    async check(individualId: string, number: number, ctx: JobContext): Promise<void> {
      const individual = await repo.findIndividual(db, individualId);
      const attempt = individual && (await repo.findAttempt(db, individualId, number));
      if (!individual?.subject_ref || attempt?.status !== 'CHECKING') return;

      const verified = await deps.identity.verify(individual.subject_ref, { attempt: number });
      // Checks still running at the provider: wait, uncounted; its webhook wakes the job sooner.
      if (!verified.ok && verified.kind === 'pending') throw new JobWaitError(`Verification checks for ${individualId} attempt ${number}: ${verified.message}`, verified.retryInSeconds);
      if (!verified.ok) return checksDown(individualId, number, ctx, verified.message);
      const mrz = await mrzCheck(individual.subject_ref, number);
      if (mrz === 'unavailable') return checksDown(individualId, number, ctx, 'the identity provider could not give the document image');
      const { claimed } = verified;
      const screening = await deps.screening.screenPerson({ names: [claimed.fullName], dateOfBirth: claimed.dateOfBirth, countries: [...new Set([claimed.country, claimed.residenceCountry])] });
      if (screening.outcome === 'UNAVAILABLE') return checksDown(individualId, number, ctx, 'screening is unavailable');
      const registerBorn = await registerDateOfBirth(individual);
      if (registerBorn === 'unavailable') return checksDown(individualId, number, ctx, 'the register did not answer for the party’s date of birth');
      const againstRegister = registerDateOfBirthCheck(claimed.dateOfBirth, registerBorn);

      await ctx.complete(async (tx) => {
        const locked = await lockBoth(tx, individualId);
        const current = locked && (await repo.findAttempt(tx, individualId, number, { lock: true }));
        if (!locked || current?.status !== 'CHECKING') return;
        const outcome = outcomeOf(
          { checks: [...verified.checks, ...(mrz ? [mrz] : []), ...(againstRegister ? [againstRegister] : [])], hardFailure: verified.hardFailure, amlMatches: screening.matches.length },
          { attemptCount: locked.individual.attempt_count, maxAttempts: locked.individual.max_attempts },
        );
        await repo.finishAttempt(tx, individualId, number, outcome.attempt, clock.now());
        await record(tx, locked.request, locked.individual, outcome);
      });
    },

    /**
     * An operator's decision on an individual in MANUAL_REVIEW: PASS → MANUALLY_PASSED, FAIL → FAILED,
     * both with manualOverride, recorded with who decided, when and why.
     */
    async decide(operatorId: string, requestId: string, individualId: string, decision: Decision, options: { inTransaction?: (tx: Tx, result: DecisionResult & { partnerId: string }) => Promise<void> } = {}): Promise<DecisionResult> {
      return db.transaction(async (tx) => {
        const locked = await lockBoth(tx, individualId);
        if (!locked || locked.request.id !== requestId) throw notFound(`Individual ${individualId} of verification request ${requestId}`);
        const { request, individual } = locked;
        if (individual.status !== 'MANUAL_REVIEW') {
          throw new AppError('INVALID_STATE', `Individual ${individualId} is ${individual.status}; only an individual in MANUAL_REVIEW can be decided`);
        }
        const now = clock.now();
        await repo.insertDecision(tx, { individual_id: individualId, operator_id: operatorId, decision: decision.decision, note: decision.note, decided_at: now });
        const passed = decision.decision === 'PASS';
        // A passed individual keeps the risk its checks found (an AML match stays HIGH); a failed one is HIGH.
        await record(tx, request, individual, { status: passed ? 'MANUALLY_PASSED' : 'FAILED', riskLevel: passed ? (individual.risk_level ?? 'MEDIUM') : 'HIGH', manualOverride: true });
        const result: DecisionResult = { individualId, status: passed ? 'MANUALLY_PASSED' : 'FAILED', manualOverride: true, decidedBy: operatorId, decidedAt: now.toISOString(), note: decision.note };
        // The console's audit entry, written with the decision or not at all.
        await options.inTransaction?.(tx, { ...result, partnerId: request.partner_id });
        return result;
      });
    },

    /** The operators' queue: every partner's individuals in MANUAL_REVIEW, longest waiting first. */
    async reviewQueue(page: { limit: number; from: number }) {
      const [rows, total] = await Promise.all([queue.listInReview(db, page), queue.countInReview(db)]);
      return { ...toPage(rows.map(toReviewItem), page), total };
    },

    /** One individual as an operator reviews it, whatever its status; NOT_FOUND when the request does not hold it. */
    async reviewed(requestId: string, individualId: string): Promise<ReviewedIndividual> {
      const row = await queue.findReviewed(db, requestId, individualId);
      if (!row) throw notFound(`Individual ${individualId} of verification request ${requestId}`);
      return toReviewedIndividual(row);
    },
  };
}

export type VerificationCheckService = ReturnType<typeof createVerificationCheckService>;
