// Payments' job. The spec is apart from the handler so that the link service, which enqueues it, can
// exist before the handler that calls that service.
import { Type } from '@sinclair/typebox';
import { defineJob, defineJobSpec, type JobDefinition } from '../../platform/jobs/job.ts';
import type { PaymentLinkService } from './payment-links.service.ts';

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

export const paymentJobSpecs = [settleAttemptJob];

export function paymentJobs(deps: { links: PaymentLinkService }): JobDefinition[] {
  return [defineJob({ ...settleAttemptJob, concurrency: 4, handler: (payload, ctx) => deps.links.settle(payload.paymentId, payload.attempt, ctx) })] as JobDefinition[];
}
