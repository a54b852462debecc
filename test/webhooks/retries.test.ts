// Automatic retries on the exact schedule (manual clock, zero jitter), Retry-After, exhaustion after
// 10 attempts, and manual retry (SPEC Endpoints rule 5). Every delivery goes to a real receiver that
// verifies its signature.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { paymentCreated, paymentSucceeded, verificationIndividualPassed } from '../../src/modules/webhooks/events/index.ts';
import { isoAfter, paymentPayload, seconds, start, webhookHarness } from '../fixtures/webhook-helpers.ts';

/** Seconds from one attempt to the next: 30 s, 2 min, 8 min, 30 min, 1 h, 2 h, 4 h, 6 h, 8 h. */
const schedule = [30, 120, 480, 1800, 3600, 7200, 14_400, 21_600, 28_800];

describe('automatic retries', () => {
  it('retries a 500 after exactly 30 s and delivers on the next answer 200', async (t) => {
    const h = await webhookHarness(t);
    const partner = await h.ctx.f.partner();
    const receiver = await h.receiver();
    const destination = await h.addDestination(partner, { url: receiver.url, categories: ['PAYMENTS'] });
    receiver.setSecret(destination.secret);
    const answers = [500, 200];
    receiver.respond((d, res) => res.writeHead(d.verified.ok ? answers.shift()! : 401).end(`answer ${receiver.received.length}`));

    const event = await h.emit(paymentSucceeded, partner, paymentPayload('pay_retry_1'));
    assert.equal(await h.drain(), 1);
    const [row] = await h.notifications(partner);
    const failed = await h.notification(partner, row!.id);
    assert.equal(failed.status, 'PENDING');
    assert.equal(failed.webhookAttempts, 1);
    assert.equal(failed.nextAttemptAt, isoAfter(start, seconds(30)));
    assert.equal(failed.lastResponseStatus, 500);
    assert.equal(failed.lastAttemptAt, start.toISOString());
    assert.deepEqual(
      failed.attempts.map((a) => [a.attempt, a.startedAt, a.statusCode, a.errorClass, a.responseExcerpt]),
      [[1, start.toISOString(), 500, 'HTTP_STATUS', 'answer 1']],
    );

    h.clock.advance(seconds(30) - 1);
    assert.equal(await h.drain(), 0, 'not due a millisecond early');
    h.clock.advance(1);
    assert.equal(await h.drain(), 1);

    const delivered = await h.notification(partner, row!.id);
    assert.equal(delivered.status, 'DELIVERED');
    assert.equal(delivered.webhookAttempts, 2);
    assert.equal(delivered.nextAttemptAt, null);
    assert.equal(delivered.lastResponseStatus, 200);
    assert.deepEqual(
      delivered.attempts.map((a) => [a.attempt, a.startedAt, a.statusCode, a.errorClass]),
      [
        [1, start.toISOString(), 500, 'HTTP_STATUS'],
        [2, isoAfter(start, seconds(30)), 200, 'NONE'],
      ],
    );
    // The same event and notification both times, each delivery signed afresh.
    assert.equal(receiver.received.length, 2);
    for (const d of receiver.received) {
      assert.equal(d.verified.ok, true);
      assert.equal(d.body.eventId, event.id);
      assert.equal(d.headers['x-event-id'], event.id);
      assert.equal(d.headers['x-notification-id'], row!.id);
    }
    assert.equal(receiver.received[1]!.headers['x-timestamp'], String(Math.floor(start.getTime() / 1000) + 30));
    assert.equal(receiver.received[0]!.rawBody, receiver.received[1]!.rawBody, 'the body is the same bytes on every attempt');
  });

  it('retries client errors (4xx) too', async (t) => {
    const h = await webhookHarness(t);
    const partner = await h.ctx.f.partner();
    const receiver = await h.receiver();
    const destination = await h.addDestination(partner, { url: receiver.url, categories: ['PAYMENTS'] });
    receiver.setSecret(destination.secret);
    const answers = [400, 404, 422, 200];
    receiver.respond((d, res) => res.writeHead(d.verified.ok ? answers.shift()! : 401).end());

    await h.emit(paymentCreated, partner, paymentPayload('pay_4xx_1', { status: 'CREATED' }));
    let at = start.getTime();
    for (const [index, status] of [400, 404, 422].entries()) {
      assert.equal(await h.drain(), 1);
      const [row] = await h.notifications(partner);
      assert.equal(row!.status, 'PENDING', `after ${status}`);
      assert.equal(row!.webhookAttempts, index + 1);
      assert.equal(row!.lastResponseStatus, status);
      at += seconds(schedule[index]!);
      assert.equal(row!.nextAttemptAt, new Date(at).toISOString());
      h.clock.set(new Date(at));
    }
    assert.equal(await h.drain(), 1);
    const [row] = await h.notifications(partner);
    const detail = await h.notification(partner, row!.id);
    assert.equal(detail.status, 'DELIVERED');
    assert.equal(detail.webhookAttempts, 4);
    assert.deepEqual(
      detail.attempts.map((a) => a.statusCode),
      [400, 404, 422, 200],
    );
    assert.ok(receiver.received.every((d) => d.verified.ok));
  });

  it('honours Retry-After within the schedule’s bounds', async (t) => {
    const h = await webhookHarness(t);
    const partner = await h.ctx.f.partner();
    const receiver = await h.receiver();
    const destination = await h.addDestination(partner, { url: receiver.url, categories: ['PAYMENTS'] });
    receiver.setSecret(destination.secret);
    let retryAfter = '600';
    receiver.respond((d, res) => res.writeHead(d.verified.ok ? 429 : 401, { 'retry-after': retryAfter }).end());

    await h.emit(paymentCreated, partner, paymentPayload('pay_ra_1', { status: 'CREATED' }));
    const next = async () => (await h.notifications(partner))[0]!;

    // Later than the schedule (30 s): the receiver's 10 minutes.
    assert.equal(await h.drain(), 1);
    assert.equal((await next()).nextAttemptAt, isoAfter(start, seconds(600)));

    // Sooner than the schedule (2 min): the schedule wins.
    h.clock.set(new Date(start.getTime() + seconds(600)));
    retryAfter = '5';
    assert.equal(await h.drain(), 1);
    assert.equal((await next()).nextAttemptAt, isoAfter(h.clock.now(), seconds(120)));

    // An HTTP date 20 minutes ahead (schedule: 8 min).
    h.clock.advance(seconds(120));
    retryAfter = new Date(h.clock.now().getTime() + seconds(1200)).toUTCString();
    assert.equal(await h.drain(), 1);
    assert.equal((await next()).nextAttemptAt, isoAfter(h.clock.now(), seconds(1200)));

    // A week: capped at the longest step of the schedule, 8 hours.
    h.clock.advance(seconds(1200));
    retryAfter = String(7 * 24 * 3600);
    assert.equal(await h.drain(), 1);
    const capped = await next();
    assert.equal(capped.nextAttemptAt, isoAfter(h.clock.now(), 8 * 3600_000));
    assert.equal(capped.webhookAttempts, 4);
    assert.equal(capped.status, 'PENDING');
    assert.ok(receiver.received.every((d) => d.verified.ok));
  });
});

describe('exhaustion', () => {
  it('fails a notification after 10 attempts, each at its exact scheduled time', async (t) => {
    const h = await webhookHarness(t);
    const partner = await h.ctx.f.partner();
    const receiver = await h.receiver();
    const destination = await h.addDestination(partner, { url: receiver.url, categories: ['PAYMENTS'] });
    receiver.setSecret(destination.secret);
    receiver.respond((d, res) => res.writeHead(d.verified.ok ? 503 : 401).end('down'));

    const event = await h.emit(paymentCreated, partner, paymentPayload('pay_exhaust_1', { status: 'CREATED' }));
    const [row] = await h.notifications(partner);
    const id = row!.id;

    const expected = [start.getTime()];
    for (const delay of schedule) expected.push(expected.at(-1)! + seconds(delay));
    assert.equal(expected.length, 10);
    assert.ok(expected.at(-1)! - start.getTime() < 24 * 3600_000, 'all ten attempts fall within 24 hours');

    for (const [index, at] of expected.entries()) {
      if (index > 0) {
        h.clock.set(new Date(at - 1));
        assert.equal(await h.drain(), 0, `attempt ${index + 1} is not due a millisecond early`);
      }
      h.clock.set(new Date(at));
      assert.equal(await h.drain(), 1, `attempt ${index + 1}`);
      const now = await h.notification(partner, id);
      assert.equal(now.webhookAttempts, index + 1);
      if (index < 9) {
        assert.equal(now.status, 'PENDING');
        assert.equal(now.nextAttemptAt, new Date(expected[index + 1]!).toISOString());
      }
    }

    const failed = await h.notification(partner, id);
    assert.equal(failed.status, 'FAILED');
    assert.equal(failed.webhookAttempts, 10);
    assert.equal(failed.nextAttemptAt, null);
    assert.equal(failed.deliveredAt, null);
    assert.equal(failed.lastResponseStatus, 503);
    assert.deepEqual(
      failed.attempts.map((a) => [a.attempt, a.startedAt, a.statusCode, a.errorClass]),
      expected.map((at, index) => [index + 1, new Date(at).toISOString(), 503, 'HTTP_STATUS']),
    );

    // Nothing more, even long after.
    h.clock.advance(48 * 3600_000);
    assert.equal(await h.drain(), 0);
    assert.equal(receiver.received.length, 10);
    for (const d of receiver.received) {
      assert.equal(d.verified.ok, true);
      assert.equal(d.body.eventId, event.id);
    }
    const [listed] = await h.notifications(partner, '&status=FAILED');
    assert.equal(listed!.id, id);
  });
});

describe('manual retry', () => {
  it('makes a new notification for every destination subscribed now, each with its own attempts', async (t) => {
    const h = await webhookHarness(t);
    const partner = await h.ctx.f.partner();
    const [first, added, unrelated] = [await h.receiver(), await h.receiver(), await h.receiver()];
    const firstDestination = await h.addDestination(partner, { url: first.url, categories: ['PAYMENTS'] });
    first.setSecret(firstDestination.secret);

    const event = await h.emit(paymentSucceeded, partner, paymentPayload('pay_manual_1'));
    assert.equal(await h.drain(), 1);
    const [original] = await h.notifications(partner);
    assert.equal(original!.status, 'DELIVERED');

    // Destinations added after the original: one subscribed to payments, one not.
    const addedDestination = await h.addDestination(partner, { url: added.url, categories: ['VERIFICATIONS', 'PAYMENTS'] });
    added.setSecret(addedDestination.secret);
    await h.addDestination(partner, { url: unrelated.url, categories: ['VERIFICATIONS'] });
    h.clock.advance(seconds(90));

    const res = await h.ctx.app.inject({ method: 'POST', url: `/v1/webhook-notifications/${original!.id}/retry`, headers: await h.headers(partner) });
    assert.equal(res.statusCode, 202, res.body);
    const created = (res.json() as { data: Array<Record<string, unknown>> }).data;
    assert.equal(created.length, 2);
    assert.deepEqual(created.map((n) => n.destinationId).sort(), [firstDestination.id, addedDestination.id].sort());
    for (const n of created) {
      assert.notEqual(n.id, original!.id);
      assert.equal(n.retryOf, original!.id);
      assert.equal(n.eventId, event.id);
      assert.equal(n.type, 'payment.succeeded');
      assert.equal(n.status, 'PENDING');
      assert.equal(n.webhookAttempts, 0);
    }

    // The added destination fails once; the first takes it at once.
    const addedAnswers = [500, 200];
    added.respond((d, res) => res.writeHead(d.verified.ok ? addedAnswers.shift()! : 401).end());
    assert.equal(await h.drain(), 2);
    assert.equal(first.received.length, 2);
    assert.equal(added.received.length, 1);
    assert.equal(unrelated.received.length, 0);
    const retriedAt = h.clock.now();

    const toFirst = created.find((n) => n.destinationId === firstDestination.id)!;
    const toAdded = created.find((n) => n.destinationId === addedDestination.id)!;
    const firstDetail = await h.notification(partner, String(toFirst.id));
    assert.equal(firstDetail.status, 'DELIVERED');
    assert.equal(firstDetail.webhookAttempts, 1);
    assert.deepEqual(
      firstDetail.attempts.map((a) => [a.attempt, a.startedAt, a.statusCode]),
      [[1, retriedAt.toISOString(), 200]],
    );
    const addedDetail = await h.notification(partner, String(toAdded.id));
    assert.equal(addedDetail.status, 'PENDING');
    assert.equal(addedDetail.webhookAttempts, 1);
    assert.equal(addedDetail.nextAttemptAt, isoAfter(retriedAt, seconds(30)), 'its own schedule starts with its own first attempt');
    const originalDetail = await h.notification(partner, original!.id);
    assert.equal(originalDetail.webhookAttempts, 1, 'the original keeps its own history');
    assert.equal(originalDetail.attempts.length, 1);

    h.clock.advance(seconds(30));
    assert.equal(await h.drain(), 1);
    const addedDone = await h.notification(partner, String(toAdded.id));
    assert.equal(addedDone.status, 'DELIVERED');
    assert.equal(addedDone.webhookAttempts, 2);

    // Every delivery of the event carries the same eventId, the notification's own id, and a valid signature.
    const deliveries = [...first.received, ...added.received];
    for (const d of deliveries) {
      assert.equal(d.verified.ok, true);
      assert.equal(d.body.eventId, event.id);
      assert.equal(d.headers['x-event-id'], event.id);
    }
    assert.deepEqual(
      first.received.map((d) => d.headers['x-notification-id']),
      [original!.id, toFirst.id],
    );
    assert.deepEqual(
      added.received.map((d) => d.headers['x-notification-id']),
      [toAdded.id, toAdded.id],
    );
    assert.equal(first.received[0]!.body.occurredAt, first.received[1]!.body.occurredAt, 'the event keeps when it occurred');

    // A retry of a retry works the same way.
    const again = await h.ctx.app.inject({ method: 'POST', url: `/v1/webhook-notifications/${String(toAdded.id)}/retry`, headers: await h.headers(partner) });
    assert.equal(again.statusCode, 202, again.body);
    assert.equal((again.json() as { data: unknown[] }).data.length, 2);
  });

  it('retries a notification that exhausted its attempts', async (t) => {
    const h = await webhookHarness(t);
    const partner = await h.ctx.f.partner();
    const receiver = await h.receiver();
    const destination = await h.addDestination(partner, { url: receiver.url, categories: ['VERIFICATIONS'] });
    receiver.setSecret(destination.secret);
    let up = false;
    receiver.respond((d, res) => res.writeHead(d.verified.ok && up ? 200 : 500).end());

    await h.emit(verificationIndividualPassed, partner, {
      verificationRequestId: 'ver_01',
      individualId: 'ind_01',
      status: 'PASSED',
      manualOverride: false,
      attemptCount: 1,
      completedAt: start.toISOString(),
    });
    let at = start.getTime();
    await h.drain();
    for (const delay of schedule) {
      at += seconds(delay);
      h.clock.set(new Date(at));
      await h.drain();
    }
    const [exhausted] = await h.notifications(partner);
    assert.equal(exhausted!.status, 'FAILED');
    assert.equal(exhausted!.webhookAttempts, 10);

    up = true;
    const res = await h.ctx.app.inject({ method: 'POST', url: `/v1/webhook-notifications/${exhausted!.id}/retry`, headers: await h.headers(partner) });
    assert.equal(res.statusCode, 202, res.body);
    const [retry] = (res.json() as { data: Array<{ id: string; webhookAttempts: number }> }).data;
    assert.equal(retry!.webhookAttempts, 0);
    assert.equal(await h.drain(), 1);
    const done = await h.notification(partner, retry!.id);
    assert.equal(done.status, 'DELIVERED');
    assert.equal(done.webhookAttempts, 1);
  });

  it('answers 404 for another partner’s notification', async (t) => {
    const h = await webhookHarness(t);
    const owner = await h.ctx.f.partner();
    const stranger = await h.ctx.f.partner();
    const receiver = await h.receiver();
    await h.addDestination(owner, { url: receiver.url, categories: ['PAYMENTS'] });
    const strangerReceiver = await h.receiver();
    await h.addDestination(stranger, { url: strangerReceiver.url, categories: ['PAYMENTS'] });
    await h.emit(paymentCreated, owner, paymentPayload('pay_owned_1', { status: 'CREATED' }));
    const [row] = await h.notifications(owner);

    const res = await h.ctx.app.inject({ method: 'POST', url: `/v1/webhook-notifications/${row!.id}/retry`, headers: await h.headers(stranger) });
    assert.equal(res.statusCode, 404, res.body);
    assert.equal((res.json() as { code: string }).code, 'NOT_FOUND');
    assert.equal((await h.notifications(owner)).length, 1, 'nothing was queued');
    assert.equal((await h.notifications(stranger)).length, 0);
  });
});
