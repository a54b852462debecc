// pvs.webhooks.constructEvent on real deliveries: PVS sends a test event to a receiver on 127.0.0.1 that
// keeps the raw bytes and headers, and the client verifies them as a partner's handler would; then the
// refusals (a changed body, a stale timestamp, the wrong secret, a body a framework already parsed), the
// rotation's second signature, and agreement with the standalone helper sdk/verify-webhook.js.
import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { signWebhook, verifyWebhook } from '@pvs/client/verify-webhook';
import { constructEvent, Pvs, signTestPayload, WebhookVerificationError, type WebhookEvent } from '../src/index.ts';
import { clientFor, serve, type Served } from './helpers.ts';

interface Delivery {
  rawBody: Buffer;
  headers: IncomingHttpHeaders;
}

let served: Served;
let pvs: Pvs;
let server: Server;
let receiverUrl: string;
const deliveries: Delivery[] = [];

before(async () => {
  served = await serve();
  pvs = clientFor(served, await served.t.f.partner());
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      deliveries.push({ rawBody: Buffer.concat(chunks), headers: req.headers });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
});
after(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await served.close();
});

/** Sends a test event and delivers it as the worker would; answers the delivery received. */
async function deliverTest(): Promise<Delivery> {
  const sent = await pvs.webhookNotifications.sendTest({ type: 'verification', variant: 'individual_passed' });
  const count = deliveries.length;
  await served.t.services.createDispatcher().drain();
  assert.equal(deliveries.length, count + 1, 'one delivery received');
  const delivery = deliveries.at(-1)!;
  assert.equal(delivery.headers['x-notification-id'], sent.data[0]!.id);
  return delivery;
}

function refusal(run: () => unknown): WebhookVerificationError {
  try {
    run();
  } catch (error) {
    assert.ok(error instanceof WebhookVerificationError, String(error));
    return error;
  }
  assert.fail('expected a WebhookVerificationError');
}

describe('constructEvent on a real delivery', () => {
  let secret: string;
  let delivery: Delivery;

  before(async () => {
    const destination = await pvs.webhookDestinations.create({ url: receiverUrl, categories: ['VERIFICATIONS'] });
    secret = destination.secret!;
    delivery = await deliverTest();
  });

  it('verifies the raw bytes and answers the event, typed by `type`', () => {
    const event: WebhookEvent = pvs.webhooks.constructEvent(delivery.rawBody, delivery.headers, secret);
    assert.equal(event.type, 'verification.individual.passed');
    assert.equal(event.eventId, delivery.headers['x-event-id']);
    assert.equal(event.test, true);
    // The same bytes as a string, as a Uint8Array, and headers as a WHATWG Headers: the same event.
    assert.deepEqual(constructEvent(delivery.rawBody.toString('utf8'), delivery.headers, secret), event);
    assert.deepEqual(constructEvent(new Uint8Array(delivery.rawBody), new Headers(delivery.headers as Record<string, string>), secret), event);
    assert.deepEqual(Pvs.webhooks.constructEvent(delivery.rawBody, delivery.headers, [secret]), event);
    // Checked by the type checker (npm run typecheck): the union narrows by `type` to that event's fields.
    if (event.type === 'verification.individual.passed') assert.match(event.individualId, /^ind_/);
    // @ts-expect-error not an event type PVS sends: the comparison can never be true
    assert.equal(event.type === 'verification.individual.teleported', false);
  });

  it('refuses a changed body: 401', () => {
    const changed = delivery.rawBody.toString('utf8').replace('"test":true', '"test":false');
    assert.notEqual(changed, delivery.rawBody.toString('utf8'));
    const error = refusal(() => constructEvent(changed, delivery.headers, secret));
    assert.equal(error.status, 401);
    assert.equal(error.code, 'SIGNATURE_MISMATCH');
    // A body parsed and serialised again means the same and is refused all the same.
    const reserialised = JSON.stringify(JSON.parse(delivery.rawBody.toString('utf8')), null, 1);
    assert.equal(refusal(() => constructEvent(reserialised, delivery.headers, secret)).status, 401);
  });

  it('refuses the wrong secret: 401', () => {
    assert.equal(refusal(() => constructEvent(delivery.rawBody, delivery.headers, 'whsec_not_this_one')).status, 401);
  });

  it('refuses a stale timestamp: 400, and honours a tolerance of its own', () => {
    const later = new Date((Number(delivery.headers['x-timestamp']) + 301) * 1000);
    const error = refusal(() => constructEvent(delivery.rawBody, delivery.headers, secret, { now: later }));
    assert.equal(error.status, 400);
    assert.equal(error.code, 'TIMESTAMP_STALE');
    assert.ok(constructEvent(delivery.rawBody, delivery.headers, secret, { now: later, toleranceSeconds: 400 }));
    const { 'x-timestamp': _gone, ...withoutTimestamp } = delivery.headers;
    assert.equal(refusal(() => constructEvent(delivery.rawBody, withoutTimestamp, secret)).status, 400);
  });

  it('refuses, with a message saying what to do, a body a framework already parsed', () => {
    const parsed = JSON.parse(delivery.rawBody.toString('utf8')) as object;
    const error = refusal(() => constructEvent(parsed as never, delivery.headers, secret));
    assert.equal(error.status, 400);
    assert.equal(error.code, 'BODY_NOT_RAW');
    assert.match(error.message, /already-parsed object/);
    assert.match(error.message, /express\.raw/);
    assert.equal(refusal(() => constructEvent(String(parsed), delivery.headers, secret)).code, 'BODY_NOT_RAW');
    assert.equal(refusal(() => constructEvent(undefined as never, delivery.headers, secret)).code, 'BODY_NOT_RAW');
  });

  it('after a rotation, the old secret still verifies through x-signature-previous, the new through x-signature', async () => {
    const [destination] = (await pvs.webhookDestinations.list()).data.filter((d) => d.url === receiverUrl);
    const rotated = await pvs.webhookDestinations.rotateSecret(destination!.id);
    const next = await deliverTest();
    assert.ok(next.headers['x-signature-previous']);
    assert.equal(constructEvent(next.rawBody, next.headers, secret).type, 'verification.individual.passed');
    assert.equal(constructEvent(next.rawBody, next.headers, rotated.secret!).type, 'verification.individual.passed');
    assert.equal(constructEvent(next.rawBody, next.headers, ['whsec_unrelated', rotated.secret!]).type, 'verification.individual.passed');
    assert.equal(refusal(() => constructEvent(next.rawBody, next.headers, ['whsec_a', 'whsec_b'])).status, 401);
  });
});

describe('signTestPayload and the standalone helper agree', () => {
  const secret = 'whsec_partner_test_secret';

  it('signTestPayload signs as PVS does: verifyWebhook accepts it, constructEvent answers the payload', () => {
    const payload = { type: 'payment.succeeded', eventId: 'evt_1', occurredAt: '2026-03-02T08:00:00.000Z', note: 'Zoë' };
    const { body, headers } = signTestPayload(payload, secret);
    assert.equal(headers['content-type'], 'application/json');
    assert.deepEqual(verifyWebhook(secret, headers, body), { ok: true, timestamp: Number(headers['x-timestamp']) });
    assert.deepEqual(constructEvent(body, headers, secret), payload);
    const fixed = signTestPayload('{"a":1}', secret, { timestamp: 1_700_000_000 });
    assert.deepEqual(fixed.headers, { 'content-type': 'application/json', 'x-timestamp': '1700000000', 'x-signature': signWebhook(secret, '1700000000', '{"a":1}') });
  });

  it('the vector docs/webhooks.md quotes', () => {
    const body = '{"type":"payment.created","name":"Zoë"}';
    const headers = { 'x-timestamp': '1700000000', 'x-signature': 'e84a169ebeffcc65619d1864928e50f87245503b13cae021123740b3834b402d' };
    assert.deepEqual(constructEvent(Buffer.from(body, 'utf8'), headers, 'whsec_test', { now: new Date(1_700_000_000_000) }), { type: 'payment.created', name: 'Zoë' });
  });
});
