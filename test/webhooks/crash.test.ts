// Crash safety of webhook delivery: a dispatcher process killed (SIGKILL) while its deliveries are in
// flight loses nothing. Once its leases run out a second dispatcher process delivers every
// notification; the receiver, verifying every signature, sees every event at least once.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, it } from 'node:test';
import type { ServerResponse } from 'node:http';
import { paymentCreated } from '../../src/modules/webhooks/events/index.ts';
import type { Database } from '../../src/platform/db/database.ts';
import { createTestContext, testSecretKey } from '../helpers/context.ts';
import { createSharedDatabase, spawnFixture, type SharedDatabase } from '../helpers/crash.ts';
import { startReceiver, type Receiver } from '../helpers/receiver.ts';
import { paymentPayload } from '../fixtures/webhook-helpers.ts';

const fixture = path.resolve(import.meta.dirname, '../fixtures/webhook-crash-dispatcher.ts');
const eventCount = 8;
let shared: SharedDatabase;
const receivers: Receiver[] = [];
const eventIds: string[] = [];
const notificationIds: string[] = [];
/** Answers the receivers hold back while the first dispatcher is alive. */
const held: ServerResponse[] = [];
let holding = true;

function runDispatcher(mode: 'hang' | 'finish') {
  return spawnFixture(fixture, { CRASH_DB: shared.target, CRASH_MODE: mode, CRASH_SECRET_KEY: testSecretKey });
}

const withDb = <T>(fn: (db: Database) => Promise<T>) => shared.withDb(fn);

const seen = () => receivers.reduce((n, r) => n + r.received.length, 0);

before(async () => {
  // The service sets up the partner, two destinations and the events, then lets go of the database.
  shared = await createSharedDatabase('webhook-crash');
  const ctx = await createTestContext({ database: shared.setup });
  try {
    const partner = await ctx.f.partner();
    for (let i = 0; i < 2; i++) {
      const receiver = await startReceiver();
      receiver.respond((delivery, res) => {
        if (!delivery.verified.ok) return void res.writeHead(delivery.verified.status).end();
        // While the first dispatcher lives, the receiver holds every answer: all deliveries in flight.
        if (holding) return void held.push(res);
        res.writeHead(200).end('ok');
      });
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/v1/webhook-destinations',
        headers: partner.headers,
        payload: { url: receiver.url, categories: ['PAYMENTS'] },
      });
      assert.equal(res.statusCode, 201, res.body);
      receiver.setSecret((res.json() as { secret: string }).secret);
      receivers.push(receiver);
    }
    for (let i = 0; i < eventCount; i++) {
      const event = await ctx.services.db.transaction((tx) =>
        ctx.services.outbox.emit(tx, paymentCreated, { partnerId: partner.partnerId, payload: paymentPayload(`pay_crash_${i}`, { status: 'CREATED' }) }),
      );
      eventIds.push(event.id);
    }
    const rows = await ctx.services.db.query<{ id: string }>('SELECT id FROM webhook_notifications ORDER BY id');
    notificationIds.push(...rows.map((r) => r.id));
    assert.equal(notificationIds.length, eventCount * 2);
  } finally {
    await ctx.close();
  }
});

after(async () => {
  for (const res of held) res.destroy();
  for (const r of receivers) await r.close();
  await shared.drop();
});

it('a dispatcher killed with deliveries in flight loses no notification; another delivers them all', async () => {
  const first = runDispatcher('hang');
  await first.waitFor(() => seen() >= notificationIds.length, 'every delivery reaching the receivers');
  first.child.kill('SIGKILL');
  assert.deepEqual(await first.exited, { code: null, signal: 'SIGKILL' });
  assert.ok(!first.output().includes('DRAINED'), 'killed while its deliveries were still in flight');
  const firstRound = receivers.flatMap((r) => r.received.map((d) => String(d.headers['x-notification-id'])));
  assert.deepEqual([...new Set(firstRound)].sort(), notificationIds, 'every notification was in flight when it died');

  // Nothing was recorded as delivered: the killed process never got an answer.
  await withDb(async (db) => {
    const rows = await db.query<{ status: string; attempts: number }>('SELECT status, attempts FROM webhook_notifications');
    assert.ok(rows.every((r) => r.status === 'PENDING' && r.attempts === 0), JSON.stringify(rows));
  });

  // The second process waits out the dead one's leases, claims everything again and delivers it.
  holding = false;
  const second = runDispatcher('finish');
  await second.waitFor(() => second.output().includes('DONE'), 'DONE', 1200);
  assert.equal((await second.exited).code, 0);

  await withDb(async (db) => {
    const rows = await db.query<{ id: string; event_id: string; status: string; attempts: number; lease_owner: string | null }>(
      'SELECT id, event_id, status, attempts, lease_owner FROM webhook_notifications ORDER BY id',
    );
    assert.deepEqual(
      rows.map((r) => r.id),
      notificationIds,
    );
    for (const row of rows) {
      assert.equal(row.status, 'DELIVERED', row.id);
      assert.equal(row.attempts, 1, `${row.id}: the killed attempt was never recorded`);
      assert.equal(row.lease_owner, null);
    }
    const attempts = await db.query<{ notification_id: string; attempt: number; error_class: string }>(
      'SELECT notification_id, attempt, error_class FROM webhook_attempts ORDER BY notification_id',
    );
    assert.deepEqual(
      attempts.map((a) => [a.notification_id, a.attempt, a.error_class]),
      notificationIds.map((id) => [id, 1, 'NONE']),
    );
  });

  // Every delivery verified; every event reached both receivers at least once with a 200.
  for (const receiver of receivers) {
    assert.ok(receiver.received.every((d) => d.verified.ok));
    const events = new Set(receiver.received.map((d) => String(d.body.eventId)));
    assert.deepEqual([...events].sort(), [...eventIds].sort());
  }
  const delivered = receivers.flatMap((r) => r.received.slice(eventCount).map((d) => String(d.headers['x-notification-id'])));
  assert.deepEqual([...new Set(delivered)].sort(), notificationIds, 'each notification was sent again after the crash');
});
