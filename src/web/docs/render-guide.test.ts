import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { renderGuide, servedHref } from './render-guide.ts';

const files = { guides: new Set(['README', 'errors', 'webhooks']), images: new Set(['queue.png']) };

describe('servedHref', () => {
  it('leads a guide to its page, the index to the guides, an anchor along with it', () => {
    assert.equal(servedHref('webhooks.md', files), '/docs/guides/webhooks');
    assert.equal(servedHref('errors.md#rate-limits', files), '/docs/guides/errors#rate-limits');
    assert.equal(servedHref('./errors.md', files), '/docs/guides/errors');
    assert.equal(servedHref('../docs/errors.md', files), '/docs/guides/errors');
    assert.equal(servedHref('README.md', files), '/docs/guides');
    assert.equal(servedHref('#overload', files), '#overload');
    assert.equal(servedHref('images/queue.png', files), '/docs/guides/images/queue.png');
  });

  it('keeps web links, and leads nowhere for a file outside docs/ or one that is not there', () => {
    assert.equal(servedHref('https://example.com/a', files), 'https://example.com/a');
    assert.equal(servedHref('mailto:ops@example.com', files), 'mailto:ops@example.com');
    for (const href of ['../README.md', '../src/platform/jobs/README.md', '../sdk/verify-webhook.js', 'missing.md', 'images/missing.png', '../../etc/passwd', 'javascript:alert(1)', 'data:text/html,x']) {
      assert.equal(servedHref(href, files), undefined, href);
    }
  });
});

describe('renderGuide', () => {
  it("gives headings GitHub's ids, repeats numbered, and takes the first as the title", () => {
    const guide = renderGuide("# Errors\n\n## 7. Operators' decisions\n\n### `contact.card.saved`\n\n## Rate limits\n\n## Rate limits\n", files);
    assert.equal(guide.title, 'Errors');
    assert.deepEqual(guide.anchors, ['errors', '7-operators-decisions', 'contactcardsaved', 'rate-limits', 'rate-limits-1']);
    assert.match(guide.html, /<h3 id="contactcardsaved"><code>contact\.card\.saved<\/code><\/h3>/);
  });

  it('keeps a number written in groups of three on one line, in text and tables, but not in code', () => {
    const { html } = renderGuide('ABN 54 222 222 228, 40 % and 12 000.\n\n| ABN |\n|---|\n| 32 111 111 114 |\n\n`54 222 222 228`\n', files);
    assert.match(html, /ABN 54\u00a0222\u00a0222\u00a0228, 40 % and 12\u00a0000\./);
    assert.match(html, /<span class="cell">32\u00a0111\u00a0111\u00a0114<\/span>/);
    assert.match(html, /<code>54 222 222 228<\/code>/, 'code is copied as written');
  });

  it('links guides to their pages and shows a link outside docs/ as its words', () => {
    const { html } = renderGuide('See [webhooks](webhooks.md#retries), [the jobs](../src/platform/jobs/README.md) and [PVS](https://example.com).', files);
    assert.match(html, /<a href="\/docs\/guides\/webhooks#retries">webhooks<\/a>/);
    assert.match(html, /, the jobs and /);
    assert.match(html, /<a href="https:\/\/example\.com">PVS<\/a>/);
    assert.doesNotMatch(html, /src\/platform/);
  });

  it('shows HTML written in the markdown as text, and only its own images', () => {
    const { html } = renderGuide('<script>alert(1)</script>\n\nA <b onclick="x()">tag</b>.\n\n![queue](images/queue.png) ![tracker](https://example.com/t.png)', files);
    assert.doesNotMatch(html, /<script|<b /);
    assert.match(html, /&lt;script&gt;alert\(1\)&lt;\/script&gt;/);
    assert.match(html, /<img src="\/docs\/guides\/images\/queue\.png" alt="queue" loading="lazy">/);
    assert.doesNotMatch(html, /example\.com\/t\.png/);
  });

  it('lets a keyboard scroll a code block, and shows a checklist as marks rather than unlabelled fields', () => {
    const { html } = renderGuide('```sh\nnpx pvs serve\n```\n\n- [ ] one\n- [x] two\n', files);
    assert.match(html, /<pre tabindex="0"><code class="language-sh">npx pvs serve/);
    assert.doesNotMatch(html, /<input/);
    assert.match(html, /aria-label="To check">☐<\/span> one/);
    assert.match(html, /aria-label="Done">☑<\/span> two/);
  });

  it('puts each table in a scrolling region named after its section', () => {
    const { html } = renderGuide('# Guide\n\n## Codes\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n| c |\n|---|\n| 3 |\n', files);
    assert.match(html, /<div class="table-scroll" role="region" aria-label="Table: Codes" tabindex="0"><table>/);
    assert.match(html, /aria-label="Table 2: Codes"/);
  });
});
