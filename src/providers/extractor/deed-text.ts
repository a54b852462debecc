// A deed's pages as one searchable text, with the way back to each page's own characters. The rules
// read a normalised text (whitespace runs as one space, curly quotes straight, dashes as `-`, ligatures
// spelled out, words broken at a line end joined again, running headers and page numbers left out),
// but every quote they answer is cut from the page's original text, so it is verbatim by construction.
import type { DeedPage } from './deed-payload.ts';
import { debrisMask, spaceMissingBefore } from './ocr-text.ts';

export interface DeedText {
  /**
   * The normalised text of every page, pages joined by one space. A whitespace run that held a line
   * break is one `\n` (a table's cell lines are its only separators), any other one space: both one
   * character, so every rule reads `\s`.
   */
  text: string;
  /** For each character of `text`: its index in its page's original text. */
  origin: Int32Array;
  /** For each page (in `pages` order): where it starts in `text`. */
  pageStarts: number[];
  pages: readonly DeedPage[];
}

const replacements: Record<string, string> = {
  '\u2018': "'", '\u2019': "'", '\u201A': "'", '\u2032': "'", '\u0060': "'",
  '\u201C': '"', '\u201D': '"', '\u201E': '"', '\u2033': '"', '\u00AB': '"', '\u00BB': '"',
  '\u2010': '-', '\u2011': '-', '\u2012': '-', '\u2013': '-', '\u2014': '-', '\u2212': '-',
  '\uFB00': 'ff', '\uFB01': 'fi', '\uFB02': 'fl', '\uFB03': 'ffi', '\uFB04': 'ffl',
};
const isSpace = (c: string) => /\s/u.test(c) || c === '\u200B';
const isLetter = (c: string | undefined) => c !== undefined && /\p{L}/u.test(c);
const isLower = (c: string | undefined) => c !== undefined && /\p{Ll}/u.test(c);

interface Normalised {
  text: string;
  origin: number[];
}

/**
 * One page, normalised. A hyphen at a line's end followed by a lower-case letter is a word broken by
 * the line (`enact-\nment` → `enactment`); followed by a capital it is a hyphenated name broken there
 * (`Smith-\nJones` → `Smith-Jones`). A text layer joined by spaces shows the second as `Smith- Jones`.
 * An OCR'd page (`ocr`) also loses its stand-alone table debris and gets back the spaces OCR dropped
 * between table cells (`ocr-text.ts`).
 */
export function normalisePage(raw: string, options: { ocr?: boolean } = {}): Normalised {
  const out: string[] = [];
  const origin: number[] = [];
  let pendingSpace = -1;
  let pendingBreak = false;
  const last = () => out[out.length - 1];
  const skip = options.ocr ? debrisMask(raw) : null;
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]!;
    if (c === '\u00AD') continue;
    if (isSpace(c) || skip?.[i]) {
      if (pendingSpace < 0) pendingSpace = i;
      if (c === '\n' || c === '\r') pendingBreak = true;
      continue;
    }
    const mapped = replacements[c] ?? c;
    if (mapped === '-' && isLetter(last()) && pendingSpace < 0) {
      // Look past the whitespace after the hyphen.
      let j = i + 1;
      let newline = false;
      while (j < raw.length && isSpace(raw[j]!)) {
        if (raw[j] === '\n' || raw[j] === '\r') newline = true;
        j++;
      }
      if (j > i + 1 && isLetter(raw[j])) {
        if (newline && isLower(raw[j])) {
          i = j - 1; // the hyphen only broke the word
          continue;
        }
        if (!isLower(raw[j]) || !newline) {
          out.push('-');
          origin.push(i);
          i = j - 1; // a hyphenated word or name: no space after its hyphen
          continue;
        }
      }
    }
    if (pendingSpace < 0 && options.ocr && spaceMissingBefore(raw, i)) pendingSpace = i;
    if (pendingSpace >= 0) {
      if (out.length) {
        out.push(pendingBreak ? '\n' : ' ');
        origin.push(pendingSpace);
      }
      pendingSpace = -1;
    }
    pendingBreak = false;
    for (const m of mapped) {
      out.push(m);
      origin.push(i);
    }
  }
  return { text: out.join(''), origin };
}

const maskDigits = (word: string) => word.replace(/\d+/g, '#');
const pageNumber = /^(?:Page )?[-(]?#[-)]?(?: of #)?$|^Page$/;

/**
 * How many characters at the start and at the end of each page are a running header or footer: the
 * same words (digits aside) on at least half the pages, and at least three pages. Pages without them
 * keep everything. Left in, a header would sit in the middle of a schedule value that crosses a page.
 * The longest such run is taken as long as nearly as many pages share it as share its shortest part
 * (boilerplate that happens to end three pages the same way is not a footer); a page with only the page
 * number part of it (a first page often has no running header) loses that part.
 */
export function repeatedEdges(pages: readonly string[]): Array<{ head: number; tail: number }> {
  const edges = pages.map(() => ({ head: 0, tail: 0 }));
  if (pages.length < 3) return edges;
  const words = pages.map((p) => p.split(/[ \n]/u).filter(Boolean));
  const threshold = Math.max(3, Math.ceil(pages.length * 0.5));
  const edgeOf = (w: string[], side: 'head' | 'tail', k: number) => (side === 'head' ? w.slice(0, k) : w.slice(-k)).map(maskDigits).join(' ');
  for (const side of ['head', 'tail'] as const) {
    {
      let chosen: string | null = null;
      let most = 0;
      for (let k = 1; k <= 30; k++) {
        const counts = new Map<string, number>();
        for (const w of words) if (w.length > k + 3) counts.set(edgeOf(w, side, k), (counts.get(edgeOf(w, side, k)) ?? 0) + 1);
        const [best, count] = [...counts.entries()].sort((a, b) => b[1] - a[1])[0] ?? ['', 0];
        // A single repeated word must be a page number (`#`, `- # -`, `Page #`), not prose.
        if (k === 1 && !pageNumber.test(best)) continue;
        // A bare page number is on every page, the running header not on the first: measure from two words.
        if (k > 1) most = Math.max(most, count);
        if (count < threshold || count < most * 0.65) break;
        chosen = best;
      }
      if (!chosen) continue;
      const key = chosen.split(' ');
      words.forEach((w, i) => {
        // The whole header or footer, or the page number at its end or start.
        for (let j = key.length; j >= 1; j--) {
          const part = (side === 'head' ? key.slice(0, j) : key.slice(-j)).join(' ');
          if (w.length <= j || edgeOf(w, side, j) !== part) continue;
          if (j < key.length && !pageNumber.test(part)) continue;
          const removed = side === 'head' ? w.splice(0, j) : w.splice(-j, j);
          edges[i]![side] += removed.join(' ').length + 1;
          break;
        }
      });
    }
  }
  return edges;
}

export function buildDeedText(pages: readonly DeedPage[]): DeedText {
  const normalised = pages.map((p) => normalisePage(p.text, { ocr: p.source === 'OCR' }));
  const edges = repeatedEdges(normalised.map((n) => n.text));
  const parts: string[] = [];
  const origin: number[] = [];
  const pageStarts: number[] = [];
  let length = 0;
  normalised.forEach((n, i) => {
    const { head, tail } = edges[i]!;
    const from = Math.min(head, n.text.length);
    const to = Math.max(from, n.text.length - tail);
    const kept = n.text.slice(from, to).trim();
    const start = from + (n.text.slice(from, to).length - n.text.slice(from, to).trimStart().length);
    if (parts.length) {
      parts.push(' ');
      origin.push(n.origin[start] ?? 0);
      length += 1;
    }
    pageStarts.push(length);
    parts.push(kept);
    for (let k = 0; k < kept.length; k++) origin.push(n.origin[start + k]!);
    length += kept.length;
  });
  return { text: parts.join(''), origin: Int32Array.from(origin), pageStarts, pages };
}

/** The index (into `pages`) of the page holding `offset`. */
export function pageIndexAt(doc: DeedText, offset: number): number {
  let lo = 0;
  let hi = doc.pageStarts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (doc.pageStarts[mid]! <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

const maxQuote = 1000;

/**
 * The page text behind `text[start, end)`, verbatim, on the page where it starts (a span running onto
 * the next page is cut at the page's end). Null when nothing is left.
 */
export function quoteAt(doc: DeedText, start: number, end: number): { page: DeedPage; quote: string } | null {
  const index = pageIndexAt(doc, start);
  const page = doc.pages[index]!;
  const pageEnd = index + 1 < doc.pageStarts.length ? doc.pageStarts[index + 1]! - 1 : doc.text.length;
  const last = Math.min(end, pageEnd) - 1;
  if (last < start) return null;
  const from = doc.origin[start]!;
  const to = doc.origin[last]! + 1;
  let quote = page.text.slice(from, to).trim();
  if (quote.length > maxQuote) {
    quote = quote.slice(0, maxQuote);
    // Never leave half a surrogate pair.
    if (/[\uD800-\uDBFF]$/.test(quote)) quote = quote.slice(0, -1);
    quote = quote.trimEnd();
  }
  return quote ? { page, quote } : null;
}
