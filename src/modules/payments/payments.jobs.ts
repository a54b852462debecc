// Payments' job. The link service enqueues it from here; the handler, which calls that service, is bound
// in payments.module.ts.
import { Type } from '@sinclair/typebox';
import { defineJobSpec } from '../../platform/jobs/job.ts';

/**
 * Settles an attempt the hosted request could not (the gateway was down, or the process died after the
 * gateway charged): asks again under the attempt's key and records the first answer. Its retries stay
 * well inside the 24 hours a gateway such as Stripe keeps an idempotency key.
 */
export const settleAttemptJob = defineJobSpec({
  kind: 'payments.settle-attempt',
  payload: Type.Object({ paymentId: Type.String(), attempt: Type.Integer({ minimum: 1 }) }),
  retry: { maxAttempts: 14, backoffSeconds: [30, 60, 120, 300, 600, 1800, 3600] },
});

/** What the queue must know before the service that enqueues it exists. */
export const paymentJobSpecs = [settleAttemptJob];
