// The event outbox. A capability calls emit(tx, …) inside the transaction that changes its state, so
// an event exists exactly when the change committed. Each consumer (webhook fan-out, later others)
// is a job kind: emit enqueues one job per consumer in the same transaction.
import { Value } from '@sinclair/typebox/value';
import type { Static, TSchema } from '@sinclair/typebox';
import { Type } from '@sinclair/typebox';
import type { Clock } from './clock.ts';
import type { Executor, Tx } from './db/database.ts';
import { newId } from './ids.ts';
import { defineJob, type JobDefinition } from './jobs/job.ts';
import type { JobQueue } from './jobs/queue.ts';

export interface EventDefinition<S extends TSchema = TSchema> {
  type: string;
  category: string;
  /** The event's own fields: the flat body minus `type`, `occurredAt` and `eventId`. */
  payload: S;
}

export interface EmittedEvent {
  id: string;
  partnerId: string;
  type: string;
  category: string;
  payload: Record<string, unknown>;
  occurredAt: Date;
}

export interface Outbox {
  emit<S extends TSchema>(tx: Tx, definition: EventDefinition<S>, event: { partnerId: string; payload: Static<S>; occurredAt?: Date }): Promise<EmittedEvent>;
}

/** The payload of a consumer job: which event to handle. */
export const EventJobPayload = Type.Object({ eventId: Type.String() });

/** Declares a job that handles every emitted event (the consumer's handler loads it by id). */
export function defineEventConsumer(kind: string, handler: JobDefinition<typeof EventJobPayload>['handler'], options: Partial<JobDefinition> = {}) {
  return defineJob({ ...options, kind, payload: EventJobPayload, handler });
}

export function createOutbox(deps: {
  clock: Clock;
  queue: JobQueue;
  catalogue: readonly EventDefinition[];
  consumers: readonly JobDefinition<typeof EventJobPayload>[];
}): Outbox {
  const known = new Set(deps.catalogue);
  return {
    async emit(tx, definition, event) {
      if (!known.has(definition)) throw new Error(`Event type ${definition.type} is not in the catalogue`);
      // A payload that does not match its schema is a bug in the emitting capability; refusing it here
      // keeps fields SPEC forbids (names in verification events, say) from ever leaving the service.
      if (!Value.Check(definition.payload, event.payload)) {
        const first = Value.Errors(definition.payload, event.payload).First();
        throw new Error(`Event ${definition.type}: payload does not match its schema at ${first?.path}: ${first?.message}`);
      }
      const now = deps.clock.now();
      const emitted: EmittedEvent = {
        id: newId('event', now.getTime()),
        partnerId: event.partnerId,
        type: definition.type,
        category: definition.category,
        payload: event.payload as Record<string, unknown>,
        occurredAt: event.occurredAt ?? now,
      };
      await tx.query(
        `INSERT INTO events (id, partner_id, type, category, payload, occurred_at, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7)`,
        [emitted.id, emitted.partnerId, emitted.type, emitted.category, JSON.stringify(emitted.payload), emitted.occurredAt, now],
      );
      for (const consumer of deps.consumers) {
        await deps.queue.enqueue(tx, consumer, { eventId: emitted.id }, { key: `${consumer.kind}:${emitted.id}` });
      }
      return emitted;
    },
  };
}

export async function findEvent(db: Executor, id: string): Promise<EmittedEvent | undefined> {
  const rows = await db.query<{ id: string; partner_id: string; type: string; category: string; payload: Record<string, unknown>; occurred_at: Date }>(
    'SELECT id, partner_id, type, category, payload, occurred_at FROM events WHERE id = $1',
    [id],
  );
  const row = rows[0];
  return row && { id: row.id, partnerId: row.partner_id, type: row.type, category: row.category, payload: row.payload, occurredAt: row.occurred_at };
}
