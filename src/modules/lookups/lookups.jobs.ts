// The lookup job: reads the registers for one lookup and completes or fails it. The service enqueues it
// from here; the handler, which calls the service, is bound in lookups.module.ts.
import { Type } from '@sinclair/typebox';
import { defineJobSpec } from '../../platform/jobs/job.ts';

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

/** What the queue must know before the service that enqueues it exists. */
export const lookupJobSpecs = [processLookupJob];
