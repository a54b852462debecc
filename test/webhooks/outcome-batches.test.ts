// A dispatcher records its deliveries' outcomes in batches, not a statement per delivery
// (src/modules/webhooks/dispatcher.ts): the statements are PostgreSQL's CPU, on the cores the deliveries
// need. Every outcome is still recorded, each with its attempt.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { paymentSucceeded } from '../../src/modules/webhooks/events/index.ts';
import { paymentPayload, webhookHarness } from '../fixtures/webhook-helpers.ts';

it('records 64 deliveries in a handful of statements, every one with its attempt', async (t) => {
  const h = await webhookHarness(t);
  const partner = await h.ctx.f.partner();
  const receiver = await h.receiver();
  const destination = await h.addDestination(partner, { url: receiver.url, categories: ['PAYMENTS'] });
  receiver.setSecret(destination.secret);
  for (let i = 0; i < 64; i++) await h.emit(paymentSucceeded, partner, paymentPayload(`pay_batch_${i}`));

  const db = h.ctx.services.db;
  const query = db.query;
  let records = 0;
  db.query = ((sql: string, params?: readonly unknown[]) => {
    if (sql.includes('INSERT INTO webhook_attempts')) records++;
    return query.call(db, sql, params);
  }) as typeof db.query;
  // A minute's window: the batches are then made by their size and by the dispatcher falling idle alone,
  // whatever the machine's speed (the 2 ms of production only adds batches cut short by time).
  const dispatcher = h.ctx.services.createDispatcher({ flushDelayMs: 60_000 });
  try {
    assert.equal(await dispatcher.drain(), 64);
  } finally {
    db.query = query;
  }

  assert.equal(receiver.received.length, 64);
  const notifications = await h.notifications(partner);
  assert.deepEqual(new Set(notifications.map((n) => `${n.status} ${n.webhookAttempts}`)), new Set(['DELIVERED 1']));
  // 64 outcomes at up to 32 in flight: batches of 16 (half of what can be in flight), and what is left
  // once nothing is in flight. One statement per delivery before (64).
  assert.ok(records >= 4 && records <= 6, `${records} statements recorded 64 outcomes`);
});
