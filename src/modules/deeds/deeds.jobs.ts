// The deed jobs: the analysis of one started deed, and a sweep every minute that expires uploads never
// started, fails analyses whose job died past the deadline, and deletes documents an end left behind.
import { Type } from '@sinclair/typebox';
import { defineJob, defineJobSpec, SlotPayload, type JobDefinition } from '../../platform/jobs/job.ts';
import type { DeedProcessingService } from './deed-processing.service.ts';

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

export function deedJobs(deps: { processing: DeedProcessingService }): JobDefinition[] {
  return [
    // One at a time per process: an analysis already uses every core for OCR.
    defineJob({ ...analyseDeedJob, concurrency: 1, handler: (payload, ctx) => deps.processing.analyse(payload.deedAnalysisId, ctx) }),
    defineJob({ ...sweepDeedsJob, handler: () => deps.processing.sweep() }),
  ] as JobDefinition[];
}
