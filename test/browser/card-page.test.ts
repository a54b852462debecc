// The hosted card page in a real browser, on a phone-sized screen, used with the keyboard only: a card
// saved (the contact becomes billable, the spent link says so), a card declined on save (the error is
// announced and focused, the link still works), a client-side validation error, and the card number
// going to the gateway's tokenisation and never to PVS's own API. Screenshots go to test-output/screenshots/.
import assert from 'node:assert/strict';
import { after, before, describe, it, type TestContext as NodeTestContext } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { cards, createContact, mintCardLink, type ContactBody } from '../helpers/billing.ts';
import {
  browserSkipReason,
  createServedContext,
  fillCard,
  focusedId,
  launchBrowser,
  openWatchedPage,
  screenshot,
  tabThroughCardForm,
  typeInto,
  unexpectedProblems,
  type PageProblems,
} from '../helpers/browser.ts';
import type { TestContext, TestPartner } from '../helpers/context.ts';

const partnerName = 'Ledger & Sons';
// An expiry a few years ahead of the real clock the served app runs on, so the card never goes stale.
const expiryYear = new Date().getUTCFullYear() + 4;
const expiry = `12/${String(expiryYear).slice(2)}`;
const noProblems: PageProblems = { consoleErrors: [], pageErrors: [], failedRequests: [] };
// Chromium reports every HTTP error status as a console error, even the ones a test expects: the decline's
// 402 and the spent link's 410. (The pages name an empty icon, so it asks for no /favicon.ico.)
const declineStatus = /^Failed to load resource: the server responded with a status of 402 .*\/hosted\/v1\/card-links\//;
const spentLinkStatus = /^Failed to load resource: the server responded with a status of 410 .*\/c\//;

// Each test skips (and so is counted as skipped) rather than the suite, whose skip the runner does not count.
const skip = browserSkipReason();

describe('the hosted card page in Chromium', () => {
  let t: TestContext & { baseUrl: string };
  let partner: TestPartner;
  let browser: Browser;

  before(async () => {
    if (skip) return;
    // A price set here, so the page is checked against a known amount rather than the default list.
    t = await createServedContext({ env: { PRICE_DEED_ANALYSIS: '2750' } });
    partner = await t.f.partner({ name: partnerName });
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  /** A new link for a new contact, open on a phone-sized page in a fresh browser context. */
  async function openCardLink(test: NodeTestContext) {
    const contact = await createContact(t, partner);
    const link = await mintCardLink(t, partner, contact.id);
    const { page, problems, sent } = await openWatchedPage(browser, test);
    const response = await page.goto(link.url);
    assert.equal(response?.status(), 200, `the card page answers 200 at ${link.url}`);
    return { contact, link, page, problems, sent };
  }

  async function expectSaved(page: Page) {
    await page.locator('#saved-panel').waitFor({ state: 'visible' });
    assert.equal(await page.locator('#form-panel').isVisible(), false, 'the form is gone');
    const text = await page.locator('#saved-panel').innerText();
    assert.match(text, /Card saved/);
    assert.match(text, /Visa card ending 4242/);
    assert.equal(await focusedId(page), 'saved-title', 'focus moves to the "Card saved" heading');
  }

  it('saves 4242 with the keyboard alone: the contact becomes billable and the spent link says so', { skip }, async (test) => {
    const { contact, page, problems } = await openCardLink(test);
    await screenshot(page, 'card-page-form');
    assert.equal(await page.locator('.partner').innerText(), partnerName);
    assert.ok(await page.locator('.partner').isVisible());
    const row = page.getByRole('row', { name: /Trust deed analysis/ });
    assert.ok(await row.isVisible(), 'the prices table lists the deed analysis');
    assert.match(await row.innerText(), /\$27\.50/);

    await tabThroughCardForm(page, { name: 'Jo Citizen', number: cards.succeeds, expiry }, 'Space');

    await expectSaved(page);
    await screenshot(page, 'card-page-saved');

    const got = await t.app.inject({ method: 'GET', url: `/v1/contacts/${contact.id}`, headers: partner.headers });
    assert.equal(got.statusCode, 200, got.body);
    const body = got.json<ContactBody>();
    assert.equal(body.billingStatus, 'BILLABLE');
    assert.deepEqual(body.card, { brand: 'visa', last4: '4242', expMonth: 12, expYear: expiryYear });

    const used = await page.reload();
    assert.equal(used?.status(), 410);
    assert.equal(await page.locator('h1').innerText(), 'This link has already been used');
    assert.equal(await page.locator('#card-form').count(), 0, 'no form on a spent link');
    await screenshot(page, 'card-page-used');

    assert.deepEqual(unexpectedProblems(problems, [spentLinkStatus]), noProblems);
  });

  it('announces and focuses a decline, and the same link then saves another card', { skip }, async (test) => {
    const { contact, page, problems } = await openCardLink(test);
    await fillCard(page, { number: cards.declinesOnSave, expiry });
    await page.keyboard.press('Enter');

    const errors = page.locator('#errors');
    await errors.waitFor({ state: 'visible' });
    assert.match(await errors.innerText(), /declined/i);
    assert.equal(await errors.getAttribute('role'), 'alert');
    assert.equal(await focusedId(page), 'errors', 'focus moves to the error summary');
    assert.equal(await page.locator('#saved-panel').isVisible(), false);
    await screenshot(page, 'card-page-declined');

    const declined = await t.app.inject({ method: 'GET', url: `/v1/contacts/${contact.id}`, headers: partner.headers });
    assert.equal(declined.json<ContactBody>().billingStatus, 'NO_PAYMENT_METHOD', 'a declined card is not saved');

    await typeInto(page, 'Card number', cards.succeeds, 'number');
    await page.keyboard.press('Enter');
    await expectSaved(page);
    assert.equal(await errors.isVisible(), false);

    assert.deepEqual(unexpectedProblems(problems, [declineStatus]), noProblems);
    assert.equal(problems.consoleErrors.filter((m) => declineStatus.test(m)).length, 1, 'one decline, one 402');
  });

  it('marks an impossible expiry on the field itself and sends nothing', { skip }, async (test) => {
    const { page, problems, sent } = await openCardLink(test);
    const loaded = sent.length;
    await fillCard(page, { number: cards.succeeds, expiry: `13/${String(expiryYear).slice(2)}` });
    await page.keyboard.press('Enter');

    const fieldError = page.locator('#expiry-error');
    await fieldError.waitFor({ state: 'visible' });
    assert.match(await fieldError.innerText(), /MM\/YY/);
    assert.equal(await page.locator('#expiry').getAttribute('aria-invalid'), 'true');
    assert.equal(await page.locator('#number').getAttribute('aria-invalid'), null, 'only the wrong field is marked');
    assert.equal(await page.locator('#cvc').getAttribute('aria-invalid'), null);
    assert.equal(await focusedId(page), 'errors', 'focus moves to the error summary');
    await screenshot(page, 'card-page-invalid');

    const posted = sent.slice(loaded).filter((r) => r.method !== 'GET');
    assert.deepEqual(posted, [], 'nothing leaves the page while the details are wrong');
    assert.deepEqual(unexpectedProblems(problems, []), noProblems);
  });

  it('sends the card number to the gateway’s tokenisation only; PVS gets the token', { skip }, async (test) => {
    const { page, problems, sent } = await openCardLink(test);
    await fillCard(page, { number: cards.succeeds, expiry });
    await page.keyboard.press('Enter');
    await expectSaved(page);

    const digits = cards.succeeds.replace(/\s/g, '');
    const carrying = sent.filter((r) => r.url.includes(digits) || r.postData?.includes(digits));
    assert.deepEqual(
      carrying.map((r) => `${r.method} ${r.url}`),
      [`POST ${t.baseUrl}/sandbox-gateway/v1/tokens`],
    );
    const saves = sent.filter((r) => r.url.startsWith(`${t.baseUrl}/hosted/v1/card-links/`));
    assert.equal(saves.length, 1);
    const saveBody = JSON.parse(saves[0]!.postData ?? 'null') as Record<string, unknown>;
    assert.deepEqual(Object.keys(saveBody), ['paymentToken']);
    assert.match(String(saveBody.paymentToken), /^tok_/);
    assert.ok(!t.logText().includes(digits), 'the card number is not in PVS’s logs');
    assert.deepEqual(unexpectedProblems(problems, []), noProblems);
  });
});
