// ATO payments made the way a partner and the payer make them: the payment through /v1/payments, the card
// through the payment link's page calls (the sandbox gateway's tokens endpoint, then the hosted pay call).
import assert from 'node:assert/strict';
import type { TestContext, TestPartner } from './context.ts';
import { tokenise } from './billing.ts';

export interface PaymentBody {
  id: string;
  status: string;
  amount: number;
  commissionAmount: number;
  currency: string;
  prn: string;
  description: string | null;
  contactId: string | null;
  metadata: Record<string, string>;
  paymentUrl?: string;
  linkExpiresAt: string | null;
  attempts: number;
  failureReason: string | null;
  completedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

/** A valid PRN (any 12 to 18 digits that are not all zeros). */
export const samplePrn = '551234567890123';

export async function createPayment(t: TestContext, partner: TestPartner, body: Record<string, unknown> = {}): Promise<PaymentBody & { token: string }> {
  const res = await t.app.inject({ method: 'POST', url: '/v1/payments', headers: partner.headers, payload: { amount: 125_000, prn: samplePrn, ...body } });
  assert.equal(res.statusCode, 201, res.body);
  const payment = res.json<PaymentBody>();
  return { ...payment, token: linkToken(payment.paymentUrl!) };
}

export function linkToken(url: string): string {
  return url.split('/p/')[1]!;
}

/** The payment page's whole submit: tokenise with the gateway, then hand PVS the token. */
export async function payWith(t: TestContext, token: string, number: string) {
  const tokenised = await tokenise(t, number);
  assert.equal(tokenised.statusCode, 200, tokenised.body);
  return t.app.inject({ method: 'POST', url: `/hosted/v1/payment-links/${token}`, payload: { paymentToken: tokenised.json<{ token: string }>().token } });
}

export async function getPayment(t: TestContext, partner: TestPartner, id: string): Promise<PaymentBody> {
  const res = await t.app.inject({ method: 'GET', url: `/v1/payments/${id}`, headers: partner.headers });
  assert.equal(res.statusCode, 200, res.body);
  return res.json<PaymentBody>();
}

/** A payment's events, oldest first, as stored (the delivered body adds type, occurredAt and eventId). */
export async function paymentEvents(t: TestContext, paymentId: string) {
  return t.services.db.query<{ type: string; payload: Record<string, unknown> }>('SELECT type, payload FROM events WHERE subject_id = $1 ORDER BY id', [paymentId]);
}
