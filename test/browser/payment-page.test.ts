// The hosted payment page in a real browser, used with the keyboard only: 4242 pays (the payment is
// SUCCEEDED, the spent link says so); insufficient funds is announced and focused, the card is emptied and
// another card pays on the same page; a hard decline closes the payment; the card number goes to the
// gateway's tokenisation and never to PVS; the pages of a paid, cancelled and unknown link. At a phone's
// and a desktop's size, with no sideways scrolling. Screenshots go to test-output/screenshots/.
import assert from 'node:assert/strict';
import { after, before, describe, it, type TestContext as NodeTestContext } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { cards } from '../helpers/billing.ts';
import {
  browserSkipReason,
  createServedContext,
  fillCard,
  focusedId,
  launchBrowser,
  openWatchedPage,
  phoneViewport,
  screenshot,
  tabThroughCardForm,
  typeInto,
  unexpectedProblems,
  type PageProblems,
  type SentRequest,
} from '../helpers/browser.ts';
import type { TestContext, TestPartner } from '../helpers/context.ts';

const partnerName = 'Ledger & Sons';
// An expiry a few years ahead of the real clock the served app runs on, so the card never goes stale.
const expiry = `12/${String(new Date().getUTCFullYear() + 4).slice(2)}`;
const prn = '551004123456789012';
const noProblems: PageProblems = { consoleErrors: [], pageErrors: [], failedRequests: [] };
// Chromium reports every HTTP error status as a console error, even the ones a test expects.
const declineStatus = /^Failed to load resource: the server responded with a status of 402 .*\/hosted\/v1\/payment-links\//;
const goneStatus = /^Failed to load resource: the server responded with a status of 410 .*\/p\//;
const unknownStatus = /^Failed to load resource: the server responded with a status of 404 .*\/p\//;

const phone = phoneViewport;
const desktop = { width: 1280, height: 800 };

interface PaymentBody {
  id: string;
  status: string;
  attempts: number;
  failureReason: string | null;
  paymentUrl: string;
}

// Each test skips (and so is counted as skipped) rather than the suite, whose skip the runner does not count.
const skip = browserSkipReason();

describe('the hosted payment page in Chromium', () => {
  let t: TestContext & { baseUrl: string };
  let partner: TestPartner;
  let browser: Browser;

  before(async () => {
    if (skip) return;
    t = await createServedContext();
    partner = await t.f.partner({ name: partnerName });
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  async function createPayment(body: Record<string, unknown> = {}): Promise<PaymentBody> {
    const res = await t.app.inject({ method: 'POST', url: '/v1/payments', headers: partner.headers, payload: { amount: 125_000, prn, description: 'BAS for the March 2025 quarter', ...body } });
    assert.equal(res.statusCode, 201, res.body);
    return res.json<PaymentBody>();
  }

  async function paymentOf(id: string): Promise<PaymentBody> {
    const res = await t.app.inject({ method: 'GET', url: `/v1/payments/${id}`, headers: partner.headers });
    assert.equal(res.statusCode, 200, res.body);
    return res.json<PaymentBody>();
  }

  /** The URL in a fresh browser context of the given size; a live page must have a policy without inline script. */
  async function openPage(test: NodeTestContext, url: string, viewport = phone, expectedStatus = 200) {
    const { page, problems, sent } = await openWatchedPage(browser, test, viewport);
    // CSP violations are console errors too; this names them outright.
    await page.addInitScript('window.cspViolations = []; document.addEventListener("securitypolicyviolation", (e) => window.cspViolations.push(e.violatedDirective + " " + e.blockedURI));');
    const response = await page.goto(url);
    assert.equal(response?.status(), expectedStatus, `${url} answers ${expectedStatus}`);
    if (expectedStatus === 200) assert.doesNotMatch((await response!.allHeaders())['content-security-policy'] ?? '', /unsafe-inline|unsafe-eval/);
    return { page, problems, sent };
  }

  async function openPaymentLink(test: NodeTestContext, viewport = phone) {
    const payment = await createPayment();
    return { payment, ...(await openPage(test, payment.paymentUrl, viewport)) };
  }

  /** Nothing went wrong in the page beyond the HTTP statuses expected, and nothing broke its policy. */
  async function assertNoProblems(page: Page, problems: PageProblems, expected: RegExp[] = []) {
    assert.deepEqual(unexpectedProblems(problems, expected), noProblems);
    assert.deepEqual(await page.evaluate('window.cspViolations'), [], 'no Content-Security-Policy violations');
  }

  async function assertNoSidewaysScroll(page: Page, what: string) {
    const widths = await page.evaluate<{ scroll: number; client: number }>('({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth })');
    assert.ok(widths.scroll <= widths.client, `${what}: the page is ${widths.scroll}px wide in a ${widths.client}px window`);
  }

  async function expectPaid(page: Page) {
    await page.locator('#paid-panel').waitFor({ state: 'visible' });
    assert.equal(await page.locator('#form-panel').isVisible(), false, 'the form is gone');
    const text = await page.locator('#paid-panel').innerText();
    assert.match(text, /Payment made/);
    assert.match(text, /\$1,250\.00/);
    assert.equal(await page.locator('#paid-panel .prn').innerText(), prn, 'the PRN, exactly its digits');
    assert.equal(await focusedId(page), 'paid-title', 'focus moves to the "Payment made" heading');
  }

  /** The only request carrying a card number is the gateway's tokenisation; PVS gets a token in `paymentToken` only. */
  function assertCardOnlyToGateway(sent: SentRequest[], numbers: string[]) {
    for (const number of numbers) {
      const digits = number.replace(/\s/g, '');
      const carrying = sent.filter((r) => [digits, number].some((n) => r.url.includes(n) || r.postData?.includes(n)));
      assert.deepEqual(
        carrying.map((r) => `${r.method} ${r.url}`),
        [`POST ${t.baseUrl}/sandbox-gateway/v1/tokens`],
        `only the tokenisation carries ${number}`,
      );
      assert.ok(!t.logText().includes(digits), 'the card number is not in PVS’s logs');
    }
    const pays = sent.filter((r) => r.url.startsWith(`${t.baseUrl}/hosted/v1/payment-links/`));
    assert.equal(pays.length, numbers.length, 'one pay call a card');
    for (const pay of pays) {
      const body = JSON.parse(pay.postData ?? 'null') as Record<string, unknown>;
      assert.deepEqual(Object.keys(body), ['paymentToken']);
      assert.match(String(body.paymentToken), /^tok_/);
    }
  }

  it('pays with 4242 by keyboard alone; the card number goes to the gateway only; the spent link says it was paid', { skip }, async (test) => {
    const { payment, page, problems, sent } = await openPaymentLink(test);
    assert.equal(await page.locator('.partner').innerText(), partnerName);
    const summary = await page.locator('.summary').innerText();
    assert.match(summary, /\$1,250\.00/);
    assert.match(summary, /BAS for the March 2025 quarter/);
    assert.equal(await page.locator('.summary .prn').innerText(), prn, 'the PRN, exactly its digits (grouped by the stylesheet only)');
    assert.equal(await page.locator('.summary .prn span').count(), 5, 'in groups of four');
    assert.equal(await page.locator('#declined-before').count(), 0, 'no earlier decline to mention');
    assert.equal(await page.getByRole('button').innerText(), 'Pay $1,250.00');
    await assertNoSidewaysScroll(page, 'the live page');

    await tabThroughCardForm(page, { name: 'Jo Citizen', number: cards.succeeds, expiry }, 'Space');

    await expectPaid(page);
    const paid = await paymentOf(payment.id);
    assert.deepEqual([paid.status, paid.attempts], ['SUCCEEDED', 1]);
    assertCardOnlyToGateway(sent, [cards.succeeds]);

    const spent = await page.reload();
    assert.equal(spent?.status(), 410);
    assert.equal(await page.locator('h1').innerText(), 'This payment has already been made');
    assert.equal(await page.locator('#card-form').count(), 0, 'no form on a paid link');
    await assertNoProblems(page, problems, [goneStatus]);
  });

  for (const [viewport, size] of [
    [phone, 'phone'],
    [desktop, 'desktop'],
  ] as const) {
    it(`on a ${size} (${viewport.width}×${viewport.height}): insufficient funds is announced, focused and emptied; another card then pays on the same page`, { skip }, async (test) => {
      const { payment, page, problems, sent } = await openPaymentLink(test, viewport);
      await screenshot(page, `payment-page-live-${viewport.width}`);
      await typeInto(page, 'Name on card', 'Jo Citizen', 'name');
      await fillCard(page, { number: cards.insufficientFunds, expiry });
      await page.keyboard.press('Enter');

      const errors = page.locator('#errors');
      await errors.waitFor({ state: 'visible' });
      assert.equal(await errors.innerText(), 'Your card has insufficient funds. Try another card.');
      assert.equal(await errors.getAttribute('role'), 'alert');
      assert.equal(await focusedId(page), 'errors', 'focus moves to the error summary');
      assert.deepEqual(await Promise.all(['#number', '#expiry', '#cvc'].map((s) => page.locator(s).inputValue())), ['', '', ''], 'the card is emptied for another');
      assert.equal(await page.locator('#name').inputValue(), 'Jo Citizen', 'the name is kept');
      assert.ok(await page.locator('#card-form').isVisible(), 'the form stays');
      await assertNoSidewaysScroll(page, 'the declined page');
      await screenshot(page, `payment-page-declined-${viewport.width}`);

      const declined = await paymentOf(payment.id);
      assert.deepEqual([declined.status, declined.attempts], ['PROCESSING', 1]);

      // The same link opened afresh says a card was declined before.
      const again = await page.context().newPage();
      assert.equal((await again.goto(payment.paymentUrl))?.status(), 200);
      assert.match(await again.locator('#declined-before').innerText(), /declined/);
      await screenshot(again, `payment-page-declined-before-${viewport.width}`);
      await again.close();

      await fillCard(page, { number: cards.succeeds, expiry });
      await page.keyboard.press('Enter');
      await expectPaid(page);
      assert.equal(await errors.isVisible(), false);
      await assertNoSidewaysScroll(page, 'the paid panel');
      await screenshot(page, `payment-page-paid-${viewport.width}`);

      const paid = await paymentOf(payment.id);
      assert.deepEqual([paid.status, paid.attempts], ['SUCCEEDED', 2]);
      assertCardOnlyToGateway(sent, [cards.insufficientFunds, cards.succeeds]);
      await assertNoProblems(page, problems, [declineStatus]);
      assert.equal(problems.consoleErrors.filter((m) => declineStatus.test(m)).length, 1, 'one decline, one 402');
    });
  }

  it('a hard decline (0341) replaces the form with the closed panel, and the payment is FAILED', { skip }, async (test) => {
    const { payment, page, problems } = await openPaymentLink(test);
    await fillCard(page, { number: cards.doNotHonor, expiry });
    await page.keyboard.press('Tab');
    assert.equal(await focusedId(page), 'submit');
    await page.keyboard.press('Enter');

    await page.locator('#failed-panel').waitFor({ state: 'visible' });
    assert.equal(await page.locator('#form-panel').isVisible(), false, 'the form is gone');
    assert.equal(await focusedId(page), 'failed-title', 'focus moves to the panel’s heading');
    const text = await page.locator('#failed-panel').innerText();
    assert.match(text, /Your card was declined\./);
    assert.match(text, /could not be made and is now closed/);
    assert.match(text, new RegExp(`Contact ${partnerName}`));
    await assertNoSidewaysScroll(page, 'the closed panel');
    await screenshot(page, 'payment-page-failed-390');

    const failed = await paymentOf(payment.id);
    assert.deepEqual([failed.status, failed.failureReason], ['FAILED', 'do_not_honor']);

    const closed = await page.reload();
    assert.equal(closed?.status(), 410);
    assert.equal(await page.locator('h1').innerText(), 'This payment could not be made');
    await assertNoProblems(page, problems, [declineStatus, goneStatus]);
  });

  it('explains a paid and a cancelled payment with 410, and an unknown link with 404', { skip }, async (test) => {
    const paid = await createPayment();
    const token = paid.paymentUrl.split('/p/')[1]!;
    const tokenised = await t.app.inject({ method: 'POST', url: '/sandbox-gateway/v1/tokens', payload: { number: cards.succeeds, expMonth: 12, expYear: 2040, cvc: '123' } });
    const pay = await t.app.inject({ method: 'POST', url: `/hosted/v1/payment-links/${token}`, payload: { paymentToken: tokenised.json<{ token: string }>().token } });
    assert.deepEqual([pay.statusCode, pay.json()], [200, { status: 'SUCCEEDED' }]);

    const cancelled = await createPayment();
    const cancel = await t.app.inject({ method: 'POST', url: `/v1/payments/${cancelled.id}/cancel`, headers: partner.headers });
    assert.equal(cancel.statusCode, 200, cancel.body);

    const cases = [
      { url: paid.paymentUrl, status: 410, title: 'This payment has already been made', says: /nothing more to pay/, shot: 'paid' },
      { url: cancelled.paymentUrl, status: 410, title: 'This payment was cancelled', says: /Nothing was charged/, shot: 'cancelled' },
      { url: `${t.baseUrl}/p/${'A'.repeat(43)}`, status: 404, title: 'This link is not valid', says: /Nothing was charged/, shot: 'unknown' },
      // A token the edge refuses (here a NUL) is a link that does not exist too, said the same way rather than as JSON.
      { url: `${t.baseUrl}/p/${'A'.repeat(42)}%00`, status: 404, title: 'This link is not valid', says: /Nothing was charged/, shot: '' },
    ];
    for (const viewport of [phone, desktop]) {
      for (const c of cases) {
        const { page, problems } = await openPage(test, c.url, viewport, c.status);
        assert.equal(await page.locator('h1').innerText(), c.title);
        assert.match(await page.locator('main').innerText(), c.says);
        assert.equal(await page.locator('#card-form').count(), 0, 'no form');
        assert.equal(await page.locator('script').count(), 0, 'no script');
        await assertNoSidewaysScroll(page, c.title);
        if (c.shot) await screenshot(page, `payment-page-link-${c.shot}-${viewport.width}`);
        await assertNoProblems(page, problems, [goneStatus, unknownStatus]);
        await page.context().close();
      }
    }
  });
});
