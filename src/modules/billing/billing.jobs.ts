// Billing's jobs. The specs (name, payload, retry) are apart from the handlers so that the services
// that enqueue them can exist before the handlers that call those services.
import { Type } from '@sinclair/typebox';
import { defineJob, defineJobSpec, SlotPayload, type JobDefinition } from '../../platform/jobs/job.ts';
import type { BillingRunService } from './billing-runs.service.ts';

// The gateway may be down for a while; these retry for about a day before giving up: the waits
// between 18 attempts add up to 25 h 42 min (30 s, 2, 10, 30, 60 min, then 2 h twelve times).
export const gatewayRetry = { maxAttempts: 18, backoffSeconds: [30, 120, 600, 1800, 3600, 7200] };

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

/**
 * Settles runs left CAPTURING longer than BILLING_SWEEP_AFTER_HOURS (their capture job gave up) from
 * the gateway's record of the charge. Hourly: such a run has waited a day already.
 */
export const sweepStuckRunsJob = defineJobSpec({
  kind: 'billing.sweep-stuck-runs',
  payload: SlotPayload,
  everySeconds: 3600,
});

/** What the queue must know before the services that enqueue these exist. */
export const billingJobSpecs = [captureRunJob, refundChargeJob, detachCardJob, sweepStuckRunsJob];

export function billingJobs(deps: { runs: BillingRunService }): JobDefinition[] {
  return [
    defineJob({ ...captureRunJob, concurrency: 4, handler: (payload, ctx) => deps.runs.capture(payload.billingRunId, ctx) }),
    defineJob({ ...refundChargeJob, handler: (payload, ctx) => deps.runs.refund(payload.chargeId, ctx) }),
    defineJob({ ...detachCardJob, handler: (payload) => deps.runs.detach(payload.paymentMethodRef) }),
    // One sweep at a time: two slots due together (a worker back after a pause) would look up the same runs twice.
    defineJob({ ...sweepStuckRunsJob, concurrency: 1, handler: () => deps.runs.sweep() }),
  ] as JobDefinition[];
}
