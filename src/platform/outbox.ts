// The event outbox. A capability calls emit(tx, …) inside the transaction that changes its state, so
// an event exists exactly when the change committed. Consumers come in two kinds, both fed in that
// same transaction: listeners (fast, database-only work such as the webhook fan-out, which inserts
// one notification per subscribed destination) and job consumers (one durable job per event).
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import './schema-formats.ts';
import type { Clock } from './clock.ts';
import type { Executor, Tx } from './db/database.ts';
import { newId } from './ids.ts';
import { defineJob, type JobDefinition } from './jobs/job.ts';
import type { JobQueue } from './jobs/queue.ts';

export interface EventDefinition<S extends TSchema = TSchema> {
  type: string;
  category: string;
  /** When it is sent, in a sentence (for the generated reference). */
  description?: string;
  /** The event's own fields: the flat body minus `type`, `occurredAt` and `eventId`. */
  payload: S;
  /** The payload field naming the resource the event is about (a payment id, a lookup id …). */
  subject?: string;
  /** Held sealed (encrypted) and only until delivered: deed analysis results. */
  sealed?: boolean;
  /** A valid payload, for the reference and for test events. */
  example?: Static<S>;
}

export interface EmittedEvent {
  id: string;
  partnerId: string;
  type: string;
  category: string;
  subjectId: string | null;
  payload: Record<string, unknown>;
  occurredAt: Date;
  test: boolean;
}

export interface Outbox {
  emit<S extends TSchema>(
    tx: Tx,
    definition: EventDefinition<S>,
    event: { partnerId: string; payload: Static<S>; occurredAt?: Date; test?: boolean },
  ): Promise<EmittedEvent>;
}

/** Runs inside the emitting transaction: database work only, no network. */
export type EventListener = (tx: Tx, event: EmittedEvent) => Promise<void>;

/** Seals and opens the payloads of `sealed` definitions. */
export interface PayloadSealer {
  seal(plaintext: string): string;
  open(sealed: string): string;
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
  sealer: PayloadSealer;
  listeners?: readonly EventListener[];
  consumers?: readonly JobDefinition<typeof EventJobPayload>[];
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
      const payload = event.payload as Record<string, unknown>;
      const subject = definition.subject ? payload[definition.subject] : undefined;
      const emitted: EmittedEvent = {
        id: newId('event', now.getTime()),
        partnerId: event.partnerId,
        type: definition.type,
        category: definition.category,
        subjectId: typeof subject === 'string' ? subject : null,
        payload,
        occurredAt: event.occurredAt ?? now,
        test: event.test ?? false,
      };
      const json = JSON.stringify(payload);
      // A held write: a transaction that emits many events (a monitoring re-screen's batch) sends them
      // with its other held writes in one statement instead of one round trip each.
      await tx.write(
        `INSERT INTO events (id, partner_id, type, category, subject_id, payload, payload_sealed, test, occurred_at, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
        [
          emitted.id,
          emitted.partnerId,
          emitted.type,
          emitted.category,
          emitted.subjectId,
          definition.sealed ? null : json,
          definition.sealed ? deps.sealer.seal(json) : null,
          emitted.test,
          emitted.occurredAt,
          now,
        ],
      );
      for (const listener of deps.listeners ?? []) await listener(tx, emitted);
      for (const consumer of deps.consumers ?? []) {
        await deps.queue.enqueue(tx, consumer, { eventId: emitted.id }, { key: `${consumer.kind}:${emitted.id}` });
      }
      return emitted;
    },
  };
}

interface EventRow {
  id: string;
  partner_id: string;
  type: string;
  category: string;
  subject_id: string | null;
  payload: Record<string, unknown> | null;
  payload_sealed: string | null;
  test: boolean;
  occurred_at: Date;
}

/** The event with its payload (opened when sealed), or payload null once it was purged. */
export async function findEvent(db: Executor, id: string, sealer?: PayloadSealer): Promise<(Omit<EmittedEvent, 'payload'> & { payload: Record<string, unknown> | null }) | undefined> {
  const rows = await db.query<EventRow>(
    'SELECT id, partner_id, type, category, subject_id, payload, payload_sealed, test, occurred_at FROM events WHERE id = $1',
    [id],
  );
  const row = rows[0];
  if (!row) return undefined;
  const payload = row.payload ?? (row.payload_sealed && sealer ? (JSON.parse(sealer.open(row.payload_sealed)) as Record<string, unknown>) : null);
  return {
    id: row.id,
    partnerId: row.partner_id,
    type: row.type,
    category: row.category,
    subjectId: row.subject_id,
    payload,
    occurredAt: row.occurred_at,
    test: row.test,
  };
}
