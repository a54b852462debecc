// The monitoring jobs: the first screening of one contact (when enabled, changed or renamed), and the
// re-screen of every monitored contact that each new list version asks for. The handlers, which call the
// re-screen service, are bound in monitoring.module.ts.
import { Type } from '@sinclair/typebox';
import { defineJobSpec } from '../../platform/jobs/job.ts';

export const screenContactJob = defineJobSpec({
  kind: 'monitoring.screen-contact',
  payload: Type.Object({ contactId: Type.String() }),
  retry: { maxAttempts: 8, backoffSeconds: [10, 60, 300, 1800, 3600] },
});

/**
 * Keyed by version: an import enqueues it once. A crash resumes from the last batch committed; a run
 * that keeps failing is retried for about a day, with the subscriptions in ERROR meanwhile.
 */
export const rescreenJob = defineJobSpec({
  kind: 'monitoring.rescreen',
  payload: Type.Object({ version: Type.Integer({ minimum: 1 }) }),
  retry: { maxAttempts: 10, backoffSeconds: [30, 120, 600, 1800, 3600, 7200] },
});

export const rescreenJobKey = (version: number) => `monitoring.rescreen:${version}`;

/** What the queue must know before the services that enqueue them exist. */
export const monitoringJobSpecs = [screenContactJob, rescreenJob];
