// Billing runs: a contact's charges gather in one run, and after the window the saved card is charged
// once for the lot. An attempt goes in three steps, so that a crash anywhere charges at most once:
//   1. begin (a transaction): the run becomes CAPTURING, the attempt is counted, amount and card frozen;
//   2. the gateway is asked, with the idempotency key `<run>:attempt:<n>`: a re-run after a crash asks
//      again with the same key and gets the first answer instead of a second charge;
//   3. record (the job's completing transaction): the outcome, the charges, the contact and the event,
//      only while the run is still CAPTURING attempt n, so two workers can never record twice.
import type { Clock } from '../../platform/clock.ts';
import type { Database, Tx } from '../../platform/db/database.ts';
import type { JobContext } from '../../platform/jobs/job.ts';
import type { JobQueue } from '../../platform/jobs/queue.ts';
import type { Outbox } from '../../platform/outbox.ts';
import { tenantOf, type Tenant } from '../../platform/tenancy.ts';
import type { ChargeResult, PaymentGateway } from '../../providers/gateway/gateway.ts';
import { contactBillingCaptured, contactBillingFailed } from '../webhooks/events/billing.events.ts';
import { captureRunJob } from './billing.jobs.ts';
import * as charges from './charges.repository.ts';
import * as contacts from './contacts.repository.ts';
import { nextRetryAt } from './retry-plan.ts';

/** The gateway could not be reached: the job tries again later with the same idempotency key. */
export class GatewayUnavailableError extends Error {
  override name = 'GatewayUnavailableError';
}

export function createBillingRunService(deps: { db: Database; clock: Clock; gateway: PaymentGateway; outbox: Outbox; queue: JobQueue }) {
  const { db, clock, gateway, outbox, queue } = deps;

  /** Step 1. Undefined when the run is not due (already settled, retry not yet due, or begun elsewhere). */
  async function begin(run: charges.RunRow): Promise<charges.RunRow | undefined> {
    if (run.status === 'CAPTURING') return run; // a crashed attempt: ask again with the same key
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

  /** Step 3, for a decline or for a run that has no card to charge. */
  async function recordFailure(tx: Tx, tenant: Tenant, run: charges.RunRow, decline: { declineCode: string; merchantAdviceCode: string | null }) {
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
    if (!failed) return;
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
  }

  async function record(tx: Tx, run: charges.RunRow, result: Exclude<ChargeResult, { kind: 'unavailable' }>) {
    const tenant = tenantOf(run.partner_id);
    if (!result.ok) return recordFailure(tx, tenant, run, result);
    const now = clock.now();
    const captured = await charges.finishAttempt(tx, run.id, run.attempts, { status: 'CAPTURED', chargeRef: result.chargeRef }, now);
    if (!captured) return;
    await charges.settleRunCharges(tx, run.id, 'CAPTURED', now);
    if ((await charges.countFailedRuns(tx, run.contact_id)) === 0) await contacts.clearPaymentFailed(tx, tenant, run.contact_id, now);
    await outbox.emit(tx, contactBillingCaptured, {
      partnerId: run.partner_id,
      payload: { contactId: run.contact_id, channelPartnerId: run.partner_id, billingRunId: run.id, amount: run.amount },
    });
  }

  return {
    /** The capture job's handler. */
    async capture(runId: string, ctx: JobContext): Promise<void> {
      const found = await charges.findRun(db, runId);
      const run = found && (await begin(found));
      if (!run) return;
      if (run.amount === 0) {
        // Every charge was voided before the card was asked: nothing to take.
        return ctx.complete(async (tx) => {
          await charges.finishAttempt(tx, run.id, run.attempts, { status: 'VOID' }, clock.now());
          if ((await charges.countFailedRuns(tx, run.contact_id)) === 0) await contacts.clearPaymentFailed(tx, tenantOf(run.partner_id), run.contact_id, clock.now());
        });
      }
      if (!run.payment_method_ref) {
        return ctx.complete((tx) => recordFailure(tx, tenantOf(run.partner_id), run, { declineCode: 'no_payment_method', merchantAdviceCode: null }));
      }
      const contact = await contacts.findContact(db, tenantOf(run.partner_id), run.contact_id);
      const result = await gateway.charge({
        customerRef: contact!.gateway_customer_ref!,
        paymentMethodRef: run.payment_method_ref,
        amount: run.amount,
        description: `PVS checks, billing run ${run.id}`,
        idempotencyKey: `${run.id}:attempt:${run.attempts}`,
      });
      if (!result.ok && result.kind === 'unavailable') throw new GatewayUnavailableError(`Gateway unavailable charging ${run.id}: ${result.message}`);
      await ctx.complete((tx) => record(tx, run, result));
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
