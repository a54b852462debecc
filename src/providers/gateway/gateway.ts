// The payment gateway: what PVS asks of whoever holds the cards. PVS never sees a card number; the
// hosted card page hands it to the gateway's own tokenisation and PVS keeps only the token it gets
// back, the reusable payment method the gateway makes of it, and the card's summary.
//
// Expected outcomes (a decline, the gateway being down) come back as values; exceptions are bugs.
// Every call that moves money or saves a card takes an idempotency key: the gateway answers a repeat
// with the first answer, so a worker that dies after the call and runs again never charges twice.

export interface CardSummary {
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
}

export interface CardInput {
  number: string;
  expMonth: number;
  expYear: number;
  cvc: string;
  name?: string;
}

/** The gateway could not be reached or failed on its side; trying again later may work. */
export interface GatewayUnavailable {
  ok: false;
  kind: 'unavailable';
  message: string;
}

export interface GatewayDeclined {
  ok: false;
  kind: 'declined';
  /** The gateway's decline code: `generic_decline`, `insufficient_funds`, `do_not_honor` … */
  declineCode: string;
  /** The card network's merchant advice code (`01`, `02`, `03`, `21`), or null when none was given. */
  merchantAdviceCode: string | null;
  /** For the card holder, from the gateway; never shown to partners as our own words. */
  message: string;
}

/** The card details themselves are wrong (number fails its check, expired, bad CVC). */
export interface GatewayInvalidCard {
  ok: false;
  kind: 'invalid';
  /** `incorrect_number`, `invalid_expiry_month`, `invalid_expiry_year`, `expired_card`, `invalid_cvc` … */
  declineCode: string;
  /** Which input was wrong: `number`, `expMonth`, `expYear` or `cvc`. */
  field: 'number' | 'expMonth' | 'expYear' | 'cvc';
  message: string;
}

export type TokeniseResult = { ok: true; token: string; card: CardSummary } | GatewayInvalidCard | GatewayDeclined | GatewayUnavailable;

export type AttachResult =
  | {
      ok: true;
      /** The gateway's customer, made on first attach and reused for the contact's later cards. */
      customerRef: string;
      /** The saved, reusable payment method. */
      paymentMethodRef: string;
      card: CardSummary;
    }
  | GatewayDeclined
  | GatewayUnavailable;

export type ChargeResult = { ok: true; chargeRef: string } | GatewayDeclined | GatewayUnavailable;

/** A charge's final outcome: it took the money, or the card declined it. */
export type ChargeOutcome = Exclude<ChargeResult, GatewayUnavailable>;

/**
 * What the gateway recorded of the charge made under an idempotency key: none (it was never made), or
 * its outcome. Unavailable also when the charge has no final outcome yet (Stripe's `processing`).
 */
export type FindChargeResult = { ok: true; found: false } | { ok: true; found: true; result: ChargeOutcome } | GatewayUnavailable;

export type RefundResult = { ok: true; refundRef: string } | GatewayUnavailable;

export type DetachResult = { ok: true } | GatewayUnavailable;

/** How the hosted card page tokenises with this gateway (rendered into the page; nothing secret). */
export type HostedFields = { kind: 'sandbox'; tokensUrl: string } | { kind: 'stripe'; publishableKey: string };

export interface PaymentGateway {
  readonly name: 'sandbox' | 'stripe';
  hostedFields(): HostedFields;
  /** Turns card details into a single-use token. In production the page does this in the browser. */
  tokenise(card: CardInput): Promise<TokeniseResult>;
  /**
   * Saves a tokenised card for off-session use (a verified consent: Stripe's SetupIntent), making
   * the gateway customer when `customerRef` is null. A declined card saves nothing.
   */
  attach(input: { token: string; customerRef: string | null; contactId: string; idempotencyKey: string }): Promise<AttachResult>;
  /** Charges a saved card without the holder present. `amount` in cents, AUD. */
  charge(input: { customerRef: string; paymentMethodRef: string; amount: number; description: string; idempotencyKey: string }): Promise<ChargeResult>;
  /**
   * Charges a card its holder has just entered on a hosted page (on-session), once: the token is spent
   * and the card is not kept. A repeat with the same key answers the first outcome.
   */
  pay(input: { token: string; amount: number; description: string; idempotencyKey: string }): Promise<ChargeResult>;
  /**
   * Looks up, without changing anything, the charge `charge` or `pay` made under this idempotency key.
   * It finds the charge after the gateway has forgotten the key itself (Stripe keeps keys 24 hours),
   * which is why a caller settling an old attempt looks it up rather than asking to charge again: a
   * charge under a forgotten key is a second charge.
   */
  findCharge(input: { idempotencyKey: string }): Promise<FindChargeResult>;
  /** Gives back all or part of a successful charge. */
  refund(input: { chargeRef: string; amount: number; idempotencyKey: string }): Promise<RefundResult>;
  /** Forgets a saved card (the contact removed or replaced it). */
  detach(input: { paymentMethodRef: string }): Promise<DetachResult>;
}
