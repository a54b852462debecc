// Card links as a partner's customer meets them: the hosted page (partner name, prices, states of a
// spent, replaced, expired or unknown link), the sandbox gateway's tokenisation, the save call with
// every sandbox test card, single use, replacement, the contact.card.saved event, and the card number
// never reaching PVS's tables or logs.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createManualClock } from '../../src/platform/clock.ts';
import { createKeyRing } from '../../src/platform/keys/key-ring.ts';
import { createTestContext, testSecretKey, type TestContext, type TestPartner } from '../helpers/context.ts';
import { cardExpiry, cards, createContact, eventsOf, mintCardLink, submitCard, tokenise, type ContactBody } from '../helpers/billing.ts';

const clock = createManualClock(new Date('2026-11-21T09:00:00.000Z'));
let t: TestContext;
let partner: TestPartner;

before(async () => {
  t = await createTestContext({ clock });
  partner = await t.f.partner({ name: 'Ledger <&> Co' });
});
after(() => t.close());

const page = (token: string) => t.app.inject({ method: 'GET', url: `/c/${token}` });

describe('minting a card link', () => {
  it('answers a single-use URL once, valid 24 hours, and keeps only its HMAC', async () => {
    const contact = await createContact(t, partner);
    const link = await mintCardLink(t, partner, contact.id);
    assert.match(link.url, /^http:\/\/pvs\.test\/c\/[A-Za-z0-9_-]{43}$/);
    assert.equal(link.expiresAt, '2026-11-22T09:00:00.000Z');
    const rows = await t.services.db.query<{ token_hash: string }>('SELECT token_hash FROM card_links WHERE contact_id = $1', [contact.id]);
    assert.deepEqual(
      rows.map((r) => r.token_hash),
      [createKeyRing(testSecretKey).digester('card-link-tokens').digest(link.token)],
    );
    const dump = JSON.stringify(await t.services.db.query('SELECT * FROM card_links'));
    assert.ok(!dump.includes(link.token), 'the token itself is nowhere in the table');
  });

  it('an Idempotency-Key replay answers without the URL', async () => {
    const contact = await createContact(t, partner);
    const headers = { ...partner.headers, 'idempotency-key': `link-${contact.id}` };
    const first = await t.app.inject({ method: 'POST', url: `/v1/contacts/${contact.id}/card-link`, headers });
    const replay = await t.app.inject({ method: 'POST', url: `/v1/contacts/${contact.id}/card-link`, headers });
    assert.equal(replay.statusCode, 201);
    assert.ok(first.json<{ url?: string }>().url);
    assert.deepEqual(replay.json(), { expiresAt: first.json<{ expiresAt: string }>().expiresAt });
  });

  it('answers 404 for an unknown contact', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/v1/contacts/con_01JD0000000000000000000000/card-link', headers: partner.headers });
    assert.equal(res.statusCode, 404);
  });
});

describe('the hosted card page', () => {
  it('shows the partner’s name (escaped), the prices and an accessible form; it is not cached or framed', async () => {
    const contact = await createContact(t, partner);
    const link = await mintCardLink(t, partner, contact.id);
    const res = await page(link.token);
    assert.equal(res.statusCode, 200);
    assert.match(res.headers['content-type'] as string, /^text\/html/);
    assert.equal(res.headers['cache-control'], 'no-store');
    assert.match(res.headers['content-security-policy'] as string, /frame-ancestors 'none'/);
    assert.match(res.headers['content-security-policy'] as string, /script-src 'self';/);
    assert.ok(res.body.includes('Ledger &lt;&amp;&gt; Co'), 'the partner name, escaped');
    assert.ok(!res.body.includes('Ledger <&> Co'));
    assert.ok(res.body.includes('$15.00') && res.body.includes('Business lookup with beneficial owners'), 'what the card will be charged for');
    for (const id of ['number', 'expiry', 'cvc', 'name']) assert.match(res.body, new RegExp(`<label for="${id}">`), `a label for ${id}`);
    assert.match(res.body, /role="alert"/);
    assert.match(res.body, /<html lang="en">/);
    assert.ok(!res.body.includes(contact.name), 'the page does not show who the contact is');
  });

  it('explains an unknown link with 404 and a spent, replaced or expired one with 410', async () => {
    const unknown = await page('A'.repeat(43));
    assert.equal(unknown.statusCode, 404);
    assert.match(unknown.body, /This link is not valid/);
    const save = await t.app.inject({ method: 'POST', url: `/hosted/v1/card-links/${'A'.repeat(43)}`, payload: { paymentToken: 'tok_x1' } });
    assert.equal(save.statusCode, 404, 'saving on an unknown link answers as the page does');
    assert.equal((await page('short')).statusCode, 404);

    const contact = await createContact(t, partner);
    const old = await mintCardLink(t, partner, contact.id);
    const current = await mintCardLink(t, partner, contact.id);
    const replaced = await page(old.token);
    assert.equal(replaced.statusCode, 410);
    assert.match(replaced.body, /This link has been replaced/);

    assert.equal((await submitCard(t, current.token, cards.succeeds)).statusCode, 200);
    const used = await page(current.token);
    assert.equal(used.statusCode, 410);
    assert.match(used.body, /already been used/);

    const other = await createContact(t, partner);
    const expiring = await mintCardLink(t, partner, other.id);
    clock.advance(24 * 3600_000);
    const expired = await page(expiring.token);
    assert.equal(expired.statusCode, 410);
    assert.match(expired.body, /This link has expired/);
    const late = await submitCard(t, expiring.token, cards.succeeds);
    assert.equal(late.statusCode, 410);
    assert.equal(late.json<{ code: string }>().code, 'LINK_INVALID');
    // A day on, the partner's access token has expired too: later tests get a fresh partner.
    partner = await t.f.signIn(partner);
  });

  it('serves its script and stylesheet', async () => {
    for (const [name, type] of [
      ['card-page.js', 'text/javascript'],
      ['hosted.css', 'text/css'],
    ]) {
      const res = await t.app.inject({ method: 'GET', url: `/hosted/assets/${name}` });
      assert.equal(res.statusCode, 200);
      assert.match(res.headers['content-type'] as string, new RegExp(`^${type}`));
    }
    assert.equal((await t.app.inject({ method: 'GET', url: '/hosted/assets/..%2Fcard-page.ts' })).statusCode, 404);
  });
});

describe('the sandbox gateway’s tokenisation', () => {
  it('answers a token and the card summary for a test card', async () => {
    const res = await tokenise(t, cards.succeeds);
    assert.equal(res.statusCode, 200);
    const body = res.json<{ token: string; card: unknown }>();
    assert.match(body.token, /^tok_/);
    assert.deepEqual(body.card, { brand: 'visa', last4: '4242', ...cardExpiry });
  });

  it('refuses wrong details the way a gateway does, naming the field', async () => {
    const cases: Array<[Record<string, unknown>, number, string, string]> = [
      [{ number: '4242 4242 4242 4241' }, 402, 'incorrect_number', 'number'],
      [{ number: cards.succeeds, expMonth: 13 }, 402, 'invalid_expiry_month', 'expMonth'],
      [{ number: cards.succeeds, expMonth: 10, expYear: 2026 }, 402, 'expired_card', 'expYear'],
      [{ number: cards.succeeds, cvc: '12' }, 402, 'invalid_cvc', 'cvc'],
      [{ number: cards.succeeds, cvc: undefined }, 400, 'parameter_missing', 'cvc'],
      [{ number: cards.succeeds, pan: '1' }, 400, 'parameter_unknown', 'pan'],
    ];
    for (const [extra, status, code, param] of cases) {
      const res = await t.app.inject({ method: 'POST', url: '/sandbox-gateway/v1/tokens', payload: JSON.parse(JSON.stringify({ number: '', ...cardExpiry, cvc: '123', ...extra })) });
      assert.equal(res.statusCode, status, `${code}: ${res.body}`);
      const error = res.json<{ error: { code: string; param: string } }>().error;
      assert.deepEqual([error.code, error.param], [code, param]);
    }
  });

  it('declines a card that is not a sandbox test card, and keeps nothing of it', async () => {
    const live = '5105 1051 0510 5100';
    const res = await tokenise(t, live);
    assert.equal(res.statusCode, 402);
    assert.equal(res.json<{ error: { decline_code: string } }>().error.decline_code, 'test_mode_live_card');
  });

  it('accepts a two-digit expiry year as 20YY', async () => {
    const res = await tokenise(t, cards.succeeds, { expYear: 31 });
    assert.equal(res.json<{ card: { expYear: number } }>().card.expYear, 2031);
  });
});

describe('saving a card', () => {
  it('4242 saves: the contact becomes billable, the link is spent, contact.card.saved is emitted', async () => {
    const own = await t.f.partner();
    const contact = await createContact(t, own);
    const link = await mintCardLink(t, own, contact.id);
    const res = await submitCard(t, link.token, cards.succeeds);
    assert.equal(res.statusCode, 200, res.body);
    const card = { brand: 'visa', last4: '4242', ...cardExpiry };
    assert.deepEqual(res.json(), { billingStatus: 'BILLABLE', card });

    const got = await t.app.inject({ method: 'GET', url: `/v1/contacts/${contact.id}`, headers: own.headers });
    assert.deepEqual([got.json<ContactBody>().billingStatus, got.json<ContactBody>().card], ['BILLABLE', card]);
    const events = await eventsOf(t, own.partnerId);
    assert.deepEqual(events, [{ type: 'contact.card.saved', payload: { contactId: contact.id, channelPartnerId: own.partnerId, card } }]);

    const again = await submitCard(t, link.token, cards.succeeds);
    assert.equal(again.statusCode, 410, 'a link saves one card only');
  });

  it('0002 is declined: 402 CARD_DECLINED with declineCode, nothing saved, and the link still works', async () => {
    const contact = await createContact(t, partner);
    const link = await mintCardLink(t, partner, contact.id);
    const declined = await submitCard(t, link.token, cards.declinesOnSave);
    assert.equal(declined.statusCode, 402);
    const problem = declined.json<{ code: string; declineCode: string }>();
    assert.deepEqual([problem.code, problem.declineCode], ['CARD_DECLINED', 'generic_decline']);
    const after = await t.app.inject({ method: 'GET', url: `/v1/contacts/${contact.id}`, headers: partner.headers });
    assert.equal(after.json<ContactBody>().billingStatus, 'NO_PAYMENT_METHOD');
    assert.equal((await page(link.token)).statusCode, 200, 'the link is still usable');
    assert.equal((await submitCard(t, link.token, cards.succeeds)).statusCode, 200);
  });

  for (const [name, number, last4] of [
    ['9995 (charges will decline insufficient_funds)', cards.insufficientFunds, '9995'],
    ['0341 (charges will decline do_not_honor)', cards.doNotHonor, '0341'],
  ] as const) {
    it(`${name} saves`, async () => {
      const contact = await createContact(t, partner);
      const link = await mintCardLink(t, partner, contact.id);
      const res = await submitCard(t, link.token, number);
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json<{ card: { last4: string } }>().card.last4, last4);
    });
  }

  it('a replaced link cannot save; the newest can', async () => {
    const contact = await createContact(t, partner);
    const first = await mintCardLink(t, partner, contact.id);
    const second = await mintCardLink(t, partner, contact.id);
    const stale = await submitCard(t, first.token, cards.succeeds);
    assert.equal(stale.statusCode, 410);
    assert.match(stale.json<{ detail: string }>().detail, /replaced/);
    assert.equal((await submitCard(t, second.token, cards.succeeds)).statusCode, 200);
  });

  it('a gateway token is single-use, and a made-up one is declined', async () => {
    const contact = await createContact(t, partner);
    const link = await mintCardLink(t, partner, contact.id);
    const made = await t.app.inject({ method: 'POST', url: `/hosted/v1/card-links/${link.token}`, payload: { paymentToken: 'tok_madeup' } });
    assert.equal(made.statusCode, 402);
    assert.equal(made.json<{ declineCode: string }>().declineCode, 'token_invalid');
    const bad = await t.app.inject({ method: 'POST', url: `/hosted/v1/card-links/${link.token}`, payload: { paymentToken: '4242424242424242', number: '4242424242424242' } });
    assert.equal(bad.statusCode, 400, 'a card number field is refused');
  });

  it('a new card replaces the old one, which the gateway is told to forget', async () => {
    const contact = await createContact(t, partner);
    assert.equal((await submitCard(t, (await mintCardLink(t, partner, contact.id)).token, cards.insufficientFunds)).statusCode, 200);
    const [before] = await t.services.db.query<{ payment_method_ref: string }>('SELECT payment_method_ref FROM contacts WHERE id = $1', [contact.id]);
    assert.equal((await submitCard(t, (await mintCardLink(t, partner, contact.id)).token, cards.succeeds)).statusCode, 200);
    const jobs = await t.services.db.query<{ payload: { paymentMethodRef: string } }>("SELECT payload FROM jobs WHERE kind = 'billing.detach-card'");
    assert.ok(jobs.some((j) => j.payload.paymentMethodRef === before!.payment_method_ref));
  });

  it('the card number is never stored by PVS nor logged', async () => {
    const contact = await createContact(t, partner);
    await submitCard(t, (await mintCardLink(t, partner, contact.id)).token, cards.succeeds);
    await tokenise(t, '5105 1051 0510 5100');
    const digits = ['4242424242424242', '4242 4242 4242 4242', '5105105105105100', '5105 1051 0510 5100'];
    const tables = ['contacts', 'card_links', 'charges', 'billing_runs', 'events', 'jobs', 'idempotency_keys', 'sandbox_gateway_tokens', 'sandbox_gateway_payment_methods'];
    for (const table of tables) {
      const dump = JSON.stringify(await t.services.db.query(`SELECT * FROM ${table}`));
      for (const d of digits) assert.ok(!dump.includes(d), `${table} holds a card number`);
    }
    for (const d of digits) assert.ok(!t.logText().includes(d), 'a card number was logged');
  });
});
