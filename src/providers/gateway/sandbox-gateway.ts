// The sandbox payment gateway: a faithful stand-in for a card gateway, with its own tables (the
// sandbox_gateway_* ones, which nothing else reads). Tokens are single-use and expire; saving a card
// makes a reusable payment method; charges and refunds honour idempotency keys the way a real
// gateway does (a repeat gets the first answer; a repeat with different parameters is refused).
// A charge keeps the key it was made under, as Stripe keeps it in metadata, so findCharge finds it.
import { createHash, randomBytes } from 'node:crypto';
import type { Clock } from '../../platform/clock.ts';
import type { Database, Tx } from '../../platform/db/database.ts';
import type {
  AttachResult,
  CardInput,
  ChargeResult,
  DetachResult,
  FindChargeResult,
  GatewayDeclined,
  PaymentGateway,
  RefundResult,
  TokeniseResult,
} from './gateway.ts';
import { chargeDeclines, checkCard } from './sandbox-cards.ts';

/** A token not used within this time is refused, as hosted-field tokens are. */
export const tokenLifetimeMinutes = 15;

function gatewayId(prefix: string): string {
  return `${prefix}_${randomBytes(12).toString('base64url').replace(/[-_]/g, 'x')}`;
}

interface PaymentMethodRow {
  id: string;
  customer_id: string;
  behaviour: string;
  detached_at: Date | null;
}

interface TokenRow {
  brand: string;
  last4: string;
  exp_month: number;
  exp_year: number;
  behaviour: string;
}

const tokenInvalid: GatewayDeclined = {
  ok: false,
  kind: 'declined',
  declineCode: 'token_invalid',
  merchantAdviceCode: null,
  message: 'The card details expired or were already used. Enter them again.',
};

/** A token is used once, within its lifetime; undefined when it is unknown, spent or too old. */
async function spendToken(tx: Tx, id: string, now: Date): Promise<TokenRow | undefined> {
  const oldest = new Date(now.getTime() - tokenLifetimeMinutes * 60_000);
  const [token] = await tx.query<TokenRow>(
    `UPDATE sandbox_gateway_tokens SET used_at = $2 WHERE id = $1 AND used_at IS NULL AND created_at > $3
     RETURNING brand, last4, exp_month, exp_year, behaviour`,
    [id, now, oldest],
  );
  return token;
}

export class IdempotencyKeyMismatch extends Error {
  override name = 'IdempotencyKeyMismatch';
}

export function createSandboxGateway(deps: { db: Database; clock: Clock; publicBaseUrl: string }): PaymentGateway {
  const { db, clock } = deps;

  /** Runs fn once per key: a repeat answers what the first call answered, without running fn. */
  async function once<T>(key: string, operation: string, request: unknown, fn: (tx: Tx) => Promise<T>): Promise<T> {
    const hash = createHash('sha256').update(JSON.stringify(request)).digest('hex');
    return db.transaction(async (tx) => {
      // Two requests with one key at once: the second waits here, then replays the first's answer.
      await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`sandbox-gateway:${key}`]);
      const [previous] = await tx.query<{ operation: string; request_hash: string; response: T }>(
        'SELECT operation, request_hash, response FROM sandbox_gateway_requests WHERE idempotency_key = $1',
        [key],
      );
      if (previous) {
        if (previous.operation !== operation || previous.request_hash !== hash) {
          throw new IdempotencyKeyMismatch(`Idempotency key ${key} was used for a different request`);
        }
        return previous.response;
      }
      const response = await fn(tx);
      await tx.query(
        'INSERT INTO sandbox_gateway_requests (idempotency_key, operation, request_hash, response, created_at) VALUES ($1, $2, $3, $4, $5)',
        [key, operation, hash, JSON.stringify(response), clock.now()],
      );
      return response;
    });
  }

  return {
    name: 'sandbox',

    hostedFields: () => ({ kind: 'sandbox', tokensUrl: `${deps.publicBaseUrl}/sandbox-gateway/v1/tokens` }),

    async tokenise(card: CardInput): Promise<TokeniseResult> {
      const now = clock.now();
      const checked = checkCard(card, now);
      if (!checked.ok) return checked;
      const token = gatewayId('tok');
      const { summary } = checked;
      await db.query(
        `INSERT INTO sandbox_gateway_tokens (id, brand, last4, exp_month, exp_year, behaviour, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
        [token, summary.brand, summary.last4, summary.expMonth, summary.expYear, checked.behaviour, now],
      );
      return { ok: true, token, card: summary };
    },

    attach(input): Promise<AttachResult> {
      return once(input.idempotencyKey, 'attach', { token: input.token, customerRef: input.customerRef }, async (tx) => {
        const token = await spendToken(tx, input.token, clock.now());
        if (!token) return tokenInvalid;
        if (token.behaviour === 'declines_on_save') {
          return { ok: false, kind: 'declined', declineCode: 'generic_decline', merchantAdviceCode: null, message: 'Your card was declined.' };
        }
        const now = clock.now();
        const customerRef = input.customerRef ?? gatewayId('cus');
        const paymentMethodRef = gatewayId('pm');
        await tx.query(
          `INSERT INTO sandbox_gateway_payment_methods (id, customer_id, brand, last4, exp_month, exp_year, behaviour, created_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
          [paymentMethodRef, customerRef, token.brand, token.last4, token.exp_month, token.exp_year, token.behaviour, now],
        );
        const card = { brand: token.brand, last4: token.last4, expMonth: token.exp_month, expYear: token.exp_year };
        return { ok: true, customerRef, paymentMethodRef, card };
      });
    },

    charge(input): Promise<ChargeResult> {
      const request = { customerRef: input.customerRef, paymentMethodRef: input.paymentMethodRef, amount: input.amount };
      return once(input.idempotencyKey, 'charge', request, async (tx) => {
        const [method] = await tx.query<PaymentMethodRow>('SELECT id, customer_id, behaviour, detached_at FROM sandbox_gateway_payment_methods WHERE id = $1', [
          input.paymentMethodRef,
        ]);
        if (!method || method.detached_at || method.customer_id !== input.customerRef) {
          throw new Error(`Sandbox gateway: no payment method ${input.paymentMethodRef} for customer ${input.customerRef}`);
        }
        const decline = chargeDeclines[method.behaviour as keyof typeof chargeDeclines];
        const id = gatewayId('ch');
        await tx.query(
          `INSERT INTO sandbox_gateway_charges (id, payment_method_id, amount, currency, status, decline_code, description, idempotency_key, created_at)
           VALUES ($1, $2, $3, 'aud', $4, $5, $6, $7, $8)`,
          [id, method.id, input.amount, decline ? 'failed' : 'succeeded', decline?.declineCode ?? null, input.description, input.idempotencyKey, clock.now()],
        );
        if (decline) return { ok: false, kind: 'declined', ...decline };
        return { ok: true, chargeRef: id };
      });
    },

    pay(input): Promise<ChargeResult> {
      return once(input.idempotencyKey, 'pay', { token: input.token, amount: input.amount }, async (tx) => {
        const now = clock.now();
        const token = await spendToken(tx, input.token, now);
        if (!token) return tokenInvalid;
        const decline = chargeDeclines[token.behaviour as keyof typeof chargeDeclines];
        const id = gatewayId('ch');
        await tx.query(
          `INSERT INTO sandbox_gateway_charges (id, token_id, amount, currency, status, decline_code, description, idempotency_key, created_at)
           VALUES ($1, $2, $3, 'aud', $4, $5, $6, $7, $8)`,
          [id, input.token, input.amount, decline ? 'failed' : 'succeeded', decline?.declineCode ?? null, input.description, input.idempotencyKey, now],
        );
        if (decline) return { ok: false, kind: 'declined', ...decline };
        return { ok: true, chargeRef: id };
      });
    },

    async findCharge({ idempotencyKey }): Promise<FindChargeResult> {
      // The card's behaviour, from the saved method (charge) or the spent token (pay), gives a decline's
      // merchant advice code, as it did when the charge was made.
      const [charge] = await db.query<{ id: string; status: 'succeeded' | 'failed'; behaviour: string | null }>(
        `SELECT c.id, c.status, COALESCE(m.behaviour, t.behaviour) AS behaviour FROM sandbox_gateway_charges c
         LEFT JOIN sandbox_gateway_payment_methods m ON m.id = c.payment_method_id
         LEFT JOIN sandbox_gateway_tokens t ON t.id = c.token_id
         WHERE c.idempotency_key = $1 ORDER BY c.created_at DESC, c.id DESC LIMIT 1`,
        [idempotencyKey],
      );
      if (!charge) return { ok: true, found: false };
      if (charge.status === 'succeeded') return { ok: true, found: true, result: { ok: true, chargeRef: charge.id } };
      const decline = chargeDeclines[charge.behaviour as keyof typeof chargeDeclines];
      if (!decline) throw new Error(`Sandbox gateway: failed charge ${charge.id} has a card that never declines`);
      return { ok: true, found: true, result: { ok: false, kind: 'declined', ...decline } };
    },

    refund(input): Promise<RefundResult> {
      return once(input.idempotencyKey, 'refund', { chargeRef: input.chargeRef, amount: input.amount }, async (tx) => {
        const [charge] = await tx.query<{ amount: number; refunded_amount: number }>(
          `UPDATE sandbox_gateway_charges SET refunded_amount = refunded_amount + $2
           WHERE id = $1 AND status = 'succeeded' AND refunded_amount + $2 <= amount RETURNING amount, refunded_amount`,
          [input.chargeRef, input.amount],
        );
        if (!charge) throw new Error(`Sandbox gateway: charge ${input.chargeRef} cannot be refunded ${input.amount}`);
        return { ok: true, refundRef: gatewayId('re') };
      });
    },

    async detach(input): Promise<DetachResult> {
      await db.query('UPDATE sandbox_gateway_payment_methods SET detached_at = $2 WHERE id = $1 AND detached_at IS NULL', [input.paymentMethodRef, clock.now()]);
      return { ok: true };
    },
  };
}
