// The outbox listener that turns an event into one notification per subscribed destination, in the
// transaction that emitted the event: a committed event always has its notifications.
import type { Clock } from '../../platform/clock.ts';
import type { Tx } from '../../platform/db/database.ts';
import { newId } from '../../platform/ids.ts';
import { currentTraceparent } from '../../platform/tracing/spans.ts';
import type { EmittedEvent, EventListener } from '../../platform/outbox.ts';
import { subscribedDestinationIds } from './destinations.repository.ts';
import { insertNotifications } from './notifications.repository.ts';
import { maxAttempts } from './schedule.ts';

/** Creates notifications of an event for the given destinations (fan-out, manual retry). */
export async function createNotifications(
  tx: Tx,
  event: Pick<EmittedEvent, 'id' | 'partnerId' | 'type' | 'category'>,
  destinationIds: string[],
  at: Date,
  retryOf: string | null = null,
): Promise<string[]> {
  // Each delivery continues the trace the event was emitted in (a request's, or a job's).
  const traceParent = currentTraceparent();
  const rows = destinationIds.map((destinationId) => ({
    id: newId('notification', at.getTime()),
    partnerId: event.partnerId,
    eventId: event.id,
    destinationId,
    type: event.type,
    category: event.category,
    maxAttempts,
    retryOf,
    at,
    traceParent,
  }));
  await insertNotifications(tx, rows);
  return rows.map((r) => r.id);
}

export function webhookFanOut(deps: { clock: Clock; onCreated: () => void }): EventListener {
  // Destinations read once per transaction, partner and category: a transaction emitting many events
  // (a monitoring re-screen's batch) then holds all its writes instead of querying before each.
  const destinationsOf = new WeakMap<Tx, Map<string, Promise<string[]>>>();
  return async (tx, event) => {
    let known = destinationsOf.get(tx);
    if (!known) destinationsOf.set(tx, (known = new Map()));
    const key = `${event.partnerId}|${event.category}`;
    let found = known.get(key);
    if (!found) known.set(key, (found = subscribedDestinationIds(tx, event.partnerId, event.category)));
    const destinations = await found;
    if (destinations.length === 0) return;
    await createNotifications(tx, event, destinations, deps.clock.now());
    tx.afterCommit(deps.onCreated);
  };
}
