// Billing runs: a contact's charges gather in one run, and after the window the saved card is charged
// once for the lot. An attempt goes in three steps, so that a crash anywhere charges at most once:
//   1. begin (a transaction): the run becomes CAPTURING, the attempt is counted, amount and card frozen;
//   2. the gateway is asked, with the idempotency key `<run>:attempt:<n>`: a re-run after a crash looks
//      up the charge made under that key first, and asks again with the same key only if there is none;
//   3. record (the job's completing transaction): the outcome, the charges, the contact and the event,
//      only while the run is still CAPTURING attempt n, so two workers can never record twice.
// An attempt asked again looks the charge up first, and a run left CAPTURING after its capture job gave
// up is settled by the sweeper from the same lookup: the gateway forgets keys (Stripe after 24 hours),
// and a charge asked for under a forgotten key is a second charge.
import type { Clock } from '../../platform/clock.ts';
import type { Database, Tx } from '../../platform/db/database.ts';
import type { JobContext } from '../../platform/jobs/job.ts';
import { hasUnfinishedJob } from '../../platform/jobs/jobs.repository.ts';
import type { JobQueue } from '../../platform/jobs/queue.ts';
import type { Logger } from '../../platform/logger.ts';
import type { Outbox } from '../../platform/outbox.ts';
import { tenantOf } from '../../platform/tenancy.ts';
import type { ChargeOutcome, PaymentGateway } from '../../providers/gateway/gateway.ts';
import { contactBillingCaptured, contactBillingFailed } from '../webhooks/events/billing.events.ts';
import { captureRunJob, refundChargeJob } from './billing.jobs.ts';
import * as charges from './charges.repository.ts';
import * as contacts from './contacts.repository.ts';
import { nextRetryAt } from './retry-plan.ts';
import { closeVoidedRun } from './voided-runs.ts';

/** The gateway could not be reached: the job tries again later with the same idempotency key. */
export class GatewayUnavailableError extends Error {
  override name = 'GatewayUnavailableError';
}

/** The failure reason of an attempt the sweeper found the gateway never charged. */
export const neverChargedReason = 'gateway_unavailable';

/** Stuck runs settled in one sweep at most (each costs a gateway search); the rest wait for the next. */
const sweepBatch = 200;

const attemptKey = (run: charges.RunRow) => `${run.id}:attempt:${run.attempts}`;

export function createBillingRunService(deps: {
  db: Database;
  clock: Clock;
  gateway: PaymentGateway;
  outbox: Outbox;
  queue: JobQueue;
  logger: Logger;
  /** A run CAPTURING longer than this is one whose capture job gave up: the sweeper settles it. */
  sweepAfterSeconds: number;
}) {
  const { db, clock, gateway, outbox, queue, logger } = deps;

  /** Step 1. Undefined when the run is not due (already settled, retry not yet due, or begun elsewhere). */
  async function begin(run: charges.RunRow): Promise<charges.RunRow | undefined> {
    if (run.status === 'CAPTURING') return run; // an attempt already out: look it up, then ask again
    if (run.status !== 'OPEN' && run.status !== 'FAILED') return undefined;
    const contact = await contacts.findContact(db, tenantOf(run.partner_id), run.contact_id);
    return db.transaction(async (tx) => {
      const started = await charges.beginAttempt(tx, run.id, contact?.payment_method_ref ?? null, clock.now());
      if (!started) return undefined;
      // A separate statement, so it sees every charge committed before begin took the run's lock.
      const amount = await charges.sumRunCharges(tx, run.id);
      await charges.setRunAmount(tx, run.id, amount);
      return { ...started, amount };
    });
  }

  /** Step 3, for a decline, a run that has no card to charge, or a charge the gateway never made. False when already recorded. */
  async function recordFailure(tx: Tx, run: charges.RunRow, decline: { declineCode: string; merchantAdviceCode: string | null }): Promise<boolean> {
    const tenant = tenantOf(run.partner_id);
    const now = clock.now();
    const retryAt = nextRetryAt({
      merchantAdviceCode: decline.merchantAdviceCode,
      attemptsOnCard: run.card_attempts,
      failedAt: now,
      noCard: run.payment_method_ref === null,
    });
    const failed = await charges.finishAttempt(
      tx,
      run.id,
      run.attempts,
      { status: 'FAILED', failureReason: decline.declineCode, merchantAdviceCode: decline.merchantAdviceCode, nextRetryAt: retryAt },
      now,
    );
    if (!failed) return false;
    await charges.settleRunCharges(tx, run.id, 'FAILED', now);
    await contacts.markPaymentFailed(tx, tenant, run.contact_id, now);
    await outbox.emit(tx, contactBillingFailed, {
      partnerId: run.partner_id,
      payload: {
        contactId: run.contact_id,
        channelPartnerId: run.partner_id,
        billingRunId: run.id,
        amount: run.amount,
        failureReason: decline.declineCode,
        merchantAdviceCode: decline.merchantAdviceCode,
        nextRetryAt: retryAt?.toISOString() ?? null,
      },
    });
    if (retryAt) await queue.enqueue(tx, captureRunJob, { billingRunId: run.id }, { runAt: retryAt, key: `billing-run:${run.id}:attempt:${run.attempts + 1}` });
    return true;
  }

  /** Step 3 for the gateway's answer. False when the attempt was already recorded. */
  async function record(tx: Tx, run: charges.RunRow, result: ChargeOutcome): Promise<boolean> {
    const tenant = tenantOf(run.partner_id);
    if (!result.ok) return recordFailure(tx, run, result);
    const now = clock.now();
    const captured = await charges.finishAttempt(tx, run.id, run.attempts, { status: 'CAPTURED', chargeRef: result.chargeRef }, now);
    if (!captured) return false;
    await charges.settleRunCharges(tx, run.id, 'CAPTURED', now);
    if ((await charges.countFailedRuns(tx, run.contact_id)) === 0) await contacts.clearPaymentFailed(tx, tenant, run.contact_id, now);
    await outbox.emit(tx, contactBillingCaptured, {
      partnerId: run.partner_id,
      payload: { contactId: run.contact_id, channelPartnerId: run.partner_id, billingRunId: run.id, amount: run.amount },
    });
    return true;
  }

  /**
   * Step 3 for an attempt with nothing to ask the gateway (every charge voided, or no card), or
   * undefined when the gateway must be asked.
   */
  function recordWithoutGateway(run: charges.RunRow): ((tx: Tx) => Promise<boolean>) | undefined {
    if (run.amount === 0) {
      return async (tx) => {
        const voided = await charges.finishAttempt(tx, run.id, run.attempts, { status: 'VOID' }, clock.now());
        if (voided) await closeVoidedRun(tx, { outbox }, voided, clock.now());
        return Boolean(voided);
      };
    }
    if (!run.payment_method_ref) return (tx) => recordFailure(tx, run, { declineCode: 'no_payment_method', merchantAdviceCode: null });
    return undefined;
  }

  /** Step 2: the charge this attempt made if the gateway has one, else a new one under the attempt's key. */
  async function ask(run: charges.RunRow, askedBefore: boolean): Promise<ChargeOutcome> {
    const idempotencyKey = attemptKey(run);
    if (askedBefore) {
      const found = await gateway.findCharge({ idempotencyKey });
      if (!found.ok) throw new GatewayUnavailableError(`Gateway unavailable looking up the charge of ${run.id}: ${found.message}`);
      if (found.found) return found.result;
      // Not made, or not searchable yet: Stripe still knows a key this young, so asking cannot charge twice.
    }
    const contact = await contacts.findContact(db, tenantOf(run.partner_id), run.contact_id);
    const result = await gateway.charge({
      customerRef: contact!.gateway_customer_ref!,
      paymentMethodRef: run.payment_method_ref!,
      amount: run.amount,
      description: `PVS checks, billing run ${run.id}`,
      idempotencyKey,
    });
    if (!result.ok && result.kind === 'unavailable') throw new GatewayUnavailableError(`Gateway unavailable charging ${run.id}: ${result.message}`);
    return result;
  }

  /**
   * A charge voided while the attempt was out has a refund job that waits for the outcome, but only as
   * long as its retries last (about a day), which a sweep settling the attempt may outlast. Each such
   * charge gets a job of its own now; it refunds under the same gateway key, `refund:<charge>`, so a
   * first job still waiting cannot make it a second refund.
   */
  async function refundVoidedDuring(tx: Tx, run: charges.RunRow): Promise<void> {
    for (const chargeId of await charges.findChargesVoidedSince(tx, run.id, run.attempt_started_at!)) {
      await queue.enqueue(tx, refundChargeJob, { chargeId }, { key: `refund:${chargeId}:${attemptKey(run)}` });
    }
  }

  /**
   * Settles one run left CAPTURING from the gateway's record of its attempt's charge; never by asking
   * to charge. Recorded exactly as the capture job records, under the same guard (still CAPTURING,
   * same attempt), so a sweep and a late capture job never both record.
   */
  async function settleStuck(run: charges.RunRow): Promise<void> {
    const log = logger.child({ billingRunId: run.id, attempt: run.attempts });
    // A capture job still to run or running owns the attempt: it may ask the gateway after this
    // lookup, and a charge it made after the run was settled would never be recorded.
    if (await hasUnfinishedJob(db, captureRunJob.kind, { billingRunId: run.id })) {
      log.info('billing run still capturing: its capture job has not finished; left to it');
      return;
    }
    const withoutGateway = recordWithoutGateway(run);
    if (withoutGateway) {
      if (await db.transaction(withoutGateway)) log.info('billing run left capturing settled without the gateway');
      return;
    }
    const found = await gateway.findCharge({ idempotencyKey: attemptKey(run) });
    if (!found.ok) {
      log.warn({ reason: found.message }, 'billing run still capturing: the gateway could not be asked for its charge; the next sweep asks again');
      return;
    }
    // Not found: the gateway never made the charge, so the attempt failed; a retry is a new attempt with a new key.
    const recorded = await db.transaction(async (tx) => {
      if (!found.found) return recordFailure(tx, run, { declineCode: neverChargedReason, merchantAdviceCode: null });
      const done = await record(tx, run, found.result);
      if (done && found.result.ok) await refundVoidedDuring(tx, run);
      return done;
    });
    const what = !found.found ? 'never charged: FAILED' : found.result.ok ? 'charged: CAPTURED' : 'declined: FAILED';
    log.info({ recorded }, `billing run left capturing settled from the gateway's record (${what})`);
  }

  return {
    /** The capture job's handler. */
    async capture(runId: string, ctx: JobContext): Promise<void> {
      const found = await charges.findRun(db, runId);
      const run = found && (await begin(found));
      if (!run) return;
      const withoutGateway = recordWithoutGateway(run);
      if (withoutGateway) {
        await ctx.complete(withoutGateway);
        return;
      }
      // Found CAPTURING: this attempt was asked before (a worker died, or the gateway did not answer).
      const result = await ask(run, found.status === 'CAPTURING');
      await ctx.complete((tx) => record(tx, run, result));
    },

    /** The sweeper's handler: every run CAPTURING for longer than the capture job retries. */
    async sweep(): Promise<void> {
      const startedBefore = new Date(clock.now().getTime() - deps.sweepAfterSeconds * 1000);
      for (const run of await charges.findStuckRuns(db, startedBefore, sweepBatch)) {
        // One run's bug must not keep the others unsettled.
        await settleStuck(run).catch((err: unknown) => logger.error({ err, billingRunId: run.id }, 'could not settle a billing run left capturing'));
      }
    },

    /** The refund job's handler: a voided charge whose run the card had paid. */
    async refund(chargeId: string, ctx: JobContext): Promise<void> {
      const charge = await charges.findChargeById(db, chargeId);
      const run = charge?.billing_run_id ? await charges.findRun(db, charge.billing_run_id) : undefined;
      if (!charge || charge.status !== 'VOID' || charge.refund_ref || !run) return;
      // The attempt that may include this charge is still out: wait for its outcome.
      if (run.status === 'CAPTURING') throw new Error(`Billing run ${run.id} is still capturing; refund of ${chargeId} waits`);
      if (run.status !== 'CAPTURED' || !run.gateway_charge_ref) return;
      const result = await gateway.refund({ chargeRef: run.gateway_charge_ref, amount: charge.amount, idempotencyKey: `refund:${charge.id}` });
      if (!result.ok) throw new GatewayUnavailableError(`Gateway unavailable refunding ${chargeId}: ${result.message}`);
      await ctx.complete((tx) => charges.markRefunded(tx, charge.id, result.refundRef, clock.now()));
    },

    async detach(paymentMethodRef: string): Promise<void> {
      const result = await gateway.detach({ paymentMethodRef });
      if (!result.ok) throw new GatewayUnavailableError(`Gateway unavailable detaching a card: ${result.message}`);
    },

    /** A new card was saved (in the caller's transaction): the contact's failed runs are tried at once. */
    async retryAfterNewCard(tx: Tx, contactId: string, paymentMethodRef: string): Promise<void> {
      for (const runId of await charges.retryFailedRunsNow(tx, contactId, clock.now())) {
        await queue.enqueue(tx, captureRunJob, { billingRunId: runId }, { key: `billing-run:${runId}:card:${paymentMethodRef}` });
      }
    },
  };
}

export type BillingRunService = ReturnType<typeof createBillingRunService>;
