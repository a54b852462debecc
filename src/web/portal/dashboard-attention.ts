// What the portal's overview needs to know, gathered from the partner-facing services: webhook
// destinations that are failing, people waiting for manual review, contacts that cannot be billed, and
// how much the partner's systems did lately.
import type { Tenant } from '../../platform/tenancy.ts';
import type { PortalDeps } from './portal-deps.ts';

/** How far back the overview counts activity, and failed deliveries. */
export const activityDays = 30;
export const failedDeliveryDays = 7;
/** How many of each kind of item the overview lists (the counts say how many there are in all). */
const shown = 5;
/** Notifications looked at to tell each destination's latest outcome: the newest of them. */
const recentNotifications = 100;

export interface FailingDestination {
  id: string;
  url: string;
  status: 'PENDING' | 'FAILED';
  lastAttemptAt: string | null;
  lastResponseStatus: number | null;
  nextAttemptAt: string | null;
}

/**
 * A destination is failing when its latest attempted delivery (among the newest notifications) did not
 * succeed: it failed for good, or it waits for a retry after a failed attempt. A destination that has
 * delivered since is healthy again, whatever failed before.
 */
function failingDestinations(
  destinations: Array<{ id: string; url: string; enabled: boolean }>,
  notifications: Array<{ destinationId: string; status: 'PENDING' | 'DELIVERED' | 'FAILED'; lastAttemptAt: string | null; lastResponseStatus: number | null; nextAttemptAt: string | null }>,
): FailingDestination[] {
  return destinations.flatMap((destination) => {
    if (!destination.enabled) return [];
    const latest = notifications.find((n) => n.destinationId === destination.id && n.lastAttemptAt !== null);
    if (!latest || latest.status === 'DELIVERED') return [];
    return [{ id: destination.id, url: destination.url, status: latest.status, lastAttemptAt: latest.lastAttemptAt, lastResponseStatus: latest.lastResponseStatus, nextAttemptAt: latest.nextAttemptAt }];
  });
}

const total = (counts: Partial<Record<string, number>>) => Object.values(counts).reduce<number>((sum, n) => sum + (n ?? 0), 0);

export async function gatherOverview(deps: PortalDeps, tenant: Tenant) {
  const now = deps.clock.now();
  const activitySince = new Date(now.getTime() - activityDays * 86_400_000);
  const failedSince = now.getTime() - failedDeliveryDays * 86_400_000;
  const [destinations, recent, failed, review, blocked, lookups, verifications, deeds] = await Promise.all([
    deps.destinations.list(tenant, { limit: 100, from: 0 }),
    deps.notifications.list(tenant, { limit: recentNotifications, from: 0 }),
    deps.notifications.list(tenant, { status: 'FAILED', limit: 100, from: 0 }),
    deps.verifications.individualsInStatus(tenant, 'MANUAL_REVIEW', shown),
    deps.contacts.listBlocked(tenant, shown),
    deps.lookups.countSince(tenant, activitySince),
    deps.verifications.countSince(tenant, activitySince),
    deps.deeds.countSince(tenant, activitySince),
  ]);
  const failedRecently = failed.data.filter((n) => Date.parse(n.createdAt) >= failedSince);
  return {
    destinationCount: destinations.data.length,
    failingDestinations: failingDestinations(destinations.data, recent.data),
    failedDeliveries: { count: failedRecently.length, more: failedRecently.length === failed.data.length && failed.nextFrom !== null },
    manualReview: review,
    blockedContacts: blocked,
    activity: {
      lookups: { total: total(lookups), pending: lookups.PENDING ?? 0, failed: lookups.FAILED ?? 0 },
      verifications: { total: total(verifications), completed: verifications.COMPLETED ?? 0, sent: verifications.VERIFICATIONS_SENT ?? 0 },
      deeds: { total: total(deeds), ready: deeds.REVIEW_READY ?? 0, failed: deeds.FAILED ?? 0 },
    },
  };
}

export type Overview = Awaited<ReturnType<typeof gatherOverview>>;
