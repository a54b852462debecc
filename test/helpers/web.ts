// Browser tests of the partner portal and the operator console: accounts past their first sign-in,
// signing in through the real form, axe-core on every page, and screenshots at a desktop and a phone
// width under test-output/screenshots/{portal,console}/.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { mkdir, readFile } from 'node:fs/promises';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { TestContext } from './context.ts';
import { browserTimeout, screenshotsWanted } from './browser.ts';
import { nextTotpCode, type TestTotp } from './second-factor.ts';

export interface WebAccount {
  id: string;
  email: string;
  password: string;
  /** The account's authenticator app, when it has enrolled one: signIn answers its code. */
  totp?: TestTotp;
}

let counter = 0;

/** A portal user of the partner who has replaced the one-time password with `password`. */
export async function createPortalUser(t: TestContext, partnerId: string, email?: string): Promise<WebAccount> {
  counter += 1;
  const created = await t.services.portalUsers.create({ partnerId, email: email ?? `portal-${counter}-${Date.now()}@partner.test` });
  const password = `portal password ${counter}`;
  await t.services.portalUsers.accounts.verify({ email: created.email, password: created.password, newPassword: password });
  return { id: created.portalUserId, email: created.email, password };
}

/** An operator who has replaced the one-time password and enrolled an authenticator app (the console requires one). */
export async function createConsoleOperator(t: TestContext, email?: string): Promise<WebAccount> {
  const operator = await t.f.operator({ email });
  return { id: operator.operatorId, email: operator.email, password: operator.password, totp: operator.totp };
}

export const desktopViewport = { width: 1280, height: 800 };
export const phoneViewport = { width: 390, height: 844 };

/**
 * A browser context for one person. CSP is bypassed only so that axe-core can be injected; the pages'
 * own scripts are external files, and a test in web-security.test.ts checks the policy itself.
 */
export async function newWebContext(browser: Browser, viewport = desktopViewport): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport, bypassCSP: true });
  context.setDefaultTimeout(browserTimeout);
  return context;
}

/** Clicks and waits for the page it leads to. */
export async function clickAndWait(page: Page, selector: Parameters<Page['click']>[0]): Promise<void> {
  await Promise.all([page.waitForNavigation(), page.click(selector)]);
}

/** Signs in through the area's form (and its second factor, when the account has one) and lands on `next` (or the area's start page). */
export async function signIn(page: Page, baseUrl: string, area: 'portal' | 'console', account: Pick<WebAccount, 'email' | 'password' | 'totp'>, next?: string): Promise<void> {
  await page.goto(`${baseUrl}/${area}/login${next ? `?next=${encodeURIComponent(next)}` : ''}`);
  await page.getByLabel('Email address').fill(account.email);
  await page.getByLabel('Password').fill(account.password);
  await clickAndWait(page, 'button:has-text("Sign in")');
  assert.ok(!page.url().includes('/login'), `signed in to the ${area} (at ${page.url()})`);
  if (account.totp && new URL(page.url()).pathname === `/${area}/second-factor`) await answerCode(page, account.totp);
  assert.ok(!page.url().includes('/second-factor'), `past the second factor in the ${area} (at ${page.url()})`);
}

/** Types the authenticator app's next code into the second-factor page and sends it. */
export async function answerCode(page: Page, totp: TestTotp): Promise<void> {
  await page.getByLabel('Code', { exact: true }).fill(await nextTotpCode(totp));
  await clickAndWait(page, 'form[action$="/second-factor"] button[type="submit"]');
}

const require = createRequire(import.meta.url);
let axeSource: string | undefined;

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: string[]; failureSummary?: string }>;
}

/** Runs axe-core (WCAG 2.0–2.2 A and AA rules) on the page; fails on any serious or critical violation. */
export async function assertAccessible(page: Page, label: string): Promise<AxeViolation[]> {
  axeSource ??= await readFile(require.resolve('axe-core/axe.min.js'), 'utf8');
  if (!(await page.evaluate('typeof window.axe !== "undefined"'))) await page.addScriptTag({ content: axeSource });
  const result = (await page.evaluate(
    `axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'] }, resultTypes: ['violations'] })`,
  )) as { violations: AxeViolation[] };
  const serious = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  assert.deepEqual(
    serious.map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
    [],
    `no serious accessibility violation on ${label}`,
  );
  return result.violations;
}

const screenshotRoot = new URL('../../test-output/screenshots/', import.meta.url);

/**
 * Checks the page with axe, then saves it at 1280×800 and at 390×844 (full page), and returns to the
 * desktop width, failing a page that scrolls sideways on the phone. `name` is `portal/destinations` and the like. Axe runs once: what it checks (names,
 * labels, contrast, landmarks, roles) is the same markup and the same colours at either width.
 */
export async function capture(page: Page, name: string): Promise<void> {
  await page.setViewportSize(desktopViewport);
  await assertAccessible(page, name);
  const file = new URL(`${name}`, screenshotRoot).pathname;
  if (screenshotsWanted) {
    await mkdir(file.slice(0, file.lastIndexOf('/')), { recursive: true });
    await page.screenshot({ path: `${file}-desktop.png`, fullPage: true });
  }
  await page.setViewportSize(phoneViewport);
  if (screenshotsWanted) await page.screenshot({ path: `${file}-phone.png`, fullPage: true });
  // Nothing wider than a phone's screen: a long id or path must wrap, not scroll the page sideways.
  const { scrollWidth, clientWidth, wide } = await page.evaluate<{ scrollWidth: number; clientWidth: number; wide: string[] }>(`(() => {
    const root = document.documentElement;
    const wide = [...document.querySelectorAll('main *')].filter((el) => el.getBoundingClientRect().right > root.clientWidth + 0.5)
      .slice(0, 5).map((el) => el.tagName.toLowerCase() + '.' + el.className + ': ' + (el.textContent || '').trim().slice(0, 60));
    return { scrollWidth: root.scrollWidth, clientWidth: root.clientWidth, wide };
  })()`);
  await page.setViewportSize(desktopViewport);
  assert.ok(scrollWidth <= clientWidth, `${name} fits a phone’s width (${scrollWidth} px wide on a ${clientWidth} px screen): ${wide.join(' | ')}`);
}

/** Posts a form of the page the way a forged cross-site request would: the session cookie, no token. */
export async function postWithoutToken(page: Page, path: string, fields: Record<string, string>): Promise<{ status: number; body: string }> {
  const response = await page.request.post(path, { form: fields, maxRedirects: 0 });
  return { status: response.status(), body: await response.text() };
}
