// Browser tests: Debian's headless Chromium driven through playwright-core, the app served over real HTTP
// on the PUBLIC_BASE_URL origin (the hosted pages post to absolute URLs built from it), full-page
// screenshots under test-output/screenshots/, and a record of everything that went wrong in the page.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import type { TestContext as NodeTestContext } from 'node:test';
import { chromium, type Browser, type Page } from 'playwright-core';
import { createTestContext, type TestContext } from './context.ts';

export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const screenshotDir = new URL('../../test-output/screenshots/', import.meta.url);

/** Generous: the machine has 2 cores and runs two test files at once. */
export const browserTimeout = 60_000;

const missingText = `no Chromium at ${chromiumPath}: install it with \`apt-get install -y chromium\` (Debian), or set CHROMIUM_PATH`;

/**
 * Why this file's browser tests are skipped, or undefined when they run. With REQUIRE_BROWSER=1 (as CI
 * sets it) they never skip for a missing browser: launchBrowser then fails with the same message. What a
 * page does in a browser does not depend on the database back-end, so they run in one pass only (CI's time
 * limit counts both): BROWSER_TESTS_PASS names it, pglite by default so that `npm test` runs them with no
 * PostgreSQL; CI runs them in the PostgreSQL pass, where the server behind the pages costs less CPU.
 */
export function browserSkipReason(): string | undefined {
  const pass = process.env.BROWSER_TESTS_PASS ?? 'pglite';
  if ((process.env.TEST_DATABASE ?? 'pglite') !== pass) return `pages in a browser need no particular database back-end: they run in the ${pass} pass only (BROWSER_TESTS_PASS)`;
  if (existsSync(chromiumPath) || process.env.REQUIRE_BROWSER === '1') return undefined;
  return `${missingText}; set REQUIRE_BROWSER=1 to fail instead of skipping`;
}

/** `args` are added to the usual flags (the camera tests' fake device: `--use-fake-device-for-media-stream`). */
export async function launchBrowser(args: string[] = []): Promise<Browser> {
  if (!existsSync(chromiumPath)) throw new Error(`REQUIRE_BROWSER=1 and ${missingText}`);
  return chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    timeout: browserTimeout,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', ...args],
  });
}

/** A port free a moment ago; the app is built for it before it listens, so PUBLIC_BASE_URL can name it. */
async function findFreePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * A test context whose app listens on 127.0.0.1 at exactly its PUBLIC_BASE_URL. `hostname: 'localhost'`
 * for passkeys: WebAuthn's relying-party id must be a domain, never an IP address (Chromium maps
 * localhost to the loopback address itself, and counts it a secure context).
 */
export async function createServedContext(
  options: NonNullable<Parameters<typeof createTestContext>[0]> = {},
  { hostname = '127.0.0.1' }: { hostname?: '127.0.0.1' | 'localhost' } = {},
): Promise<TestContext & { baseUrl: string }> {
  const port = await findFreePort();
  const baseUrl = `http://${hostname}:${port}`;
  const t = await createTestContext({ ...options, env: { ...options.env, PUBLIC_BASE_URL: baseUrl } });
  await t.app.listen({ port, host: '127.0.0.1' });
  return Object.assign(t, { baseUrl });
}

/**
 * Screenshots are for people to look at, and a full page's PNG costs Chromium a second or more of CPU:
 * TEST_SCREENSHOTS=0 (as CI sets it) skips them, and nothing else a test checks.
 */
export const screenshotsWanted = process.env.TEST_SCREENSHOTS !== '0';

export async function screenshot(page: Page, name: string): Promise<void> {
  if (!screenshotsWanted) return;
  await mkdir(screenshotDir, { recursive: true });
  await page.screenshot({ path: new URL(`${name}.png`, screenshotDir).pathname, fullPage: true });
}

export interface PageProblems {
  /** console.error messages, with where they came from. */
  consoleErrors: string[];
  /** Exceptions the page's scripts threw and did not catch. */
  pageErrors: string[];
  /** Requests that got no response at all (refused, blocked by CSP, aborted); an HTTP error status is not one. */
  failedRequests: string[];
}

export function watchProblems(page: Page): PageProblems {
  const problems: PageProblems = { consoleErrors: [], pageErrors: [], failedRequests: [] };
  page.on('console', (message) => {
    if (message.type() === 'error') problems.consoleErrors.push(`${message.text()} (${message.location().url})`);
  });
  page.on('pageerror', (error) => problems.pageErrors.push(error.stack ?? error.message));
  page.on('requestfailed', (request) => problems.failedRequests.push(`${request.method()} ${request.url()}: ${request.failure()?.errorText}`));
  return problems;
}

/** Everything in the record but the console errors that match one of `expected`. */
export function unexpectedProblems(problems: PageProblems, expected: RegExp[] = []): PageProblems {
  return { ...problems, consoleErrors: problems.consoleErrors.filter((m) => !expected.some((e) => e.test(m))) };
}

export interface SentRequest {
  method: string;
  url: string;
  postData: string | null;
}

/** Every request the page makes, with its body, for asserting where data went. */
export function recordRequests(page: Page): SentRequest[] {
  const sent: SentRequest[] = [];
  page.on('request', (request) => sent.push({ method: request.method(), url: request.url(), postData: request.postData() }));
  return sent;
}

export const phoneViewport = { width: 390, height: 844 };

/**
 * A page in a fresh browser context of the given size (a phone's by default, touch and all), closed when
 * the test ends, with what goes wrong in it and everything it sends recorded.
 */
export async function openWatchedPage(browser: Browser, test: NodeTestContext, viewport: { width: number; height: number } = phoneViewport) {
  const context = await browser.newContext({ viewport, ...(viewport.width < 600 ? { isMobile: true, hasTouch: true } : {}) });
  test.after(() => context.close());
  context.setDefaultTimeout(browserTimeout);
  const page = await context.newPage();
  return { page, problems: watchProblems(page), sent: recordRequests(page) };
}

/** The id of the element that has focus, as a keyboard or screen-reader user would find it. */
export function focusedId(page: Page): Promise<string | undefined> {
  return page.evaluate<string | undefined>('document.activeElement ? document.activeElement.id : undefined');
}

/** Focuses a field through its label, as a screen-reader user would find it, and types into it. */
export async function typeInto(page: Page, label: string, text: string, id: string): Promise<void> {
  await page.getByLabel(label).focus();
  assert.equal(await focusedId(page), id, `the label "${label}" belongs to #${id}`);
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type(text);
}

/** Types a card into the hosted card form (web/hosted/card-form.ts), each field found by its label. */
export async function fillCard(page: Page, card: { number: string; expiry: string; cvc?: string }): Promise<void> {
  await typeInto(page, 'Card number', card.number, 'number');
  await typeInto(page, 'Expiry', card.expiry, 'expiry');
  await typeInto(page, 'Security code', card.cvc ?? '123', 'cvc');
}

/**
 * The hosted card form with the keyboard alone, its tab order being its reading order: the name typed,
 * then Tab to the number, expiry and security code, typing each, then Tab to the button and `press` it.
 */
export async function tabThroughCardForm(page: Page, card: { name: string; number: string; expiry: string; cvc?: string }, press: 'Space' | 'Enter'): Promise<void> {
  await typeInto(page, 'Name on card', card.name, 'name');
  for (const [id, text] of [
    ['number', card.number],
    ['expiry', card.expiry],
    ['cvc', card.cvc ?? '123'],
  ] as const) {
    await page.keyboard.press('Tab');
    assert.equal(await focusedId(page), id, `Tab reaches #${id}`);
    await page.keyboard.type(text);
  }
  await page.keyboard.press('Tab');
  assert.equal(await focusedId(page), 'submit', 'Tab reaches the button');
  await page.keyboard.press(press);
}
