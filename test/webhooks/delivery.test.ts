// Webhook delivery end to end: an event emitted as a capability would, fanned out to the partner's
// destinations, posted by the dispatcher to real HTTP receivers that verify every signature with the
// published helper, and recorded in the delivery history.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { verifyWebhook } from 'pvs/verify-webhook';
import {
  businessLookupCompleted,
  monitoringAlertCreated,
  paymentCreated,
  paymentSucceeded,
  verificationIndividualPassed,
} from '../../src/modules/webhooks/events/index.ts';
import { closedPort, expectedSignature, isoAfter, paymentPayload, seconds, start, webhookHarness } from '../fixtures/webhook-helpers.ts';

const passedPayload = {
  verificationRequestId: 'ver_01JD0000000000000000000001',
  individualId: 'ind_01JD0000000000000000000001',
  status: 'PASSED' as const,
  manualOverride: false,
  attemptCount: 1,
  completedAt: '2026-03-02T07:59:00.000Z',
};
const alertPayload = { contactId: 'con_01JD0000000000000000000001', product: 'SCREENING', monitoringAlertId: 'mal_01', categories: ['SANCTIONS'], status: 'OPEN' as const };

describe('a delivery', () => {
  it('posts SPEC’s flat body plus eventId, signed over timestamp.rawBody, and records one successful attempt', async (t) => {
    const h = await webhookHarness(t);
    const partner = await h.ctx.f.partner();
    const receiver = await h.receiver();
    const destination = await h.addDestination(partner, { url: receiver.url, categories: ['PAYMENTS'] });
    receiver.setSecret(destination.secret);

    const event = await h.emit(paymentSucceeded, partner, paymentPayload('pay_delivery_1'));
    const [pending] = await h.notifications(partner);
    assert.ok(pending);
    assert.equal(pending.status, 'PENDING');
    assert.equal(pending.webhookAttempts, 0);
    assert.equal(pending.eventId, event.id);
    assert.equal(pending.destinationId, destination.id);

    assert.equal(await h.drain(), 1);
    assert.equal(receiver.received.length, 1);
    const [delivery] = receiver.received;
    assert.ok(delivery);

    // The body: flat, `type` first as the discriminator, no data wrapper, eventId and occurredAt.
    assert.deepEqual(delivery.body, {
      type: 'payment.succeeded',
      eventId: event.id,
      id: 'pay_delivery_1',
      amount: 125_000,
      status: 'SUCCEEDED',
      commissionAmount: 1250,
      metadata: { invoice: 'INV-1001' },
      occurredAt: start.toISOString(),
    });
    assert.equal('data' in delivery.body, false);
    assert.equal(Object.keys(delivery.body)[0], 'type');

    // The headers, and a signature that is lowercase hex HMAC-SHA256 over timestamp + "." + rawBody.
    const headers = delivery.headers;
    assert.equal(headers['content-type'], 'application/json');
    assert.equal(headers['x-timestamp'], String(Math.floor(start.getTime() / 1000)));
    assert.match(String(headers['x-signature']), /^[0-9a-f]{64}$/);
    assert.equal(headers['x-signature'], expectedSignature(destination.secret, String(headers['x-timestamp']), delivery.rawBody));
    assert.equal(headers['x-signature-previous'], undefined);
    assert.equal(headers['x-event-id'], event.id);
    assert.equal(headers['x-notification-id'], pending.id);
    assert.deepEqual(delivery.verified, { ok: true, timestamp: Math.floor(start.getTime() / 1000) });
    // The published helper refuses the same bytes under another secret, or altered by one character.
    assert.equal(verifyWebhook('whsec_wrong', headers, delivery.rawBody, { now: start }).ok, false);
    assert.equal(verifyWebhook(destination.secret, headers, delivery.rawBody.replace('125000', '125001'), { now: start }).ok, false);

    const delivered = await h.notification(partner, pending.id);
    assert.equal(delivered.status, 'DELIVERED');
    assert.equal(delivered.webhookAttempts, 1);
    assert.equal(delivered.nextAttemptAt, null);
    assert.equal(delivered.lastAttemptAt, start.toISOString());
    assert.equal(delivered.lastResponseStatus, 200);
    assert.ok(delivered.deliveredAt);
    assert.deepEqual(delivered.payload, delivery.body, 'the history shows the body that was sent');
    assert.equal(delivered.attempts.length, 1);
    assert.deepEqual({ ...delivered.attempts[0], durationMs: 0 }, {
      attempt: 1,
      startedAt: start.toISOString(),
      durationMs: 0,
      statusCode: 200,
      errorClass: 'NONE',
      responseExcerpt: 'ok',
    });

    assert.equal(await h.drain(), 0, 'a delivered notification is not sent again');
    assert.equal(receiver.received.length, 1);
  });
});

describe('fan-out', () => {
  it('sends an event only to the live destinations subscribed to its category', async (t) => {
    const h = await webhookHarness(t);
    const partner = await h.ctx.f.partner({ monitoring: false });
    const [payments, verifications, disabled, deleted] = [await h.receiver(), await h.receiver(), await h.receiver(), await h.receiver()];
    const paymentsDestination = await h.addDestination(partner, { url: payments.url, categories: ['PAYMENTS', 'MONITORING'] });
    const verificationsDestination = await h.addDestination(partner, { url: verifications.url, categories: ['VERIFICATIONS', 'BUSINESS_LOOKUPS'] });
    await h.addDestination(partner, { url: disabled.url, enabled: false });
    const toDelete = await h.addDestination(partner, { url: deleted.url });
    const removal = await h.ctx.app.inject({ method: 'DELETE', url: `/v1/webhook-destinations/${toDelete.id}`, headers: await h.headers(partner) });
    assert.equal(removal.statusCode, 200, removal.body);
    payments.setSecret(paymentsDestination.secret);
    verifications.setSecret(verificationsDestination.secret);

    const payment = await h.emit(paymentCreated, partner, paymentPayload('pay_fan_1', { status: 'CREATED' }));
    const passed = await h.emit(verificationIndividualPassed, partner, passedPayload);
    const lookup = await h.emit(businessLookupCompleted, partner, {
      lookupRequestId: 'lkp_01',
      channelPartnerId: partner.partnerId,
      entity: { name: 'EXAMPLE HOLDINGS PTY LTD', type: 'COMPANY' },
      individuals: [],
    });
    // Not eligible for monitoring: a monitoring event makes no notification at all.
    const alert = await h.emit(monitoringAlertCreated, partner, alertPayload);

    const rows = await h.notifications(partner);
    const byEvent = (id: string) => rows.filter((n) => n.eventId === id).map((n) => n.destinationId);
    assert.deepEqual(byEvent(payment.id), [paymentsDestination.id]);
    assert.deepEqual(byEvent(passed.id), [verificationsDestination.id]);
    assert.deepEqual(byEvent(lookup.id), [verificationsDestination.id]);
    assert.deepEqual(byEvent(alert.id), []);
    assert.equal(rows.length, 3);

    assert.equal(await h.drain(), 3);
    assert.deepEqual(
      payments.received.map((d) => d.body.type),
      ['payment.created'],
    );
    assert.deepEqual(verifications.received.map((d) => d.body.type).sort(), ['business-lookup.completed', 'verification.individual.passed']);
    for (const d of [...payments.received, ...verifications.received]) assert.equal(d.verified.ok, true);
    assert.equal(disabled.received.length, 0);
    assert.equal(deleted.received.length, 0);
    assert.ok((await h.notifications(partner)).every((n) => n.status === 'DELIVERED'));
  });

  it('sends monitoring events to an eligible partner’s subscribed destinations', async (t) => {
    const h = await webhookHarness(t);
    const eligible = await h.ctx.f.partner({ monitoring: true });
    const receiver = await h.receiver();
    const destination = await h.addDestination(eligible, { url: receiver.url, categories: ['MONITORING'] });
    receiver.setSecret(destination.secret);

    const alert = await h.emit(monitoringAlertCreated, eligible, alertPayload);
    await h.emit(paymentCreated, eligible, paymentPayload('pay_mon_1', { status: 'CREATED' }));
    assert.equal(await h.drain(), 1);
    assert.equal(receiver.received.length, 1);
    assert.equal(receiver.received[0]!.verified.ok, true);
    assert.deepEqual(receiver.received[0]!.body, { type: 'monitoring.alert.created', eventId: alert.id, ...alertPayload, occurredAt: start.toISOString() });
  });

  it('sends nothing to a destination deleted after the notification was made', async (t) => {
    const h = await webhookHarness(t);
    const partner = await h.ctx.f.partner();
    const receiver = await h.receiver();
    const destination = await h.addDestination(partner, { url: receiver.url, categories: ['PAYMENTS'] });
    await h.emit(paymentCreated, partner, paymentPayload('pay_gone_1', { status: 'CREATED' }));
    const removal = await h.ctx.app.inject({ method: 'DELETE', url: `/v1/webhook-destinations/${destination.id}`, headers: await h.headers(partner) });
    assert.equal(removal.statusCode, 200, removal.body);

    await h.drain();
    assert.equal(receiver.received.length, 0);
    const [row] = await h.notifications(partner);
    assert.equal(row!.status, 'FAILED');
    assert.equal(row!.webhookAttempts, 0, 'nothing was sent, so no attempt is counted');
  });
});

describe('failures are classified', () => {
  it('a redirect is a failure (REDIRECT) and is not followed', async (t) => {
    const h = await webhookHarness(t);
    const partner = await h.ctx.f.partner();
    const [redirecting, target] = [await h.receiver(), await h.receiver()];
    const destination = await h.addDestination(partner, { url: redirecting.url, categories: ['PAYMENTS'] });
    redirecting.setSecret(destination.secret);
    redirecting.respond((_d, res) => res.writeHead(302, { location: target.url }).end());

    await h.emit(paymentCreated, partner, paymentPayload('pay_redirect_1', { status: 'CREATED' }));
    assert.equal(await h.drain(), 1);
    assert.equal(redirecting.received.length, 1);
    assert.equal(redirecting.received[0]!.verified.ok, true);
    assert.equal(target.received.length, 0, 'the redirect was not followed');

    const [row] = await h.notifications(partner);
    const detail = await h.notification(partner, row!.id);
    assert.equal(detail.status, 'PENDING');
    assert.equal(detail.webhookAttempts, 1);
    assert.equal(detail.lastResponseStatus, 302);
    assert.equal(detail.nextAttemptAt, isoAfter(start, seconds(30)));
    assert.equal(detail.attempts[0]!.errorClass, 'REDIRECT');
    assert.equal(detail.attempts[0]!.statusCode, 302);
  });

  it('a refused connection is CONNECTION_REFUSED', async (t) => {
    const h = await webhookHarness(t);
    const partner = await h.ctx.f.partner();
    await h.addDestination(partner, { url: `http://127.0.0.1:${await closedPort()}/hooks`, categories: ['PAYMENTS'] });

    await h.emit(paymentCreated, partner, paymentPayload('pay_refused_1', { status: 'CREATED' }));
    assert.equal(await h.drain(), 1);
    const [row] = await h.notifications(partner);
    const detail = await h.notification(partner, row!.id);
    assert.equal(detail.status, 'PENDING');
    assert.equal(detail.webhookAttempts, 1);
    assert.equal(detail.lastResponseStatus, null);
    assert.equal(detail.nextAttemptAt, isoAfter(start, seconds(30)));
    assert.deepEqual(
      detail.attempts.map((a) => [a.attempt, a.statusCode, a.errorClass, a.responseExcerpt]),
      [[1, null, 'CONNECTION_REFUSED', null]],
    );
  });

  it('a connection dropped without an answer is CONNECTION_ERROR', async (t) => {
    const h = await webhookHarness(t);
    const partner = await h.ctx.f.partner();
    const receiver = await h.receiver();
    await h.addDestination(partner, { url: receiver.url, categories: ['PAYMENTS'] });
    receiver.respond((_d, res) => res.socket?.destroy());

    await h.emit(paymentCreated, partner, paymentPayload('pay_dropped_1', { status: 'CREATED' }));
    assert.equal(await h.drain(), 1);
    assert.equal(receiver.received.length, 1, 'sent once, not retried by the HTTP client');
    const [row] = await h.notifications(partner);
    const detail = await h.notification(partner, row!.id);
    assert.equal(detail.status, 'PENDING');
    assert.equal(detail.nextAttemptAt, isoAfter(start, seconds(30)));
    assert.deepEqual(
      detail.attempts.map((a) => [a.statusCode, a.errorClass]),
      [[null, 'CONNECTION_ERROR']],
    );
  });

  it('any 2xx is a success', async (t) => {
    const h = await webhookHarness(t);
    const partner = await h.ctx.f.partner();
    const receiver = await h.receiver();
    const destination = await h.addDestination(partner, { url: receiver.url, categories: ['PAYMENTS'] });
    receiver.setSecret(destination.secret);
    const answers = [202, 204, 299];
    receiver.respond((d, res) => res.writeHead(d.verified.ok ? answers.shift()! : 401).end());

    for (const id of ['pay_2xx_1', 'pay_2xx_2', 'pay_2xx_3']) await h.emit(paymentCreated, partner, paymentPayload(id, { status: 'CREATED' }));
    assert.equal(await h.drain(), 3);
    const rows = await h.notifications(partner);
    assert.deepEqual(rows.map((n) => [n.status, n.webhookAttempts]), [['DELIVERED', 1], ['DELIVERED', 1], ['DELIVERED', 1]]);
    assert.deepEqual(rows.map((n) => n.lastResponseStatus).sort(), [202, 204, 299]);
  });

  it('an answer after the 5-second deadline is a TIMEOUT', async (t) => {
    const h = await webhookHarness(t);
    const partner = await h.ctx.f.partner();
    const receiver = await h.receiver();
    const destination = await h.addDestination(partner, { url: receiver.url, categories: ['PAYMENTS'] });
    receiver.setSecret(destination.secret);
    const timers: NodeJS.Timeout[] = [];
    t.after(() => timers.forEach(clearTimeout));
    receiver.respond((_d, res) => {
      timers.push(setTimeout(() => res.writeHead(200).end('too late'), 6_000));
    });

    await h.emit(paymentCreated, partner, paymentPayload('pay_slow_1', { status: 'CREATED' }));
    assert.equal(await h.drain(), 1);
    assert.equal(receiver.received.length, 1);
    const [row] = await h.notifications(partner);
    const detail = await h.notification(partner, row!.id);
    assert.equal(detail.status, 'PENDING');
    assert.equal(detail.webhookAttempts, 1);
    assert.equal(detail.attempts[0]!.errorClass, 'TIMEOUT');
    assert.equal(detail.attempts[0]!.statusCode, null);
  });

  it('keeps at most 1024 characters of a large answer', async (t) => {
    const h = await webhookHarness(t);
    const partner = await h.ctx.f.partner();
    const receiver = await h.receiver();
    const destination = await h.addDestination(partner, { url: receiver.url, categories: ['PAYMENTS'] });
    receiver.setSecret(destination.secret);
    const large = `${'é'.repeat(300)}${'x'.repeat(200_000)}`;
    receiver.respond((_d, res) => res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end(large));

    await h.emit(paymentCreated, partner, paymentPayload('pay_large_1', { status: 'CREATED' }));
    assert.equal(await h.drain(), 1);
    const [row] = await h.notifications(partner);
    const detail = await h.notification(partner, row!.id);
    const [attempt] = detail.attempts;
    assert.equal(attempt!.errorClass, 'HTTP_STATUS');
    assert.equal(attempt!.statusCode, 500);
    assert.ok(attempt!.responseExcerpt, 'an excerpt is kept');
    assert.ok(attempt!.responseExcerpt.length <= 1024, `excerpt of ${attempt!.responseExcerpt.length} characters`);
    assert.ok(attempt!.responseExcerpt.startsWith('é'.repeat(300)), 'the excerpt is the start of the answer');

    // A large 2xx is still a success, with the same bound.
    receiver.respond((_d, res) => res.writeHead(200).end('y'.repeat(100_000)));
    h.clock.advance(seconds(30));
    assert.equal(await h.drain(), 1);
    const after = await h.notification(partner, row!.id);
    assert.equal(after.status, 'DELIVERED');
    assert.equal(after.attempts[1]!.responseExcerpt, 'y'.repeat(1024));
  });
});

describe('secret rotation', () => {
  it('signs with the new secret and, for 24 hours, with the old one in x-signature-previous', async (t) => {
    const h = await webhookHarness(t);
    const partner = await h.ctx.f.partner();
    const receiver = await h.receiver();
    const destination = await h.addDestination(partner, { url: receiver.url, categories: ['PAYMENTS'] });
    const oldSecret = destination.secret;
    receiver.setSecret(oldSecret);

    const rotated = await h.ctx.app.inject({
      method: 'POST',
      url: `/v1/webhook-destinations/${destination.id}/rotate-secret`,
      headers: await h.headers(partner),
    });
    assert.equal(rotated.statusCode, 200, rotated.body);
    const newSecret = (rotated.json() as { secret: string }).secret;
    assert.match(newSecret, /^whsec_/);
    assert.notEqual(newSecret, oldSecret);
    const rotatedAt = h.clock.now();

    // A receiver that has not switched yet still accepts deliveries: the old secret signs too.
    await h.emit(paymentCreated, partner, paymentPayload('pay_rot_1', { status: 'CREATED' }));
    assert.equal(await h.drain(), 1);
    const during = receiver.received.at(-1)!;
    assert.equal(during.verified.ok, true, 'verified with the old secret');
    const timestamp = String(during.headers['x-timestamp']);
    assert.equal(during.headers['x-signature'], expectedSignature(newSecret, timestamp, during.rawBody));
    assert.equal(during.headers['x-signature-previous'], expectedSignature(oldSecret, timestamp, during.rawBody));
    const onlyCurrent = { ...during.headers, 'x-signature-previous': undefined };
    const onlyPrevious = { ...during.headers, 'x-signature': during.headers['x-signature-previous'], 'x-signature-previous': undefined };
    const now = h.clock.now();
    assert.equal(verifyWebhook(newSecret, onlyCurrent, during.rawBody, { now }).ok, true, 'x-signature verifies with the new secret');
    assert.equal(verifyWebhook(oldSecret, onlyPrevious, during.rawBody, { now }).ok, true, 'x-signature-previous verifies with the old secret');
    assert.equal(verifyWebhook(oldSecret, onlyCurrent, during.rawBody, { now }).ok, false, 'x-signature is not the old secret’s');

    // Just before the 24 hours are up both still sign.
    receiver.setSecret(newSecret);
    h.clock.set(new Date(rotatedAt.getTime() + 24 * 3600_000 - 1000));
    await h.emit(paymentCreated, partner, paymentPayload('pay_rot_2', { status: 'CREATED' }));
    assert.equal(await h.drain(), 1);
    const late = receiver.received.at(-1)!;
    assert.equal(late.verified.ok, true);
    assert.equal(late.headers['x-signature-previous'], expectedSignature(oldSecret, String(late.headers['x-timestamp']), late.rawBody));

    // After 24 hours only the new secret signs.
    h.clock.set(new Date(rotatedAt.getTime() + 24 * 3600_000));
    await h.emit(paymentCreated, partner, paymentPayload('pay_rot_3', { status: 'CREATED' }));
    assert.equal(await h.drain(), 1);
    const afterwards = receiver.received.at(-1)!;
    assert.equal(afterwards.body.id, 'pay_rot_3');
    assert.equal(afterwards.verified.ok, true, 'verified with the new secret');
    assert.equal(afterwards.headers['x-signature-previous'], undefined);
    assert.equal(afterwards.headers['x-signature'], expectedSignature(newSecret, String(afterwards.headers['x-timestamp']), afterwards.rawBody));
    assert.deepEqual(verifyWebhook(oldSecret, afterwards.headers, afterwards.rawBody, { now: h.clock.now() }), {
      ok: false,
      status: 401,
      reason: 'signature does not match',
    });
  });
});

describe('notifications of a payment', () => {
  it('answers a payment notification only under its own payment id, and nothing of another partner', async (t) => {
    const h = await webhookHarness(t);
    const partner = await h.ctx.f.partner();
    const other = await h.ctx.f.partner();
    const receiver = await h.receiver();
    await h.addDestination(partner, { url: receiver.url });
    const otherReceiver = await h.receiver();
    await h.addDestination(other, { url: otherReceiver.url });

    const payment = await h.emit(paymentSucceeded, partner, paymentPayload('pay_route_a'));
    // A verification event whose id happens to equal the payment id: still not a payment's notification.
    const passed = await h.emit(verificationIndividualPassed, partner, { ...passedPayload, verificationRequestId: 'pay_route_a' });
    await h.emit(paymentSucceeded, other, paymentPayload('pay_route_other'));
    const rows = await h.notifications(partner);
    const paymentRow = rows.find((n) => n.eventId === payment.id)!;
    const passedRow = rows.find((n) => n.eventId === passed.id)!;
    const otherRows = await h.notifications(other);
    assert.equal(otherRows.length, 1);
    const otherRow = otherRows[0]!;

    const get = async (paymentId: string, notificationId: string, who = partner) =>
      h.ctx.app.inject({ method: 'GET', url: `/v1/channel-payments/${paymentId}/webhook-notifications/${notificationId}`, headers: await h.headers(who) });

    const found = await get('pay_route_a', paymentRow.id);
    assert.equal(found.statusCode, 200, found.body);
    const body = found.json() as { id: string; eventId: string; type: string; category: string; payload: Record<string, unknown> };
    assert.equal(body.id, paymentRow.id);
    assert.equal(body.eventId, payment.id);
    assert.equal(body.type, 'payment.succeeded');
    assert.equal(body.category, 'PAYMENTS');
    assert.equal(body.payload.id, 'pay_route_a');

    assert.equal((await get('pay_route_b', paymentRow.id)).statusCode, 404, 'another payment id');
    assert.equal((await get('pay_route_a', passedRow.id)).statusCode, 404, 'not a payment notification');
    assert.equal((await get('pay_route_a', 'ntf_does_not_exist')).statusCode, 404);

    // Another partner's notifications are invisible everywhere.
    assert.ok(rows.every((n) => n.id !== otherRow.id));
    assert.ok(otherRows.every((n) => !rows.some((r) => r.id === n.id)));
    assert.equal((await get('pay_route_other', otherRow.id)).statusCode, 404);
    assert.equal((await get('pay_route_a', paymentRow.id, other)).statusCode, 404);
    const single = await h.ctx.app.inject({ method: 'GET', url: `/v1/webhook-notifications/${otherRow.id}`, headers: await h.headers(partner) });
    assert.equal(single.statusCode, 404);
    assert.equal((await get('pay_route_other', otherRow.id, other)).statusCode, 200, 'its owner sees it');
  });
});
