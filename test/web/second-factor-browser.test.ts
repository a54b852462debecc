// Multi-factor sign-in in Chromium: an operator's first sign-in through enrolment (the code computed from
// the key shown on the page, as a person typing it into an app would), a replayed code refused, a
// recovery code that works once, the step-up before a review's evidence, the lockout after wrong codes,
// a partner that requires a second factor of its portal users, a portal user enrolling by choice, and the
// 429 page of sign-in throttling. axe-core and screenshots of every new page (test-output/screenshots/).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { sandboxScreeningFixture } from '../../src/cli/serve.ts';
import { totpCodeAt } from '../../src/modules/accounts/totp.ts';
import { runDueJobs } from '../helpers/billing.ts';
import { browserSkipReason, createServedContext, launchBrowser } from '../helpers/browser.ts';
import type { TestContext, TestPartner } from '../helpers/context.ts';
import { nextTotpCode, type TestTotp } from '../helpers/second-factor.ts';
import { createVerification, mintLinks, openLink, passport, personDetails, photo } from '../helpers/verifications.ts';
import { answerCode, capture, clickAndWait, createConsoleOperator, createPortalUser, newWebContext, signIn } from '../helpers/web.ts';

const skip = browserSkipReason();

describe('multi-factor sign-in in a browser', { skip }, () => {
  let t: TestContext & { baseUrl: string };
  let browser: Browser;
  let partner: TestPartner;

  before(async () => {
    if (skip) return;
    // Many sign-in posts from one address (127.0.0.1) in a minute: the throttle is tested apart, at the end.
    t = await createServedContext({ env: { SIGN_IN_RATE_LIMIT_PER_MINUTE: '600' } });
    await t.services.screening.importList({ format: 'opensanctions', filePath: sandboxScreeningFixture, list: 'sandbox-fixture' });
    browser = await launchBrowser();
    partner = await t.f.partner({ name: 'Harbour Accounting' });
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  async function freshPage(): Promise<Page> {
    return (await newWebContext(browser)).newPage();
  }
  const pathOf = (page: Page) => new URL(page.url()).pathname;
  const actionsOf = async (accountId: string) => (await t.services.audit.list({}, { limit: 100, from: 0 })).data.filter((e) => e.actor.id === accountId).map((e) => e.action);

  async function submitPassword(page: Page, area: 'console' | 'portal', email: string, password: string) {
    await page.goto(`${t.baseUrl}/${area}/login`);
    await page.getByLabel('Email address').fill(email);
    await page.getByLabel('Password').fill(password);
    await clickAndWait(page, 'button:has-text("Sign in")');
  }

  async function submitCode(page: Page, code: string) {
    await page.getByLabel('Code', { exact: true }).fill(code);
    await clickAndWait(page, 'form[action$="/second-factor"] button[type="submit"]');
  }

  /** Reads the key the enrolment page shows, as a person would type it into an app. */
  async function shownKey(page: Page): Promise<string> {
    return (await page.locator('#setup-key').innerText()).replace(/\s/g, '');
  }

  it('enrols an operator at the first sign-in, after the password, with the key shown on the page; then asks for a code at every sign-in, once per code', async () => {
    const created = await t.services.operators.create({ email: `ana-${Date.now()}@pvs.test` });
    const page = await freshPage();
    await page.goto(`${t.baseUrl}/console/alerts`);
    await submitPassword(page, 'console', created.email, created.password);
    assert.equal(pathOf(page), '/console/password', 'the password comes first');
    await page.getByLabel('New password', { exact: true }).fill('harbour lights 2026');
    await page.getByLabel('New password again').fill('harbour lights 2026');
    await clickAndWait(page, 'button:has-text("Save password")');
    assert.equal(pathOf(page), '/console/second-factor/enrol', 'then the second factor, before anything else');
    assert.equal(await page.locator('nav.sidenav').count(), 0, 'no navigation until it is done');
    assert.match(await page.locator('img.qr-code').getAttribute('src') ?? '', /^data:image\/svg\+xml;base64,/);
    const svg = Buffer.from((await page.locator('img.qr-code').getAttribute('src'))!.split(',')[1]!, 'base64').toString('utf8');
    assert.match(svg, /^<svg[^>]*viewBox/, 'the QR code is an SVG drawn on the server');
    await capture(page, 'console/enrol-second-factor');

    // Another page is refused meanwhile: the reader is sent back here.
    await page.goto(`${t.baseUrl}/console/partners`);
    assert.equal(pathOf(page), '/console/second-factor/enrol');
    const secret = await shownKey(page);
    assert.match(secret, /^[A-Z2-7]{32}$/);

    await page.getByLabel('Code from the app').fill('000000');
    await clickAndWait(page, 'button:has-text("Confirm and continue")');
    assert.match(await page.getByRole('alert').first().innerText(), /There is a problem/);
    assert.equal(await shownKey(page), secret, 'the same key is shown again: the app already holds it');
    await capture(page, 'console/enrol-second-factor-error');

    // The server's time, which the tests' authenticator may have moved on (helpers/second-factor.ts).
    const now = t.services.clock.now().getTime();
    const enrolCode = totpCodeAt(secret, new Date(now));
    await page.getByLabel('Code from the app').fill(enrolCode);
    await clickAndWait(page, 'button:has-text("Confirm and continue")');
    assert.equal(await page.locator('h1').innerText(), 'Save your recovery codes');
    const codes = await page.locator('.recovery-codes code').allInnerTexts();
    assert.equal(codes.length, 10);
    assert.equal(new Set(codes).size, 10);
    await capture(page, 'console/recovery-codes');
    await clickAndWait(page, 'a:has-text("continue")');
    assert.equal(pathOf(page), '/console/partners', 'on to the page last asked for');

    // Stored sealed and hashed: neither the key nor a code is in the database as it was shown.
    const row = (await t.services.db.query<Record<string, unknown>>('SELECT * FROM operators WHERE id = $1', [created.operatorId]))[0]!;
    assert.doesNotMatch(JSON.stringify(row), new RegExp(secret));
    const stored = await t.services.db.query<{ code_hash: string }>('SELECT code_hash FROM recovery_codes WHERE account_id = $1', [created.operatorId]);
    assert.equal(stored.length, 10);
    for (const code of codes) assert.ok(!stored.some((s) => s.code_hash.includes(code.replace(/-/g, ''))));
    assert.deepEqual(await actionsOf(created.operatorId), ['session.second_factor_enrolled', 'session.password_replaced', 'session.signed_in']);

    // The next sign-in: the password, then a code. The enrolment's code again is a replay.
    await clickAndWait(page, 'button:has-text("Sign out")');
    await submitPassword(page, 'console', created.email, 'harbour lights 2026');
    assert.equal(pathOf(page), '/console/second-factor');
    await capture(page, 'console/second-factor');
    await submitCode(page, enrolCode);
    assert.match(await page.locator('.field-error').innerText(), /That code has been used already/);
    await capture(page, 'console/second-factor-replayed');
    const totp: TestTotp = { secret, lastStep: Math.floor(now / 30_000), recoveryCodes: codes, clock: t.movableClock };
    await submitCode(page, await nextTotpCode(totp));
    assert.equal(pathOf(page), '/console');

    // A recovery code signs in once, and says how many are left.
    await clickAndWait(page, 'button:has-text("Sign out")');
    await submitPassword(page, 'console', created.email, 'harbour lights 2026');
    await submitCode(page, codes[3]!.toUpperCase());
    assert.equal(await page.locator('h1').innerText(), 'Recovery code accepted');
    assert.match(await page.getByRole('status').innerText(), /You have 9 left/);
    await capture(page, 'console/recovery-code-used');
    await clickAndWait(page, 'a:has-text("Continue")');
    assert.equal(pathOf(page), '/console');
    await clickAndWait(page, 'button:has-text("Sign out")');
    await submitPassword(page, 'console', created.email, 'harbour lights 2026');
    await submitCode(page, codes[3]!);
    assert.equal(pathOf(page), '/console/second-factor', 'a recovery code works once');
    assert.match(await page.locator('.field-error').innerText(), /The code is wrong/);
    const actions = await actionsOf(created.operatorId);
    assert.equal(actions.filter((a) => a === 'session.recovery_code_used').length, 1);
    assert.equal(actions.filter((a) => a === 'session.signed_in').length, 3, 'the one-time password, the code, the recovery code');
  });

  it('asks for a fresh code before a review’s evidence when the last one is older than MFA_STEP_UP_MINUTES, then shows the page asked for', async () => {
    const operator = await createConsoleOperator(t);
    const page = await freshPage();
    await signIn(page, t.baseUrl, 'console', operator);
    partner = await t.f.signIn(partner);
    const created = await createVerification(t, partner, { mode: 'TPB_POI', individuals: [{ role: 'AUTHORISED_REP', externalId: 'client-review' }] });
    const individualId = created.individuals[0]!.id;
    const person = await openLink(t, (await mintLinks(t, partner, created.id)).get(individualId)!);
    for (const res of [await person.details(personDetails('Review')), await person.document(passport, { front: photo() }), await person.selfie(photo())]) assert.equal(res.statusCode, 200, res.body);
    assert.equal((await person.submit()).statusCode, 200);
    await runDueJobs(t);
    assert.equal((await t.services.db.query<{ status: string }>('SELECT status FROM verification_individuals WHERE id = $1', [individualId]))[0]?.status, 'MANUAL_REVIEW');
    const reviewPath = `/console/reviews/${created.id}/${individualId}`;
    const reads = async () => (await t.services.db.query('SELECT 1 FROM evidence_reads WHERE operator_id = $1', [operator.id])).length;

    // Within the 15 minutes of the sign-in's code: the evidence at once.
    await page.goto(`${t.baseUrl}${reviewPath}`);
    assert.equal(pathOf(page), reviewPath);
    assert.match(await page.locator('main').innerText(), /Document and selfie/);
    const readsAfterFirst = await reads();
    assert.ok(readsAfterFirst > 0);

    // 16 minutes later (moved on in the database rather than waited for): a code first.
    await t.services.db.query("UPDATE web_sessions SET second_factor_at = second_factor_at - interval '16 minutes' WHERE account_id = $1", [operator.id]);
    await page.goto(`${t.baseUrl}${reviewPath}`);
    assert.equal(pathOf(page), '/console/second-factor');
    assert.equal(await page.locator('h1').innerText(), 'Confirm it’s you');
    assert.match(await page.locator('main').innerText(), /more than 15 minutes old/);
    assert.equal(await reads(), readsAfterFirst, 'no evidence was read before the code');
    await capture(page, 'console/step-up');
    await answerCode(page, operator.totp!);
    assert.equal(pathOf(page), reviewPath, 'back to the review asked for');
    assert.match(await page.locator('main').innerText(), /Document and selfie/);
    assert.ok((await reads()) > readsAfterFirst);
    assert.ok((await actionsOf(operator.id)).includes('session.stepped_up'));
  });

  it('locks the account after five wrong codes, and refuses even the right one while the lock lasts', async () => {
    const operator = await createConsoleOperator(t);
    const page = await freshPage();
    await submitPassword(page, 'console', operator.email, operator.password);
    for (let i = 0; i < 4; i++) {
      await submitCode(page, `12345${i}`);
      assert.match(await page.locator('.field-error').innerText(), /The code is wrong/);
    }
    await submitCode(page, '123459');
    await submitCode(page, await nextTotpCode(operator.totp!));
    assert.equal(pathOf(page), '/console/second-factor');
    // The lock lasts a minute from the fifth wrong code; on a busy machine seconds pass before this answer.
    assert.match(await page.getByRole('alert').first().innerText(), /Too many wrong codes: this account is locked\. Try again in (1 minute|[1-5]?[0-9] seconds)\./);
    await capture(page, 'console/second-factor-locked');
    // Signing in again with the password buys no new guesses: the account is locked.
    await submitPassword(page, 'console', operator.email, operator.password);
    assert.match(await page.getByRole('alert').innerText(), /this account is locked/);
    await t.services.db.query("UPDATE operators SET locked_until = now() - interval '1 second' WHERE id = $1", [operator.id]);
    await signIn(page, t.baseUrl, 'console', operator);
    assert.equal(pathOf(page), '/console');
  });

  it('makes every portal user of a partner that requires it enrol before anything else, set in the console; others enrol from their account page if they choose', async () => {
    const operator = await createConsoleOperator(t);
    const console = await freshPage();
    await signIn(console, t.baseUrl, 'console', operator, `/console/partners/${partner.partnerId}`);
    const user = await createPortalUser(t, partner.partnerId);

    // By choice first: the account page offers it, and nothing forces it.
    const portal = await freshPage();
    await signIn(portal, t.baseUrl, 'portal', user);
    assert.equal(pathOf(portal), '/portal');
    await portal.goto(`${t.baseUrl}/portal/account`);
    assert.match(await portal.locator('main').innerText(), /Not set up/);
    await capture(portal, 'portal/account');

    // The console's setting.
    await console.getByLabel('Require a second factor of every portal user').check();
    await capture(console, 'console/partner-second-factor');
    await clickAndWait(console, 'button:has-text("Save sign-in rule")');
    assert.match(await console.getByRole('status').innerText(), /must set up a second factor/);
    assert.ok((await actionsOf(operator.id)).includes('partner.portal_second_factor_required'));

    // The signed-in portal user is held at the enrolment on their next page.
    await portal.goto(`${t.baseUrl}/portal/deliveries`);
    assert.equal(pathOf(portal), '/portal/second-factor/enrol');
    assert.match(await portal.locator('main').innerText(), /Harbour Accounting requires a second factor/);
    await capture(portal, 'portal/enrol-second-factor');
    const secret = await shownKey(portal);
    await portal.getByLabel('Code from the app').fill(totpCodeAt(secret, t.services.clock.now()));
    await clickAndWait(portal, 'button:has-text("Confirm and continue")');
    await capture(portal, 'portal/recovery-codes');
    await clickAndWait(portal, 'a:has-text("continue")');
    assert.equal(pathOf(portal), '/portal/deliveries');
    await portal.goto(`${t.baseUrl}/portal/account`);
    assert.match(await portal.locator('main').innerText(), /Set up on/);
    assert.match(await portal.locator('main').innerText(), /10 recovery codes left/);

    // Next sign-in: the code is asked for.
    const totp: TestTotp = { secret, lastStep: Math.floor(t.services.clock.now().getTime() / 30_000), recoveryCodes: [], clock: t.movableClock };
    await signIn(await freshPage(), t.baseUrl, 'portal', { ...user, totp });

    // Not required any more: the setting goes back; an enrolled user keeps the factor.
    await console.getByLabel('Require a second factor of every portal user').uncheck();
    await clickAndWait(console, 'button:has-text("Save sign-in rule")');
    assert.deepEqual(await t.services.portalUsers.requiresSecondFactor(partner.partnerId), false);
  });

  it('answers too many sign-in posts from one address with a 429 page that says when to try again', async () => {
    // A server of its own with a small limit: this file's posts are many, from one address.
    const small = await createServedContext({ env: { SIGN_IN_RATE_LIMIT_PER_MINUTE: '3' } });
    try {
      const page = await freshPage();
      await page.goto(`${small.baseUrl}/portal/login`);
      const statuses: number[] = [];
      let retryAfter: string | undefined;
      for (let i = 0; i < 3; i++) {
        const answer = await page.request.post(`${small.baseUrl}/portal/login`, { form: { email: `nobody-${i}@partner.test`, password: `guess ${i}` }, maxRedirects: 0 });
        statuses.push(answer.status());
        retryAfter = answer.headers()['retry-after'];
      }
      assert.deepEqual(statuses, [403, 403, 403], 'three posts are read (refused for their missing form token)');
      assert.equal(retryAfter, undefined);
      await page.goto(`${small.baseUrl}/portal/login`);
      await page.getByLabel('Email address').fill('kim@harbour.test');
      await page.getByLabel('Password').fill('a password');
      const [response] = await Promise.all([page.waitForNavigation(), page.click('button:has-text("Sign in")')]);
      assert.equal(response?.status(), 429);
      assert.match((await response?.headerValue('retry-after')) ?? '', /^[1-9][0-9]*$/);
      assert.match(await page.getByRole('alert').innerText(), /Too many sign-in attempts from your network address\. Try again in \d+ seconds?\./);
      await capture(page, 'portal/sign-in-throttled');
    } finally {
      await small.close();
    }
  });
});
