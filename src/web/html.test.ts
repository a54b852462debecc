import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { html, page } from './html.ts';

describe('html', () => {
  it('escapes values and keeps nested markup', () => {
    const name = '<script>alert("x")</script> & Co\'s';
    const inner = html`<b>${name}</b>`;
    assert.equal(html`<p>${inner}</p>`.text, '<p><b>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; Co&#39;s</b></p>');
  });

  it('renders lists and leaves out null, undefined and false', () => {
    assert.equal(html`<ul>${['a', 'b'].map((x) => html`<li>${x}</li>`)}${null}${undefined}${false}</ul>`.text, '<ul><li>a</li><li>b</li></ul>');
  });

  it('makes a page with the title escaped', () => {
    const text = page({ title: 'A & B', body: html`<h1>Hi</h1>` });
    assert.match(text, /^<!doctype html><html lang="en">/);
    assert.match(text, /<title>A &amp; B<\/title>/);
  });
});
