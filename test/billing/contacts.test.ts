// Contacts through /v1/contacts: create, list, get, PATCH (including the partner's billing block),
// archive, card removal; validation errors with pointers; Idempotency-Key; another partner's contacts.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createManualClock } from '../../src/platform/clock.ts';
import { createTestContext, type TestContext, type TestPartner } from '../helpers/context.ts';
import { billableContact, createContact, eventsOf, runDueJobs, type ContactBody } from '../helpers/billing.ts';

const clock = createManualClock(new Date('2026-11-21T09:00:00.000Z'));
let t: TestContext;
let partner: TestPartner;

before(async () => {
  t = await createTestContext({ clock });
  partner = await t.f.partner({ name: 'Ledger & Co' });
});
after(() => t.close());

const contactKeys = ['archivedAt', 'billingBlocked', 'billingStatus', 'card', 'createdAt', 'email', 'externalId', 'id', 'name', 'updatedAt'];

function call(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown, who: TestPartner = partner, headers: Record<string, string> = {}) {
  return t.app.inject({ method, url, headers: { ...who.headers, ...headers }, ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }) });
}

describe('creating and reading contacts', () => {
  it('creates a contact with no payment method and reads it back', async () => {
    const res = await call('POST', '/v1/contacts', { name: '  Harbour Bookkeeping  ', email: 'accounts@harbour.example', externalId: 'CUST-001' });
    assert.equal(res.statusCode, 201, res.body);
    const contact = res.json<ContactBody>();
    assert.deepEqual(Object.keys(contact).sort(), contactKeys);
    assert.match(contact.id, /^con_[0-9A-HJKMNP-TV-Z]{26}$/);
    assert.equal(contact.name, 'Harbour Bookkeeping', 'the name is trimmed');
    assert.equal(contact.billingStatus, 'NO_PAYMENT_METHOD');
    assert.equal(contact.card, null);
    assert.equal(contact.createdAt, '2026-11-21T09:00:00.000Z');

    const got = await call('GET', `/v1/contacts/${contact.id}`);
    assert.equal(got.statusCode, 200);
    assert.deepEqual(got.json(), contact);
  });

  it('lists contacts in pages and filters by externalId', async () => {
    const other = await t.f.partner();
    const made = [];
    for (let i = 0; i < 3; i++) {
      made.push(await createContact(t, other, { externalId: `EXT-${i}` }));
      clock.advance(1);
    }
    const first = await call('GET', '/v1/contacts?limit=2', undefined, other);
    assert.deepEqual(
      first.json<{ data: ContactBody[] }>().data.map((c) => c.id),
      made.slice(0, 2).map((c) => c.id),
    );
    assert.equal(first.json<{ nextFrom: number }>().nextFrom, 2);
    const filtered = await call('GET', '/v1/contacts?externalId=EXT-1', undefined, other);
    assert.deepEqual(
      filtered.json<{ data: ContactBody[] }>().data.map((c) => c.id),
      [made[1]!.id],
    );
  });

  it('replays a create with the same Idempotency-Key and refuses the key with another body', async () => {
    const first = await call('POST', '/v1/contacts', { name: 'Replay Pty Ltd' }, partner, { 'idempotency-key': 'contact-replay-1' });
    const again = await call('POST', '/v1/contacts', { name: 'Replay Pty Ltd' }, partner, { 'idempotency-key': 'contact-replay-1' });
    assert.equal(again.statusCode, 201);
    assert.equal(again.json<ContactBody>().id, first.json<ContactBody>().id);
    const different = await call('POST', '/v1/contacts', { name: 'Another Name' }, partner, { 'idempotency-key': 'contact-replay-1' });
    assert.equal(different.statusCode, 422);
    assert.equal(different.json<{ code: string }>().code, 'IDEMPOTENCY_KEY_REUSED');
  });
});

describe('validation', () => {
  const cases: Array<[string, unknown, string]> = [
    ['a missing name', {}, '/name'],
    ['a blank name', { name: '   ' }, '/name'],
    ['a name with a control character', { name: 'Bad\u0007Name' }, '/name'],
    ['an email that is not one', { name: 'A', email: 'not-an-email' }, '/email'],
    ['an externalId with spaces', { name: 'A', externalId: 'has space' }, '/externalId'],
    ['an unknown field', { name: 'A', phone: '0400000000' }, '/phone'],
  ];
  for (const [what, body, pointer] of cases) {
    it(`refuses ${what} with a pointer`, async () => {
      const res = await call('POST', '/v1/contacts', body);
      assert.equal(res.statusCode, 400, res.body);
      const problem = res.json<{ code: string; errors: Array<{ pointer: string }> }>();
      assert.equal(problem.code, 'VALIDATION_ERROR');
      assert.ok(
        problem.errors.some((e) => e.pointer === pointer),
        `${pointer} in ${JSON.stringify(problem.errors)}`,
      );
    });
  }

  // What a partner reads: words, never the schema's regular expression.
  const nameWords = 'must contain a non-space character, and no line breaks or tabs';
  const externalIdWords = 'must be visible ASCII characters without spaces (1–100)';
  const emailWords = 'must be an email address';
  const messageCases: Array<[string, Record<string, unknown>, Array<{ pointer: string; message: string }>]> = [
    ['a name of spaces only', { name: '   ' }, [{ pointer: '/name', message: nameWords }]],
    ['a name on two lines', { name: 'Harbour\nBookkeeping' }, [{ pointer: '/name', message: nameWords }]],
    ['an empty name', { name: '' }, [{ pointer: '/name', message: 'must NOT have fewer than 1 characters' }]],
    ['an externalId with a space', { name: 'A', externalId: 'CUST 001' }, [{ pointer: '/externalId', message: externalIdWords }]],
    ['an externalId that is not ASCII', { name: 'A', externalId: 'CLIENT-É1' }, [{ pointer: '/externalId', message: externalIdWords }]],
    ['an email that is not one', { name: 'A', email: 'accounts at harbour' }, [{ pointer: '/email', message: emailWords }]],
    [
      'all three at once',
      { name: ' ', email: 'x@', externalId: '中文' },
      [
        { pointer: '/name', message: nameWords },
        { pointer: '/email', message: emailWords },
        { pointer: '/externalId', message: externalIdWords },
      ],
    ],
  ];
  for (const [what, body, expected] of messageCases) {
    it(`says what is wrong in words: ${what}, on create and on PATCH`, async () => {
      const contact = await createContact(t, partner);
      for (const [method, url] of [
        ['POST', '/v1/contacts'],
        ['PATCH', `/v1/contacts/${contact.id}`],
      ] as const) {
        const res = await call(method, url, body);
        assert.equal(res.statusCode, 400, res.body);
        const problem = res.json<{ code: string; errors: Array<{ pointer: string; message: string }> }>();
        assert.equal(problem.code, 'VALIDATION_ERROR');
        // PATCH's email and externalId may be null: the null branch adds no "must be null" of its own.
        assert.deepEqual(problem.errors, expected, `${method} ${JSON.stringify(body)}`);
        assert.doesNotMatch(res.body, /pattern|\^\[|\\u00/, 'no regular expression reaches the partner');
      }
    });
  }

  it('says so in words for the externalId filter and the Idempotency-Key header too', async () => {
    const listed = await call('GET', '/v1/contacts?externalId=CUST%20001');
    assert.equal(listed.statusCode, 400, listed.body);
    assert.deepEqual(listed.json<{ errors: unknown[] }>().errors, [{ pointer: 'query:externalId', message: externalIdWords }]);
    const keyed = await call('POST', '/v1/contacts', { name: 'A' }, partner, { 'idempotency-key': 'my key' });
    assert.equal(keyed.statusCode, 400, keyed.body);
    assert.deepEqual(keyed.json<{ errors: unknown[] }>().errors, [{ pointer: 'header:Idempotency-Key', message: 'must be 1–255 visible ASCII characters without spaces' }]);
  });

  it('refuses an empty PATCH', async () => {
    const contact = await createContact(t, partner);
    const res = await call('PATCH', `/v1/contacts/${contact.id}`, {});
    assert.equal(res.statusCode, 400);
  });
});

describe('changing, blocking and archiving', () => {
  it('PATCH changes fields, clears email with null, and blocks billing', async () => {
    const contact = await createContact(t, partner, { email: 'a@b.example' });
    clock.advance(1000);
    const res = await call('PATCH', `/v1/contacts/${contact.id}`, { name: 'Renamed', email: null, billingBlocked: true });
    assert.equal(res.statusCode, 200, res.body);
    const changed = res.json<ContactBody>();
    assert.equal(changed.name, 'Renamed');
    assert.equal(changed.email, null);
    assert.equal(changed.billingBlocked, true);
    assert.equal(changed.billingStatus, 'BLOCKED');
    assert.notEqual(changed.updatedAt, contact.updatedAt);
    const unblocked = await call('PATCH', `/v1/contacts/${contact.id}`, { billingBlocked: false });
    assert.equal(unblocked.json<ContactBody>().billingStatus, 'NO_PAYMENT_METHOD');
  });

  it('DELETE archives: kept for reconciliation, no longer changeable', async () => {
    const contact = await createContact(t, partner);
    const res = await call('DELETE', `/v1/contacts/${contact.id}`);
    assert.equal(res.statusCode, 200);
    assert.equal(res.json<ContactBody>().archivedAt, clock.now().toISOString());
    const patch = await call('PATCH', `/v1/contacts/${contact.id}`, { name: 'Too late' });
    assert.equal(patch.statusCode, 409);
    assert.equal(patch.json<{ code: string }>().code, 'INVALID_STATE');
    const link = await call('POST', `/v1/contacts/${contact.id}/card-link`);
    assert.equal(link.statusCode, 409);
  });

  it('DELETE …/card removes the card, emits contact.card.removed once and detaches it at the gateway', async () => {
    const own = await t.f.partner();
    const contact = await billableContact(t, own);
    assert.equal(contact.billingStatus, 'BILLABLE');
    const [method] = await t.services.db.query<{ payment_method_ref: string }>('SELECT payment_method_ref FROM contacts WHERE id = $1', [contact.id]);

    clock.advance(1); // ids sort by time, then at random within a millisecond
    const res = await call('DELETE', `/v1/contacts/${contact.id}/card`, undefined, own);
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json<ContactBody>().card, null);
    assert.equal(res.json<ContactBody>().billingStatus, 'NO_PAYMENT_METHOD');
    const again = await call('DELETE', `/v1/contacts/${contact.id}/card`, undefined, own);
    assert.equal(again.statusCode, 200, 'removing no card answers the contact unchanged');

    const events = await eventsOf(t, own.partnerId);
    assert.deepEqual(
      events.map((e) => e.type),
      ['contact.card.saved', 'contact.card.removed'],
    );
    assert.deepEqual(events[1]!.payload, { contactId: contact.id, channelPartnerId: own.partnerId });

    await runDueJobs(t);
    const [gatewaySide] = await t.services.db.query<{ detached_at: Date | null }>('SELECT detached_at FROM sandbox_gateway_payment_methods WHERE id = $1', [
      method!.payment_method_ref,
    ]);
    assert.ok(gatewaySide?.detached_at, 'the gateway forgot the card');
  });
});

describe('another partner', () => {
  it('cannot see, change, link or list my contacts', async () => {
    const mine = await createContact(t, partner);
    const intruder = await t.f.partner();
    for (const [method, url, body] of [
      ['GET', `/v1/contacts/${mine.id}`],
      ['PATCH', `/v1/contacts/${mine.id}`, { name: 'x' }],
      ['DELETE', `/v1/contacts/${mine.id}`],
      ['DELETE', `/v1/contacts/${mine.id}/card`],
      ['POST', `/v1/contacts/${mine.id}/card-link`],
    ] as const) {
      const res = await call(method, url, body, intruder);
      assert.equal(res.statusCode, 404, `${method} ${url}: ${res.body}`);
      assert.equal(res.json<{ code: string }>().code, 'NOT_FOUND');
    }
    const list = await call('GET', '/v1/contacts', undefined, intruder);
    assert.deepEqual(list.json<{ data: unknown[] }>().data, []);
  });
});
