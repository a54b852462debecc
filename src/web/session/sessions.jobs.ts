// The web sessions' housekeeping, beside their table. Its kind keeps the `platform.` prefix it was scheduled
// under when it lived in platform/maintenance.jobs.ts: slots already in the jobs table name it.
import type { Clock } from '../../platform/clock.ts';
import type { Database } from '../../platform/db/database.ts';
import { defineJob, SlotPayload } from '../../platform/jobs/job.ts';
import { deleteEndedSessions } from './sessions.repository.ts';

const day = 24 * 3600_000;

export function webSessionJobs(deps: { db: Database; clock: Clock }) {
  return [
    defineJob({
      kind: 'platform.purge-web-sessions',
      payload: SlotPayload,
      everySeconds: 3600,
      // Portal and console sessions ended (expired, idle or signed out) more than a day ago.
      handler: async () => {
        await deleteEndedSessions(deps.db, new Date(deps.clock.now().getTime() - day));
      },
    }),
  ];
}
