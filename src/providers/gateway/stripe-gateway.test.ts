// The Stripe gateway against a local stand-in for Stripe's API (test/fixtures/stripe-api.ts): what it
// sends (asserted on the recorded requests), how it reads answers, declines and outages, and that no
// secret or card number leaks into what it throws or returns.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import Stripe from 'stripe';
import { startStripeApi, type StripeApi } from '../../../test/fixtures/stripe-api.ts';
import type { CardInput, PaymentGateway } from './gateway.ts';
import { createStripeGateway, merchantAdviceCodeOf } from './stripe-gateway.ts';

const nextYear = new Date().getUTCFullYear() + 1;
const card = (number: string, extra: Partial<CardInput> = {}): CardInput => ({ number, expMonth: 12, expYear: nextYear, cvc: '123', ...extra });

let api: StripeApi;
let gateway: PaymentGateway;

before(async () => {
  api = await startStripeApi();
  gateway = createStripeGateway({ secretKey: api.secretKey, publishableKey: 'pk_test_fixture', apiBase: api.url, timeoutMs: 5_000 });
});
after(() => api.close());

/** A card saved for a new contact, ready to charge. */
async function savedCard(number: string) {
  const token = await gateway.tokenise(card(number));
  assert.ok(token.ok);
  const saved = await gateway.attach({ token: token.token, customerRef: null, contactId: randomUUID(), idempotencyKey: randomUUID() });
  assert.ok(saved.ok, JSON.stringify(saved));
  return saved;
}

describe('stripe gateway: cards', () => {
  it('renders the publishable key for Stripe.js, nothing secret', () => {
    assert.deepEqual(gateway.hostedFields(), { kind: 'stripe', publishableKey: 'pk_test_fixture' });
  });

  it('tokenises a card into a payment method, sending the card fields Stripe names', async () => {
    const result = await gateway.tokenise(card('4242424242424242', { name: 'Ada Lovelace' }));
    assert.ok(result.ok);
    assert.match(result.token, /^pm_/);
    assert.deepEqual(result.card, { brand: 'visa', last4: '4242', expMonth: 12, expYear: nextYear });
    const [request] = api.requestsTo('POST', '/v1/payment_methods').slice(-1);
    assert.deepEqual(request!.form, {
      type: 'card',
      card: { number: '4242424242424242', exp_month: '12', exp_year: String(nextYear), cvc: '123' },
      billing_details: { name: 'Ada Lovelace' },
    });
    assert.equal(request!.headers['stripe-version'], Stripe.API_VERSION);
    assert.equal(request!.headers.authorization, `Bearer ${api.secretKey}`);
  });

  it('reports a wrong card number as invalid, without echoing the number', async () => {
    const result = await gateway.tokenise(card('4242424242424241'));
    assert.deepEqual(result, { ok: false, kind: 'invalid', declineCode: 'incorrect_number', field: 'number', message: 'Your card number is incorrect.' });
    const expired = await gateway.tokenise(card('4242424242424242', { expYear: 2001 }));
    assert.ok(!expired.ok && expired.kind === 'invalid' && expired.field === 'expYear');
  });

  it('attaches with a new customer, made once under a derived key, and an off-session setup intent', async () => {
    const token = await gateway.tokenise(card('4242424242424242'));
    assert.ok(token.ok);
    const contactId = randomUUID();
    const key = randomUUID();
    const first = await gateway.attach({ token: token.token, customerRef: null, contactId, idempotencyKey: key });
    assert.ok(first.ok);
    assert.match(first.customerRef, /^cus_/);
    assert.equal(first.paymentMethodRef, token.token);
    assert.deepEqual(first.card, { brand: 'visa', last4: '4242', expMonth: 12, expYear: nextYear });

    const customerCalls = api.requests.filter((r) => r.path === '/v1/customers' && r.form.metadata && (r.form.metadata as Record<string, unknown>).contactId === contactId);
    assert.equal(customerCalls.length, 1);
    assert.equal(customerCalls[0]!.idempotencyKey, `${key}:customer`);
    const [setup] = api.requestsTo('POST', '/v1/setup_intents').filter((r) => r.idempotencyKey === key);
    assert.deepEqual(setup!.form, {
      customer: first.customerRef,
      payment_method: token.token,
      confirm: 'true',
      usage: 'off_session',
      allowed_payment_method_types: ['card'],
      expand: ['payment_method'],
    });

    // The worker ran again after a crash: the same key makes no second customer or setup.
    const again = await gateway.attach({ token: token.token, customerRef: null, contactId, idempotencyKey: key });
    assert.deepEqual(again, first);
    const repeats = api.requests.filter((r) => r.idempotencyKey === key || r.idempotencyKey === `${key}:customer`);
    assert.deepEqual(repeats.map((r) => [r.path, r.replayed]), [
      ['/v1/customers', false],
      ['/v1/setup_intents', false],
      ['/v1/customers', true],
      ['/v1/setup_intents', true],
    ]);
  });

  it("reuses the contact's customer for a later card", async () => {
    const firstCard = await savedCard('4242424242424242');
    const before = api.requestsTo('POST', '/v1/customers').length;
    const token = await gateway.tokenise(card('4000000000009995'));
    assert.ok(token.ok);
    const second = await gateway.attach({ token: token.token, customerRef: firstCard.customerRef, contactId: randomUUID(), idempotencyKey: randomUUID() });
    assert.ok(second.ok);
    assert.equal(second.customerRef, firstCard.customerRef);
    assert.equal(api.requestsTo('POST', '/v1/customers').length, before);
  });

  it('returns a declined save as a value, with the decline code', async () => {
    const token = await gateway.tokenise(card('4000000000000002'));
    assert.ok(token.ok);
    const result = await gateway.attach({ token: token.token, customerRef: null, contactId: randomUUID(), idempotencyKey: randomUUID() });
    assert.deepEqual(result, { ok: false, kind: 'declined', declineCode: 'generic_decline', merchantAdviceCode: null, message: 'Your card was declined.' });
  });

  it('declines a save that needs the holder to authenticate', async () => {
    const token = await gateway.tokenise(card('4000002500003155'));
    assert.ok(token.ok);
    const result = await gateway.attach({ token: token.token, customerRef: null, contactId: randomUUID(), idempotencyKey: randomUUID() });
    assert.ok(!result.ok && result.kind === 'declined');
    assert.equal(result.declineCode, 'authentication_required');
  });

  it('detaches a card, and counts a card already gone as detached', async () => {
    const saved = await savedCard('4242424242424242');
    assert.deepEqual(await gateway.detach({ paymentMethodRef: saved.paymentMethodRef }), { ok: true });
    assert.equal(api.requestsTo('POST', `/v1/payment_methods/${saved.paymentMethodRef}/detach`).at(-1)!.status, 200);
    assert.deepEqual(await gateway.detach({ paymentMethodRef: saved.paymentMethodRef }), { ok: true });
    assert.equal(api.requestsTo('POST', `/v1/payment_methods/${saved.paymentMethodRef}/detach`).at(-1)!.status, 400);
    assert.deepEqual(await gateway.detach({ paymentMethodRef: 'pm_nosuchthing' }), { ok: true });
    assert.equal(api.requestsTo('POST', '/v1/payment_methods/pm_nosuchthing/detach').at(-1)!.status, 404);
  });
});

describe('stripe gateway: charges and refunds', () => {
  it('charges off-session in AUD under the caller’s key', async () => {
    const saved = await savedCard('4242424242424242');
    const key = randomUUID();
    const result = await gateway.charge({ customerRef: saved.customerRef, paymentMethodRef: saved.paymentMethodRef, amount: 4950, description: 'PVS lookup', idempotencyKey: key });
    assert.ok(result.ok);
    assert.equal(api.paymentIntents.get(result.chargeRef)?.status, 'succeeded');
    const [request] = api.requestsTo('POST', '/v1/payment_intents').filter((r) => r.idempotencyKey === key);
    assert.deepEqual(request!.form, {
      amount: '4950',
      currency: 'aud',
      customer: saved.customerRef,
      payment_method: saved.paymentMethodRef,
      off_session: 'true',
      confirm: 'true',
      description: 'PVS lookup',
      allowed_payment_method_types: ['card'],
      metadata: { pvs_idempotency_key: key },
    });
    // Telemetry would ride on every request after the first; it is off.
    assert.ok(api.requests.length > 3);
    assert.ok(api.requests.every((r) => r.headers['x-stripe-client-telemetry'] === undefined));
  });

  it('makes one charge for a key, however often it is asked', async () => {
    const saved = await savedCard('4242424242424242');
    const input = { customerRef: saved.customerRef, paymentMethodRef: saved.paymentMethodRef, amount: 1200, description: 'retry', idempotencyKey: randomUUID() };
    const before = api.paymentIntents.size;
    const first = await gateway.charge(input);
    const second = await gateway.charge(input);
    assert.ok(first.ok && second.ok);
    assert.equal(second.chargeRef, first.chargeRef);
    assert.equal(api.paymentIntents.size, before + 1);
    assert.deepEqual(api.requests.filter((r) => r.idempotencyKey === input.idempotencyKey).map((r) => r.replayed), [false, true]);
    // The same key for a different charge is our bug, and Stripe refuses it.
    await assert.rejects(gateway.charge({ ...input, amount: 1300 }), /idempotency_error/);
  });

  it('returns insufficient funds with the network advice code', async () => {
    const saved = await savedCard('4000000000009995');
    const result = await gateway.charge({ customerRef: saved.customerRef, paymentMethodRef: saved.paymentMethodRef, amount: 5000, description: 'x', idempotencyKey: randomUUID() });
    assert.deepEqual(result, { ok: false, kind: 'declined', declineCode: 'insufficient_funds', merchantAdviceCode: '02', message: 'Your card has insufficient funds.' });
  });

  it("maps Stripe's do_not_try_again advice to merchant advice code 03 when the network gave none", async () => {
    const saved = await savedCard('4000000000000341');
    const result = await gateway.charge({ customerRef: saved.customerRef, paymentMethodRef: saved.paymentMethodRef, amount: 5000, description: 'x', idempotencyKey: randomUUID() });
    assert.deepEqual(result, { ok: false, kind: 'declined', declineCode: 'do_not_honor', merchantAdviceCode: '03', message: 'Your card was declined.' });
  });

  it('maps the advice codes, preferring the network’s own', () => {
    assert.equal(merchantAdviceCodeOf({ advice_code: 'confirm_card_data' }), '01');
    assert.equal(merchantAdviceCodeOf({ advice_code: 'try_again_later' }), '02');
    assert.equal(merchantAdviceCodeOf({ advice_code: 'do_not_try_again' }), '03');
    assert.equal(merchantAdviceCodeOf({ advice_code: 'something_new' }), null);
    assert.equal(merchantAdviceCodeOf({ advice_code: 'try_again_later', network_advice_code: '21' }), '21');
    assert.equal(merchantAdviceCodeOf({}), null);
  });

  it('treats a charge still processing as unavailable, and reads its outcome on the retry', async () => {
    const saved = await savedCard('4242424242424242');
    const input = { customerRef: saved.customerRef, paymentMethodRef: saved.paymentMethodRef, amount: 700, description: 'slow', idempotencyKey: randomUUID() };
    api.setChargesProcessing(true);
    const first = await gateway.charge(input);
    api.setChargesProcessing(false);
    assert.ok(!first.ok && first.kind === 'unavailable', JSON.stringify(first));
    const [created] = api.requests.filter((r) => r.idempotencyKey === input.idempotencyKey);
    const piId = JSON.stringify(first).match(/pi_[0-9a-f]+/)?.[0];
    assert.ok(piId && api.paymentIntents.has(piId));
    assert.equal(created!.status, 200);
    assert.equal(api.requestsTo('GET', `/v1/payment_intents/${piId}`).length, 1, 'looked once more before giving up');

    const second = await gateway.charge(input);
    assert.deepEqual(second, { ok: true, chargeRef: piId });
  });

  it('refunds part of a charge under the caller’s key', async () => {
    const saved = await savedCard('4242424242424242');
    const charge = await gateway.charge({ customerRef: saved.customerRef, paymentMethodRef: saved.paymentMethodRef, amount: 3000, description: 'x', idempotencyKey: randomUUID() });
    assert.ok(charge.ok);
    const key = randomUUID();
    const refund = await gateway.refund({ chargeRef: charge.chargeRef, amount: 1000, idempotencyKey: key });
    assert.ok(refund.ok);
    assert.match(refund.refundRef, /^re_/);
    const [request] = api.requestsTo('POST', '/v1/refunds').filter((r) => r.idempotencyKey === key);
    assert.deepEqual(request!.form, { payment_intent: charge.chargeRef, amount: '1000' });
    // More than is left is a bug in the caller, not an outage.
    await assert.rejects(gateway.refund({ chargeRef: charge.chargeRef, amount: 2500, idempotencyKey: randomUUID() }), /Stripe refund was refused \(400/);
  });
});

describe('stripe gateway: paying once on a hosted page', () => {
  it('confirms a PaymentIntent for the unsaved card, in AUD, under the caller’s key, once', async () => {
    const token = await gateway.tokenise(card('4242424242424242'));
    assert.ok(token.ok);
    const input = { token: token.token, amount: 125_000, description: 'ATO payment pay_1', idempotencyKey: randomUUID() };
    const first = await gateway.pay(input);
    const again = await gateway.pay(input);
    assert.ok(first.ok && again.ok);
    assert.equal(again.chargeRef, first.chargeRef);
    assert.equal(api.paymentIntents.get(first.chargeRef)?.status, 'succeeded');
    const requests = api.requestsTo('POST', '/v1/payment_intents').filter((r) => r.idempotencyKey === input.idempotencyKey);
    assert.deepEqual(requests[0]!.form, {
      amount: '125000',
      currency: 'aud',
      payment_method: token.token,
      confirm: 'true',
      description: 'ATO payment pay_1',
      allowed_payment_method_types: ['card'],
      metadata: { pvs_idempotency_key: input.idempotencyKey },
    });
    assert.deepEqual(requests.map((r) => r.replayed), [false, true]);
  });

  it('returns the retryable and the hard declines with their codes', async () => {
    const cases = [
      ['4000000000009995', { declineCode: 'insufficient_funds', merchantAdviceCode: '02', message: 'Your card has insufficient funds.' }],
      ['4000000000000341', { declineCode: 'do_not_honor', merchantAdviceCode: '03', message: 'Your card was declined.' }],
      ['4000000000000002', { declineCode: 'generic_decline', merchantAdviceCode: null, message: 'Your card was declined.' }],
    ] as const;
    for (const [number, decline] of cases) {
      const token = await gateway.tokenise(card(number));
      assert.ok(token.ok);
      const result = await gateway.pay({ token: token.token, amount: 5000, description: 'x', idempotencyKey: randomUUID() });
      assert.deepEqual(result, { ok: false, kind: 'declined', ...decline }, number);
    }
  });
});

describe('stripe gateway: finding a charge by the key it was made under', () => {
  /** The search requests findCharge sent for a key. */
  const searchesFor = (key: string) => api.requestsTo('GET', '/v1/payment_intents/search').filter((r) => String(r.form.query).includes(key));

  it('finds an off-session charge by its key in the metadata, with one search and nothing written', async () => {
    const saved = await savedCard('4242424242424242');
    const key = `brn_${randomUUID()}:attempt:1`;
    const charged = await gateway.charge({ customerRef: saved.customerRef, paymentMethodRef: saved.paymentMethodRef, amount: 4500, description: 'x', idempotencyKey: key });
    assert.ok(charged.ok);
    const posts = api.requestsTo('POST', '/v1/payment_intents').length;

    assert.deepEqual(await gateway.findCharge({ idempotencyKey: key }), { ok: true, found: true, result: { ok: true, chargeRef: charged.chargeRef } });
    const [search, ...more] = searchesFor(key);
    assert.equal(more.length, 0);
    assert.deepEqual(search!.form, { query: `metadata['pvs_idempotency_key']:'${key}'`, limit: '10' });
    assert.equal(search!.idempotencyKey, null, 'a read carries no idempotency key');
    assert.equal(search!.status, 200);
    assert.equal(api.requestsTo('POST', '/v1/payment_intents').length, posts, 'looking up charges nothing');
  });

  it('finds a declined charge with its decline code and merchant advice code', async () => {
    const saved = await savedCard('4000000000009995');
    const key = randomUUID();
    const declined = await gateway.charge({ customerRef: saved.customerRef, paymentMethodRef: saved.paymentMethodRef, amount: 5000, description: 'x', idempotencyKey: key });
    assert.ok(!declined.ok && declined.kind === 'declined');
    assert.deepEqual(await gateway.findCharge({ idempotencyKey: key }), {
      ok: true,
      found: true,
      result: { ok: false, kind: 'declined', declineCode: 'insufficient_funds', merchantAdviceCode: '02', message: 'Your card has insufficient funds.' },
    });
  });

  it('finds an on-session payment made by pay, and a declined one', async () => {
    for (const [number, expected] of [
      ['4242424242424242', 'succeeded'],
      ['4000000000000341', 'do_not_honor'],
    ] as const) {
      const token = await gateway.tokenise(card(number));
      assert.ok(token.ok);
      const key = `pay_${randomUUID()}:attempt:1`;
      const paid = await gateway.pay({ token: token.token, amount: 125_000, description: 'ATO payment', idempotencyKey: key });
      const found = await gateway.findCharge({ idempotencyKey: key });
      assert.ok(found.ok && found.found, JSON.stringify(found));
      assert.deepEqual(found.result, paid, number);
      assert.equal(found.result.ok ? 'succeeded' : found.result.kind === 'declined' && found.result.declineCode, expected);
    }
  });

  it('answers not found for a key no charge was made under, and never matches another key', async () => {
    const saved = await savedCard('4242424242424242');
    const key = randomUUID();
    const charged = await gateway.charge({ customerRef: saved.customerRef, paymentMethodRef: saved.paymentMethodRef, amount: 900, description: 'x', idempotencyKey: key });
    assert.ok(charged.ok);
    assert.deepEqual(await gateway.findCharge({ idempotencyKey: `${key}:attempt:2` }), { ok: true, found: false });
    assert.deepEqual(await gateway.findCharge({ idempotencyKey: key.slice(0, -1) }), { ok: true, found: false });
  });

  it("escapes quotes and backslashes in the key, so a key cannot change the query", async () => {
    const id = randomUUID();
    const key = `it's\\${id}' OR status:'succeeded`;
    assert.deepEqual(await gateway.findCharge({ idempotencyKey: key }), { ok: true, found: false });
    const [search] = searchesFor(id);
    assert.equal(search!.form.query, `metadata['pvs_idempotency_key']:'it\\'s\\\\${id}\\' OR status:\\'succeeded'`);
    assert.equal(search!.status, 200);
  });

  it('prefers the payment that took the money when a key was used twice after Stripe forgot it', async () => {
    // Two PaymentIntents with one key in their metadata: what a repeat after Stripe's 24 hours makes.
    const key = randomUUID();
    const first = await savedCard('4000000000009995');
    const second = await savedCard('4242424242424242');
    const declined = await gateway.charge({ customerRef: first.customerRef, paymentMethodRef: first.paymentMethodRef, amount: 700, description: 'x', idempotencyKey: key });
    assert.ok(!declined.ok);
    const paid = await stripeDirect().paymentIntents.create({
      amount: 700,
      currency: 'aud',
      customer: second.customerRef,
      payment_method: second.paymentMethodRef,
      off_session: true,
      confirm: true,
      allowed_payment_method_types: ['card'],
      metadata: { pvs_idempotency_key: key },
    });
    assert.deepEqual(await gateway.findCharge({ idempotencyKey: key }), { ok: true, found: true, result: { ok: true, chargeRef: paid.id } });
  });

  it('answers unavailable while the charge is still processing, and its outcome once settled', async () => {
    const saved = await savedCard('4242424242424242');
    const key = randomUUID();
    api.setChargesProcessing(true);
    const first = await gateway.charge({ customerRef: saved.customerRef, paymentMethodRef: saved.paymentMethodRef, amount: 800, description: 'x', idempotencyKey: key });
    assert.ok(!first.ok && first.kind === 'unavailable');
    const during = await gateway.findCharge({ idempotencyKey: key });
    api.setChargesProcessing(false);
    assert.ok(!during.ok && during.kind === 'unavailable' && /still processing/.test(during.message), JSON.stringify(during));
    const settled = await gateway.findCharge({ idempotencyKey: key });
    assert.ok(settled.ok && settled.found && settled.result.ok);
  });

  it('answers unavailable when Stripe is down, without secrets', async () => {
    api.setOutage('http500');
    const result = await gateway.findCharge({ idempotencyKey: randomUUID() }).finally(() => api.setOutage(null));
    assert.ok(!result.ok && result.kind === 'unavailable');
    assert.match(result.message, /Stripe charge search failed/);
    assert.ok(!result.message.includes(api.secretKey));
  });
});

/** The SDK on the stand-in without our gateway around it, to make what our gateway never would. */
function stripeDirect(): Stripe {
  const url = new URL(api.url);
  return new Stripe(api.secretKey, { apiVersion: Stripe.API_VERSION, host: url.hostname, port: Number(url.port), protocol: 'http', maxNetworkRetries: 0, telemetry: false });
}

describe('stripe gateway: outages and misconfiguration', () => {
  async function chargeDuring(outage: 'http500' | 'http429' | 'drop') {
    const saved = await savedCard('4242424242424242');
    const input = { customerRef: saved.customerRef, paymentMethodRef: saved.paymentMethodRef, amount: 900, description: 'x', idempotencyKey: randomUUID() };
    api.setOutage(outage);
    const during = await gateway.charge(input).finally(() => api.setOutage(null));
    const attempts = api.requests.filter((r) => r.idempotencyKey === input.idempotencyKey).length;
    const afterwards = await gateway.charge(input);
    return { during, attempts, afterwards };
  }

  for (const outage of ['http500', 'http429', 'drop'] as const) {
    it(`answers unavailable when Stripe ${outage === 'drop' ? 'drops the connection' : `answers ${outage.slice(4)}`}, and charges once it is back`, async () => {
      const { during, attempts, afterwards } = await chargeDuring(outage);
      assert.ok(!during.ok && during.kind === 'unavailable', JSON.stringify(during));
      // 500 and a cut connection are retried once with the same key; a 429 is not retried by the SDK.
      assert.equal(attempts, outage === 'http429' ? 1 : 2);
      assert.ok(afterwards.ok);
    });
  }

  it('answers unavailable when nothing listens', async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise((resolve) => probe.close(resolve));
    const closed = createStripeGateway({ secretKey: api.secretKey, publishableKey: 'pk_test_x', apiBase: `http://127.0.0.1:${port}` });
    const result = await closed.charge({ customerRef: 'cus_x', paymentMethodRef: 'pm_x', amount: 100, description: 'x', idempotencyKey: randomUUID() });
    assert.ok(!result.ok && result.kind === 'unavailable');
    assert.ok(!result.message.includes(api.secretKey));
  });

  it('answers unavailable when Stripe does not answer in time', async () => {
    const impatient = createStripeGateway({ secretKey: api.secretKey, publishableKey: 'pk_test_x', apiBase: api.url, timeoutMs: 150 });
    api.setOutage('hang');
    const result = await impatient.detach({ paymentMethodRef: 'pm_x' }).finally(() => api.setOutage(null));
    assert.ok(!result.ok && result.kind === 'unavailable');
    assert.match(result.message, /timeout/);
  });

  it('throws on a rejected key, naming neither the key nor its tail', async () => {
    const wrongKey = 'sk_test_notTheRightKeyAtAllQZXW';
    const misconfigured = createStripeGateway({ secretKey: wrongKey, publishableKey: 'pk_test_x', apiBase: api.url });
    const error = await misconfigured.tokenise(card('4242424242424242')).then(
      () => assert.fail('a rejected key must throw'),
      (e: unknown) => e as Error,
    );
    assert.match(error.message, /rejected the secret key \(401\)/);
    assert.equal(api.requests.at(-1)!.status, 401);
    for (const text of [error.message, String(error.stack)]) {
      assert.ok(!text.includes(wrongKey) && !text.includes('QZXW'), text);
    }
  });

  it('throws on a request Stripe refuses, with what was wrong and no secret', async () => {
    const error = await gateway
      .charge({ customerRef: 'cus_nosuchcustomer', paymentMethodRef: 'pm_x', amount: 100, description: 'x', idempotencyKey: randomUUID() })
      .then(
        () => assert.fail('an invalid request must throw'),
        (e: unknown) => e as Error,
      );
    assert.match(error.message, /Stripe charge was refused \(400 invalid_request_error, resource_missing, param customer\)/);
    assert.match(error.message, /No such customer: 'cus_nosuchcustomer'/);
    assert.ok(!error.message.includes(api.secretKey) && !String(error.stack).includes(api.secretKey));
  });
});
