// Recurring housekeeping of the platform's own tables. (The web sessions' purge is web/session/sessions.jobs.ts.)
import type { Clock } from './clock.ts';
import type { Database } from './db/database.ts';
import { purgeIdempotencyKeys } from './http/idempotency.ts';
import { defineJob, SlotPayload } from './jobs/job.ts';
import { deleteFinishedBefore } from './jobs/jobs.repository.ts';
import { purgeRateLimitCounters } from './rate-limit.ts';

const day = 24 * 3600_000;

export function maintenanceJobs(deps: { db: Database; clock: Clock }) {
  return [
    defineJob({
      kind: 'platform.purge-idempotency-keys',
      payload: SlotPayload,
      everySeconds: 3600,
      handler: async () => {
        await purgeIdempotencyKeys(deps.db, deps.clock.now());
      },
    }),
    defineJob({
      kind: 'platform.purge-rate-limit-counters',
      payload: SlotPayload,
      everySeconds: 3600,
      handler: async () => {
        await purgeRateLimitCounters(deps.db, new Date(deps.clock.now().getTime() - 3600_000));
      },
    }),
    defineJob({
      kind: 'platform.purge-finished-jobs',
      payload: SlotPayload,
      everySeconds: 24 * 3600,
      // Finished jobs stay two weeks for diagnosis; their payloads hold ids, never personal data.
      handler: async () => {
        await deleteFinishedBefore(deps.db, new Date(deps.clock.now().getTime() - 14 * day));
      },
    }),
  ];
}
