// The guides in docs/ as pages at /docs/guides (src/web/docs/): every markdown file of docs/ and nothing
// else; every link from one guide to another lands on a page that has the anchor it names; a link to a
// file outside docs/ is shown as its words; a URL never reaches a file the list does not name; and the
// pages keep the pages' policy (no inline script or style).
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { pageCsp } from '../src/web/pages.ts';
import { createTestContext, type TestContext } from './helpers/context.ts';

const docsDirectory = new URL('../docs/', import.meta.url);
const guideNames = readdirSync(docsDirectory)
  .filter((name) => name.endsWith('.md'))
  .map((name) => name.slice(0, -3));
const pathOf = (name: string) => (name === 'README' ? '/docs/guides' : `/docs/guides/${name}`);

let t: TestContext;
/** Each guide's page as served, by its path. */
const pages = new Map<string, string>();

before(async () => {
  t = await createTestContext();
  for (const name of guideNames) {
    const response = await t.app.inject({ method: 'GET', url: pathOf(name) });
    assert.equal(response.statusCode, 200, `${pathOf(name)}: ${response.statusCode}`);
    pages.set(pathOf(name), response.body);
  }
});
after(() => t.close());

const hrefsOf = (page: string) => [...page.matchAll(/<a [^>]*href="([^"]*)"/g)].map((m) => m[1]!.replace(/&amp;/g, '&'));
const idsOf = (page: string) => new Set([...page.matchAll(/ id="([^"]*)"/g)].map((m) => m[1]!));
/** The article alone, without the frame's navigation. */
const articleOf = (page: string) => page.slice(page.indexOf('<article'), page.indexOf('</article>'));

describe('the guides at /docs/guides', () => {
  it('serves every markdown file of docs/, the index (README.md) at /docs/guides', () => {
    assert.ok(guideNames.length >= 15, `only ${guideNames.length} guides found`);
    assert.ok(guideNames.includes('errors') && guideNames.includes('webhooks') && guideNames.includes('README'));
    assert.match(pages.get('/docs/guides/errors')!, /<h1 id="errors">Errors<\/h1>/);
    assert.match(pages.get('/docs/guides')!, /<h1 id="pvs-documentation">PVS documentation<\/h1>/);
    for (const [path, page] of pages) {
      for (const name of guideNames) assert.ok(page.includes(`href="${pathOf(name)}"`), `${path} lists ${name} in its navigation`);
    }
  });

  it('leads every link between guides to a page that has its anchor', async () => {
    let checked = 0;
    let anchored = 0;
    for (const [path, page] of pages) {
      for (const href of hrefsOf(articleOf(page))) {
        if (/^(https?|mailto):/.test(href)) continue;
        const [target, anchor] = href.split('#') as [string, string | undefined];
        const targetPath = target === '' ? path : target;
        assert.ok(targetPath.startsWith('/docs/guides'), `${path} links to ${href}, which is not a guide`);
        let targetPage = pages.get(targetPath);
        if (targetPage === undefined) {
          const response = await t.app.inject({ method: 'GET', url: targetPath });
          assert.equal(response.statusCode, 200, `${path} links to ${href}: ${response.statusCode}`);
          targetPage = response.body;
        }
        checked++;
        if (anchor !== undefined && targetPath.startsWith('/docs/guides') && !targetPath.startsWith('/docs/guides/images/')) {
          assert.ok(idsOf(targetPage).has(anchor), `${path} links to ${href}, but ${targetPath} has no id "${anchor}"`);
          anchored++;
        }
      }
    }
    // The guides link to each other (webhooks.md, errors.md#…, conventions.md#overload): the walk saw them.
    assert.ok(checked >= 100, `only ${checked} links between guides`);
    assert.ok(anchored >= 40, `only ${anchored} links with an anchor`);
  });

  it('shows a link to a file outside docs/ as its words, and never a repository path as a link', () => {
    const architecture = articleOf(pages.get('/docs/guides/architecture')!);
    // [`src/platform/jobs/README.md`](../src/platform/jobs/README.md): the words stay, the link goes.
    assert.match(architecture, /<code>src\/platform\/jobs\/README\.md<\/code>/);
    for (const [path, page] of pages) {
      for (const href of hrefsOf(page)) {
        assert.doesNotMatch(href, /\.md(#|$)|^\.\.?\/|^(src|sdk)\//, `${path} links to ${href}`);
      }
    }
  });

  it('serves the images the guides show, and the pages show only those', async () => {
    const sources = new Set([...pages.values()].flatMap((page) => [...page.matchAll(/<img [^>]*src="([^"]*)"/g)].map((m) => m[1]!)));
    assert.ok(sources.size >= 5, `only ${sources.size} images`);
    for (const source of sources) {
      assert.match(source, /^\/docs\/guides\/images\/[\w.-]+\.png$/);
      const response = await t.app.inject({ method: 'GET', url: source });
      assert.equal(response.statusCode, 200, source);
      assert.equal(response.headers['content-type'], 'image/png');
    }
  });

  it('answers an unknown guide with a page that says so', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/docs/guides/no-such-guide' });
    assert.equal(response.statusCode, 404);
    assert.match(String(response.headers['content-type']), /^text\/html/);
    assert.match(response.body, /Guide not found/);
    const redirect = await t.app.inject({ method: 'GET', url: '/docs/guides/errors.md' });
    assert.equal(redirect.statusCode, 301);
    assert.equal(redirect.headers.location, '/docs/guides/errors');
  });

  it('never reaches a file the list does not name: path traversal is 404', async () => {
    // (`/docs/guides/..` itself is the URL /docs/, as a browser reads it: the reference's first page.)
    const attempts = [
      '/docs/guides/..%2Fpackage',
      '/docs/guides/..%2F..%2Fpackage.json',
      '/docs/guides/%2e%2e%2f%2e%2e%2fpackage.json',
      '/docs/guides/..%5C..%5Cpackage.json',
      '/docs/guides/../../package.json',
      '/docs/guides/README.md%00',
      '/docs/guides/images/..%2F..%2F..%2Fpackage.json',
      '/docs/guides/images/..%2Farchitecture.md',
      '/docs/guides/images/%2e%2e%2fREADME.md',
      '/docs/guides/assets/..%2Fguides.ts',
      '/docs/guides/assets/..%2F..%2F..%2F..%2Fpackage.json',
      '/docs/guides/%2Fetc%2Fpasswd',
    ];
    for (const url of attempts) {
      const response = await t.app.inject({ method: 'GET', url });
      assert.ok([400, 404].includes(response.statusCode), `${url}: ${response.statusCode}`);
      assert.doesNotMatch(response.body, /"name": "pvs"|root:|import /, url);
    }
    // Each of these is 404 precisely, not merely refused.
    for (const url of ['/docs/guides/..%2F..%2Fpackage.json', '/docs/guides/../../package.json', '/docs/guides/images/..%2Farchitecture.md']) {
      assert.equal((await t.app.inject({ method: 'GET', url })).statusCode, 404, url);
    }
  });

  it("keeps the pages' policy: no inline script or style, scripts and styles from PVS only", async () => {
    for (const url of ['/docs/guides', '/docs/guides/errors', '/docs/guides/webhooks', '/docs/guides/no-such-guide']) {
      const response = await t.app.inject({ method: 'GET', url });
      const csp = String(response.headers['content-security-policy']);
      assert.equal(csp, pageCsp, url);
      assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/, url);
      const scripts = [...response.body.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
      assert.ok(scripts.length > 0 && scripts.every(([, attributes, body]) => /\bsrc="\/web\/assets\/app\.js"/.test(attributes!) && body!.trim() === ''), `${url}: only the external script`);
      assert.doesNotMatch(response.body, /<style|\sstyle=|\son[a-z]+=/i, `${url}: no inline style or handler`);
      for (const stylesheet of [...response.body.matchAll(/<link rel="stylesheet" href="([^"]+)"/g)].map((m) => m[1]!)) {
        assert.equal((await t.app.inject({ method: 'GET', url: stylesheet })).statusCode, 200, stylesheet);
      }
    }
  });
});
