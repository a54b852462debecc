// The text the rules read: normalised, headers and page numbers left out, and every quote cut from the
// page's own characters.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { DeedPage } from './deed-payload.ts';
import { buildDeedText, normalisePage, quoteAt, repeatedEdges } from './deed-text.ts';

const page = (number: number, text: string, source: DeedPage['source'] = 'TEXT_LAYER'): DeedPage => ({ number, text, source });

describe('normalisePage', () => {
  it('makes runs of whitespace one space and straightens quotes and dashes', () => {
    assert.equal(normalisePage('BY:  JOHN\tSMITH  (the “Settlor”) – of  1 Wattle St').text, 'BY: JOHN SMITH (the "Settlor") - of 1 Wattle St');
    // A run that held a line break is one line break: a table's cell lines have nothing else between them.
    assert.equal(normalisePage('BY:\n  JOHN\tSMITH  (the “Settlor”) – of\r\n1 Wattle St').text, 'BY:\nJOHN SMITH (the "Settlor") - of\n1 Wattle St');
  });

  it('joins a word broken at a line end, and keeps the hyphen of a hyphenated name', () => {
    assert.equal(normalisePage('the Vest-\ning Day').text, 'the Vesting Day');
    assert.equal(normalisePage('Jane Smith-\nJones').text, 'Jane Smith-Jones');
    // A text layer joined by spaces shows a name broken at its hyphen as `Smith- Jones`.
    assert.equal(normalisePage('Jane Smith- Jones and re- enactment').text, 'Jane Smith-Jones and re-enactment');
    assert.equal(normalisePage('clause 3 - Appointor').text, 'clause 3 - Appointor');
  });

  it('spells out ligatures and maps every character back to the original', () => {
    const raw = 'ﬁrst  Trustee';
    const n = normalisePage(raw);
    assert.equal(n.text, 'first Trustee');
    assert.equal(raw[n.origin[n.text.indexOf('Trustee')]!], 'T');
  });
});

describe('repeatedEdges', () => {
  it('finds a running header and page numbers, and the page number alone on a first page', () => {
    const words = ['invest', 'borrow', 'lend', 'insure', 'appoint', 'remove', 'vary', 'accumulate'];
    const body = (n: number) => `${words[n]} clause ${n} and ${words[n + 1]} what the Trustee may do ${words[n + 2]}`;
    const pages = [
      `TITLE PAGE of the deed with words ${body(1)} Page 1 of 5`,
      ...[2, 3, 4, 5].map((n) => `${body(n)} Smith Family Trust - Deed Page ${n} of 5`),
    ];
    const edges = repeatedEdges(pages);
    assert.deepEqual(edges.map((e) => e.head), [0, 0, 0, 0, 0]);
    assert.equal(pages[1]!.slice(0, -edges[1]!.tail).trim(), body(2));
    assert.equal(pages[0]!.slice(0, -edges[0]!.tail).trim(), `TITLE PAGE of the deed with words ${body(1)}`);
  });

  it('leaves pages alone when nothing repeats, and a document of two pages alone', () => {
    assert.deepEqual(repeatedEdges(['a b c d e f', 'g h i j k l', 'm n o p q r']), [{ head: 0, tail: 0 }, { head: 0, tail: 0 }, { head: 0, tail: 0 }]);
    assert.deepEqual(repeatedEdges(['a b c d 1', 'e f g h 2']), [{ head: 0, tail: 0 }, { head: 0, tail: 0 }]);
  });
});

describe('quoteAt', () => {
  it('quotes the page verbatim, whatever the normalisation did', () => {
    const pages = [page(1, 'Heading'), page(7, 'Appointor:\n  Jane   Smith-\nJones of 1 Wattle St')];
    const doc = buildDeedText(pages);
    const start = doc.text.indexOf('Appointor');
    const end = doc.text.indexOf('Wattle St') + 'Wattle St'.length;
    const quote = quoteAt(doc, start, end)!;
    assert.equal(quote.page.number, 7);
    assert.equal(quote.quote, 'Appointor:\n  Jane   Smith-\nJones of 1 Wattle St');
    assert.ok(pages[1]!.text.includes(quote.quote));
  });

  it('cuts a span that runs onto the next page at its page’s end', () => {
    const doc = buildDeedText([page(1, 'Trustee: Wattle'), page(2, 'Nominees Pty Ltd')]);
    const quote = quoteAt(doc, doc.text.indexOf('Trustee'), doc.text.length)!;
    assert.equal(quote.page.number, 1);
    assert.equal(quote.quote, 'Trustee: Wattle');
  });
});
