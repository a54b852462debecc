// The payment gateway on Stripe, through the official SDK: a SetupIntent saves a card for
// off-session use, a PaymentIntent charges it (or a card paying once, on-session), a Refund gives money back.
//
// Invariants:
// - Every call that moves money or saves a card carries the caller's idempotency key, so a repeat of
//   the call (a retry by the SDK, or by our job queue after a crash) gets Stripe's first answer back.
// - Neither the secret key nor a card number ever reaches an error message: messages we build name
//   the operation, Stripe's type/code/param and request id; Stripe's own text is passed through
//   `redact` first, and authentication failures drop it altogether (Stripe echoes part of the key).
// - Expected outcomes (declines, Stripe down) are values; misconfiguration and misuse are thrown.
// - A PaymentIntent carries the idempotency key it was made under in its metadata, because Stripe
//   forgets idempotency keys after 24 hours: findCharge searches by it, so an old attempt is settled
//   by looking, never by charging again under a key Stripe no longer knows.
import Stripe from 'stripe';
import type {
  AttachResult,
  CardSummary,
  ChargeResult,
  DetachResult,
  FindChargeResult,
  GatewayDeclined,
  GatewayInvalidCard,
  GatewayUnavailable,
  PaymentGateway,
  RefundResult,
  TokeniseResult,
} from './gateway.ts';

export interface StripeGatewayOptions {
  secretKey: string;
  publishableKey: string;
  /** Where the API is, as an origin (`http://127.0.0.1:4010` for tests); Stripe's own by default. */
  apiBase?: string;
  /** Per request; a confirm waits on the card issuer, which usually answers in seconds. */
  timeoutMs?: number;
}

type StripeError = InstanceType<typeof Stripe.errors.StripeError>;

/** The fields Stripe puts on an error, and on `last_setup_error` / `last_payment_error` alike. */
interface DeclineDetails {
  code?: string;
  decline_code?: string;
  advice_code?: string;
  network_advice_code?: string;
  message?: string;
}

const defaultTimeoutMs = 30_000;

// Both intents are limited to cards with `allowed_payment_method_types`. The pinned API version
// (endive, 2026-09-30 on) refuses the older `payment_method_types` with a 400
// `payment_method_types_no_longer_supported` (docs.stripe.com/changelog/endive/2026-09-30/
// removes-the-payment-method-types-parameter-from-payment-intents-and-setup-intents). Left to the
// Dashboard's dynamic payment methods instead, a server-side confirm would demand a `return_url`
// in case the method redirects; a card saved for off-session use never does.
const cardsOnly: Array<'card'> = ['card'];

/** The PaymentIntent metadata key holding the idempotency key it was made under. */
export const idempotencyKeyMetadata = 'pvs_idempotency_key';

export function createStripeGateway(options: StripeGatewayOptions): PaymentGateway {
  if (!options.secretKey) throw new Error('Stripe gateway: no secret key was configured.');
  const stripe = new Stripe(options.secretKey, {
    // Pinned to the version this SDK's types describe, so an account's default version changing in
    // the Dashboard never changes the shapes we read.
    apiVersion: Stripe.API_VERSION,
    ...endpointOf(options.apiBase),
    timeout: options.timeoutMs ?? defaultTimeoutMs,
    // One retry: it clears a stale keep-alive socket or a 409 "same key still in flight" within the
    // call, and the SDK resends our idempotency key so it can never charge twice. Longer outages are
    // the job queue's to retry with backoff; more retries here would only hold a worker longer.
    maxNetworkRetries: 1,
    telemetry: false,
  });
  const redact = (text: string) => redactSecrets(text, options.secretKey);

  /** Anything but a decline: Stripe being unreachable or failing is a value, the rest is a bug. */
  function failure(operation: string, err: unknown): GatewayUnavailable {
    if (!(err instanceof Stripe.errors.StripeError)) throw err;
    const E = Stripe.errors;
    const where = `Stripe ${operation}`;
    const ref = err.requestId ? ` (request ${err.requestId})` : '';
    if (
      err instanceof E.StripeConnectionError ||
      err instanceof E.StripeAPIError ||
      err instanceof E.StripeRateLimitError ||
      (err.statusCode ?? 0) >= 500
    ) {
      return { ok: false, kind: 'unavailable', message: `${where} failed: ${redact(err.message)}${ref}` };
    }
    if (err instanceof E.StripeAuthenticationError) {
      throw new Error(`${where}: Stripe rejected the secret key (401)${ref}. Check the configured Stripe secret key.`);
    }
    if (err instanceof E.StripePermissionError) {
      throw new Error(`${where}: the secret key may not do this (403)${ref}: ${redact(err.message)}`);
    }
    const detail = [err.rawType ?? err.type, err.code, err.param && `param ${err.param}`].filter(Boolean).join(', ');
    throw new Error(`${where} was refused (${err.statusCode ?? '?'} ${detail})${ref}: ${redact(err.message)}`);
  }

  function declined(details: DeclineDetails, fallbackCode: string): GatewayDeclined {
    return {
      ok: false,
      kind: 'declined',
      declineCode: details.decline_code ?? details.code ?? fallbackCode,
      merchantAdviceCode: merchantAdviceCodeOf(details),
      message: redact(details.message ?? 'The card was declined.'),
    };
  }

  /** A charge's outcome from its PaymentIntent; `processing` is looked at once more before giving up. */
  async function settleCharge(pi: Stripe.PaymentIntent, lookAgain: boolean): Promise<ChargeResult> {
    switch (pi.status) {
      case 'succeeded':
        return { ok: true, chargeRef: pi.id };
      case 'processing': {
        // Cards normally answer synchronously, so this is rare; but money may still move. Saying
        // "unavailable" makes the caller ask again with the same key: Stripe replays the same
        // PaymentIntent id and we read its state now, so a late success is never charged twice.
        if (lookAgain) return settleCharge(await stripe.paymentIntents.retrieve(pi.id), false);
        return { ok: false, kind: 'unavailable', message: `Stripe is still processing payment ${pi.id}; ask again with the same idempotency key.` };
      }
      case 'requires_payment_method':
        return declined(pi.last_payment_error ?? {}, 'card_declined');
      case 'requires_action':
        // Off-session, nobody is there to authenticate: the holder must come back on-session.
        return declined({ decline_code: 'authentication_required', message: 'The card issuer requires the card holder to authenticate this payment.' }, 'authentication_required');
      default:
        throw new Error(`Stripe charge: payment ${pi.id} is in unexpected status '${pi.status}' after an off-session confirm.`);
    }
  }

  /**
   * A PaymentIntent confirmed at once, in AUD, cards only, under the caller's key (also kept in its
   * metadata, so findCharge can find it after Stripe has forgotten the key).
   */
  async function confirmPayment(
    operation: 'charge' | 'pay',
    params: { payment_method: string; amount: number; description: string; customer?: string; off_session?: boolean },
    idempotencyKey: string,
  ): Promise<ChargeResult> {
    try {
      const pi = await stripe.paymentIntents.create(
        { ...params, currency: 'aud', confirm: true, allowed_payment_method_types: cardsOnly, metadata: { [idempotencyKeyMetadata]: idempotencyKey } },
        { idempotencyKey },
      );
      return await settleCharge(pi, true);
    } catch (err) {
      if (err instanceof Stripe.errors.StripeCardError) return declined(err, 'card_declined');
      return failure(operation, err);
    }
  }

  return {
    name: 'stripe',

    hostedFields: () => ({ kind: 'stripe', publishableKey: options.publishableKey }),

    // For tests and tools only. In production the hosted page tokenises in the browser with
    // Stripe.js, so card numbers never reach PVS. (Live Stripe refuses raw card numbers from servers
    // unless the account is allowed to send them; test mode accepts its test numbers.)
    async tokenise(card): Promise<TokeniseResult> {
      try {
        const pm = await stripe.paymentMethods.create({
          type: 'card',
          card: { number: card.number, exp_month: card.expMonth, exp_year: card.expYear, cvc: card.cvc },
          ...(card.name ? { billing_details: { name: card.name } } : {}),
        });
        return { ok: true, token: pm.id, card: summaryOf(pm) };
      } catch (err) {
        if (err instanceof Stripe.errors.StripeCardError) return invalidCardOf(err, redact) ?? declined(err, 'card_declined');
        return failure('tokenise', err);
      }
    },

    async attach({ token, customerRef, contactId, idempotencyKey }): Promise<AttachResult> {
      try {
        // Its own key, derived from the caller's, so a repeat makes no second customer.
        const customer = customerRef ?? (await stripe.customers.create({ metadata: { contactId } }, { idempotencyKey: `${idempotencyKey}:customer` })).id;
        const si = await stripe.setupIntents.create(
          { customer, payment_method: token, confirm: true, usage: 'off_session', allowed_payment_method_types: cardsOnly, expand: ['payment_method'] },
          { idempotencyKey },
        );
        switch (si.status) {
          case 'succeeded': {
            const pm = si.payment_method;
            if (!pm || typeof pm === 'string') throw new Error(`Stripe attach: setup ${si.id} came back without its expanded payment method.`);
            return { ok: true, customerRef: customer, paymentMethodRef: pm.id, card: summaryOf(pm) };
          }
          case 'requires_action':
            return declined({ decline_code: 'authentication_required', message: 'The card issuer requires the card holder to authenticate.' }, 'authentication_required');
          case 'requires_payment_method':
            return declined(si.last_setup_error ?? {}, 'card_declined');
          default:
            throw new Error(`Stripe attach: setup ${si.id} is in unexpected status '${si.status}' after confirm.`);
        }
      } catch (err) {
        if (err instanceof Stripe.errors.StripeCardError) return declined(err, 'card_declined');
        return failure('attach', err);
      }
    },

    charge: ({ customerRef, paymentMethodRef, amount, description, idempotencyKey }) =>
      confirmPayment('charge', { customer: customerRef, payment_method: paymentMethodRef, off_session: true, amount, description }, idempotencyKey),

    // The holder is on the page: no customer, and the payment method is spent by this one payment. A
    // card whose issuer asks for 3-D Secure comes back `authentication_required` (see docs/payments.md).
    pay: ({ token, amount, description, idempotencyKey }) => confirmPayment('pay', { payment_method: token, amount, description }, idempotencyKey),

    // Search, not retrieve: we keep no PaymentIntent id for an attempt whose answer was lost. Search is
    // eventually consistent (under a minute normally, longer in an outage; docs.stripe.com/search), so
    // "not found" is trusted only long after the charge: the billing sweeper asks a day later, and a
    // re-asked attempt that finds nothing asks to charge under its own key, which Stripe still knows
    // if the charge was too recent to be found (it answers that charge).
    async findCharge({ idempotencyKey }): Promise<FindChargeResult> {
      try {
        const query = `metadata['${idempotencyKeyMetadata}']:'${searchString(idempotencyKey)}'`;
        const { data } = await stripe.paymentIntents.search({ query, limit: 10 });
        // One PaymentIntent per key, unless a repeat came after Stripe forgot the key: then the one
        // that took the money is the charge, else the latest.
        const pi = data.find((p) => p.status === 'succeeded') ?? [...data].sort((a, b) => b.created - a.created)[0];
        if (!pi) return { ok: true, found: false };
        if (pi.status === 'processing') return { ok: false, kind: 'unavailable', message: `Stripe is still processing payment ${pi.id}; look again later.` };
        const result = await settleCharge(pi, false);
        if (!result.ok && result.kind === 'unavailable') return result;
        return { ok: true, found: true, result };
      } catch (err) {
        return failure('charge search', err);
      }
    },

    async refund({ chargeRef, amount, idempotencyKey }): Promise<RefundResult> {
      try {
        const refund = await stripe.refunds.create({ payment_intent: chargeRef, amount }, { idempotencyKey });
        // `pending` is accepted too: card refunds settle later, and a late failure arrives as an event.
        if (refund.status === 'failed' || refund.status === 'canceled') {
          throw new Error(`Stripe refund: refund ${refund.id} of ${chargeRef} came back '${refund.status}'.`);
        }
        return { ok: true, refundRef: refund.id };
      } catch (err) {
        return failure('refund', err);
      }
    },

    async detach({ paymentMethodRef }): Promise<DetachResult> {
      try {
        await stripe.paymentMethods.detach(paymentMethodRef);
        return { ok: true };
      } catch (err) {
        if (isAlreadyGone(err)) return { ok: true };
        return failure('detach', err);
      }
    },
  };
}

/** `apiBase` as the SDK's host/port/protocol options. */
function endpointOf(apiBase: string | undefined): { host?: string; port?: number; protocol?: 'http' | 'https' } {
  if (!apiBase) return {};
  const url = new URL(apiBase);
  const protocol = url.protocol.slice(0, -1);
  if ((protocol !== 'http' && protocol !== 'https') || (url.pathname !== '/' && url.pathname !== '')) {
    throw new Error(`Stripe apiBase must be an http(s) origin such as http://127.0.0.1:4010, got '${url.origin}${url.pathname}'.`);
  }
  return { host: url.hostname, port: Number(url.port || (protocol === 'https' ? 443 : 80)), protocol };
}

function summaryOf(pm: Stripe.PaymentMethod): CardSummary {
  if (!pm.card) throw new Error(`Stripe payment method ${pm.id} is a '${pm.type}', not a card.`);
  return { brand: pm.card.brand, last4: pm.card.last4, expMonth: pm.card.exp_month, expYear: pm.card.exp_year };
}

/**
 * The network's merchant advice code, else Stripe's own advice turned into the Mastercard code that
 * means the same. Field names from Stripe's error object (docs.stripe.com/api/errors): `advice_code`
 * ("how to proceed", docs.stripe.com/declines#retrying-issuer-declines; values `confirm_card_data`,
 * `try_again_later`, `do_not_try_again`, as enumerated for Charge.outcome.advice_code in stripe-go's
 * generated charge.go) and `network_advice_code` ("a 2 digit code which indicates the advice given to
 * merchant by the card network", added in 2024-12-18.acacia, docs.stripe.com/changelog/acacia/
 * 2024-12-18/network-advice-code-network-decline-code). Both appear on StripeError and on
 * PaymentIntent.last_payment_error / SetupIntent.last_setup_error (see the SDK's Error.d.ts).
 */
export function merchantAdviceCodeOf(details: Pick<DeclineDetails, 'advice_code' | 'network_advice_code'>): string | null {
  if (details.network_advice_code) return details.network_advice_code;
  switch (details.advice_code) {
    case 'confirm_card_data':
      return '01';
    case 'try_again_later':
      return '02';
    case 'do_not_try_again':
      return '03';
    default:
      return null;
  }
}

/** Which input a tokenisation card error blames, from Stripe's error code (docs.stripe.com/error-codes). */
const invalidCardFields: Record<string, GatewayInvalidCard['field']> = {
  incorrect_number: 'number',
  invalid_number: 'number',
  invalid_expiry_month: 'expMonth',
  invalid_expiry_year: 'expYear',
  expired_card: 'expYear',
  incorrect_cvc: 'cvc',
  invalid_cvc: 'cvc',
};

function invalidCardOf(err: StripeError, redact: (s: string) => string): GatewayInvalidCard | null {
  const field = err.code ? invalidCardFields[err.code] : undefined;
  if (!field || !err.code) return null;
  return { ok: false, kind: 'invalid', declineCode: err.code, field, message: redact(err.message) };
}

/**
 * A detach of a card Stripe no longer holds: unknown (404 `resource_missing`), or already detached.
 * The second comes back as a 400 with no code, only the message "The payment method you provided is
 * not attached to a customer so detachment is impossible."; a repeat of a detach that succeeded but
 * whose answer was lost looks exactly like that, so it is matched on the message.
 */
function isAlreadyGone(err: unknown): boolean {
  if (!(err instanceof Stripe.errors.StripeInvalidRequestError)) return false;
  return err.statusCode === 404 || err.code === 'resource_missing' || /not attached to a customer/i.test(err.message);
}

/** A value inside a quoted search-query string: Stripe's query language escapes quotes with a backslash. */
function searchString(value: string): string {
  return value.replace(/[\\']/g, (c) => `\\${c}`);
}

/** Stripe's text with anything that looks like an API key or a card number taken out. */
function redactSecrets(text: string, secretKey: string): string {
  return (secretKey ? text.split(secretKey).join('[secret key]') : text)
    .replace(/\b[sr]k_(?:test|live)_[\w*]+/g, '[secret key]')
    .replace(/\b(?:\d[ -]?){12,18}\d\b/g, '[card number]');
}
