// Billing's jobs: their names, payloads, retries and schedules. The services enqueue them from here; the
// handlers, which call those services, are bound in billing.module.ts.
import { Type } from '@sinclair/typebox';
import { defineJobSpec, SlotPayload } from '../../platform/jobs/job.ts';

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
