// The deed jobs: the analysis of one started deed, and a sweep every minute that expires uploads never
// started, fails analyses whose job died past the deadline, and deletes documents an end left behind.
// The service enqueues them from here; the handlers, which call the processing service, are bound in
// deeds.module.ts.
import { Type } from '@sinclair/typebox';
import { defineJobSpec, SlotPayload } from '../../platform/jobs/job.ts';

/**
 * A crash or a lost lease runs the analysis again from the stored document. A configured remote
 * extractor that does not answer is tried three times (the third failure is ANALYSIS_UNAVAILABLE).
 */
export const analyseDeedJob = defineJobSpec({
  kind: 'deeds.analyse',
  payload: Type.Object({ deedAnalysisId: Type.String() }),
  retry: { maxAttempts: 3, backoffSeconds: [30, 120] },
});

export const sweepDeedsJob = defineJobSpec({ kind: 'deeds.sweep', payload: SlotPayload, everySeconds: 60 });

/** What the queue must know before the services that enqueue them exist. */
export const deedJobSpecs = [analyseDeedJob, sweepDeedsJob];
