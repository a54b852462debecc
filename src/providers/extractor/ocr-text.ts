// What OCR does to a page that a text layer never does, undone before the rules read it (deed-text.ts):
// table rules and specks read as stray punctuation standing alone (`Southern Cross Unit Trust : : | 2`),
// specks at a line's edge read as a short non-word (`Co`, `oo`, `j`), and neighbouring table cells or a
// clause number run into the next word (`Item2 Commencement Date`, `3.3If Kylie …`). Nothing here changes
// a page: it says which characters to read as a space and where a space is missing, so every quote is
// still cut from the page's own characters.
import { looksLikeDigit } from './ocr-digits.ts';
import { particles } from './vocabulary.ts';

/** Characters that, standing alone between spaces, are table rules or specks rather than words. */
const debris = /^[:;|¦_~.,'‘’`^*=+•·°©®¢«»()[\]{}<>\-–—]+$/u;

/**
 * For each character of `raw`: whether it belongs to a stand-alone run of debris (`:`, `|`, `_`, `.`,
 * `~`, `©` … between whitespace, or at the page's edges). Punctuation touching a word is kept: `BY:`,
 * `Smith,`, `(the "Trustee")`.
 */
export function debrisMask(raw: string): Uint8Array {
  const mask = new Uint8Array(raw.length);
  for (const line of raw.matchAll(/[^\n\r]+/gu)) {
    const tokens = [...line[0].matchAll(/\S+/gu)].map((m) => ({ text: m[0], start: line.index + m.index }));
    const words = tokens.filter((t) => !debris.test(t.text));
    for (const t of tokens) {
      if (debris.test(t.text)) mask.fill(1, t.start, t.start + t.text.length);
      // A speck read as a quote mark between a list number and its first word: `1.'Coral Sea …`.
      const glued = /^\(?\d{1,2}[.)](['‘’"`]+)\p{Lu}/u.exec(t.text);
      if (glued) mask.fill(1, t.start + glued[0].length - 1 - glued[1]!.length, t.start + glued[0].length - 1);
    }
    // Specks at a line's edges (the margins hold most of them), read as words that are none.
    let first = 0;
    let last = words.length - 1;
    while (first <= last && first < 3 && isSpeck(words[first]!.text, words[first - 1]?.text)) first++;
    while (last >= first && words.length - 1 - last < 3 && isSpeck(words[last]!.text, words[last - 1]?.text)) last--;
    for (const t of [...words.slice(0, first), ...words.slice(last + 1)]) mask.fill(1, t.start, t.start + t.text.length);
  }
  return mask;
}

const shortWords = new Set(['a', 'an', 'as', 'at', 'be', 'by', 'do', 'go', 'he', 'if', 'in', 'is', 'it', 'me', 'my', 'no', 'of', 'on', 'or', 'so', 'to', 'up', 'us', 'we']);
const abbreviations = new Set(['Mr', 'Ms', 'Dr', 'St', 'Rd', 'Pl', 'Mt', 'Jr', 'Sr', 'Ct', 'Av', 'Cl']);

/**
 * OCR's reading of a speck: one or two letters (a bracket aside: `os)`), not all capitals (`SA`, an
 * initial), and not a word (`of`, `in`), a name's particle (`de`, `van`) or an abbreviation (`St`, `Mr`);
 * `Co` is a speck unless it follows `&` or `and`.
 */
function isSpeck(token: string, before: string | undefined): boolean {
  const word = token.replace(/^[([{]|[)\]}]$/gu, '');
  if (!/^\p{L}{1,2}$/u.test(word) || word === word.toUpperCase() || shortWords.has(word.toLowerCase()) || particles.has(word)) return false;
  if (word === 'Co') return before !== '&' && before?.toLowerCase() !== 'and';
  return !abbreviations.has(word);
}

/**
 * Whether a space is missing before `raw[i]`: a word of two or more letters runs into a number (`Item2`,
 * `NSW2000`), or a clause number runs into a capitalised word (`3.3If`). Ordinals (`79th`, `3rd`) and
 * `2F` are words of their own, and letters that all look like digits (`lO9`) are part of a number.
 */
export function spaceMissingBefore(raw: string, i: number): boolean {
  const c = raw[i]!;
  if (/\d/u.test(c)) {
    const letters = /\p{L}+$/u.exec(raw.slice(Math.max(0, i - 30), i))?.[0] ?? '';
    // `lO9` is a number misread (ocr-digits.ts), not a word and a number.
    return letters.length >= 2 && ![...letters].every(looksLikeDigit);
  }
  return /\p{Lu}/u.test(c) && /\p{Ll}/u.test(raw[i + 1] ?? '') && /(?:^|\s)\d{1,2}(?:\.\d{1,2})?$/u.test(raw.slice(Math.max(0, i - 7), i));
}
