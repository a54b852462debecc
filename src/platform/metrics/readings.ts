// What the database-reading gauges show, read in one go when Prometheus scrapes (metrics.ts caches it
// for a few seconds): jobs due by kind and the oldest one's wait, notifications pending, the screening
// list in force, whether the database answers, and the pool. Every known job kind is shown, 0 when none
// waits, so that an alert on a kind never sees its series vanish.
import type { Clock } from '../clock.ts';
import type { Database } from '../db/database.ts';
import { readyByKind } from '../jobs/jobs.repository.ts';
import type { Readings } from './metrics.ts';

export interface ReadingSources {
  db: Database;
  clock: Clock;
  jobKinds: readonly string[];
  pendingNotifications: () => Promise<number>;
  screeningListVersion: () => Promise<number | null>;
}

export function databaseReadings(sources: ReadingSources): () => Promise<Readings> {
  const { db, clock } = sources;
  // A reading that fails (the database unreachable) is no reading: metrics.ts then shows the database
  // down and leaves the other gauges empty rather than showing stale or zero figures.
  return async () => {
    const now = clock.now();
    const [ready, pending, version] = await Promise.all([readyByKind(db, now), sources.pendingNotifications(), sources.screeningListVersion()]);
    const byKind = new Map(ready.map((r) => [r.kind, r]));
    const jobs = [...new Set([...sources.jobKinds, ...byKind.keys()])].sort().map((kind) => {
      const r = byKind.get(kind);
      return { kind, ready: r?.ready ?? 0, oldestAgeSeconds: r ? Math.max(0, (now.getTime() - new Date(r.oldest).getTime()) / 1000) : 0 };
    });
    return { jobs, notificationsPending: pending, screeningListVersion: version ?? 0, pool: db.poolStats?.() ?? null };
  };
}
