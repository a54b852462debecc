// ATO payments as a partner and the payer meet them: create (shape, commission, validation pointers,
// idempotency), reads without the link, lists, tenancy, cancel and link rules, every transition the
// payer's cards cause on the hosted call, every event's payload exactly, the 410 answers, and the PRN
// kept out of logs and sealed at rest.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createManualClock } from '../../src/platform/clock.ts';
import { createKeyRing } from '../../src/platform/keys/key-ring.ts';
import { cards, createContact, runDueJobs } from '../helpers/billing.ts';
import { createTestContext, testSecretKey, type TestContext, type TestPartner } from '../helpers/context.ts';
import { createPayment, getPayment, linkToken, payWith, paymentEvents, samplePrn, type PaymentBody } from '../helpers/payments.ts';

const clock = createManualClock(new Date('2026-11-24T09:00:00.000Z'));
let t: TestContext;
let partner: TestPartner;
let other: TestPartner;

before(async () => {
  t = await createTestContext({ clock });
  partner = await t.f.partner({ name: 'Ledger Tax', commissionBps: 125 });
  other = await t.f.partner({ name: 'Other Practice' });
});
after(() => t.close());

const post = (url: string, who: TestPartner, payload?: unknown, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url, headers: { ...who.headers, ...headers }, ...(payload === undefined ? {} : { payload: payload as object }) });

describe('creating a payment', () => {
  it('answers 201 with CONTRACT §9’s shape, the link once, and the commission rounded half up', async () => {
    const res = await post('/v1/payments', partner, { amount: 125_050, prn: '5512 3456 7890 123', description: 'BAS Q1', metadata: { invoice: 'INV-1001' } });
    assert.equal(res.statusCode, 201, res.body);
    const body = res.json<PaymentBody>();
    assert.match(body.id, /^pay_[0-9A-Z]{26}$/);
    assert.match(body.paymentUrl!, /^http:\/\/pvs\.test\/p\/[A-Za-z0-9_-]{43}$/);
    assert.deepEqual(
      { ...body, id: undefined, paymentUrl: undefined },
      {
        id: undefined,
        status: 'CREATED',
        amount: 125_050,
        // 125,050 × 125 / 10,000 = 1,563.125 → 1,563
        commissionAmount: 1_563,
        currency: 'AUD',
        prn: '551234567890123',
        description: 'BAS Q1',
        contactId: null,
        metadata: { invoice: 'INV-1001' },
        paymentUrl: undefined,
        linkExpiresAt: '2026-12-08T09:00:00.000Z',
        attempts: 0,
        failureReason: null,
        completedAt: null,
        createdAt: '2026-11-24T09:00:00.000Z',
        updatedAt: '2026-11-24T09:00:00.000Z',
      },
    );
    assert.equal((await createPayment(t, partner, { amount: 200 })).commissionAmount, 3, '2.5 cents rounds up to 3');
    assert.equal((await createPayment(t, other, { amount: 999_999 })).commissionAmount, 0, 'no commission configured');
  });

  it('emits payment.created with SPEC’s payment fields only', async () => {
    const payment = await createPayment(t, partner, { metadata: { a: '1' } });
    assert.deepEqual(await paymentEvents(t, payment.id), [
      { type: 'payment.created', payload: { id: payment.id, amount: 125_000, status: 'CREATED', commissionAmount: 1_563, metadata: { a: '1' } } },
    ]);
  });

  it('keeps only the link’s HMAC, and the PRN sealed: neither is readable in the tables or the logs', async () => {
    const prn = '987654321098765432';
    const payment = await createPayment(t, partner, { prn });
    const [link] = await t.services.db.query<{ token_hash: string }>('SELECT token_hash FROM payment_links WHERE payment_id = $1', [payment.id]);
    assert.equal(link!.token_hash, createKeyRing(testSecretKey).digester('payment-link-tokens').digest(payment.token));
    const tables = JSON.stringify(await t.services.db.query('SELECT p.*, l.* FROM payments p JOIN payment_links l ON l.payment_id = p.id'));
    assert.ok(!tables.includes(prn) && !tables.includes(payment.token), 'no PRN or link token in the clear');
    await payWith(t, payment.token, cards.succeeds);
    assert.ok(!t.logText().includes(prn), 'no PRN in the logs');
    assert.equal((await getPayment(t, partner, payment.id)).prn, prn);
  });

  it('refuses bad fields with a pointer and words for each', async () => {
    const cases: Array<[Record<string, unknown>, string, RegExp]> = [
      [{ amount: 100, prn: '12345678901' }, '/prn', /12 to 18 digits long; this one has 11/],
      [{ amount: 100, prn: '1234-5678-9012' }, '/prn', /digits only/],
      [{ amount: 100, prn: '000000000000' }, '/prn', /all zeros/],
      [{ amount: 0, prn: samplePrn }, '/amount', /must be >= 1/],
      [{ amount: 12.5, prn: samplePrn }, '/amount', /integer/],
      [{ amount: 10_000_001, prn: samplePrn }, '/amount', /at most 10000000 cents \(\$100000\.00\)/],
      [{ amount: '100', prn: samplePrn }, '/amount', /integer/],
      [{ amount: 100, prn: samplePrn, metadata: { n: 1 } }, '/metadata/n', /string/],
      [{ amount: 100, prn: samplePrn, metadata: { 'bad key': 'x' } }, '/metadata/bad key', /keys are 1 to 40 letters/],
      [{ amount: 100, prn: samplePrn, metadata: { k: 'v'.repeat(501) } }, '/metadata/k', /500/],
      [{ amount: 100, prn: samplePrn, metadata: Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`k${i}`, 'v'])) }, '/metadata', /20/],
      [{ amount: 100, prn: samplePrn, colour: 'red' }, '/colour', /not a known field/],
      [{ prn: samplePrn }, '/amount', /required/],
    ];
    for (const [payload, pointer, message] of cases) {
      const res = await post('/v1/payments', partner, payload);
      assert.equal(res.statusCode, 400, `${JSON.stringify(payload)}: ${res.body}`);
      const problem = res.json<{ code: string; errors: Array<{ pointer: string; message: string }> }>();
      assert.equal(problem.code, 'VALIDATION_ERROR');
      const found = problem.errors.find((e) => e.pointer === pointer);
      assert.ok(found, `${JSON.stringify(payload)}: no problem at ${pointer} in ${res.body}`);
      assert.match(found.message, message, res.body);
    }
    const [n] = await t.services.db.query<{ n: number }>("SELECT count(*)::int AS n FROM payments WHERE amount = 100");
    assert.equal(n!.n, 0, 'nothing was written');
  });

  it('reports every problem at once', async () => {
    const res = await post('/v1/payments', partner, { amount: 20_000_000, prn: '12', metadata: { 'a b': 'x' } });
    assert.deepEqual(
      res.json<{ errors: Array<{ pointer: string }> }>().errors.map((e) => e.pointer),
      ['/prn', '/amount', '/metadata/a b'],
    );
  });

  it('takes a contact of its own, and refuses an unknown, archived or another partner’s with 422 CONTACT_INVALID', async () => {
    const contact = await createContact(t, partner);
    assert.equal((await createPayment(t, partner, { contactId: contact.id })).contactId, contact.id);
    const foreign = await createContact(t, other);
    const archived = await createContact(t, partner);
    await t.app.inject({ method: 'DELETE', url: `/v1/contacts/${archived.id}`, headers: partner.headers });
    for (const contactId of ['con_01JD0000000000000000000000', foreign.id, archived.id]) {
      const res = await post('/v1/payments', partner, { amount: 100, prn: samplePrn, contactId });
      assert.equal(res.statusCode, 422, res.body);
      assert.equal(res.json<{ code: string }>().code, 'CONTACT_INVALID');
      assert.deepEqual(res.json<{ errors: unknown }>().errors, [{ pointer: '/contactId', message: `Contact ${contactId} is unknown or archived` }]);
    }
  });

  it('replays an Idempotency-Key without the link, and refuses the key with another body', async () => {
    const headers = { 'idempotency-key': 'pay-once-1' };
    const first = await post('/v1/payments', partner, { amount: 5_000, prn: samplePrn }, headers);
    const replay = await post('/v1/payments', partner, { amount: 5_000, prn: samplePrn }, headers);
    assert.equal(first.statusCode, 201);
    assert.equal(replay.statusCode, 201);
    const { paymentUrl, ...rest } = first.json<PaymentBody>();
    assert.ok(paymentUrl);
    assert.deepEqual(replay.json(), rest);
    const [count] = await t.services.db.query<{ n: number }>('SELECT count(*)::int AS n FROM payments WHERE id = $1', [rest.id]);
    assert.equal(count!.n, 1);
    assert.equal((await paymentEvents(t, rest.id)).length, 1, 'one payment.created');
    const changed = await post('/v1/payments', partner, { amount: 5_001, prn: samplePrn }, headers);
    assert.equal(changed.statusCode, 422);
    assert.equal(changed.json<{ code: string }>().code, 'IDEMPOTENCY_KEY_REUSED');
  });
});

describe('reading payments', () => {
  it('never shows the link on a read', async () => {
    const payment = await createPayment(t, partner);
    const read = await getPayment(t, partner, payment.id);
    assert.equal(read.paymentUrl, undefined);
    const { paymentUrl: _url, token: _token, ...created } = payment;
    assert.deepEqual(read, created);
  });

  it('lists by page, oldest first, filtered by status and contact', async () => {
    const fresh = await t.f.partner();
    const made = [];
    for (let i = 0; i < 3; i++) made.push(await createPayment(t, fresh, { amount: 1_000 + i }));
    await post(`/v1/payments/${made[1]!.id}/cancel`, fresh);
    const page1 = await t.app.inject({ method: 'GET', url: '/v1/payments?limit=2', headers: fresh.headers });
    const body = page1.json<{ data: PaymentBody[]; limit: number; from: number; nextFrom: number | null }>();
    assert.deepEqual(body.data.map((p) => p.id), [made[0]!.id, made[1]!.id]);
    assert.deepEqual([body.limit, body.from, body.nextFrom], [2, 0, 2]);
    assert.ok(body.data.every((p) => p.paymentUrl === undefined));
    const page2 = await t.app.inject({ method: 'GET', url: '/v1/payments?limit=2&from=2', headers: fresh.headers });
    assert.deepEqual(page2.json<{ data: PaymentBody[]; nextFrom: null }>().data.map((p) => p.id), [made[2]!.id]);
    const cancelled = await t.app.inject({ method: 'GET', url: '/v1/payments?status=CANCELLED', headers: fresh.headers });
    assert.deepEqual(cancelled.json<{ data: PaymentBody[] }>().data.map((p) => p.id), [made[1]!.id]);
    for (const query of ['limit=0', 'limit=101', 'status=PAID', 'from=-1']) {
      const res = await t.app.inject({ method: 'GET', url: `/v1/payments?${query}`, headers: fresh.headers });
      assert.equal(res.statusCode, 400, query);
      assert.match(res.json<{ errors: Array<{ pointer: string }> }>().errors[0]!.pointer, /^query:/);
    }
  });

  it('answers another partner’s payment exactly like a missing one', async () => {
    const payment = await createPayment(t, partner);
    const missing = 'pay_01JD0000000000000000000000';
    for (const [method, path] of [
      ['GET', ''],
      ['POST', '/cancel'],
      ['POST', '/link'],
    ] as const) {
      const theirs = await t.app.inject({ method, url: `/v1/payments/${payment.id}${path}`, headers: other.headers });
      const none = await t.app.inject({ method, url: `/v1/payments/${missing}${path}`, headers: other.headers });
      assert.equal(theirs.statusCode, 404, `${method} ${path}`);
      assert.equal(none.statusCode, 404);
      assert.equal(theirs.json<{ code: string }>().code, 'NOT_FOUND');
    }
    const list = await t.app.inject({ method: 'GET', url: '/v1/payments?limit=100', headers: other.headers });
    assert.ok(!list.json<{ data: PaymentBody[] }>().data.some((p) => p.id === payment.id));
    assert.equal((await getPayment(t, partner, payment.id)).status, 'CREATED', 'untouched');
  });
});

describe('paying on the hosted link', () => {
  it('4242: CREATED → PROCESSING → SUCCEEDED, with processing and succeeded events; the link then answers 410 PAID', async () => {
    const payment = await createPayment(t, partner, { amount: 40_000, metadata: { ref: 'x' } });
    const res = await payWith(t, payment.token, cards.succeeds);
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.json(), { status: 'SUCCEEDED' });
    const fields = { id: payment.id, amount: 40_000, commissionAmount: 500, metadata: { ref: 'x' } };
    assert.deepEqual(await paymentEvents(t, payment.id), [
      { type: 'payment.created', payload: { ...fields, status: 'CREATED' } },
      { type: 'payment.processing', payload: { ...fields, status: 'PROCESSING' } },
      { type: 'payment.succeeded', payload: { ...fields, status: 'SUCCEEDED' } },
    ]);
    const read = await getPayment(t, partner, payment.id);
    assert.deepEqual([read.status, read.attempts, read.completedAt, read.linkExpiresAt], ['SUCCEEDED', 1, '2026-11-24T09:00:00.000Z', null]);
    const again = await payWith(t, payment.token, cards.succeeds);
    assert.equal(again.statusCode, 410);
    assert.deepEqual([again.json<{ code: string }>().code, again.json<{ linkState: string }>().linkState], ['LINK_INVALID', 'PAID']);
    const [charges] = await t.services.db.query<{ n: number }>("SELECT count(*)::int AS n FROM sandbox_gateway_charges WHERE description = $1", [`ATO payment ${payment.id}`]);
    assert.equal(charges!.n, 1, 'one charge at the gateway, for the amount');
  });

  it('9995 declines with insufficient funds: 402, still PROCESSING, payment.processing again; then 4242 succeeds on the same link', async () => {
    const payment = await createPayment(t, partner, { amount: 10_000 });
    const declined = await payWith(t, payment.token, cards.insufficientFunds);
    assert.equal(declined.statusCode, 402, declined.body);
    const problem = declined.json<{ code: string; declineCode: string; paymentStatus: string; detail: string }>();
    assert.deepEqual([problem.code, problem.declineCode, problem.paymentStatus, problem.detail], ['CARD_DECLINED', 'insufficient_funds', 'PROCESSING', 'Your card has insufficient funds.']);
    assert.equal((await getPayment(t, partner, payment.id)).status, 'PROCESSING');
    const paid = await payWith(t, payment.token, cards.succeeds);
    assert.deepEqual(paid.json(), { status: 'SUCCEEDED' });
    const fields = { id: payment.id, amount: 10_000, commissionAmount: 125, metadata: {} };
    assert.deepEqual(await paymentEvents(t, payment.id), [
      { type: 'payment.created', payload: { ...fields, status: 'CREATED' } },
      { type: 'payment.processing', payload: { ...fields, status: 'PROCESSING' } },
      { type: 'payment.processing', payload: { ...fields, status: 'PROCESSING' } },
      { type: 'payment.succeeded', payload: { ...fields, status: 'SUCCEEDED' } },
    ]);
    assert.equal((await getPayment(t, partner, payment.id)).attempts, 2);
  });

  for (const [label, number, declineCode] of [
    ['0341 (do_not_honor)', cards.doNotHonor, 'do_not_honor'],
    ['0002 (generic_decline)', cards.declinesOnSave, 'generic_decline'],
  ] as const) {
    it(`${label} is a hard decline: 402 with status FAILED, payment.failed, and the link closed`, async () => {
      const payment = await createPayment(t, partner, { amount: 7_700 });
      const res = await payWith(t, payment.token, number);
      assert.equal(res.statusCode, 402);
      assert.deepEqual([res.json<{ declineCode: string }>().declineCode, res.json<{ paymentStatus: string }>().paymentStatus], [declineCode, 'FAILED']);
      const fields = { id: payment.id, amount: 7_700, commissionAmount: 96, metadata: {} };
      assert.deepEqual((await paymentEvents(t, payment.id)).slice(1), [
        { type: 'payment.processing', payload: { ...fields, status: 'PROCESSING' } },
        { type: 'payment.failed', payload: { ...fields, status: 'FAILED' } },
      ]);
      const read = await getPayment(t, partner, payment.id);
      assert.deepEqual([read.status, read.failureReason], ['FAILED', declineCode]);
      const after = await payWith(t, payment.token, cards.succeeds);
      assert.deepEqual([after.statusCode, after.json<{ linkState: string }>().linkState], [410, 'FAILED']);
      const cancel = await post(`/v1/payments/${payment.id}/cancel`, partner);
      assert.equal(cancel.statusCode, 409);
      assert.match(cancel.json<{ detail: string }>().detail, /is FAILED/);
    });
  }

  it('an unknown link is 404; an expired one 410 EXPIRED', async () => {
    const unknown = await t.app.inject({ method: 'POST', url: `/hosted/v1/payment-links/${'A'.repeat(43)}`, payload: { paymentToken: 'tok_x1' } });
    assert.equal(unknown.statusCode, 404);
    const payment = await createPayment(t, partner);
    clock.advance(336 * 3600_000);
    [partner, other] = [await t.f.signIn(partner), await t.f.signIn(other)];
    const expired = await payWith(t, payment.token, cards.succeeds);
    assert.deepEqual([expired.statusCode, expired.json<{ linkState: string }>().linkState], [410, 'EXPIRED']);
    // A new link works again.
    const renewed = await post(`/v1/payments/${payment.id}/link`, partner);
    assert.equal(renewed.statusCode, 200, renewed.body);
    assert.deepEqual((await payWith(t, linkToken(renewed.json<PaymentBody>().paymentUrl!), cards.succeeds)).json(), { status: 'SUCCEEDED' });
  });

  it('refuses a body with anything but the token', async () => {
    const payment = await createPayment(t, partner);
    const res = await t.app.inject({ method: 'POST', url: `/hosted/v1/payment-links/${payment.token}`, payload: { paymentToken: 'tok_x1', number: '4242424242424242' } });
    assert.equal(res.statusCode, 400);
    assert.equal(res.json<{ errors: Array<{ pointer: string }> }>().errors[0]!.pointer, '/number');
  });
});

describe('cancelling', () => {
  it('cancels a CREATED or PROCESSING payment once, with payment.cancelled; the link then answers 410 CANCELLED', async () => {
    const created = await createPayment(t, partner, { amount: 3_000 });
    const res = await post(`/v1/payments/${created.id}/cancel`, partner);
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual([res.json<PaymentBody>().status, res.json<PaymentBody>().completedAt, res.json<PaymentBody>().linkExpiresAt], ['CANCELLED', '2026-12-08T09:00:00.000Z', null]);
    assert.deepEqual((await paymentEvents(t, created.id)).at(-1), {
      type: 'payment.cancelled',
      payload: { id: created.id, amount: 3_000, status: 'CANCELLED', commissionAmount: 38, metadata: {} },
    });
    const again = await post(`/v1/payments/${created.id}/cancel`, partner);
    assert.equal(again.statusCode, 409);
    assert.deepEqual([again.json<{ code: string }>().code, again.json<{ detail: string }>().detail], [
      'INVALID_STATE',
      `Payment ${created.id} is CANCELLED; only CREATED or PROCESSING payments can be cancelled`,
    ]);
    const pay = await payWith(t, created.token, cards.succeeds);
    assert.deepEqual([pay.statusCode, pay.json<{ linkState: string }>().linkState], [410, 'CANCELLED']);

    const processing = await createPayment(t, partner);
    await payWith(t, processing.token, cards.insufficientFunds);
    assert.equal((await post(`/v1/payments/${processing.id}/cancel`, partner)).json<PaymentBody>().status, 'CANCELLED');

    const paid = await createPayment(t, partner);
    await payWith(t, paid.token, cards.succeeds);
    const late = await post(`/v1/payments/${paid.id}/cancel`, partner);
    assert.equal(late.statusCode, 409);
    assert.match(late.json<{ detail: string }>().detail, /is SUCCEEDED/);
  });
});

describe('regenerating the link', () => {
  it('answers a new URL once, emits payment.link_regenerated with newUrl, and the old link answers 410 REPLACED', async () => {
    const payment = await createPayment(t, partner, { amount: 2_000 });
    const res = await post(`/v1/payments/${payment.id}/link`, partner);
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json<PaymentBody>();
    assert.notEqual(body.paymentUrl, payment.paymentUrl);
    assert.deepEqual((await paymentEvents(t, payment.id)).at(-1), {
      type: 'payment.link_regenerated',
      payload: { id: payment.id, amount: 2_000, status: 'CREATED', commissionAmount: 25, metadata: {}, newUrl: body.paymentUrl },
    });
    const old = await payWith(t, payment.token, cards.succeeds);
    assert.deepEqual([old.statusCode, old.json<{ code: string }>().code, old.json<{ linkState: string }>().linkState], [410, 'LINK_INVALID', 'REPLACED']);
    assert.equal((await getPayment(t, partner, payment.id)).status, 'CREATED', 'the old link charged nothing');
    assert.deepEqual((await payWith(t, linkToken(body.paymentUrl!), cards.succeeds)).json(), { status: 'SUCCEEDED' });
    const closed = await post(`/v1/payments/${payment.id}/link`, partner);
    assert.equal(closed.statusCode, 409);
    assert.match(closed.json<{ detail: string }>().detail, /is SUCCEEDED; links are for CREATED or PROCESSING payments/);
  });

  it('an Idempotency-Key replay answers without a URL and mints nothing more', async () => {
    const payment = await createPayment(t, partner);
    const headers = { 'idempotency-key': `regen-${payment.id}` };
    const first = await post(`/v1/payments/${payment.id}/link`, partner, undefined, headers);
    const replay = await post(`/v1/payments/${payment.id}/link`, partner, undefined, headers);
    assert.ok(first.json<PaymentBody>().paymentUrl);
    assert.equal(replay.json<PaymentBody>().paymentUrl, undefined);
    const [links] = await t.services.db.query<{ n: number }>('SELECT count(*)::int AS n FROM payment_links WHERE payment_id = $1', [payment.id]);
    assert.equal(links!.n, 2);
  });
});

describe('the gateway not answering', () => {
  it('answers 503 and the settle job records the outcome later, charging once', async () => {
    let down = true;
    const local = await createTestContext({
      clock,
      wrapGateway: (gateway) => ({
        ...gateway,
        pay: async (input) => (down ? { ok: false, kind: 'unavailable', message: 'connection refused' } : gateway.pay(input)),
      }),
    });
    try {
      const who = await local.f.partner();
      const payment = await createPayment(local, who, { amount: 6_000 });
      const res = await payWith(local, payment.token, cards.succeeds);
      assert.equal(res.statusCode, 503, res.body);
      assert.equal(res.headers['retry-after'], '5');
      assert.equal((await getPayment(local, who, payment.id)).status, 'PROCESSING');
      // While the attempt has no outcome, another card waits and the partner cannot cancel.
      const refused = await local.app.inject({ method: 'POST', url: `/v1/payments/${payment.id}/cancel`, headers: who.headers });
      assert.equal(refused.statusCode, 409);
      assert.match(refused.json<{ detail: string }>().detail, /card charge under way/);

      down = false;
      clock.advance(61_000);
      await runDueJobs(local);
      assert.equal((await getPayment(local, who, payment.id)).status, 'SUCCEEDED');
      assert.deepEqual((await paymentEvents(local, payment.id)).map((e) => e.type), ['payment.created', 'payment.processing', 'payment.succeeded']);
      const [charges] = await local.services.db.query<{ n: number }>('SELECT count(*)::int AS n FROM sandbox_gateway_charges WHERE description = $1', [`ATO payment ${payment.id}`]);
      assert.equal(charges!.n, 1);
    } finally {
      await local.close();
    }
  });
});

describe('an attempt the gateway never made, found late', () => {
  it('is recorded as a retryable decline once it is an hour old, never charged then; the payer pays again', async () => {
    let down = true;
    const local = await createTestContext({
      clock,
      wrapGateway: (gateway) => ({
        ...gateway,
        pay: async (input) => (down ? { ok: false, kind: 'unavailable', message: 'connection refused' } : gateway.pay(input)),
        findCharge: async (input) => (down ? { ok: false, kind: 'unavailable', message: 'connection refused' } : gateway.findCharge(input)),
      }),
    });
    try {
      const who = await local.f.partner();
      const payment = await createPayment(local, who, { amount: 6_100 });
      assert.equal((await payWith(local, payment.token, cards.succeeds)).statusCode, 503);
      clock.advance(61_000);
      await runDueJobs(local);
      assert.equal((await getPayment(local, who, payment.id)).status, 'PROCESSING', 'still down: the job waits');
      // Back after two hours: the gateway has no charge under the attempt's key, and the key is too old to reuse.
      down = false;
      clock.advance(2 * 3600_000);
      await runDueJobs(local);
      const [attempt] = await local.services.db.query<{ status: string; decline_code: string }>('SELECT status, decline_code FROM payment_attempts WHERE payment_id = $1', [payment.id]);
      assert.deepEqual(attempt, { status: 'DECLINED', decline_code: 'processing_error' });
      const [charged] = await local.services.db.query<{ n: number }>('SELECT count(*)::int AS n FROM sandbox_gateway_charges WHERE description = $1', [`ATO payment ${payment.id}`]);
      assert.equal(charged!.n, 0, 'the card was not charged hours later');
      assert.deepEqual((await paymentEvents(local, payment.id)).map((e) => e.type), ['payment.created', 'payment.processing', 'payment.processing']);
      const again = await payWith(local, payment.token, cards.succeeds);
      assert.deepEqual(again.json(), { status: 'SUCCEEDED' });
    } finally {
      await local.close();
    }
    // The clock moved on by hours: the shared partners' tokens have expired.
    [partner, other] = [await t.f.signIn(partner), await t.f.signIn(other)];
  });
});

describe('the payment’s notifications', () => {
  it('answers a notification of that payment, and 404 for another payment’s or another partner’s', async () => {
    const destination = await post('/v1/webhook-destinations', partner, { url: 'http://127.0.0.1:9/hook' });
    assert.equal(destination.statusCode, 201, destination.body);
    const one = await createPayment(t, partner);
    const two = await createPayment(t, partner);
    const [notification] = await t.services.db.query<{ id: string }>(
      'SELECT n.id FROM webhook_notifications n JOIN events e ON e.id = n.event_id WHERE e.subject_id = $1',
      [one.id],
    );
    const ok = await t.app.inject({ method: 'GET', url: `/v1/channel-payments/${one.id}/webhook-notifications/${notification!.id}`, headers: partner.headers });
    assert.equal(ok.statusCode, 200, ok.body);
    assert.equal(ok.json<{ type: string }>().type, 'payment.created');
    const wrongPayment = await t.app.inject({ method: 'GET', url: `/v1/channel-payments/${two.id}/webhook-notifications/${notification!.id}`, headers: partner.headers });
    assert.equal(wrongPayment.statusCode, 404);
    const wrongPartner = await t.app.inject({ method: 'GET', url: `/v1/channel-payments/${one.id}/webhook-notifications/${notification!.id}`, headers: other.headers });
    assert.equal(wrongPartner.statusCode, 404);
  });
});
