// The hosted payment link: what the page shows, and taking the card the payer entered there. The card
// number never reaches PVS: the page tokenises it with the gateway, PVS gets the token.
//
// Money moves once. An attempt goes in three steps, like a billing run's:
//   1. begin (a transaction): the attempt is counted and recorded CHARGING with the gateway's token, the
//      payment becomes PROCESSING, and a settle job is scheduled in case this process dies;
//   2. the gateway is asked with the key `<payment>:attempt:<n>`; asked again with that key (by the
//      settle job, or by the payer's next submit) it answers the first outcome instead of charging again;
//   3. record (a transaction): the outcome, the payment's status and its event, only while the attempt is
//      still CHARGING, so the request and the job can never both record it.
import type { Clock } from '../../platform/clock.ts';
import type { Database, Tx } from '../../platform/db/database.ts';
import { AppError, notFound } from '../../platform/errors.ts';
import type { JobContext } from '../../platform/jobs/job.ts';
import type { JobQueue } from '../../platform/jobs/queue.ts';
import type { Outbox } from '../../platform/outbox.ts';
import { tenantOf } from '../../platform/tenancy.ts';
import type { ChargeResult, HostedFields, PaymentGateway } from '../../providers/gateway/gateway.ts';
import { paymentFailed, paymentProcessing, paymentSucceeded } from '../webhooks/events/payments.events.ts';
import { settleAttemptJob } from './payments.jobs.ts';
import * as repo from './payments.repository.ts';
import type { PaymentStatus } from './payments.schemas.ts';
import { eventPayload, type PaymentCodec } from './payments.service.ts';

const tokenShape = /^[A-Za-z0-9_-]{43}$/;

/** Why a link shows no form: the payment is over, or this link is. */
export type PaymentLinkState = 'PAID' | 'CANCELLED' | 'FAILED' | 'REPLACED' | 'EXPIRED' | 'UNKNOWN';

export type PaymentPageView =
  | {
      state: 'LIVE';
      partnerName: string;
      amount: number;
      prn: string;
      description: string | null;
      expiresAt: Date;
      hostedFields: HostedFields;
      /** The payer already tried a card that was declined in a way another card may fix. */
      declinedBefore: boolean;
    }
  | { state: PaymentLinkState };

const linkMessages: Record<Exclude<PaymentLinkState, 'UNKNOWN'>, string> = {
  PAID: 'This payment has already been made',
  CANCELLED: 'This payment was cancelled by the business that sent it',
  FAILED: 'This payment could not be made and is closed; ask the business that sent it for a new payment',
  REPLACED: 'This payment link was replaced by a newer one; use the latest link you were sent',
  EXPIRED: 'This payment link has expired; ask the business that sent it for a new one',
};

const terminalStates: Partial<Record<PaymentStatus, PaymentLinkState>> = { SUCCEEDED: 'PAID', CANCELLED: 'CANCELLED', FAILED: 'FAILED' };

/**
 * Declines the payer may fix by trying again (another card, or the same card later): the payment stays
 * PROCESSING. Any other decline is final and fails the payment (docs/payments.md).
 */
export function isRetryableDecline(decline: { declineCode: string; merchantAdviceCode: string | null }): boolean {
  return decline.merchantAdviceCode === '02' || retryableCodes.has(decline.declineCode);
}
const retryableCodes = new Set([
  'insufficient_funds',
  'token_invalid',
  'authentication_required',
  'try_again_later',
  'processing_error',
  'card_velocity_exceeded',
  'withdrawal_count_limit_exceeded',
  'incorrect_cvc',
  'expired_card',
]);

export class GatewayUnavailableError extends Error {
  override name = 'GatewayUnavailableError';
}

export function createPaymentLinkService(deps: {
  db: Database;
  clock: Clock;
  codec: PaymentCodec;
  gateway: PaymentGateway;
  outbox: Outbox;
  queue: JobQueue;
  /** How long after an attempt begins its settle job first looks (a live request normally settles it first). */
  settleAfterSeconds: number;
  partnerName(partnerId: string): Promise<string>;
}) {
  const { db, clock, codec, gateway, outbox } = deps;

  async function resolve(token: string): Promise<{ payment: repo.PaymentRow; link: repo.PaymentLinkRow } | { state: PaymentLinkState }> {
    if (!tokenShape.test(token)) return { state: 'UNKNOWN' };
    const link = await repo.findLink(db, codec.tokenHashes(token));
    const payment = link && (await repo.findPaymentById(db, link.payment_id));
    if (!link || !payment) return { state: 'UNKNOWN' };
    const terminal = terminalStates[payment.status];
    if (terminal) return { state: terminal };
    if (link.replaced_at) return { state: 'REPLACED' };
    if (link.expires_at <= clock.now()) return { state: 'EXPIRED' };
    return { payment, link };
  }

  function refuse(state: PaymentLinkState): never {
    if (state === 'UNKNOWN') throw notFound('The payment link');
    throw new AppError('LINK_INVALID', linkMessages[state], { extensions: { linkState: state } });
  }

  /** Asks the gateway for the attempt's outcome, under its key: the first answer, never a second charge. */
  function ask(payment: repo.PaymentRow, attempt: repo.AttemptRow): Promise<ChargeResult> {
    return gateway.pay({ token: attempt.payment_token, amount: payment.amount, description: `ATO payment ${payment.id}`, idempotencyKey: keyOf(payment, attempt) });
  }

  /**
   * An attempt asked before (by a request that died or got no answer): the gateway's record first. Found,
   * it is the outcome. Not found, the gateway never made the charge: while the attempt is young its key
   * is still known to the gateway, so asking again under it cannot charge twice; an old one (Stripe
   * forgets keys after 24 hours) is recorded as a retryable decline, and the payer tries again.
   */
  async function askAgain(payment: repo.PaymentRow, attempt: repo.AttemptRow): Promise<ChargeResult> {
    const found = await gateway.findCharge({ idempotencyKey: keyOf(payment, attempt) });
    if (!found.ok) return found;
    if (found.found) return found.result;
    if (clock.now().getTime() - attempt.started_at.getTime() < reaskWithinMs) return ask(payment, attempt);
    return { ok: false, kind: 'declined', declineCode: 'processing_error', merchantAdviceCode: null, message: 'The payment processor did not take your card. Try again.' };
  }

  /** Step 3: the outcome, once. Returns the payment as it now is. */
  async function record(tx: Tx, payment: repo.PaymentRow, attempt: repo.AttemptRow, result: Exclude<ChargeResult, { kind: 'unavailable' }>): Promise<repo.PaymentRow> {
    const now = clock.now();
    const outcome = result.ok
      ? ({ status: 'SUCCEEDED', gatewayChargeRef: result.chargeRef } as const)
      : ({ status: 'DECLINED', declineCode: result.declineCode, merchantAdviceCode: result.merchantAdviceCode } as const);
    const settled = await repo.settleAttempt(tx, { paymentId: payment.id, attempt: attempt.attempt }, outcome, now);
    if (!settled) return (await repo.findPaymentById(tx, payment.id))!;
    const partnerId = payment.partner_id;
    if (result.ok) {
      const paid = (await repo.setStatus(tx, payment.id, ['PROCESSING'], { status: 'SUCCEEDED', gatewayChargeRef: result.chargeRef, completed: true }, now))!;
      await outbox.emit(tx, paymentSucceeded, { partnerId, payload: eventPayload(paid) });
      return paid;
    }
    if (isRetryableDecline(result)) {
      const current = (await repo.findPaymentById(tx, payment.id))!;
      await outbox.emit(tx, paymentProcessing, { partnerId, payload: eventPayload(current) });
      return current;
    }
    const failed = (await repo.setStatus(tx, payment.id, ['PROCESSING'], { status: 'FAILED', failureReason: result.declineCode, completed: true }, now))!;
    await outbox.emit(tx, paymentFailed, { partnerId, payload: eventPayload(failed) });
    return failed;
  }

  /** An attempt left CHARGING (the gateway was down, or a process died): asked again and recorded. */
  async function settleInFlight(payment: repo.PaymentRow): Promise<repo.PaymentRow> {
    const attempt = await repo.findChargingAttempt(db, payment.id);
    if (!attempt) return payment;
    const result = await askAgain(payment, attempt);
    if (!result.ok && result.kind === 'unavailable') throw unavailable();
    return db.transaction((tx) => record(tx, payment, attempt, result));
  }

  /** Step 1, or undefined when the payment moved on meanwhile (another tab paid, the partner cancelled). */
  async function begin(payment: repo.PaymentRow, paymentToken: string): Promise<repo.AttemptRow | undefined> {
    return db.transaction(async (tx) => {
      const locked = await repo.findPayment(tx, tenantOf(payment.partner_id), payment.id, { lock: true });
      if (!locked || (locked.status !== 'CREATED' && locked.status !== 'PROCESSING')) return undefined;
      if (await repo.findChargingAttempt(tx, payment.id)) {
        throw new AppError('INVALID_STATE', 'Another card is being charged for this payment; wait for its outcome', { retryAfter: 5 });
      }
      const now = clock.now();
      const attempt = await repo.beginAttempt(tx, payment.id, paymentToken, now);
      if (locked.status === 'CREATED') {
        const processing = (await repo.setStatus(tx, payment.id, ['CREATED'], { status: 'PROCESSING' }, now))!;
        await outbox.emit(tx, paymentProcessing, { partnerId: payment.partner_id, payload: eventPayload(processing) });
      }
      await deps.queue.enqueue(
        tx,
        settleAttemptJob,
        { paymentId: payment.id, attempt: attempt.attempt },
        { runAt: new Date(now.getTime() + deps.settleAfterSeconds * 1000), key: `payment-attempt:${payment.id}:${attempt.attempt}` },
      );
      return attempt;
    });
  }

  return {
    async view(token: string): Promise<PaymentPageView> {
      const live = await resolve(token);
      if ('state' in live) return live;
      const { payment, link } = live;
      return {
        state: 'LIVE',
        partnerName: await deps.partnerName(payment.partner_id),
        amount: payment.amount,
        prn: codec.openPrn(payment.prn),
        description: payment.description,
        expiresAt: link.expires_at,
        hostedFields: gateway.hostedFields(),
        declinedBefore: await repo.hasDeclinedAttempt(db, payment.id),
      };
    },

    /** The page hands over the gateway's token: the card is charged once for the payment's amount. */
    async pay(token: string, paymentToken: string): Promise<{ status: PaymentStatus }> {
      const live = await resolve(token);
      if ('state' in live) refuse(live.state);
      // An earlier attempt without an outcome is settled first: it may have paid already.
      const payment = await settleInFlight(live.payment);
      if (payment.status !== 'CREATED' && payment.status !== 'PROCESSING') refuse(terminalStates[payment.status]!);

      const attempt = await begin(payment, paymentToken);
      if (!attempt) {
        const now = await resolve(token);
        refuse('state' in now ? now.state : 'UNKNOWN');
      }
      const result = await ask(payment, attempt);
      if (!result.ok && result.kind === 'unavailable') throw unavailable();
      const after = await db.transaction((tx) => record(tx, payment, attempt, result));
      if (result.ok || after.status === 'SUCCEEDED') return { status: after.status };
      throw new AppError('CARD_DECLINED', result.message, { extensions: { declineCode: result.declineCode, paymentStatus: after.status } });
    },

    /** The settle job's handler: an attempt still CHARGING is asked again and recorded; else nothing. */
    async settle(paymentId: string, attemptNumber: number, ctx: JobContext): Promise<void> {
      const attempt = await repo.findAttempt(db, paymentId, attemptNumber);
      const payment = await repo.findPaymentById(db, paymentId);
      if (!attempt || attempt.status !== 'CHARGING' || !payment) return;
      const result = await askAgain(payment, attempt);
      if (!result.ok && result.kind === 'unavailable') throw new GatewayUnavailableError(`Gateway unavailable settling ${paymentId} attempt ${attemptNumber}: ${result.message}`);
      await ctx.complete(async (tx) => {
        await record(tx, payment, attempt, result);
      });
    },
  };
}

const keyOf = (payment: repo.PaymentRow, attempt: repo.AttemptRow) => `${payment.id}:attempt:${attempt.attempt}`;

/** Well inside the 24 hours Stripe keeps an idempotency key. */
const reaskWithinMs = 3600_000;

function unavailable(): AppError {
  return new AppError('SERVICE_UNAVAILABLE', 'The payment processor did not answer. Try again in a moment; the card is never charged twice for this payment', { retryAfter: 5 });
}

export type PaymentLinkService = ReturnType<typeof createPaymentLinkService>;
