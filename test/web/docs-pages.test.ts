// The documentation as a person reads it, in Chromium: the guides at /docs/guides under their own policy
// (nothing refused, no error), accessible, fitting a phone; a link between guides followed to its anchor;
// and the two API references (src/web/docs/reference/), each showing its own document page by page with
// nothing asked of another host, live at the first click, accessible and fitting a phone.
// Screenshots: test-output/screenshots/docs/.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { browserSkipReason, browserTimeout, createServedContext, launchBrowser, screenshot, unexpectedProblems, watchProblems } from '../helpers/browser.ts';
import type { TestContext } from '../helpers/context.ts';
import { capture, desktopViewport, newWebContext, phoneViewport } from '../helpers/web.ts';

const skip = browserSkipReason();

describe('the documentation in a browser', { skip }, () => {
  let t: TestContext & { baseUrl: string };
  let browser: Browser;

  before(async () => {
    if (skip) return;
    t = await createServedContext();
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  /** A page whose policy is enforced (no bypass, unlike the contexts axe needs), with what goes wrong in it. */
  async function strictPage(viewport = desktopViewport): Promise<{ page: Page; problems: ReturnType<typeof watchProblems> }> {
    const context = await browser.newContext({ viewport });
    context.setDefaultTimeout(browserTimeout);
    const page = await context.newPage();
    return { page, problems: watchProblems(page) };
  }

  it('shows a guide under its policy with nothing refused, and follows a link to another guide’s anchor', async () => {
    const { page, problems } = await strictPage();
    const response = await page.goto(`${t.baseUrl}/docs/guides/errors`);
    assert.equal(response?.status(), 200);
    assert.equal(await page.getByRole('heading', { level: 1 }).innerText(), 'Errors');
    // The stylesheets applied: the top bar has the brand's colour, the table scrolls in its own region.
    assert.equal(await page.evaluate<string>(`getComputedStyle(document.querySelector('.topbar')).backgroundColor`), 'rgb(18, 58, 99)');
    assert.equal(await page.evaluate<string>(`getComputedStyle(document.querySelector('.table-scroll')).overflowX`), 'auto');
    assert.equal(await page.locator('.sidenav [aria-current="page"]').innerText(), 'Errors');

    await Promise.all([page.waitForURL('**/docs/guides/conventions#overload'), page.getByRole('link', { name: 'overload' }).click()]);
    assert.ok(await page.locator('#overload').isVisible(), 'the anchor is on the page');
    assert.ok((await page.locator('#overload').boundingBox())!.y < 200, 'and the page scrolled to it');
    await page.context().close();
    assert.deepEqual(unexpectedProblems(problems), { consoleErrors: [], pageErrors: [], failedRequests: [] });
  });

  /** Each page checked with axe, at a phone's width, and captured (test/helpers/web.ts), as `docs/<name>`. */
  async function captureAll(pages: ReadonlyArray<readonly [path: string, name: string]>): Promise<void> {
    const context = await newWebContext(browser);
    const page = await context.newPage();
    for (const [path, name] of pages) {
      await page.goto(`${t.baseUrl}${path}`);
      await capture(page, `docs/${name}`);
    }
    await context.close();
  }

  it('is accessible and fits a phone: the errors and webhooks guides and the overview', async () => {
    await captureAll([
      ['/docs/guides/errors', 'guide-errors'],
      ['/docs/guides/webhooks', 'guide-webhooks'],
      ['/docs/guides', 'guide-overview'],
    ]);
  });

  /** A page whose every request to another host is refused by the browser itself, and recorded. */
  async function isolatedPage(viewport = desktopViewport): Promise<{ page: Page; problems: ReturnType<typeof watchProblems>; outside: string[] }> {
    const { page, problems } = await strictPage(viewport);
    const outside: string[] = [];
    const own = new URL(t.baseUrl).host;
    await page.route('**/*', (route) => {
      const url = new URL(route.request().url());
      if (url.protocol === 'data:' || url.host === own) return route.continue();
      outside.push(route.request().url());
      return route.abort('blockedbyclient');
    });
    return { page, problems, outside };
  }

  for (const [prefix, title, tagPage, own, foreign] of [
    ['/docs', 'PVS partner API', '/docs/reference/contacts', '/v1/contacts', '/ops/v1/me'],
    ['/docs/ops', 'PVS operator API', '/docs/ops/reference/operators', '/ops/v1/me', '/v1/contacts'],
  ] as const) {
    it(`${prefix} shows ${title} alone, page by page, asking no other host for anything, and comes alive at a click`, async () => {
      for (const viewport of [desktopViewport, phoneViewport]) {
        const { page, problems, outside } = await isolatedPage(viewport);
        await page.goto(`${t.baseUrl}${prefix}`);
        assert.match(await page.locator('.api-info h1').innerText(), new RegExp(`^${title}`));
        const errorsLink = page.locator('.api-info a', { hasText: 'the list of errors' });
        assert.equal(await errorsLink.getAttribute('href'), `${t.baseUrl}/docs/guides/errors`);
        // Every section of the strip is a page of this document.
        const sections = await page.locator('.reference-sections a').evaluateAll((links) => links.map((a) => a.getAttribute('href')));
        assert.ok(sections.includes(tagPage) && sections.every((href) => href === prefix || href!.startsWith(`${prefix}/reference/`)), sections.join(' '));

        await page.goto(`${t.baseUrl}${tagPage}`);
        const text = await page.locator('#redoc').innerText();
        assert.ok(text.includes(own), `${tagPage} shows ${own}`);
        assert.ok(!text.includes(foreign), `${tagPage} does not show ${foreign}`);
        const suffix = viewport === phoneViewport ? 'phone' : 'desktop';
        await screenshot(page, `docs/reference${tagPage.replace(/\//g, '-')}-${suffix}`);

        if (viewport === desktopViewport) {
          // The first click loads Redoc's client, hydrates the page and is made again: the menu goes to the operation.
          const item = page.locator('li[data-item-id*="/operation/"]').last();
          const id = (await item.getAttribute('data-item-id'))!;
          await item.click();
          await page.waitForURL((url) => url.hash === `#${id}`);
          assert.ok(await page.locator(`[data-section-id="${id}"]`).isVisible());
        } else {
          // On a phone the side menu is behind Redoc's button, which works once the page is live.
          // Waiting from before the click: the state can arrive before the click's promise settles.
          await Promise.all([page.waitForResponse((response) => response.url().endsWith('/state.json')), page.locator('#redoc h2').first().click()]);
        }
        await page.context().close();
        assert.deepEqual(outside, [], `${prefix}: no request to another host`);
        assert.deepEqual(unexpectedProblems(problems), { consoleErrors: [], pageErrors: [], failedRequests: [] }, `${prefix}: nothing refused, no error`);
      }
    });
  }

  it('the reference’s pages are accessible and fit a phone: the introduction, a tag, the events', async () => {
    await captureAll([
      ['/docs', 'reference-introduction'],
      ['/docs/reference/verifications', 'reference-verifications'],
      ['/docs/reference/events-verification', 'reference-events-verification'],
    ]);
  });
});
