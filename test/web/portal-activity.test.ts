// The portal's overview and activity pages in Chromium: lookups, verifications, deed analyses, payments
// and contacts, each list and detail showing the signed-in partner's rows only (another partner's id is a
// 404), paging with limit and from, a verification link minted from the page and shown once, the keyboard
// alone, and the overview's attention items. axe-core and screenshots of every page
// (test-output/screenshots/portal/).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { billableContact, cards, createContact, runDueJobs } from '../helpers/billing.ts';
import { browserSkipReason, createServedContext, launchBrowser } from '../helpers/browser.ts';
import type { TestContext, TestPartner } from '../helpers/context.ts';
import { createDeed } from '../helpers/deeds.ts';
import { settledLookup } from '../helpers/lookups.ts';
import { sandboxScreeningFixture } from '../../src/cli/serve.ts';
import { tenantOf } from '../../src/platform/tenancy.ts';
import { createPayment } from '../helpers/payments.ts';
import { startReceiver, type Receiver } from '../helpers/receiver.ts';
import { attemptChecked, createVerification, mintLinks, openLink } from '../helpers/verifications.ts';
import { capture, clickAndWait, createPortalUser, newWebContext, postWithoutToken, signIn, type WebAccount } from '../helpers/web.ts';

const skip = browserSkipReason();

/** capture(): axe, both screenshots, and nothing wider than a phone's screen. */
const look = (page: Page, name: string) => capture(page, name);

/** A partner's rows of each kind, oldest first. */
interface Rows {
  lookups: string[];
  verifications: string[];
  deeds: string[];
  payments: string[];
  contacts: string[];
}

describe('the portal’s overview and activity pages in a browser', { skip }, () => {
  let t: TestContext & { baseUrl: string };
  let browser: Browser;
  let own: TestPartner;
  let other: TestPartner;
  let newcomer: TestPartner;
  let ownUser: WebAccount;
  let page: Page;
  let receiver: Receiver;
  let destinationId: string;
  const mine: Rows = { lookups: [], verifications: [], deeds: [], payments: [], contacts: [] };
  const theirs: Rows = { lookups: [], verifications: [], deeds: [], payments: [], contacts: [] };
  let lookupPartyName: string;
  let blockedContact: { id: string; name: string };
  let decliningContact: { id: string; name: string };
  let reviewRequest: { id: string; individualId: string };
  let linkRequest: { id: string; individualId: string };
  let keyboardRequest: { id: string; individualId: string };

  /** The lookups, verifications, deed analyses, payments and contacts of one partner, made through /v1. */
  async function makeRows(partner: TestPartner, rows: Rows, abns: string[]) {
    for (const abn of abns) rows.lookups.push((await settledLookup(t, partner, { abn })).lookupRequestId);
    rows.verifications.push((await createVerification(t, partner, { mode: 'AUSTRAC_CDD', lookupRequestId: rows.lookups[0] })).id);
    for (let i = 0; i < 2; i++) rows.deeds.push((await createDeed(t, partner)).deedAnalysis.id);
    for (const amount of [125_000, 9_950]) rows.payments.push((await createPayment(t, partner, { amount })).id);
    for (let i = 0; i < 2; i++) rows.contacts.push((await createContact(t, partner)).id);
  }

  async function handBuilt(partner: TestPartner, rows: Rows, externalId: string) {
    const created = await createVerification(t, partner, { mode: 'TPB_POI', individuals: [{ role: 'DIRECTOR', externalId }] });
    rows.verifications.push(created.id);
    return { id: created.id, individualId: created.individuals[0]!.id };
  }

  before(async () => {
    if (skip) return;
    // A contact's billing run is charged a second after its first charge (10 s by default in the sandbox).
    t = await createServedContext({ env: { BILLING_RUN_WINDOW: '1s' } });
    browser = await launchBrowser();
    // The checks screen each person: without a list loaded screening is unavailable and no outcome is reached.
    await t.services.screening.importList({ format: 'opensanctions', filePath: sandboxScreeningFixture, list: 'sandbox-fixture' });
    own = await t.f.partner({ name: 'Harbour Accounting' });
    other = await t.f.partner({ name: 'Elsewhere Advisory' });
    newcomer = await t.f.partner({ name: 'Brand New Advisers' });

    // A destination that answers 500: its deliveries fail, and the overview says so.
    receiver = await startReceiver();
    receiver.respond((_delivery, res) => res.writeHead(500).end('down'));
    const destination = await t.app.inject({ method: 'POST', url: '/v1/webhook-destinations', headers: own.headers, payload: { url: receiver.url } });
    assert.equal(destination.statusCode, 201, destination.body);
    destinationId = destination.json<{ id: string }>().id;

    await makeRows(own, mine, ['32 111 111 114', '21 444 444 446']);
    await makeRows(other, theirs, ['54 222 222 228']);
    lookupPartyName = (await t.services.lookups.get(tenantOf(own.partnerId), mine.lookups[0]!)).individuals[0]!.name;

    // A person whose check needs an operator (sandbox: the last name Review).
    reviewRequest = await handBuilt(own, mine, 'crm-review');
    const token = (await mintLinks(t, own, reviewRequest.id)).get(reviewRequest.individualId)!;
    const view = await attemptChecked(t, await openLink(t, token), 'Review');
    assert.equal(view.individual.status, 'MANUAL_REVIEW');
    linkRequest = await handBuilt(own, mine, 'crm-link');
    keyboardRequest = await handBuilt(own, mine, 'crm-keyboard');
    theirs.verifications.push((await handBuilt(other, theirs, 'their-person')).id);

    const blocked = await t.app.inject({ method: 'PATCH', url: `/v1/contacts/${mine.contacts[1]}`, headers: own.headers, payload: { billingBlocked: true } });
    assert.equal(blocked.statusCode, 200, blocked.body);
    blockedContact = { id: mine.contacts[1]!, name: blocked.json<{ name: string }>().name };
    const theirBlock = await t.app.inject({ method: 'PATCH', url: `/v1/contacts/${theirs.contacts[1]}`, headers: other.headers, payload: { billingBlocked: true } });
    assert.equal(theirBlock.statusCode, 200, theirBlock.body);

    // A contact whose card declines for insufficient funds: its billing run fails, which blocks it.
    const declining = await billableContact(t, own, cards.insufficientFunds);
    mine.contacts.push(declining.id);
    decliningContact = { id: declining.id, name: declining.name };
    const payer = await t.services.charges.gate(tenantOf(own.partnerId), declining.id);
    await t.services.db.transaction((tx) => t.services.charges.charge(tx, tenantOf(own.partnerId), { payer, product: 'DEED_ANALYSIS', referenceId: mine.deeds[0]! }));
    await new Promise((resolve) => setTimeout(resolve, 1100));
    await runDueJobs(t);
    assert.equal((await t.services.contacts.get(tenantOf(own.partnerId), declining.id)).billingStatus, 'BLOCKED', 'the declined run blocks the contact');
    // One delivery attempt of every event so far: each answered 500, so each waits for its retry.
    await t.services.createDispatcher().drain();
    assert.ok(receiver.received.length > 0, 'the destination was tried');

    ownUser = await createPortalUser(t, own.partnerId);
    page = await (await newWebContext(browser)).newPage();
    await signIn(page, t.baseUrl, 'portal', ownUser);
  });
  after(async () => {
    await browser?.close();
    await receiver?.close();
    await t?.close();
  });

  const text = (p: Page = page) => p.locator('main').innerText();

  it('tells a new partner what to do first', async () => {
    const user = await createPortalUser(t, newcomer.partnerId);
    const fresh = await (await newWebContext(browser)).newPage();
    await signIn(fresh, t.baseUrl, 'portal', user);
    assert.equal(new URL(fresh.url()).pathname, '/portal');
    const main = await text(fresh);
    assert.match(main, /Get started/);
    assert.doesNotMatch(main, /Needs attention/);
    assert.equal(await fresh.getByRole('link', { name: 'Get your API client’s credentials.' }).getAttribute('href'), '/portal/api-clients');
    assert.equal(await fresh.getByRole('link', { name: 'Add a webhook destination.' }).getAttribute('href'), '/portal/destinations');
    await look(fresh, 'portal/dashboard-empty');
    await fresh.context().close();
  });

  it('shows on the overview what needs attention, each linked to its page, and nothing of another partner', async () => {
    await page.goto(`${t.baseUrl}/portal`);
    const failing = await page.locator('section[aria-labelledby="failing-destinations"]').innerText();
    assert.ok(failing.includes(receiver.url), 'the failing destination is named by its URL');
    assert.match(failing, /HTTP 500/);
    assert.equal(await page.locator('section[aria-labelledby="failing-destinations"] a', { hasText: receiver.url }).getAttribute('href'), `/portal/destinations/${destinationId}`);
    const review = await page.locator('section[aria-labelledby="manual-review"]').innerText();
    assert.match(review, new RegExp(reviewRequest.individualId));
    assert.match(review, /crm-review/);
    const blocked = await page.locator('section[aria-labelledby="blocked-contacts"]').innerText();
    assert.match(blocked, new RegExp(blockedContact.name));
    assert.match(blocked, /Blocked by you/);
    assert.ok(blocked.includes(decliningContact.name), 'a contact blocked by a declined run is listed');
    assert.match(blocked, /A billing run was declined/);
    const main = await text();
    assert.match(main, /1\s+People waiting for manual review/);
    assert.match(main, /2\s+Contacts blocked from billing/);
    assert.match(main, /2\s+Business lookups/);
    for (const id of [...theirs.contacts, ...theirs.verifications]) assert.ok(!main.includes(id), `${id} of another partner is not on the overview`);
    await look(page, 'portal/dashboard');
    await clickAndWait(page, `section[aria-labelledby="manual-review"] a[href="/portal/verifications/${reviewRequest.id}"]`);
    assert.equal(new URL(page.url()).pathname, `/portal/verifications/${reviewRequest.id}`);
    assert.match(await text(), /MANUAL REVIEW/);
  });

  const lists: Array<{ kind: keyof Rows; path: string; name: string }> = [
    { kind: 'lookups', path: '/portal/lookups', name: 'lookups' },
    { kind: 'verifications', path: '/portal/verifications', name: 'verifications' },
    { kind: 'deeds', path: '/portal/deed-analyses', name: 'deed-analyses' },
    { kind: 'payments', path: '/portal/payments', name: 'payments' },
    { kind: 'contacts', path: '/portal/contacts', name: 'contacts' },
  ];

  it('lists the partner’s own rows only, newest first, and pages with limit and from', async () => {
    for (const list of lists) {
      await page.goto(`${t.baseUrl}${list.path}`);
      const main = await text();
      for (const id of mine[list.kind]) assert.ok(main.includes(id), `${list.path} shows ${id}`);
      for (const id of theirs[list.kind]) assert.ok(!main.includes(id), `${list.path} does not show another partner's ${id}`);
      assert.ok(main.indexOf(mine[list.kind].at(-1)!) < main.indexOf(mine[list.kind][0]!), `${list.path} is newest first`);
      await look(page, `portal/${list.name}`);

      await page.goto(`${t.baseUrl}${list.path}?limit=1`);
      const first = await text();
      assert.ok(first.includes(mine[list.kind].at(-1)!), `${list.path}?limit=1 shows the newest`);
      assert.ok(!first.includes(mine[list.kind].at(-2)!), `${list.path}?limit=1 shows one row`);
      await clickAndWait(page, 'a[rel="next"]');
      assert.equal(new URL(page.url()).search, '?limit=1&from=1');
      const second = await text();
      assert.ok(second.includes(mine[list.kind].at(-2)!), `Next on ${list.path} leads to the second row`);
      assert.ok(!second.includes(mine[list.kind].at(-1)!), `the second page of ${list.path} leaves out the first row`);
      assert.equal(await page.locator('a[rel="prev"]').getAttribute('href'), `${list.path}?limit=1`);
    }
  });

  it('keeps the status filter across pages', async () => {
    await page.goto(`${t.baseUrl}/portal/contacts`);
    await page.getByLabel('Billing status').selectOption('BLOCKED');
    await clickAndWait(page, 'button:has-text("Filter")');
    assert.equal(new URL(page.url()).searchParams.get('status'), 'BLOCKED');
    const main = await text();
    assert.ok(main.includes(blockedContact.id));
    assert.ok(main.includes(decliningContact.id), 'blocked by a declined run is blocked too');
    assert.ok(!main.includes(mine.contacts[0]!), 'a contact that is not blocked is filtered out');
  });

  it('shows each record on its own page, and another partner’s id as a page that is not found', async () => {
    const details: Array<{ path: string; kind: keyof Rows; name: string; shows: Array<string | RegExp> }> = [
      { path: '/portal/lookups', kind: 'lookups', name: 'lookup', shows: ['32 111 111 114', /HIGH/, lookupPartyName, /Register parties/, mine.verifications[0]!] },
      { path: '/portal/verifications', kind: 'verifications', name: 'verification', shows: [/READY TO SEND/, /Create a link/, mine.lookups[0]!] },
      { path: '/portal/deed-analyses', kind: 'deeds', name: 'deed-analysis', shows: [/AWAITING UPLOAD/, /Start before/] },
      { path: '/portal/payments', kind: 'payments', name: 'payment', shows: [/\$1,250\.00 AUD/, /551234567890123/, /CREATED/] },
      { path: '/portal/contacts', kind: 'contacts', name: 'contact', shows: [/No card saved/, /No card is saved yet/] },
    ];
    for (const detail of details) {
      const id = mine[detail.kind][0]!;
      const response = await page.goto(`${t.baseUrl}${detail.path}/${id}`);
      assert.equal(response?.status(), 200, `${detail.path}/${id}`);
      const main = await text();
      assert.ok(main.includes(id), `${detail.path}/${id} names its record`);
      for (const shown of detail.shows) {
        if (typeof shown === 'string') assert.ok(main.includes(shown), `${detail.path}/${id} shows ${shown}`);
        else assert.match(main, shown, `${detail.path}/${id}`);
      }
      await look(page, `portal/${detail.name}`);

      const theirId = theirs[detail.kind][0]!;
      const refused = await page.goto(`${t.baseUrl}${detail.path}/${theirId}`);
      assert.equal(refused?.status(), 404, `${detail.path}/${theirId} of another partner`);
      assert.equal(await page.locator('h1').innerText(), 'Page not found');
      assert.ok(!(await text()).includes(theirId), 'nothing of the record is shown');
    }
    await page.goto(`${t.baseUrl}/portal/contacts/${blockedContact.id}`);
    assert.match(await text(), /You blocked billing to this contact/);
    await look(page, 'portal/contact-blocked');
    await page.goto(`${t.baseUrl}/portal/contacts/${decliningContact.id}`);
    const declined = await text();
    assert.match(declined, /A billing run was declined/);
    assert.match(declined, /Declined billing runs/);
    assert.match(declined, /insufficient_funds/);
    assert.match(declined, /advice code 02/);
    assert.ok(declined.includes(mine.deeds[0]!), 'the charge names the work it is for');
    assert.match(declined, /Visa ending 9995/i);
    await look(page, 'portal/contact-declined');
  });

  it('shows no personal data on a verification, even once the person has given theirs', async () => {
    await page.goto(`${t.baseUrl}/portal/verifications/${reviewRequest.id}`);
    const html = await page.content();
    // What attemptChecked's person typed on their page (test/helpers/verifications.ts).
    for (const personal of ['Harriet', 'Quill', '1979-02-17', 'Banksia', 'harriet.quill', '412 555']) assert.ok(!html.includes(personal), `${personal} is not on the page`);
    assert.match(await text(), /Waiting for an operator/);
    await look(page, 'portal/verification-review');
  });

  it('mints a link from the page, shows it once, and the link works', async () => {
    await page.goto(`${t.baseUrl}/portal/verifications/${linkRequest.id}`);
    await clickAndWait(page, 'button:has-text("Create a link")');
    assert.equal(new URL(page.url()).pathname, `/portal/verifications/${linkRequest.id}/individuals/${linkRequest.individualId}/link`);
    const url = (await page.locator('#secret-value').innerText()).trim();
    assert.ok(url.startsWith(`${t.baseUrl}/v/`), url);
    assert.match(await page.locator('.secret').innerText(), /shown only this once/);
    await look(page, 'portal/verification-link-minted');

    const opened = await fetch(url);
    assert.equal(opened.status, 200);
    const hosted = await opened.text();
    assert.match(hosted, /Verify your identity/);
    assert.doesNotMatch(hosted, /This link is not valid|has been replaced|already been used/);

    await page.goto(`${t.baseUrl}/portal/verifications/${linkRequest.id}`);
    assert.equal(await page.locator('.secret').count(), 0, 'the link is not shown again');
    assert.ok(!(await page.content()).includes(url.split('/v/')[1]!), 'nor is its token anywhere on the page');
    assert.match(await text(), /Minted/);

    // A new link replaces the first, which stops working.
    page.once('dialog', (dialog) => void dialog.accept());
    await clickAndWait(page, 'button:has-text("Mint a new link")');
    const second = (await page.locator('#secret-value').innerText()).trim();
    assert.notEqual(second, url);
    assert.match(await (await fetch(url)).text(), /This link has been replaced/);
    assert.match(await (await fetch(second)).text(), /Verify your identity/);

    const audit = await t.services.audit.list({ partnerId: own.partnerId, action: 'verification.link_created' }, { limit: 10, from: 0 });
    const entries = audit.data.filter((e) => e.targetId === linkRequest.individualId);
    assert.equal(entries.length, 2, 'each mint is audited');
    assert.equal(entries[0]!.actor.email, ownUser.email);
    for (const entry of entries) {
      const recorded = JSON.stringify(entry);
      assert.ok(!recorded.includes(url.split('/v/')[1]!) && !recorded.includes(second.split('/v/')[1]!), 'the audit entry holds no link');
    }
  });

  it('refuses to mint a link from a form without the session’s token', async () => {
    const linksBefore = await t.services.verifications.linkStatesOf(tenantOf(own.partnerId), keyboardRequest.id);
    const forged = await postWithoutToken(page, `${t.baseUrl}/portal/verifications/${keyboardRequest.id}/individuals/${keyboardRequest.individualId}/link`, {});
    assert.equal(forged.status, 403);
    assert.doesNotMatch(forged.body, /\/v\//);
    const linksAfter = await t.services.verifications.linkStatesOf(tenantOf(own.partnerId), keyboardRequest.id);
    assert.equal(linksAfter.size, linksBefore.size, 'no link was minted');
    // Another partner's request, with a valid token: not found, and nothing minted.
    await page.goto(`${t.baseUrl}/portal/verifications/${keyboardRequest.id}`);
    const csrf = await page.locator('input[name="_csrf"]').first().inputValue();
    const theirRequest = await page.request.post(`${t.baseUrl}/portal/verifications/${theirs.verifications.at(-1)}/individuals/${keyboardRequest.individualId}/link`, { form: { _csrf: csrf }, maxRedirects: 0 });
    assert.equal(theirRequest.status(), 404);
  });

  it('reaches the verifications from the navigation and mints a link with the keyboard alone', async () => {
    const keyboard = await (await newWebContext(browser)).newPage();
    await signIn(keyboard, t.baseUrl, 'portal', ownUser);
    /** Tabs until the focused element is the one `matches` describes. */
    async function tabTo(description: string, matches: (focused: { tag: string; text: string; href: string | null }) => boolean) {
      for (let i = 0; i < 60; i++) {
        await keyboard.keyboard.press('Tab');
        // A string, as in helpers/browser.ts: this file is compiled without the DOM's types.
        const focused = await keyboard.evaluate<{ tag: string; text: string; href: string | null }>(
          `(() => { const el = document.activeElement; return { tag: el ? el.tagName : '', text: el ? el.textContent.trim() : '', href: el ? el.getAttribute('href') : null }; })()`,
        );
        if (matches(focused)) return;
      }
      assert.fail(`Tab never reached ${description}`);
    }
    await tabTo('the Verifications link', (f) => f.tag === 'A' && f.href === '/portal/verifications');
    await Promise.all([keyboard.waitForURL(`${t.baseUrl}/portal/verifications`), keyboard.keyboard.press('Enter')]);
    await tabTo(keyboardRequest.id, (f) => f.tag === 'A' && f.href === `/portal/verifications/${keyboardRequest.id}`);
    await Promise.all([keyboard.waitForURL(`${t.baseUrl}/portal/verifications/${keyboardRequest.id}`), keyboard.keyboard.press('Enter')]);
    await tabTo('the Create a link button', (f) => f.tag === 'BUTTON' && f.text.startsWith('Create a link'));
    await Promise.all([keyboard.waitForURL(/\/link$/), keyboard.keyboard.press('Enter')]);
    assert.match((await keyboard.locator('#secret-value').innerText()).trim(), /\/v\/[A-Za-z0-9_-]{40,}$/);
    await keyboard.context().close();
  });
});
