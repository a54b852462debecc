// The fan-out costs an emitting transaction no round trip of its own: the query for the subscribed
// destinations goes with the transaction's held writes (the event's insert among them), and the
// notifications are held in turn, to go with the commit (src/modules/webhooks/fan-out.ts,
// QueryOptions.withHeldWrites).
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { paymentSucceeded } from '../../src/modules/webhooks/events/index.ts';
import { paymentPayload, webhookHarness } from '../fixtures/webhook-helpers.ts';
import { countStatements, describeCount } from '../helpers/statement-count.ts';

it('an event and its notifications are two statements of the emitting transaction, with the work it held before', async (t) => {
  const h = await webhookHarness(t);
  const partner = await h.ctx.f.partner();
  const db = h.ctx.services.db;
  const emit = (id: string) =>
    db.transaction(async (tx) => {
      // What the transaction changed, as a lookup's settlement or a payment's capture would.
      await tx.write('UPDATE partners SET name = name WHERE id = $1', [partner.partnerId]);
      await h.ctx.services.outbox.emit(tx, paymentSucceeded, { partnerId: partner.partnerId, payload: paymentPayload(id) });
    });

  const unsubscribed = await countStatements(db, () => emit('pay_fan_out_1'));
  assert.equal(unsubscribed.inTransactions, 1, `no destination: the held writes and the query, ${describeCount(unsubscribed)}`);

  const destinations = [await h.addDestination(partner, { url: 'https://example.com/a', categories: ['PAYMENTS'] }), await h.addDestination(partner, { url: 'https://example.com/b', categories: ['PAYMENTS'] })];
  const subscribed = await countStatements(db, () => emit('pay_fan_out_2'));
  assert.equal(subscribed.inTransactions, 2, `two destinations: then the notifications with the commit, ${describeCount(subscribed)}`);

  const notifications = await h.notifications(partner);
  assert.deepEqual(new Set(notifications.map((n) => n.destinationId)), new Set(destinations.map((d) => d.id)), 'one notification per destination');
});
