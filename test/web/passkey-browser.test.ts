// Passkeys in Chromium, with the DevTools protocol's virtual authenticator standing in for a phone or a
// security key: an operator enrols a passkey at the first sign-in (and gets recovery codes), signs in
// with it, steps up with it before a review's evidence, adds and removes passkeys on the account page;
// another account's passkey and a replayed answer are refused; `pvs operator reset-mfa` removes them; a
// portal user sets one up from their account page. axe-core and screenshots of every new or changed page.
// Served at http://localhost (a secure context, and a domain: WebAuthn refuses an IP address as its id).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, CDPSession, Page } from 'playwright-core';
import { adminCommands } from '../../src/admin/commands.ts';
import { sandboxScreeningFixture } from '../../src/cli/serve.ts';
import { runDueJobs } from '../helpers/billing.ts';
import { browserSkipReason, createServedContext, launchBrowser, recordRequests, watchProblems } from '../helpers/browser.ts';
import type { TestContext } from '../helpers/context.ts';
import { createVerification, mintLinks, openLink, passport, personDetails, photo } from '../helpers/verifications.ts';
import { capture, clickAndWait, createPortalUser, newWebContext } from '../helpers/web.ts';

const skip = browserSkipReason();

describe('passkeys in a browser', { skip }, () => {
  let t: TestContext & { baseUrl: string };
  let browser: Browser;

  before(async () => {
    if (skip) return;
    t = await createServedContext({ env: { SIGN_IN_RATE_LIMIT_PER_MINUTE: '600' } }, { hostname: 'localhost' });
    await t.services.screening.importList({ format: 'opensanctions', filePath: sandboxScreeningFixture, list: 'sandbox-fixture' });
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  const pathOf = (page: Page) => new URL(page.url()).pathname;
  const audit = async (accountId: string) => (await t.services.audit.list({}, { limit: 100, from: 0 })).data.filter((e) => e.actor.id === accountId);
  const passkeysOf = (accountId: string) =>
    t.services.db.query<{ name: string; counter: string | number; last_used_at: Date | null }>('SELECT name, counter, last_used_at FROM passkeys WHERE account_id = $1 ORDER BY created_at', [accountId]);

  /** A page whose browser has a platform authenticator (user verification included), as a laptop with a fingerprint reader. */
  async function pageWithAuthenticator(): Promise<{ page: Page; cdp: CDPSession; authenticatorId: string }> {
    const page = await (await newWebContext(browser)).newPage();
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    const authenticatorId = await addAuthenticator(cdp);
    return { page, cdp, authenticatorId };
  }
  async function addAuthenticator(cdp: CDPSession): Promise<string> {
    const added = await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true },
    });
    return added.authenticatorId;
  }

  async function submitPassword(page: Page, area: 'console' | 'portal', email: string, password: string) {
    await page.goto(`${t.baseUrl}/${area}/login`);
    await page.getByLabel('Email address').fill(email);
    await page.getByLabel('Password').fill(password);
    await clickAndWait(page, 'button:has-text("Sign in")');
  }

  const password = 'harbour lights 2026';
  let operator: { id: string; email: string };
  let page: Page;
  let cdp: CDPSession;
  let authenticatorId: string;
  let signInAnswer: string;

  it('enrols an operator with a passkey at the first sign-in, instead of the app, with ten recovery codes', async () => {
    const created = await t.services.operators.create({ email: `pia-${Date.now()}@pvs.test` });
    operator = { id: created.operatorId, email: created.email };
    ({ page, cdp, authenticatorId } = await pageWithAuthenticator());
    const problems = watchProblems(page);
    await submitPassword(page, 'console', created.email, created.password);
    await page.getByLabel('New password', { exact: true }).fill(password);
    await page.getByLabel('New password again').fill(password);
    await clickAndWait(page, 'button:has-text("Save password")');
    assert.equal(pathOf(page), '/console/second-factor/enrol');
    assert.equal(await page.locator('h1').innerText(), 'Set up a second factor');
    await page.getByRole('button', { name: 'Set up a passkey' }).waitFor({ state: 'visible' });
    await capture(page, 'console/enrol-second-factor-choice');

    await page.getByLabel('Name of this passkey').fill('Work laptop');
    await clickAndWait(page, 'button:has-text("Set up a passkey")');
    assert.equal(await page.locator('h1').innerText(), 'Save your recovery codes');
    assert.match(await page.getByRole('status').innerText(), /Your passkey is set up/);
    const codes = await page.locator('.recovery-codes code').allInnerTexts();
    assert.equal(codes.length, 10);
    await capture(page, 'console/recovery-codes-passkey');
    await clickAndWait(page, 'a:has-text("continue")');
    assert.equal(pathOf(page), '/console');

    const stored = await passkeysOf(operator.id);
    assert.deepEqual(stored.map((p) => p.name), ['Work laptop']);
    assert.equal((await t.services.operators.accounts.current(operator.id))!.totp_enrolled_at, null, 'no authenticator app');
    const enrolled = (await audit(operator.id)).find((e) => e.action === 'session.second_factor_enrolled')!;
    assert.equal(enrolled.detail?.secondFactor, 'PASSKEY');
    assert.equal(enrolled.detail?.recoveryCodes, 10);
    assert.deepEqual([...problems.pageErrors, ...problems.failedRequests], []);
  });

  it('signs the operator in again with the passkey; the same answer sent again is refused', async () => {
    await clickAndWait(page, 'button:has-text("Sign out")');
    const sent = recordRequests(page);
    await submitPassword(page, 'console', operator.email, password);
    assert.equal(pathOf(page), '/console/second-factor');
    assert.equal(await page.locator('h1').innerText(), 'Use your passkey');
    await page.getByRole('button', { name: 'Sign in with your passkey' }).waitFor({ state: 'visible' });
    await capture(page, 'console/second-factor-passkey');
    await clickAndWait(page, 'button:has-text("Sign in with your passkey")');
    assert.equal(pathOf(page), '/console');
    const [stored] = await passkeysOf(operator.id);
    assert.ok(Number(stored!.counter) > 0, 'the authenticator’s count is kept');
    assert.ok(stored!.last_used_at);
    const signedIn = (await audit(operator.id)).filter((e) => e.action === 'session.signed_in').at(0)!;
    assert.equal(signedIn.detail?.secondFactor, 'PASSKEY');
    signInAnswer = new URLSearchParams(sent.find((r) => r.method === 'POST' && r.url.endsWith('/console/second-factor/passkey'))!.postData!).get('response')!;
    assert.match(signInAnswer, /"authenticatorData"/);

    // The answer again, from a new sign-in: its challenge was used, and the count has moved on.
    await clickAndWait(page, 'button:has-text("Sign out")');
    await submitPassword(page, 'console', operator.email, password);
    const csrf = await page.locator('form[action$="/second-factor/passkey"] input[name="_csrf"]').inputValue();
    const replay = await page.request.post(`${t.baseUrl}/console/second-factor/passkey`, { form: { _csrf: csrf, next: '/console', response: signInAnswer }, maxRedirects: 0 });
    assert.equal(replay.status(), 400);
    assert.match(await replay.text(), /That passkey could not be checked/);
    await page.reload();
    await clickAndWait(page, 'button:has-text("Sign in with your passkey")');
    assert.equal(pathOf(page), '/console', 'the failure was counted, and the count ended by the right passkey');
    assert.equal((await t.services.db.query<{ failed_logins: number }>('SELECT failed_logins FROM operators WHERE id = $1', [operator.id]))[0]!.failed_logins, 0);
  });

  it('refuses another account’s passkey at that account’s second factor, counting it toward the lockout', async () => {
    const other = await t.f.operator();
    const otherPage = await (await newWebContext(browser)).newPage();
    await submitPassword(otherPage, 'console', other.email, other.password);
    assert.equal(pathOf(otherPage), '/console/second-factor');
    assert.equal(await otherPage.locator('h1').innerText(), 'Enter your code', 'an app, no passkey: nothing to sign with');
    const csrf = await otherPage.locator('input[name="_csrf"]').first().inputValue();
    const refused = await otherPage.request.post(`${t.baseUrl}/console/second-factor/passkey`, { form: { _csrf: csrf, next: '/console', response: signInAnswer }, maxRedirects: 0 });
    // The other account has no passkey: nothing to check it against, and the page is its own again.
    assert.equal(refused.status(), 303);
    assert.equal(refused.headers().location, '/console');
    await otherPage.goto(`${t.baseUrl}/console`);
    assert.equal(pathOf(otherPage), '/console/second-factor', 'still not signed in');

    // With a passkey of its own (a copy of the key under another credential id), another's answer is wrong.
    await t.services.db.query(
      `INSERT INTO passkeys (id, account_id, credential_id, public_key, counter, transports, name, created_at)
       SELECT 'psk_other' || id, $2, credential_id || 'x', public_key, 0, transports, 'Other', now() FROM passkeys WHERE account_id = $1`,
      [operator.id, other.operatorId],
    );
    await otherPage.reload();
    const csrfAgain = await otherPage.locator('form[action$="/second-factor/passkey"] input[name="_csrf"]').inputValue();
    const wrong = await otherPage.request.post(`${t.baseUrl}/console/second-factor/passkey`, { form: { _csrf: csrfAgain, next: '/console', response: signInAnswer }, maxRedirects: 0 });
    assert.equal(wrong.status(), 400);
    assert.match(await wrong.text(), /That passkey could not be checked/);
    const [row] = await t.services.db.query<{ failed_logins: number }>('SELECT failed_logins FROM operators WHERE id = $1', [other.operatorId]);
    assert.ok(row!.failed_logins >= 1, 'counted toward the lockout');
  });

  it('steps up with the passkey before a review’s evidence', async () => {
    const partner = await t.f.signIn(await t.f.partner({ name: 'Harbour Accounting' }));
    const created = await createVerification(t, partner, { mode: 'TPB_POI', individuals: [{ role: 'AUTHORISED_REP', externalId: 'client-passkey' }] });
    const individualId = created.individuals[0]!.id;
    const person = await openLink(t, (await mintLinks(t, partner, created.id)).get(individualId)!);
    for (const res of [await person.details(personDetails('Review')), await person.document(passport, { front: photo() }), await person.selfie(photo())]) assert.equal(res.statusCode, 200, res.body);
    assert.equal((await person.submit()).statusCode, 200);
    await runDueJobs(t);
    const reviewPath = `/console/reviews/${created.id}/${individualId}`;
    await t.services.db.query("UPDATE web_sessions SET second_factor_at = second_factor_at - interval '16 minutes' WHERE account_id = $1", [operator.id]);
    await page.goto(`${t.baseUrl}${reviewPath}`);
    assert.equal(pathOf(page), '/console/second-factor');
    assert.equal(await page.locator('h1').innerText(), 'Confirm it’s you');
    await page.getByRole('button', { name: 'Continue with your passkey' }).waitFor({ state: 'visible' });
    await capture(page, 'console/step-up-passkey');
    await clickAndWait(page, 'button:has-text("Continue with your passkey")');
    assert.equal(pathOf(page), reviewPath);
    assert.match(await page.locator('main').innerText(), /Document and selfie/);
    const steppedUp = (await audit(operator.id)).find((e) => e.action === 'session.stepped_up')!;
    assert.equal(steppedUp.detail?.secondFactor, 'PASSKEY');
  });

  it('adds a passkey from the console’s account page, removes one, and keeps the last', async () => {
    page.on('dialog', (dialog) => void dialog.accept());
    await page.goto(`${t.baseUrl}/console/account`);
    assert.match(await page.locator('main').innerText(), /Work laptop/);
    // A second authenticator (a security key): the first is already registered, and the browser would refuse it.
    await cdp.send('WebAuthn.removeVirtualAuthenticator', { authenticatorId });
    authenticatorId = await addAuthenticator(cdp);
    await page.reload();
    await page.getByLabel('Name of this passkey').fill('Security key');
    await clickAndWait(page, 'button:has-text("Add a passkey")');
    assert.match(await page.getByRole('status').innerText(), /Your passkey is set up/);
    assert.deepEqual((await passkeysOf(operator.id)).map((p) => p.name), ['Work laptop', 'Security key']);
    await capture(page, 'console/account');

    await clickAndWait(page, 'button:has-text("Remove Work laptop")');
    assert.match(await page.getByRole('status').innerText(), /The passkey was removed/);
    await clickAndWait(page, 'button:has-text("Remove Security key")');
    assert.match(await page.getByRole('alert').first().innerText(), /only second factor, so it stays/);
    await capture(page, 'console/account-last-passkey');
    assert.deepEqual((await passkeysOf(operator.id)).map((p) => p.name), ['Security key']);
    const actions = (await audit(operator.id)).map((e) => e.action);
    assert.ok(actions.includes('session.passkey_added'));
    assert.equal(actions.filter((a) => a === 'session.passkey_removed').length, 1);
  });

  it('removes the passkeys with `pvs operator reset-mfa`: the operator enrols again', async () => {
    const reset = await adminCommands['operator-reset-mfa']!.run(t.services, { email: operator.email });
    assert.equal((reset as { passkeysRemoved: number }).passkeysRemoved, 1);
    assert.equal((reset as { hadSecondFactor: boolean }).hadSecondFactor, true);
    assert.deepEqual(await passkeysOf(operator.id), []);
    await submitPassword(page, 'console', operator.email, password);
    assert.equal(pathOf(page), '/console/second-factor/enrol');
  });

  it('lets a portal user set up a passkey from their account page', async () => {
    const partner = await t.f.partner({ name: 'Quay Conveyancing' });
    const user = await createPortalUser(t, partner.partnerId);
    const portal = await pageWithAuthenticator();
    await submitPassword(portal.page, 'portal', user.email, user.password);
    await portal.page.goto(`${t.baseUrl}/portal/account`);
    await clickAndWait(portal.page, 'a:has-text("Set up a second factor")');
    assert.equal(pathOf(portal.page), '/portal/second-factor/enrol');
    await portal.page.getByRole('button', { name: 'Set up a passkey' }).waitFor({ state: 'visible' });
    await capture(portal.page, 'portal/enrol-second-factor-choice');
    await clickAndWait(portal.page, 'button:has-text("Set up a passkey")');
    assert.equal(await portal.page.locator('h1').innerText(), 'Save your recovery codes');
    await clickAndWait(portal.page, 'a:has-text("continue")');
    assert.equal(pathOf(portal.page), '/portal/account');
    assert.match(await portal.page.locator('main').innerText(), /10 recovery codes left/);
    assert.match(await portal.page.locator('main').innerText(), /Passkey/);
    await capture(portal.page, 'portal/account-passkeys');
    const entry = (await t.services.audit.list({ action: 'session.second_factor_enrolled' }, { limit: 10, from: 0 })).data.find((e) => e.actor.id === user.id)!;
    assert.equal(entry.partnerId, partner.partnerId);
    assert.equal(entry.detail?.secondFactor, 'PASSKEY');
  });
});
