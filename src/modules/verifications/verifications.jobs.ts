// The check job: one per submitted attempt. The session service enqueues it from here; the handler, which
// calls the check service, is bound in verifications.module.ts. And the hourly identity retention run.
import { Type } from '@sinclair/typebox';
import { defineJobSpec, SlotPayload } from '../../platform/jobs/job.ts';

/**
 * Checks that find the identity provider, the screening engine or the register down are tried again
 * after 30 s, 1, 2, 5, 10 and 30 minutes, then hourly: ten tries over about 3 h 48 min. The request's
 * issueList says so from the third; after the tenth the attempt is UNAVAILABLE and the person may submit
 * again.
 */
export const verificationCheckJob = defineJobSpec({
  kind: 'verifications.check',
  payload: Type.Object({ individualId: Type.String(), attempt: Type.Integer({ minimum: 1 }) }),
  retry: { maxAttempts: 10, backoffSeconds: [30, 60, 120, 300, 600, 1800, 3600] },
});

/** The one check job of an individual's attempt: enqueueing is idempotent, and a provider's notification wakes it. */
export const checkJobKey = (individualId: string, attempt: number): string => `verification-check:${individualId}:${attempt}`;

/** Forgets at the identity provider the people the retention rules say to (identity-retention.ts). */
export const identityRetentionJob = defineJobSpec({ kind: 'verifications.identity-retention', payload: SlotPayload, everySeconds: 3600 });

/** What the queue must know before the service that enqueues it exists. */
export const verificationJobSpecs = [verificationCheckJob, identityRetentionJob];
