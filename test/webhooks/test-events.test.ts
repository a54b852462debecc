// POST /v1/webhook-notifications/test (CONTRACT 10): a signed sample of every event type, marked
// "test": true, delivered to the destinations subscribed to its category and checked by a receiver
// that verifies signatures as a partner would; and the refusals (unknown variant, monitoring for a
// partner not eligible, no subscribed destination).
import '../../src/platform/schema-formats.ts';
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Value } from '@sinclair/typebox/value';
import { eventCatalogue, findEventDefinition } from '../../src/modules/webhooks/events/index.ts';
import { findTestDefinition, testVariants } from '../../src/modules/webhooks/notifications.service.ts';
import { createTestContext, type TestContext, type TestPartner } from '../helpers/context.ts';
import { startReceiver, type Received, type Receiver } from '../helpers/receiver.ts';

const prefixes = ['payment', 'verification', 'business-lookup', 'contact', 'deed-analysis', 'monitoring'] as const;
const envelope = ['type', 'eventId', 'occurredAt', 'test'];

interface Notification {
  id: string;
  eventId: string;
  type: string;
  category: string;
  destinationId: string;
  status: string;
  payload: Record<string, unknown> | null;
}

let ctx: TestContext;
const receivers: Receiver[] = [];

before(async () => {
  ctx = await createTestContext();
});
after(async () => {
  for (const r of receivers) await r.close();
  await ctx.close();
});

async function receiver(): Promise<Receiver> {
  const r = await startReceiver();
  receivers.push(r);
  return r;
}

async function addDestination(partner: TestPartner, url: string, categories?: string[]): Promise<{ id: string; secret: string }> {
  const response = await ctx.app.inject({
    method: 'POST',
    url: '/v1/webhook-destinations',
    headers: partner.headers,
    payload: { url, ...(categories ? { categories } : {}) },
  });
  assert.equal(response.statusCode, 201, response.body);
  return response.json<{ id: string; secret: string }>();
}

async function sendTest(partner: TestPartner, body: Record<string, string>) {
  return ctx.app.inject({ method: 'POST', url: '/v1/webhook-notifications/test', headers: partner.headers, payload: body });
}

async function sendTestOk(partner: TestPartner, body: Record<string, string>): Promise<Notification[]> {
  const response = await sendTest(partner, body);
  assert.equal(response.statusCode, 202, `${JSON.stringify(body)}: ${response.body}`);
  return response.json<{ data: Notification[] }>().data;
}

/** Delivers everything due, as a worker would. */
async function drain(): Promise<number> {
  return ctx.services.createDispatcher().drain();
}

function deliveryOf(r: Receiver, notification: Notification): Received {
  const found = r.received.filter((d) => d.headers['x-notification-id'] === notification.id);
  assert.equal(found.length, 1, `one delivery of ${notification.id} (${notification.type})`);
  return found[0]!;
}

/** The delivery is signed, is SPEC's flat body marked as a test, and its own fields match the schema. */
function assertSample(delivery: Received, notification: Notification, type: string): void {
  const definition = findEventDefinition(type);
  assert.ok(definition, type);
  assert.deepEqual(delivery.verified, { ok: true, timestamp: Number(delivery.headers['x-timestamp']) }, `${type} verifies`);
  assert.equal(delivery.headers['x-event-id'], notification.eventId);
  assert.equal(delivery.headers['content-type'], 'application/json');
  const { body } = delivery;
  assert.equal(body.type, type);
  assert.equal(body.test, true, `${type} carries "test": true`);
  assert.equal(body.eventId, notification.eventId);
  assert.equal(typeof body.occurredAt, 'string');
  assert.ok(!Number.isNaN(Date.parse(body.occurredAt as string)), `${type} occurredAt`);
  const own = Object.fromEntries(Object.entries(body).filter(([k]) => !envelope.includes(k)));
  const errors = [...Value.Errors(definition.payload, own)].map((e) => `${e.path}: ${e.message}`);
  assert.deepEqual(errors, [], `${type} validates against its schema`);
  assert.deepEqual(own, definition.example, `${type} is the catalogue's sample`);
}

describe('every variant of every type, to a monitoring-eligible partner', () => {
  let partner: TestPartner;
  let everything: Receiver;
  let paymentsOnly: Receiver;
  let paymentsOnlyId: string;
  let everythingId: string;

  before(async () => {
    partner = await ctx.f.partner({ monitoring: true });
    everything = await receiver();
    paymentsOnly = await receiver();
    const all = await addDestination(partner, everything.url);
    const payments = await addDestination(partner, paymentsOnly.url, ['PAYMENTS']);
    everything.setSecret(all.secret);
    paymentsOnly.setSecret(payments.secret);
    everythingId = all.id;
    paymentsOnlyId = payments.id;
  });

  it('has samples for all six prefixes, with the six monitoring variants', () => {
    for (const prefix of prefixes) assert.ok(testVariants(prefix).length > 0, prefix);
    assert.deepEqual(testVariants('monitoring').sort(), [
      'alert_created',
      'alert_updated',
      'subscription_coverage_mismatch',
      'subscription_disabled',
      'subscription_enabled',
      'subscription_error',
    ]);
    // Together the prefixes reach every type in the catalogue.
    assert.equal(prefixes.reduce((n, p) => n + testVariants(p).length, 0), eventCatalogue.length);
  });

  for (const prefix of prefixes) {
    it(`${prefix}: each variant is delivered, signed, with "test": true and a body that matches its schema`, async () => {
      const variants = testVariants(prefix);
      const sent: Array<{ type: string; notifications: Notification[] }> = [];
      for (const variant of variants) {
        const notifications = await sendTestOk(partner, { type: prefix, variant });
        assert.ok(notifications.length > 0, `${prefix} ${variant}`);
        const definition = findTestDefinition(prefix, variant)!;
        for (const n of notifications) {
          assert.equal(n.type, definition.type);
          assert.equal(n.category, definition.category);
          assert.equal(n.status, 'PENDING');
          // Deed analysis results are never shown, samples included.
          if (definition.sealed) assert.equal(n.payload, null, `${definition.type} payload is not shown`);
          else assert.equal(n.payload?.test, true);
        }
        // Only the destinations subscribed to the category: PAYMENTS reaches both, the rest one.
        const expected = definition.category === 'PAYMENTS' ? [everythingId, paymentsOnlyId].sort() : [everythingId];
        assert.deepEqual(notifications.map((n) => n.destinationId).sort(), expected, definition.type);
        sent.push({ type: definition.type, notifications });
      }

      const total = sent.reduce((n, s) => n + s.notifications.length, 0);
      assert.equal(await drain(), total);
      for (const { type, notifications } of sent) {
        for (const n of notifications) {
          const r = n.destinationId === everythingId ? everything : paymentsOnly;
          assertSample(deliveryOf(r, n), n, type);
        }
      }
      const eventIds = new Set(sent.flatMap((s) => s.notifications.map((n) => n.eventId)));
      assert.equal(eventIds.size, variants.length, 'each sample is an event of its own');
    });
  }

  it('accepts the parameters in the query, with no body at all', async () => {
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/v1/webhook-notifications/test?type=monitoring&variant=alert_created',
      headers: partner.headers,
    });
    assert.equal(response.statusCode, 202, response.body);
    const [notification, ...others] = response.json<{ data: Notification[] }>().data;
    assert.ok(notification);
    assert.equal(others.length, 0);
    assert.equal(notification.type, 'monitoring.alert.created');
    assert.equal(await drain(), 1);
    assertSample(deliveryOf(everything, notification), notification, 'monitoring.alert.created');
  });

  it('accepts the query together with an empty JSON body', async () => {
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/v1/webhook-notifications/test?type=verification&variant=individual_passed',
      headers: partner.headers,
      payload: {},
    });
    assert.equal(response.statusCode, 202, response.body);
    const [notification] = response.json<{ data: Notification[] }>().data;
    assert.equal(notification?.type, 'verification.individual.passed');
    assert.equal(await drain(), 1);
    assertSample(deliveryOf(everything, notification!), notification!, 'verification.individual.passed');
  });

  it('an unknown variant is 400 pointing at /variant and naming the valid ones; nothing is sent', async () => {
    const before = everything.received.length;
    for (const prefix of prefixes) {
      const response = await sendTest(partner, { type: prefix, variant: 'no_such_thing' });
      assert.equal(response.statusCode, 400, response.body);
      assert.match(String(response.headers['content-type']), /^application\/problem\+json/);
      const problem = response.json<{ code: string; detail: string; errors: Array<{ pointer: string; message: string }> }>();
      assert.equal(problem.code, 'VALIDATION_ERROR');
      assert.deepEqual(
        problem.errors.map((e) => e.pointer),
        ['/variant'],
      );
      for (const variant of testVariants(prefix)) assert.ok(problem.detail.includes(variant), `${prefix}: ${problem.detail} names ${variant}`);
    }
    // A variant of another prefix is unknown too.
    const crossed = await sendTest(partner, { type: 'payment', variant: 'alert_created' });
    assert.equal(crossed.statusCode, 400, crossed.body);
    assert.equal(crossed.json<{ errors: Array<{ pointer: string }> }>().errors[0]?.pointer, '/variant');
    // In the query as in the body.
    const inQuery = await ctx.app.inject({ method: 'POST', url: '/v1/webhook-notifications/test?type=contact&variant=card_lost', headers: partner.headers });
    assert.equal(inQuery.statusCode, 400, inQuery.body);
    assert.equal(inQuery.json<{ errors: Array<{ pointer: string }> }>().errors[0]?.pointer, '/variant');
    assert.equal(await drain(), 0);
    assert.equal(everything.received.length, before);
  });

  it('refuses an unknown query parameter at query:<name>, as every route does; nothing is sent', async () => {
    const response = await ctx.app.inject({ method: 'POST', url: '/v1/webhook-notifications/test?type=monitoring&variant=alert_created&varient=x', headers: partner.headers });
    assert.equal(response.statusCode, 400, response.body);
    const problem = response.json<{ code: string; errors: Array<{ pointer: string }> }>();
    assert.equal(problem.code, 'VALIDATION_ERROR');
    assert.deepEqual(problem.errors.map((e) => e.pointer), ['query:varient']);
    assert.equal(await drain(), 0);
  });

  it('an unknown type prefix is 400 VALIDATION_ERROR', async () => {
    const response = await sendTest(partner, { type: 'billing', variant: 'captured' });
    assert.equal(response.statusCode, 400, response.body);
    assert.equal(response.json<{ code: string }>().code, 'VALIDATION_ERROR');
  });
});

describe('refusals', () => {
  it('monitoring samples for a partner not eligible for monitoring: 403 FORBIDDEN, nothing sent', async () => {
    const partner = await ctx.f.partner({ monitoring: false });
    const r = await receiver();
    const destination = await addDestination(partner, r.url);
    r.setSecret(destination.secret);
    for (const variant of testVariants('monitoring')) {
      const response = await sendTest(partner, { type: 'monitoring', variant });
      assert.equal(response.statusCode, 403, `${variant}: ${response.body}`);
      assert.equal(response.json<{ code: string }>().code, 'FORBIDDEN');
    }
    // The same partner's other samples go out: the refusal is about monitoring alone.
    const [payment] = await sendTestOk(partner, { type: 'payment', variant: 'succeeded' });
    assert.equal(await drain(), 1);
    assert.equal(r.received.length, 1);
    assertSample(deliveryOf(r, payment!), payment!, 'payment.succeeded');
  });

  it('no destination subscribed to the category: 409 INVALID_STATE', async () => {
    const partner = await ctx.f.partner({ monitoring: true });
    const none = await sendTest(partner, { type: 'payment', variant: 'created' });
    assert.equal(none.statusCode, 409, none.body);
    assert.equal(none.json<{ code: string }>().code, 'INVALID_STATE');

    const r = await receiver();
    const destination = await addDestination(partner, r.url, ['PAYMENTS']);
    r.setSecret(destination.secret);
    for (const [type, variant] of [
      ['verification', 'individual_passed'],
      ['business-lookup', 'completed'],
      ['contact', 'card_saved'],
      ['deed-analysis', 'completed'],
      ['monitoring', 'alert_created'],
    ] as const) {
      const response = await sendTest(partner, { type, variant });
      assert.equal(response.statusCode, 409, `${type}: ${response.body}`);
      const problem = response.json<{ code: string; detail: string }>();
      assert.equal(problem.code, 'INVALID_STATE');
      assert.ok(problem.detail.includes(findTestDefinition(type, variant)!.category), problem.detail);
    }

    // A disabled destination does not count.
    const disabled = await ctx.app.inject({ method: 'PATCH', url: `/v1/webhook-destinations/${destination.id}`, headers: partner.headers, payload: { enabled: false } });
    assert.equal(disabled.statusCode, 200, disabled.body);
    const paused = await sendTest(partner, { type: 'payment', variant: 'created' });
    assert.equal(paused.statusCode, 409, paused.body);
    assert.equal(paused.json<{ code: string }>().code, 'INVALID_STATE');
    assert.equal(await drain(), 0);
    assert.equal(r.received.length, 0);
  });

  it('samples go only to the caller’s own destinations', async () => {
    const [a, b] = [await ctx.f.partner(), await ctx.f.partner()];
    const [ra, rb] = [await receiver(), await receiver()];
    ra.setSecret((await addDestination(a, ra.url)).secret);
    rb.setSecret((await addDestination(b, rb.url)).secret);
    const [sent] = await sendTestOk(a, { type: 'contact', variant: 'billing_failed' });
    assert.equal(await drain(), 1);
    assertSample(deliveryOf(ra, sent!), sent!, 'contact.billing.failed');
    assert.equal(rb.received.length, 0);
  });
});
