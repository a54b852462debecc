// The monitoring jobs: the first screening of one contact (when enabled, changed or renamed), and the
// re-screen of every monitored contact that each new list version asks for.
import { Type } from '@sinclair/typebox';
import { defineJob, defineJobSpec, type JobDefinition } from '../../platform/jobs/job.ts';
import type { RescreenService } from './rescreen.service.ts';

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

export function monitoringJobs(deps: { rescreens: RescreenService }): JobDefinition[] {
  return [
    defineJob({ ...screenContactJob, concurrency: 2, handler: (payload, ctx) => deps.rescreens.screenContact(payload.contactId, ctx) }),
    // One version at a time per process: a re-screen already keeps a core busy.
    defineJob({ ...rescreenJob, concurrency: 1, handler: (payload, ctx) => deps.rescreens.rescreen(payload.version, ctx) }),
  ] as JobDefinition[];
}
