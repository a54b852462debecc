// Billing's jobs. The specs (name, payload, retry) are apart from the handlers so that the services
// that enqueue them can exist before the handlers that call those services.
import { Type } from '@sinclair/typebox';
import { defineJob, defineJobSpec, type JobDefinition } from '../../platform/jobs/job.ts';
import type { BillingRunService } from './billing-runs.service.ts';

// The gateway may be down for a while; these retry for about a day before giving up.
const gatewayRetry = { maxAttempts: 18, backoffSeconds: [30, 120, 600, 1800, 3600, 7200] };

/** Charges a due run (its first attempt, or a retry); a no-op when the run is not due. */
export const captureRunJob = defineJobSpec({
  kind: 'billing.capture-run',
  payload: Type.Object({ billingRunId: Type.String() }),
  retry: gatewayRetry,
});

/** Gives back a voided charge that the card had already paid. */
export const refundChargeJob = defineJobSpec({
  kind: 'billing.refund-charge',
  payload: Type.Object({ chargeId: Type.String() }),
  retry: gatewayRetry,
});

/** Tells the gateway to forget a card the contact removed or replaced. */
export const detachCardJob = defineJobSpec({
  kind: 'billing.detach-card',
  payload: Type.Object({ paymentMethodRef: Type.String() }),
  retry: gatewayRetry,
});

/** What the queue must know before the services that enqueue these exist. */
export const billingJobSpecs = [captureRunJob, refundChargeJob, detachCardJob];

export function billingJobs(deps: { runs: BillingRunService }): JobDefinition[] {
  return [
    defineJob({ ...captureRunJob, concurrency: 4, handler: (payload, ctx) => deps.runs.capture(payload.billingRunId, ctx) }),
    defineJob({ ...refundChargeJob, handler: (payload, ctx) => deps.runs.refund(payload.chargeId, ctx) }),
    defineJob({ ...detachCardJob, handler: (payload) => deps.runs.detach(payload.paymentMethodRef) }),
  ] as JobDefinition[];
}
