// The trust itself: its name, ABN, kind, governing law, date and vesting day, all as printed. The
// schedule's labelled values come first; then the sentences deeds use (`to be known as the …`,
// `… (the "Trust")`, `governed by the laws of …`, `THIS DEED is made on …`, `"Vesting Day" means …`). A
// deed of variation's date is not the trust's: its establishment date is the original deed's
// (`established by deed dated …`), and without one it is null.
import type { ExtractedTrust } from './deed-payload.ts';
import { isValidAbn } from '../../platform/business-numbers.ts';
import { sentenceEnd } from './mentions.ts';
import { digitLike, findNumber, readDigits } from './ocr-digits.ts';
import type { FieldKey } from './schedule.ts';
import { abnPattern, particles, stateAbbrevs, stateNames, ub } from './vocabulary.ts';

const month = '(?:January|February|March|April|May|June|July|August|September|October|November|December|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept?|Oct|Nov|Dec)\\.?';
export const datePattern = ub(new RegExp(
  `\\d{1,2}(?:st|nd|rd|th)?\\s+(?:day\\s+of\\s+)?${month}(?:,\\s*|\\s+)\\d{4}|${month}\\s+\\d{1,2}(?:st|nd|rd|th)?(?:,\\s*|\\s+)\\d{4}|\\b\\d{1,2}[/.-]\\d{1,2}[/.-](?:\\d{4}|\\d{2})\\b`,
  'iu',
));
const statePattern = ub(new RegExp(`\\b(?:${stateNames.join('|')})\\b|\\b(?:${stateAbbrevs.filter((a) => a === a.toUpperCase()).join('|')})\\b`, 'u'));
const generic = new Set(['the', 'a', 'an', 'this', 'said', 'discretionary', 'unit', 'hybrid', 'family', 'fixed', 'bare', 'trust', 'fund', 'superannuation', 'super', 'self', 'managed', 'deed', 'settlement', 'of', 'and', 'new', 'original', 'declaration', 'smsf', 'regulated', 'complying']);
const headingWords = new Set(['recitals', 'background', 'whereas', 'parties', 'operative', 'provisions', 'schedule', 'item', 'trust', 'deed']);

export type TrustType = NonNullable<ExtractedTrust['trustType']>;

export interface Fields {
  key: FieldKey;
  value: string;
}

/**
 * A trust's name ending at `end` (just after `Trust`/`Fund`): the capitalised words before it, without a
 * sentence's `the` or a heading that runs into it in a text layer (`RECITALS A. The X Trust`).
 */
function nameEndingAt(text: string, end: number): string | null {
  const before = text.slice(Math.max(0, end - 160), end);
  const tokens = before.split(' ');
  const kept: string[] = [];
  for (let i = tokens.length - 1; i >= 0; i--) {
    const t = tokens[i]!;
    if (kept.length && !(/^[\p{Lu}\d&]/u.test(t) || particles.has(t) || t === 'and' || t === 'of')) break;
    if (kept.length >= 10) break;
    kept.unshift(t);
  }
  while (kept.length && (headingWords.has(kept[0]!.toLowerCase()) && kept[0] === kept[0]!.toUpperCase() || /^\p{Lu}\.$/u.test(kept[0]!) || particles.has(kept[0]!) || kept[0] === 'and' || kept[0] === 'of' || kept[0] === '&')) kept.shift();
  // `The` inside what was kept starts the name; everything before it was something else.
  const the = kept.map((t) => t.toLowerCase()).lastIndexOf('the');
  const name = (the >= 0 ? kept.slice(the + (kept[the] === 'the' ? 1 : 0)) : kept).join(' ');
  const words = name.toLowerCase().split(' ');
  if (words.every((w) => generic.has(w))) return null;
  return name.length >= 4 && name.length <= 300 ? name : null;
}

const trustWord = ub(/\b(?:Trust|TRUST|Fund|FUND|Settlement|SETTLEMENT)\b/gu);

function findName(text: string, fields: Fields[], variation: boolean): string | null {
  const candidates: string[] = [];
  for (const f of fields) {
    if (f.key !== 'TRUST_NAME') continue;
    const value = f.value.replace(ub(/\s*\(?\s*(?:ABN|A\.B\.N)\b.*$/su), '').replace(/[\s.;,]+$/u, '');
    const cut = ub(/\b(?:Trust|TRUST|Fund|FUND|Settlement|SETTLEMENT)\b/u).exec(value);
    const name = cut && value.length > 120 ? value.slice(0, cut.index + cut[0].length) : value;
    if (name && name.length <= 300 && !ub(/^(?:as|see|refer|the\s+name)\b/iu).test(name)) candidates.push(name);
  }
  // `… Family Trust (ABN …) (the "Trust")`.
  for (const m of text.matchAll(ub(/\b(?:Trust|TRUST|Fund|FUND|Settlement)\b(?=\s*(?:\(\s*ABN[^)]{0,30}\)\s*|ABN\s+[\d\s]{11,16})?\(\s*(?:the\s+)?["']?(?:Trust|Fund)["']?\s*\))/gu))) {
    const name = nameEndingAt(text, m.index + m[0].length);
    if (name) candidates.push(name);
  }
  // `to be known as the X Trust`, `shall be known as …`, `called the …`.
  for (const m of text.matchAll(ub(/\b(?:known\s+as|be\s+called|called|named|under\s+the\s+name(?:\s+of)?)\s+(?:the\s+)?(?=[\p{Lu}\d])/gu))) {
    trustWord.lastIndex = m.index + m[0].length;
    const end = trustWord.exec(text);
    if (!end || end.index - (m.index + m[0].length) > 150) continue;
    const phrase = text.slice(m.index + m[0].length, end.index + end[0].length);
    if (/[.;:]\s/u.test(phrase)) continue;
    const name = nameEndingAt(text, end.index + end[0].length);
    if (name) candidates.push(name);
  }
  if (variation) {
    for (const m of text.matchAll(ub(/\btrustee\s+(?:of|for)\s+(?:the\s+)?(?=\p{Lu})/gu))) {
      trustWord.lastIndex = m.index + m[0].length;
      const end = trustWord.exec(text);
      if (end && end.index - m.index < 150) {
        const name = nameEndingAt(text, end.index + end[0].length);
        if (name) candidates.push(name);
      }
    }
  }
  // The title, when nothing else names the trust: `THE WATTLE CREEK FAMILY TRUST`.
  for (const title of text.slice(0, 400).matchAll(ub(/(?:[\p{Lu}\d&'-]+\s+){1,8}?(?:TRUST|FUND)\b/gu))) {
    const name = nameEndingAt(text, title.index + title[0].length);
    if (name) {
      candidates.push(name);
      break;
    }
  }
  if (!candidates.length) return null;
  // A quote mark left dangling before or after the name is a speck or a table rule OCR read as one.
  const best = candidates[0]!.replace(/^["']\s*(?!.*["'])/u, '').replace(/^the\s+/iu, '').replace(/\s+['"]$/u, '');
  // Printed in capitals in one place and in mixed case in another: the mixed case reads as printed too.
  const base = best.replace(/^the\s+/iu, '').toLowerCase();
  if (best === best.toUpperCase()) return candidates.map((c) => c.replace(/^the\s+/iu, '')).find((c) => c.toLowerCase() === base && c !== c.toUpperCase()) ?? best;
  return best;
}

/** A schedule's ABN value: the number first, perhaps after `ABN`. */
const abnDigits = new RegExp(`^\\s*(?:A\\.?B\\.?N\\.?\\s*:?\\s*)?(?=${digitLike}{0,2}\\d)(${digitLike}(?:[\\s.-]{0,2}${digitLike}){10})(?!${digitLike})`, 'u');

function findAbn(text: string, fields: Fields[], name: string | null): string | null {
  for (const f of fields) {
    if (f.key !== 'TRUST_ABN') continue;
    const printed = abnDigits.exec(f.value)?.[1];
    const digits = (printed && readDigits(printed, 11, isValidAbn)) || f.value.replace(/\D/g, '').slice(0, 11);
    if (isValidAbn(digits)) return digits;
  }
  const anchors: number[] = [];
  if (name) for (let at = text.indexOf(name); at >= 0; at = text.indexOf(name, at + 1)) anchors.push(at + name.length);
  for (const m of text.matchAll(ub(/\b(?:Trust|Fund)(?:'s)?\s+(?=\(?\s*(?:ABN|A\.B\.N|Australian\s+Business\s+Number))/gu))) anchors.push(m.index + m[0].length - 1);
  for (const at of anchors) {
    const m = findNumber(abnPattern, text.slice(at, at + 50));
    if (m && m.index < 12) {
      const digits = readDigits(m.printed, 11, isValidAbn);
      if (digits && isValidAbn(digits)) return digits;
    }
  }
  return null;
}

const typeSignals: Array<[TrustType, RegExp]> = [
  ['SMSF', ub(/\bself[\s-]+managed\s+superannuation\s+fund\b|\bSMSF\b|\bsuperannuation\s+fund\b/iu)],
  ['HYBRID', ub(/\bhybrid\b/iu)],
  ['UNIT', ub(/\bunit\s+trust\b/iu)],
  ['FIXED', ub(/\bfixed\s+(?:unit\s+)?trust\b|\bdeed\s+of\s+fixed\s+trust\b/iu)],
  ['BARE', ub(/\bbare\s+trust(?:ee)?\b|\bcustodian\s+deed\b|\bdeclaration\s+of\s+(?:bare\s+)?trust\b/iu)],
  ['DISCRETIONARY', ub(/\bdiscretionary\s+trust\b|\bfamily\s+trust\s+deed\b|\bdeed\s+of\s+settlement\b|\bdiscretionary\b/iu)],
];

/**
 * The first kind the deed's opening names (title, recitals); the earliest mention wins. A deed that
 * names none but defines classes of beneficiary, or gives the trustee an absolute discretion, is
 * discretionary.
 */
function findType(text: string, hasClasses: boolean): TrustType | null {
  const opening = text.slice(0, 6000);
  let best: { type: TrustType; at: number } | null = null;
  for (const [type, pattern] of typeSignals) {
    const m = pattern.exec(opening);
    if (m && (!best || m.index < best.at)) best = { type, at: m.index };
  }
  if (best) return best.type;
  const units = (text.match(ub(/\bUnit\s?holders?\b/gu)) ?? []).length;
  const discretion = (text.match(ub(/\babsolute\s+discretion\b/giu)) ?? []).length;
  return units > 3 ? 'UNIT' : discretion > 0 || hasClasses ? 'DISCRETIONARY' : null;
}

function findJurisdiction(text: string, fields: Fields[]): string | null {
  for (const f of fields) {
    if (f.key !== 'LAW') continue;
    const m = statePattern.exec(f.value.slice(0, 80));
    if (m) return m[0];
  }
  for (const m of text.matchAll(ub(/\b(?:governed\s+by|construed\s+(?:in\s+accordance\s+with|according\s+to)|proper\s+law|governing\s+law|administered\s+in\s+accordance\s+with|subject\s+to\s+the\s+laws?)\b/giu))) {
    const sentence = text.slice(m.index, sentenceEnd(text, m.index, 400));
    const state = statePattern.exec(sentence);
    if (state) return state[0];
  }
  return null;
}

function findEstablished(text: string, fields: Fields[], variation: boolean): string | null {
  const original = ub(new RegExp(`\\b(?:established|constituted|settled|created|made)\\s+by\\s+(?:a\\s+|the\\s+)?(?:trust\\s+)?(?:deed|declaration)(?:\\s+of\\s+(?:settlement|trust))?\\s+dated\\s+(?:the\\s+)?(${datePattern.source})|\\bOriginal\\s+Deed["']?\\)?\\s+dated\\s+(?:the\\s+)?(${datePattern.source})|\\bdeed\\s+dated\\s+(?:the\\s+)?(${datePattern.source})\\s*\\(\\s*(?:the\\s+)?["']?Original\\s+Deed`, 'iu')).exec(text);
  if (original) return (original[1] ?? original[2] ?? original[3])!;
  if (variation) return null;
  for (const f of fields) {
    if (f.key !== 'DATE') continue;
    const m = datePattern.exec(f.value.slice(0, 60));
    if (m) return m[0];
  }
  // `THIS DEED is made on …` first; then `DATED …`, `Date of this Deed: …` (not `Vesting Date 30 June 2070`).
  const made = ub(new RegExp(`\\b(?:THIS|This)\\s+(?:(?:TRUST\\s+)?DEED|(?:Trust\\s+)?Deed|DECLARATION|Declaration)[^.]{0,60}?\\b(?:made|dated|executed)\\s+(?:on\\s+|this\\s+)?(?:the\\s+)?(${datePattern.source})`, 'u')).exec(text);
  if (made) return made[1]!;
  const dated = ub(new RegExp(`(?:\\bDATED|\\bDated|(?<!\\b(?:Vesting|Commencement|Termination|VESTING)\\s)\\bDate(?:\\s+of\\s+(?:this\\s+)?Deed)?\\s*:)\\s*:?\\s+(?:the\\s+)?(${datePattern.source})`, 'u')).exec(text);
  return dated ? dated[1]! : null;
}

// A sentence ends the value; so does a line that opens another provision (the schedule's last item runs
// into whatever follows it: `…of this deed` then `This deed is governed by …`, lines already joined).
const vestingStop = /;|\.(?=\s+["'(]?[\p{Lu}\d]|\s*$)|\s(?=(?:This\s+(?:deed|Deed|DEED)\s+(?:is|shall)|The\s+laws?\s+of|IN\s+WITNESS|EXECUTED\s+(?:as|by)|Executed\s+(?:as|by)|SIGNED,?\s+SEALED|Signed,?\s+sealed)\b)/u;
const reference = ub(/\b(?:specified|set\s+out|stated|named|referred\s+to|described)\b[^.]{0,40}\b(?:Schedule|Item|Particulars|Details)\b|^(?:as\s+(?:defined|set\s+out)|see\s+clause)/iu);

/**
 * A date with nothing beside it but words of one or two letters (`Co 30 June 2090 oo`) is the date: OCR
 * reads specks and table rules as such words. A rule (`the day before …`) is kept as it is.
 */
function withoutSpecks(value: string): string {
  const date = datePattern.exec(value);
  if (!date) return value;
  const rest = `${value.slice(0, date.index)} ${value.slice(date.index + date[0].length)}`.split(/\s+/u).filter(Boolean);
  return rest.length && rest.every((w) => w.length <= 2) ? date[0] : value;
}

/** A date as printed, with the space OCR may drop after a comma put back (`November 24,2017`). */
const spacedDate = (date: string | null) => date?.replace(/,(?=\d)/u, ', ') ?? null;

function findVesting(text: string, fields: Fields[], variation: boolean): string | null {
  for (const f of fields) {
    if (f.key !== 'VESTING') continue;
    const stop = vestingStop.exec(f.value);
    const value = withoutSpecks((stop ? f.value.slice(0, stop.index) : f.value).replace(/[\s,.;]+$/u, '').slice(0, 300));
    if (value && !reference.test(value)) return value;
  }
  if (variation) return null;
  for (const m of text.matchAll(/["']\s*Vesting\s+(?:Day|Date)\s*["']\s+(?:means|shall\s+mean)\s*:?\s+/giu)) {
    const start = m.index + m[0].length;
    const value = text.slice(start, sentenceEnd(text, start, 400)).replace(/[\s,.;]+$/u, '').slice(0, 300);
    if (value && !reference.test(value)) return value;
  }
  return null;
}

/** The trust as the deed prints it, or null when it does not name the trust. */
export function findTrust(text: string, fields: Fields[], variation: boolean, hasClasses = false): ExtractedTrust | null {
  const name = findName(text, fields, variation);
  if (!name) return null;
  return {
    name: name.slice(0, 300),
    abn: findAbn(text, fields, name),
    trustType: findType(text, hasClasses),
    jurisdiction: findJurisdiction(text, fields)?.slice(0, 100) ?? null,
    establishedDate: spacedDate(findEstablished(text, fields, variation))?.slice(0, 100) ?? null,
    vestingDate: spacedDate(findVesting(text, fields, variation)),
  };
}

/** A deed that changes an existing trust, rather than making one. */
export function isVariation(text: string): boolean {
  return ub(/\b(?:DEED\s+OF\s+(?:VARIATION|AMENDMENT|RECTIFICATION|CHANGE|RETIREMENT|APPOINTMENT|REMOVAL)|VARIATION\s+DEED|AMENDING\s+DEED|CHANGE\s+OF\s+(?:TRUSTEE|APPOINTOR))\b/iu).test(text.slice(0, 1500));
}
