// Signing in to the portal and the console in Chromium: the wrong password, the lockout, the first
// sign-in that replaces the one-time password, the keyboard alone, signing out; axe-core and screenshots
// of each sign-in page (test-output/screenshots/{portal,console}/).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { browserSkipReason, createServedContext, focusedId, launchBrowser } from '../helpers/browser.ts';
import type { TestContext, TestPartner } from '../helpers/context.ts';
import { nextTotpCode } from '../helpers/second-factor.ts';
import { capture, clickAndWait, createConsoleOperator, createPortalUser, newWebContext, signIn } from '../helpers/web.ts';

const skip = browserSkipReason();

describe('signing in to the portal and the console in a browser', { skip }, () => {
  let t: TestContext & { baseUrl: string };
  let browser: Browser;
  let partner: TestPartner;

  before(async () => {
    if (skip) return;
    t = await createServedContext();
    browser = await launchBrowser();
    partner = await t.f.partner({ name: 'Harbour Accounting' });
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  async function freshPage(): Promise<Page> {
    const context = await newWebContext(browser);
    return context.newPage();
  }

  async function submitSignIn(page: Page, email: string, password: string) {
    await page.getByLabel('Email address').fill(email);
    await page.getByLabel('Password').fill(password);
    await clickAndWait(page, 'button:has-text("Sign in")');
  }

  it('says a wrong password plainly, locks after five, and lets the right password in once the lock ends', async () => {
    const user = await createPortalUser(t, partner.partnerId);
    const page = await freshPage();
    await page.goto(`${t.baseUrl}/portal/login`);
    await capture(page, 'portal/sign-in');
    await submitSignIn(page, user.email, 'not the password');
    assert.equal(await page.getByRole('alert').innerText(), 'The email address or the password is wrong.');
    assert.equal(await page.getByLabel('Email address').inputValue(), user.email, 'the email is kept');
    await capture(page, 'portal/sign-in-wrong-password');
    for (let i = 0; i < 4; i++) await submitSignIn(page, user.email, `still wrong ${i}`);
    await submitSignIn(page, user.email, user.password);
    assert.match(await page.getByRole('alert').innerText(), /Too many failed sign-ins: this account is locked\. Try again in 1 minute\./);
    assert.ok(page.url().endsWith('/portal/login'), 'the right password is refused while locked');
    await capture(page, 'portal/sign-in-locked');
    // The lock ends (a minute, moved on here in the database rather than waited for).
    await t.services.db.query("UPDATE portal_users SET locked_until = now() - interval '1 second' WHERE id = $1", [user.id]);
    await submitSignIn(page, user.email, user.password);
    assert.equal(new URL(page.url()).pathname, '/portal');
  });

  it('asks for a new password at the first sign-in, with announced errors, then signs out', async () => {
    const created = await t.services.portalUsers.create({ partnerId: partner.partnerId, email: `new-${Date.now()}@harbour.test` });
    const page = await freshPage();
    await page.goto(`${t.baseUrl}/portal/deliveries`);
    assert.equal(new URL(page.url()).pathname, '/portal/login');
    await submitSignIn(page, created.email, created.password);
    assert.equal(new URL(page.url()).pathname, '/portal/password');
    await capture(page, 'portal/choose-password');
    await page.getByLabel('New password', { exact: true }).fill('too short');
    await page.getByLabel('New password again').fill('too short');
    await clickAndWait(page, 'button:has-text("Save password")');
    assert.equal(await focusedId(page), '', 'the error summary has focus (it has no id)');
    assert.match(await page.getByRole('alert').innerText(), /The new password must be at least 12 characters/);
    assert.equal(await page.getByLabel('New password', { exact: true }).getAttribute('aria-invalid'), 'true');
    await capture(page, 'portal/choose-password-error');
    await page.getByLabel('New password', { exact: true }).fill('harbour lights 2026');
    await page.getByLabel('New password again').fill('harbour lights 2026');
    await clickAndWait(page, 'button:has-text("Save password")');
    assert.equal(new URL(page.url()).pathname, '/portal');
    assert.match(await page.locator('.account').innerText(), /Harbour Accounting/);

    await clickAndWait(page, 'button:has-text("Sign out")');
    assert.equal(new URL(page.url()).pathname, '/portal/login');
    assert.equal(await page.getByRole('status').innerText(), 'You have signed out.');
    await page.goto(`${t.baseUrl}/portal`);
    assert.equal(new URL(page.url()).pathname, '/portal/login', 'signed out for good');
  });

  it('signs in to the console with the keyboard alone, in reading order', async () => {
    const operator = await createConsoleOperator(t);
    const page = await freshPage();
    await page.goto(`${t.baseUrl}/console/login`);
    await capture(page, 'console/sign-in');
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate('document.activeElement.textContent'), 'Skip to main content');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    assert.equal(await focusedId(page), 'field-email');
    await page.keyboard.type(operator.email);
    await page.keyboard.press('Tab');
    assert.equal(await focusedId(page), 'field-password');
    await page.keyboard.type(operator.password);
    await Promise.all([page.waitForNavigation(), page.keyboard.press('Enter')]);
    assert.equal(new URL(page.url()).pathname, '/console/second-factor', 'the password is followed by the second factor');
    // Skip link, the brand, Sign out, then the code.
    for (let i = 0; i < 4; i++) await page.keyboard.press('Tab');
    assert.equal(await focusedId(page), 'field-code');
    await page.keyboard.type(await nextTotpCode(operator.totp!));
    await Promise.all([page.waitForNavigation(), page.keyboard.press('Enter')]);
    assert.equal(new URL(page.url()).pathname, '/console');
    assert.match(await page.locator('.account').innerText(), new RegExp(operator.email.replace(/\./g, '\\.')));
  });

  it('keeps an operator’s first sign-in to choosing a password, too', async () => {
    const created = await t.services.operators.create({ email: `first-op-${Date.now()}@pvs.test` });
    const page = await freshPage();
    await page.goto(`${t.baseUrl}/console/alerts`);
    await submitSignIn(page, created.email, created.password);
    assert.equal(new URL(page.url()).pathname, '/console/password');
    await capture(page, 'console/choose-password');
    await signIn(page, t.baseUrl, 'console', { email: created.email, password: created.password }).catch(() => undefined);
    assert.equal(new URL(page.url()).pathname, '/console/password', 'still only the password page');
  });
});
