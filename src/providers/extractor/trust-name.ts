// The trust's name and ABN, as printed, and the deed's title block they are often read from. The
// schedule's labelled values come first; then the sentences deeds use (`to be known as the …`,
// `… (the "Trust")`, a variation's `trustee of the …`); then the title (`THE SMITH FAMILY TRUST`). An ABN
// is the one printed after the name, or after the trust's name in the title, not another entity's.
import { isValidAbn } from '../../platform/business-numbers.ts';
import { digitLike, findNumber, readDigits } from './ocr-digits.ts';
import type { Fields } from './schedule.ts';
import { abnPattern, particles, ub } from './vocabulary.ts';

const generic = new Set(['the', 'a', 'an', 'this', 'said', 'discretionary', 'unit', 'hybrid', 'family', 'fixed', 'bare', 'trust', 'fund', 'superannuation', 'super', 'self', 'managed', 'deed', 'settlement', 'of', 'and', 'new', 'original', 'declaration', 'smsf', 'regulated', 'complying']);
const headingWords = new Set(['recitals', 'background', 'whereas', 'parties', 'operative', 'provisions', 'schedule', 'item', 'trust', 'deed']);

// Where a deed's body begins: `THIS DEED …`, the parties, a date line, the recitals, a contents page, a
// schedule, a `Prepared by …` note. Before it is the title (`THE SMITH FAMILY TRUST  DISCRETIONARY TRUST
// DEED`); on a cover page, perhaps the firm that prepared it.
const bodyStart = ub(/\b(?:THIS\s*(?:TRUST\s+)?(?:DEED|DECLARATION)|This\s+(?:Trust\s+)?(?:Deed|Declaration)|BETWEEN|PARTIES|Parties|DATED?|Dated|RECITALS|BACKGROUND|Background|Recitals|CONTENTS|Contents|OPERATIVE|Prepared\s+by|PREPARED\s+BY|(?:THE\s+)?SCHEDULE|Schedule|PARTICULARS|Particulars)\b|\b(?:BY|Date)\s*:/u);

/** The deed's title block: what its first page prints before the body begins (at most 400 characters). */
export function titleOf(text: string): string {
  const head = text.slice(0, 400);
  const start = bodyStart.exec(head);
  return start ? head.slice(0, start.index) : head;
}

/**
 * A trust's name ending at `end` (just after `Trust`/`Fund`): the capitalised words before it, without a
 * sentence's `the` or a heading that runs into it in a text layer (`RECITALS A. The X Trust`).
 */
function nameEndingAt(text: string, end: number): string | null {
  const before = text.slice(Math.max(0, end - 160), end);
  const tokens = before.split(/[ \n]/u);
  const kept: string[] = [];
  for (let i = tokens.length - 1; i >= 0; i--) {
    const t = tokens[i]!;
    if (kept.length && !(/^[\p{Lu}\d&]/u.test(t) || particles.has(t) || t === 'and' || t === 'of')) break;
    // A title's `TRUST DEED` (or OCR's `TRUSTDEED`) before the name is the document's, not the trust's.
    if (kept.length && /deed$/iu.test(t)) break;
    if (kept.length >= 10) break;
    kept.unshift(t);
  }
  // A lone digit before a title's name is a page number or an OCR speck (`5 TRAN SUPERANNUATION FUND`).
  while (kept.length && (headingWords.has(kept[0]!.toLowerCase()) && kept[0] === kept[0]!.toUpperCase() || /^\p{Lu}\.$/u.test(kept[0]!) || /^\d$/u.test(kept[0]!) || particles.has(kept[0]!) || kept[0] === 'and' || kept[0] === 'of' || kept[0] === '&')) kept.shift();
  // `The` inside what was kept starts the name; everything before it was something else.
  const the = kept.map((t) => t.toLowerCase()).lastIndexOf('the');
  const name = (the >= 0 ? kept.slice(the + (kept[the] === 'the' ? 1 : 0)) : kept).join(' ');
  const words = name.toLowerCase().split(' ');
  if (words.every((w) => generic.has(w))) return null;
  return name.length >= 4 && name.length <= 300 ? name : null;
}

const trustWord = ub(/\b(?:Trust|TRUST|Fund|FUND|Settlement|SETTLEMENT)\b/gu);
// A number is part of a trust's name: `Williams Family Trust No. 3`.
const numberSuffix = ub(/^\s+(?:No\.?|NO\.?|Number|NUMBER)\s*\d{1,3}(?!\d)/u);
// `X Pty Ltd as trustee for the Y Super Fund (the "Fund")`: Y is the trust another party holds for, which a
// custodian's deed names beside its own.
const asTrusteeOf = ub(/\btrustees?\s+(?:of|for)\s+(?:the\s+)?$/iu);

export function findName(text: string, fields: Fields[], variation: boolean): string | null {
  const candidates: Array<{ name: string; another: boolean }> = [];
  for (const f of fields) {
    if (f.key !== 'TRUST_NAME') continue;
    const value = f.value.replace(ub(/\s*\(?\s*(?:ABN|A\.B\.N)\b.*$/su), '').replace(/[\s.;,]+$/u, '');
    const cut = ub(/\b(?:Trust|TRUST|Fund|FUND|Settlement|SETTLEMENT)\b/u).exec(value);
    const name = cut && value.length > 120 ? value.slice(0, cut.index + cut[0].length) : value;
    if (name && name.length <= 300 && !ub(/^(?:as|see|refer|the\s+name)\b/iu).test(name)) candidates.push({ name, another: false });
  }
  /** The name ending at `end` (after `Trust`, or its number), unless a variation's: a name after `trustee of`. */
  const nameAt = (end: number) => {
    const nameEnd = end + (numberSuffix.exec(text.slice(end, end + 16))?.[0].length ?? 0);
    const name = nameEndingAt(text, nameEnd);
    const start = nameEnd - (name?.length ?? 0);
    if (name) candidates.push({ name, another: !variation && asTrusteeOf.test(text.slice(Math.max(0, start - 30), start)) });
  };
  // `… Family Trust (ABN …) (the "Trust")`, `… Trust No. 2 (the "Trust")`.
  for (const m of text.matchAll(ub(/\b(?:Trust|TRUST|Fund|FUND|Settlement)\b(?=(?:\s+(?:No\.?|NO\.?|Number)\s*\d{1,3})?\s*(?:\(\s*ABN[^)]{0,30}\)\s*|ABN\s+[\d\s]{11,16})?\(\s*(?:the\s+)?["']?(?:Trust|Fund)["']?\s*\))/gu))) {
    nameAt(m.index + m[0].length);
  }
  // `to be known as the X Trust`, `shall be known as …`, `called the …`.
  for (const m of text.matchAll(ub(/\b(?:known\s+as|be\s+called|called|named|under\s+the\s+name(?:\s+of)?)\s+(?:the\s+)?(?=[\p{Lu}\d])/gu))) {
    trustWord.lastIndex = m.index + m[0].length;
    const end = trustWord.exec(text);
    if (!end || end.index - (m.index + m[0].length) > 150) continue;
    const phrase = text.slice(m.index + m[0].length, end.index + end[0].length);
    if (/[.;:]\s/u.test(phrase)) continue;
    nameAt(end.index + end[0].length);
  }
  if (variation) {
    for (const m of text.matchAll(ub(/\btrustee\s+(?:of|for)\s+(?:the\s+)?(?=\p{Lu})/gu))) {
      trustWord.lastIndex = m.index + m[0].length;
      const end = trustWord.exec(text);
      if (end && end.index - m.index < 150) nameAt(end.index + end[0].length);
    }
  }
  // The title, when nothing else names the trust: `THE WATTLE CREEK FAMILY TRUST`.
  for (const title of text.slice(0, 400).matchAll(ub(/(?:[\p{Lu}\d&'-]+\s+){1,8}?(?:TRUST|FUND)\b/gu))) {
    const before = candidates.length;
    nameAt(title.index + title[0].length);
    if (candidates.length > before) break;
  }
  if (!candidates.length) return null;
  const names = [...candidates.filter((c) => !c.another), ...candidates.filter((c) => c.another)].map((c) => c.name);
  // A quote mark left dangling before or after the name is a speck or a table rule OCR read as one.
  const best = withoutSpeck(names[0]!.replace(/^["']\s*(?![^]*["'])/u, '').replace(/^the\s+/iu, '').replace(/\s+['"]$/u, ''), text);
  // Printed in capitals in one place and in mixed case in another: the mixed case reads as printed too.
  const base = best.replace(/^the\s+/iu, '').toLowerCase();
  if (best === best.toUpperCase()) return names.map((c) => c.replace(/^the\s+/iu, '')).find((c) => c.toLowerCase() === base && c !== c.toUpperCase()) ?? best;
  return best;
}

/**
 * A name with a lone digit or mark inside it (`Ironbark Investment 7 Unit Trust`: a speck OCR read at a
 * line's end) is the name without it, when the deed prints that too (a running footer, another page).
 */
function withoutSpeck(name: string, text: string): string {
  const tokens = name.split(' ');
  for (let i = 1; i < tokens.length - 1; i++) {
    if (!/^[^\p{L}&]$/u.test(tokens[i]!) || /^No\.?$/iu.test(tokens[i - 1]!)) continue;
    const shorter = [...tokens.slice(0, i), ...tokens.slice(i + 1)].join(' ');
    if (new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(shorter)}(?![\\p{L}\\p{N}])`, 'iu').test(text)) return shorter;
  }
  return name;
}

/** A schedule's ABN value: the number first, perhaps after `ABN`. */
const abnDigits = new RegExp(`^\\s*(?:A\\.?B\\.?N\\.?\\s*:?\\s*)?(?=${digitLike}{0,2}\\d)(${digitLike}(?:[\\s.-]{0,2}${digitLike}){10})(?!${digitLike})`, 'u');

// Another entity's name in a title block (the firm that prepared the deed, a trustee company): an ABN
// after it is that entity's.
const otherEntity = ub(/\b(?:Pty|PTY|Ltd|LTD|Limited|LIMITED|Proprietary|PROPRIETARY|Lawyers|LAWYERS|Legal|LEGAL|Solicitors|SOLICITORS|Accountants|ACCOUNTANTS|Partners|PARTNERS|ACN|A\.C\.N)\b/u);

/**
 * The ABN a deed's title block prints after the trust's name (`PATEL SUPERANNUATION FUND SELF MANAGED
 * SUPERANNUATION FUND TRUST DEED ABN …`, perhaps with OCR's specks between): the first ABN there, when a
 * trust or fund is named before it and no other entity is.
 */
function titleAbn(text: string): string | null {
  const title = titleOf(text);
  const m = findNumber(abnPattern, title);
  if (!m) return null;
  const before = title.slice(0, m.index);
  if (!ub(/\b(?:Trust|TRUST|Fund|FUND|Settlement|SETTLEMENT)\b/u).test(before) || otherEntity.test(before)) return null;
  const digits = readDigits(m.printed, 11, isValidAbn);
  return digits && isValidAbn(digits) ? digits : null;
}

export function findAbn(text: string, fields: Fields[], name: string | null): string | null {
  for (const f of fields) {
    if (f.key !== 'TRUST_ABN') continue;
    const printed = abnDigits.exec(f.value)?.[1];
    const digits = (printed && readDigits(printed, 11, isValidAbn)) || f.value.replace(/\D/g, '').slice(0, 11);
    if (isValidAbn(digits)) return digits;
  }
  const anchors: number[] = [];
  // The name as printed anywhere, in capitals too (`ØSTERGAARD FAMILY TRUST ABN …` in the title).
  if (name) for (const m of text.matchAll(new RegExp(escapeRegExp(name), 'giu'))) anchors.push(m.index + m[0].length);
  for (const m of text.matchAll(ub(/\b(?:Trust|Fund|TRUST|FUND)(?:'s)?\s+(?=\(?\s*(?:ABN|A\.B\.N|Australian\s+Business\s+Number))/gu))) anchors.push(m.index + m[0].length - 1);
  for (const at of anchors) {
    const m = findNumber(abnPattern, text.slice(at, at + 50));
    if (m && m.index < 12) {
      const digits = readDigits(m.printed, 11, isValidAbn);
      if (digits && isValidAbn(digits)) return digits;
    }
  }
  return titleAbn(text);
}

export const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&');
