// The lookup job: reads the registers for one lookup and completes or fails it. The spec is apart from
// the handler so that the service that enqueues it can exist before the handler that calls it.
import { Type } from '@sinclair/typebox';
import { defineJob, defineJobSpec, type JobDefinition } from '../../platform/jobs/job.ts';
import type { LookupService } from './lookups.service.ts';

/**
 * A register that does not answer is tried again after 5 s, 20 s and 60 s; the fourth attempt that
 * finds it still down fails the lookup with REGISTER_UNAVAILABLE (about 90 s after it was created).
 * A partner retries later with a new lookup, which a failed one did not cost them.
 */
export const processLookupJob = defineJobSpec({
  kind: 'lookups.process',
  payload: Type.Object({ lookupId: Type.String() }),
  retry: { maxAttempts: 4, backoffSeconds: [5, 20, 60] },
});

export function lookupJobs(deps: { lookups: LookupService }): JobDefinition[] {
  return [defineJob({ ...processLookupJob, concurrency: 4, handler: (payload, ctx) => deps.lookups.process(payload.lookupId, ctx) })] as JobDefinition[];
}
