import { Type } from '@sinclair/typebox';
import { defineEvent, fields } from './define.ts';

// SPEC: a payment event carries type, id, amount, status, commissionAmount, metadata, occurredAt.
const payment = {
  id: Type.String({ description: 'The payment id (`pay_…`).' }),
  amount: Type.Integer({ description: 'Cents (AUD).' }),
  status: Type.String({ description: 'The payment status; supplementary to the event type.' }),
  commissionAmount: Type.Integer({ description: 'Your commission, in cents.' }),
  metadata: Type.Record(Type.String(), Type.String(), { description: 'Your own keys, as given at create.' }),
};
const example = { id: 'pay_01JD0000000000000000000000', amount: 125000, commissionAmount: 1250, metadata: { invoice: 'INV-1001' } };

const paymentEvent = (type: string, status: string, description: string) =>
  defineEvent({ type, category: 'PAYMENTS', description, subject: 'id', payload: fields(payment), example: { ...example, status } });

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
  payload: fields({ ...payment, newUrl: Type.String({ format: 'uri', description: 'The new hosted payment link.' }) }),
  example: { ...example, status: 'CREATED', newUrl: 'https://pvs.example/p/4b1d…' },
});
