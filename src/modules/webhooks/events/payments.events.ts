// ATO payment events. SPEC: a payment event carries type, id, amount, status, commissionAmount,
// metadata and occurredAt, and nothing else.
import { Type } from '@sinclair/typebox';
import { defineEvent, fields, oneOf } from './define.ts';

const payment = {
  id: Type.String({ description: 'The payment (`pay_…`).' }),
  amount: Type.Integer({ minimum: 0, description: 'Cents (AUD).' }),
  status: oneOf(['CREATED', 'PROCESSING', 'SUCCEEDED', 'FAILED', 'CANCELLED'], {
    description: 'The payment status when the event was sent; supplementary to the event type.',
  }),
  commissionAmount: Type.Integer({ minimum: 0, description: 'Your commission on the payment, in cents.' }),
  metadata: Type.Record(Type.String(), Type.String(), { maxProperties: 20, description: 'Your own keys and string values, as given at create (`{}` when none).' }),
};
type Status = 'CREATED' | 'PROCESSING' | 'SUCCEEDED' | 'FAILED' | 'CANCELLED';
const example = (status: Status) => ({ id: 'pay_01JD0000000000000000000000', amount: 125000, status, commissionAmount: 1250, metadata: { invoice: 'INV-1001' } });

const paymentEvent = (type: string, status: Status, description: string) =>
  defineEvent({ type, category: 'PAYMENTS', description, subject: 'id', payload: fields(payment), example: example(status) });

export const paymentCreated = paymentEvent('payment.created', 'CREATED', 'A payment is created.');
export const paymentProcessing = paymentEvent('payment.processing', 'PROCESSING', 'Processing begins, and again after a retryable decline.');
export const paymentSucceeded = paymentEvent('payment.succeeded', 'SUCCEEDED', 'The payment completes successfully.');
export const paymentFailed = paymentEvent('payment.failed', 'FAILED', 'The payment fails terminally.');
export const paymentCancelled = paymentEvent('payment.cancelled', 'CANCELLED', 'The payment is cancelled before completion.');
export const paymentLinkRegenerated = defineEvent({
  type: 'payment.link_regenerated',
  category: 'PAYMENTS',
  description: 'The hosted payment link is reissued; the previous link stops working.',
  subject: 'id',
  payload: fields({ ...payment, newUrl: Type.String({ format: 'uri', description: 'The new hosted payment link; hand it to the payer.' }) }),
  example: { ...example('CREATED'), newUrl: 'https://pvs.example/p/q8Zk3mW1xT0bVn7RcY2hLs9dJf4gPa6eUo5iKw-XyEA' },
});

/** In the order the reference lists them. */
export const paymentEvents = [paymentCreated, paymentProcessing, paymentSucceeded, paymentFailed, paymentCancelled, paymentLinkRegenerated] as const;
