import type { Clock } from '../../platform/clock.ts';
import type { Database } from '../../platform/db/database.ts';
import { defineJob, SlotPayload } from '../../platform/jobs/job.ts';
import { purgeExpiredPayloads } from './notifications.repository.ts';

/** Webhook payloads are held about 33 hours (SPEC), long enough for the 24-hour retry window. */
export const payloadRetentionHours = 33;

export function webhookJobs(deps: { db: Database; clock: Clock }) {
  return [
    defineJob({
      kind: 'webhooks.purge-payloads',
      payload: SlotPayload,
      everySeconds: 600,
      handler: async () => {
        const now = deps.clock.now();
        await purgeExpiredPayloads(deps.db, new Date(now.getTime() - payloadRetentionHours * 3600_000), now);
      },
    }),
  ];
}
