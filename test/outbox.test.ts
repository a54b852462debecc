// The event outbox: an event and its consumer jobs exist exactly when the emitting transaction
// committed, and only payloads that match the catalogue's schema are ever stored.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Type } from '@sinclair/typebox';
import { createManualClock } from '../src/platform/clock.ts';
import { createSealer, deriveKey } from '../src/platform/crypto.ts';
import type { Database, Tx } from '../src/platform/db/database.ts';
import { isId, newId } from '../src/platform/ids.ts';
import type { JobRow } from '../src/platform/jobs/jobs.repository.ts';
import { createJobQueue } from '../src/platform/jobs/queue.ts';
import { createWorker } from '../src/platform/jobs/worker.ts';
import { createLogger } from '../src/platform/logger.ts';
import { createOutbox, defineEventConsumer, findEvent, type EventDefinition } from '../src/platform/outbox.ts';
import { createTestDatabase, type TestDatabase } from './helpers/database.ts';

const thingHappened = {
  type: 'test.thing.happened',
  category: 'TESTS',
  payload: Type.Object({ thingId: Type.String() }, { additionalProperties: false }),
} satisfies EventDefinition;

const sealedThing = {
  type: 'test.secret.happened',
  category: 'TESTS',
  subject: 'thingId',
  sealed: true,
  payload: Type.Object({ thingId: Type.String(), detail: Type.String() }, { additionalProperties: false }),
} satisfies EventDefinition;

const sealer = createSealer(deriveKey('outbox-test-secret-key-0123456789abcdef', 'test'));
const clock = createManualClock(new Date('2026-02-01T09:30:00.000Z'));
const consumed: Array<{ eventId: string; event: Awaited<ReturnType<typeof findEvent>> }> = [];
let t: TestDatabase;
let db: Database;
let partnerId: string;

const consumer = defineEventConsumer('test.events.record', async ({ eventId }) => {
  consumed.push({ eventId, event: await findEvent(db, eventId) });
});
const heard: string[] = [];
const queue = createJobQueue({ clock, definitions: [consumer] });
const outbox = createOutbox({ clock, queue, catalogue: [thingHappened, sealedThing], consumers: [consumer], sealer, listeners: [async (tx, event) => void heard.push(event.id)] });

before(async () => {
  t = await createTestDatabase();
  db = t.db;
  partnerId = newId('partner', clock.now().getTime());
  await db.query(`INSERT INTO partners (id, name, environment, created_at) VALUES ($1, 'Outbox Partner', 'sandbox', $2)`, [partnerId, clock.now()]);
});
after(() => t.drop());

async function eventRows(): Promise<Array<Record<string, unknown>>> {
  return db.query('SELECT * FROM events ORDER BY id');
}

async function consumerJobs(): Promise<JobRow[]> {
  return db.query<JobRow>('SELECT * FROM jobs WHERE kind = $1 ORDER BY id', [consumer.kind]);
}

/** Runs fn in a transaction that is then rolled back, returning what fn returned. */
async function inRolledBackTransaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
  let result: T | undefined;
  await assert.rejects(
    db.transaction(async (tx) => {
      result = await fn(tx);
      throw new Error('roll back');
    }),
    /roll back/,
  );
  return result as T;
}

describe('emit', () => {
  it('stores the event and one job per consumer when the transaction commits', async () => {
    const before = await eventRows();
    const emitted = await db.transaction((tx) => outbox.emit(tx, thingHappened, { partnerId, payload: { thingId: 'thing-1' } }));

    assert.ok(isId('event', emitted.id), emitted.id);
    assert.match(emitted.id, /^evt_/);
    assert.deepEqual(emitted, {
      id: emitted.id,
      partnerId,
      type: 'test.thing.happened',
      category: 'TESTS',
      subjectId: null,
      payload: { thingId: 'thing-1' },
      occurredAt: clock.now(),
      test: false,
    });

    const rows = await db.query<{ id: string; partner_id: string; type: string; category: string; payload: unknown; occurred_at: Date; created_at: Date }>(
      'SELECT * FROM events WHERE id = $1',
      [emitted.id],
    );
    assert.equal(rows.length, 1);
    const row = rows[0]!;
    assert.equal(row.partner_id, partnerId);
    assert.equal(row.type, 'test.thing.happened');
    assert.equal(row.category, 'TESTS');
    assert.deepEqual(row.payload, { thingId: 'thing-1' });
    assert.equal(row.occurred_at.getTime(), clock.now().getTime());
    assert.equal(row.created_at.getTime(), clock.now().getTime());
    assert.equal((await eventRows()).length, before.length + 1);

    const jobs = (await consumerJobs()).filter((j) => (j.payload as { eventId: string }).eventId === emitted.id);
    assert.equal(jobs.length, 1);
    assert.equal(jobs[0]!.key, `test.events.record:${emitted.id}`);
    assert.deepEqual(jobs[0]!.payload, { eventId: emitted.id });
    assert.equal(jobs[0]!.status, 'QUEUED');
    assert.equal(jobs[0]!.run_at.getTime(), clock.now().getTime());
  });

  it('keeps a given occurredAt', async () => {
    const occurredAt = new Date('2026-01-31T23:59:59.123Z');
    const emitted = await db.transaction((tx) => outbox.emit(tx, thingHappened, { partnerId, payload: { thingId: 'thing-2' }, occurredAt }));
    assert.equal(emitted.occurredAt.getTime(), occurredAt.getTime());
    assert.equal((await findEvent(db, emitted.id))?.occurredAt.getTime(), occurredAt.getTime());
  });

  it('leaves neither event nor job when the transaction rolls back', async () => {
    const eventsBefore = await eventRows();
    const jobsBefore = await consumerJobs();
    const emitted = await inRolledBackTransaction((tx) => outbox.emit(tx, thingHappened, { partnerId, payload: { thingId: 'thing-rolled-back' } }));
    assert.match(emitted.id, /^evt_/);
    assert.equal(await findEvent(db, emitted.id), undefined);
    assert.deepEqual(await eventRows(), eventsBefore);
    assert.deepEqual(await consumerJobs(), jobsBefore);
    assert.deepEqual(await db.query('SELECT id FROM jobs WHERE key = $1', [`${consumer.kind}:${emitted.id}`]), []);
  });

  it('refuses a payload with an extra or a missing field, and writes nothing', async () => {
    const eventsBefore = await eventRows();
    const jobsBefore = await consumerJobs();
    await db.transaction(async (tx) => {
      await assert.rejects(
        outbox.emit(tx, thingHappened, { partnerId, payload: { thingId: 'thing-3', firstName: 'Ada' } as never }),
        /Event test\.thing\.happened: payload does not match its schema/,
      );
      await assert.rejects(outbox.emit(tx, thingHappened, { partnerId, payload: {} as never }), /payload does not match its schema at \/thingId/);
      await assert.rejects(outbox.emit(tx, thingHappened, { partnerId, payload: { thingId: 42 } as never }), /payload does not match its schema at \/thingId/);
    });
    assert.deepEqual(await eventRows(), eventsBefore);
    assert.deepEqual(await consumerJobs(), jobsBefore);
  });

  it('refuses an event type that is not in the catalogue, and writes nothing', async () => {
    const eventsBefore = await eventRows();
    const jobsBefore = await consumerJobs();
    const unknown: EventDefinition = { type: 'test.thing.unknown', category: 'TESTS', payload: Type.Object({ thingId: Type.String() }) };
    // A copy of a catalogued definition is not the catalogued definition either.
    const copy: EventDefinition = { ...thingHappened };
    await db.transaction(async (tx) => {
      await assert.rejects(outbox.emit(tx, unknown, { partnerId, payload: { thingId: 'x' } }), /Event type test\.thing\.unknown is not in the catalogue/);
      await assert.rejects(outbox.emit(tx, copy, { partnerId, payload: { thingId: 'x' } }), /is not in the catalogue/);
    });
    assert.deepEqual(await eventRows(), eventsBefore);
    assert.deepEqual(await consumerJobs(), jobsBefore);
  });

  it('enqueues one job for each consumer', async () => {
    const second = defineEventConsumer('test.events.second', async () => {});
    const twoQueue = createJobQueue({ clock, definitions: [consumer, second] });
    const twoOutbox = createOutbox({ clock, queue: twoQueue, catalogue: [thingHappened], consumers: [consumer, second], sealer });
    const emitted = await db.transaction((tx) => twoOutbox.emit(tx, thingHappened, { partnerId, payload: { thingId: 'thing-4' } }));
    const jobs = await db.query<{ kind: string; key: string }>("SELECT kind, key FROM jobs WHERE payload->>'eventId' = $1 ORDER BY kind", [emitted.id]);
    assert.deepEqual(jobs, [
      { kind: 'test.events.record', key: `test.events.record:${emitted.id}` },
      { kind: 'test.events.second', key: `test.events.second:${emitted.id}` },
    ]);
  });
});

describe('findEvent', () => {
  it('returns the stored event, and undefined for an unknown id', async () => {
    const emitted = await db.transaction((tx) => outbox.emit(tx, thingHappened, { partnerId, payload: { thingId: 'thing-5' } }));
    assert.deepEqual(await findEvent(db, emitted.id), emitted);
    assert.equal(await findEvent(db, newId('event')), undefined);
  });
});

describe('consumers', () => {
  it('run as jobs that receive the event id and can load the event', async () => {
    const emitted = await db.transaction((tx) => outbox.emit(tx, thingHappened, { partnerId, payload: { thingId: 'thing-6' } }));
    const worker = createWorker({
      db,
      clock,
      queue,
      definitions: [consumer],
      logger: createLogger({ level: 'silent' }),
      leaseSeconds: 30,
      pollMilliseconds: 10,
    });
    consumed.length = 0;
    while ((await worker.drain()) > 0);
    const mine = consumed.filter((c) => c.eventId === emitted.id);
    assert.deepEqual(mine, [{ eventId: emitted.id, event: emitted }]);
    const [job] = await db.query<JobRow>('SELECT * FROM jobs WHERE key = $1', [`${consumer.kind}:${emitted.id}`]);
    assert.equal(job?.status, 'SUCCEEDED');
  });
});
