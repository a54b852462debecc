// The documentation as a person reads it, in Chromium: the guides at /docs/guides under their own policy
// (nothing refused, no error), accessible, fitting a phone; a link between guides followed to its anchor;
// and the two API reference pages, each showing its own document, with the guide links Swagger UI renders.
// Screenshots: test-output/screenshots/docs/.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { browserSkipReason, browserTimeout, createServedContext, launchBrowser, unexpectedProblems, watchProblems } from '../helpers/browser.ts';
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

  it('is accessible and fits a phone: the errors and webhooks guides and the overview', async () => {
    const context = await newWebContext(browser);
    const page = await context.newPage();
    for (const [path, name] of [
      ['/docs/guides/errors', 'errors'],
      ['/docs/guides/webhooks', 'webhooks'],
      ['/docs/guides', 'overview'],
    ] as const) {
      await page.goto(`${t.baseUrl}${path}`);
      await capture(page, `docs/guide-${name}`);
    }
    await context.close();
  });

  for (const [path, title, own, foreign] of [
    ['/docs', 'PVS partner API', '/v1/contacts', '/ops/v1/me'],
    ['/docs/ops', 'PVS operator API', '/ops/v1/me', '/v1/contacts'],
  ] as const) {
    it(`${path} shows ${title} alone, and its guide links lead to the guides`, async () => {
      for (const viewport of [desktopViewport, phoneViewport]) {
        const { page, problems } = await strictPage(viewport);
        await page.goto(`${t.baseUrl}${path}`);
        await page.locator('.information-container .title').waitFor();
        assert.match(await page.locator('.information-container .title').innerText(), new RegExp(`^${title}`));
        await page.locator('.opblock').first().waitFor();
        const summaryPaths = await page.locator('.opblock-summary-path').allInnerTexts();
        assert.ok(summaryPaths.some((p) => p.replace(/\u200b/g, '') === own), `${path} lists ${own}`);
        assert.ok(!summaryPaths.some((p) => p.replace(/\u200b/g, '') === foreign), `${path} does not list ${foreign}`);
        const errorsLink = page.locator('.information-container a', { hasText: 'the list of errors' });
        assert.equal(await errorsLink.getAttribute('href'), `${t.baseUrl}/docs/guides/errors`);
        const suffix = viewport === phoneViewport ? 'phone' : 'desktop';
        await page.screenshot({ path: new URL(`../../test-output/screenshots/docs/reference${path.replace(/\//g, '-')}-${suffix}.png`, import.meta.url).pathname });
        await page.context().close();
        assert.deepEqual(unexpectedProblems(problems).pageErrors, [], `${path}: no script error`);
      }
    });
  }
});
