// The trust itself, all as printed: `findTrust` reads its name and ABN (`trust-name.ts`), its kind, the
// law that governs it, and its dates (`trust-dates.ts`). The schedule's labelled values come first; then
// the sentences deeds use (`governed by the laws of …`, the sentence that names the trust). `isVariation`
// tells a deed that changes a trust from one that makes it, whose dates are not the trust's.
import type { ExtractedTrust } from './deed-payload.ts';
import { sentenceEnd, sentenceStart } from './mentions.ts';
import type { Fields } from './schedule.ts';
import { findEstablished, findVesting, spacedDate } from './trust-dates.ts';
import { escapeRegExp, findAbn, findName, titleOf } from './trust-name.ts';
import { stateAbbrevs, stateNames, ub } from './vocabulary.ts';

const stateSource = `\\b(?:${stateNames.join('|')})\\b|\\b(?:${stateAbbrevs.filter((a) => a === a.toUpperCase()).join('|')})\\b`;
const statePattern = ub(new RegExp(stateSource, 'u'));

export type TrustType = NonNullable<ExtractedTrust['trustType']>;

const typeSignals: Array<[TrustType, RegExp]> = [
  ['SMSF', ub(/\bself[\s-]+managed\s+superannuation\s+fund\b|\bSMSF\b|\bsuperannuation\s+fund\b/giu)],
  ['HYBRID', ub(/\bhybrid\b/giu)],
  ['UNIT', ub(/\bunit\s+trust\b/giu)],
  ['FIXED', ub(/\bfixed\s+(?:unit\s+)?trust\b|\bdeed\s+of\s+fixed\s+trust\b/giu)],
  // A custodian's (`custody`, `holding`) trust deed is how a bare trust for a fund's borrowing is titled.
  ['BARE', ub(/\bbare\s+trust(?:ee)?\b|\bcustodian\s+deed\b|\bdeclaration\s+of\s+bare\s+trust\b|\bcustody\s+trust\b|\b(?:custody|custodian|holding)\s+trust\s+deed\b/giu)],
  ['DISCRETIONARY', ub(/\bdiscretionary\s+trust\b|\bfamily\s+trust\s+deed\b|\bdeed\s+of\s+settlement\b|\bdiscretionary\b/giu)],
];

// A title `DECLARATION OF TRUST` is a bare trust's; a clause headed `Declaration of trust` is in any deed.
const titleSignals: Array<[TrustType, RegExp]> = [...typeSignals, ['BARE', ub(/\bdeclaration\s+of\s+trust\b/giu)]];

// `The Trust is not a bare trust` denies a kind; `units in any unit trust`, `another discretionary trust`
// speak of other trusts (investments, beneficiaries). Neither says what this trust is.
const notThisTrust = ub(/\b(?:not|never|no|neither|nor|any|another|other|each|every)\s+(?:(?:a|an|the|such)\s+)?$/iu);

/** The kind the earliest signal in `window` names, not counting one the deed denies or gives another trust. */
function earliestType(window: string, signals = typeSignals): TrustType | null {
  let best: { type: TrustType; at: number } | null = null;
  for (const [type, pattern] of signals) {
    for (const m of window.matchAll(pattern)) {
      if (best && m.index >= best.at) break;
      if (notThisTrust.test(window.slice(Math.max(0, m.index - 16), m.index))) continue;
      best = { type, at: m.index };
      break;
    }
  }
  return best?.type ?? null;
}

/**
 * The kind the deed's title names; else the kind the sentence naming the trust gives it (`… hold the
 * Asset on a bare trust for the Borrower, to be known as the X Custody Trust`: a recital before it may
 * describe the fund the trust holds for as a superannuation fund); else the first the opening names. A
 * deed that names none but defines classes of beneficiary, or gives the trustee an absolute discretion,
 * is discretionary.
 */
function findType(text: string, name: string | null, hasClasses: boolean): TrustType | null {
  const title = earliestType(titleOf(text), titleSignals);
  if (title) return title;
  const opening = text.slice(0, 6000);
  for (const at of namingSentences(opening, name)) {
    const named = earliestType(opening.slice(sentenceStart(opening, at, 400), sentenceEnd(opening, at, 400)));
    if (named) return named;
  }
  const first = earliestType(opening);
  if (first) return first;
  const units = (text.match(ub(/\bUnit\s?holders?\b/gu)) ?? []).length;
  const discretion = (text.match(ub(/\babsolute\s+discretion\b/giu)) ?? []).length;
  return units > 3 ? 'UNIT' : discretion > 0 || hasClasses ? 'DISCRETIONARY' : null;
}

/** Where `text` names the trust `name` as it makes it: `to be known as the X`, `X (the "Trust")`. */
function namingSentences(text: string, name: string | null): number[] {
  if (!name) return [];
  const at: number[] = [];
  for (const m of text.matchAll(new RegExp(escapeRegExp(name), 'giu'))) {
    const before = text.slice(Math.max(0, m.index - 30), m.index);
    const after = text.slice(m.index + m[0].length, m.index + m[0].length + 20);
    if (ub(/\b(?:known\s+as|called|named)\s+(?:the\s+)?$/iu).test(before) || /^\s*\(\s*(?:the\s+)?["']?(?:Trust|Fund)["']?\s*\)/u.test(after)) at.push(m.index);
  }
  return at;
}

// A clause on the law that governs the deed, or a schedule's label for it (`State whose laws govern this
// Deed`). `Governing law` may also be a line of the contents, followed by whatever comes next.
const lawClause = ub(/\b(?:governed\s+by|construed\s+(?:in\s+accordance\s+with|according\s+to)|proper\s+law|governing\s+law|administered\s+in\s+accordance\s+with|subject\s+to\s+the\s+laws?|laws?\s+(?:that\s+|which\s+|shall\s+|will\s+)?govern(?:s|ing)?)\b/giu);
// The State a law is of: `the laws of Victoria`, `the law in force in the State of New South Wales`.
const lawOf = ub(/\blaws?\s+(?:(?:for\s+the\s+time\s+being\s+)?in\s+force\s+)?(?:of|in)\s+(?:the\s+)?(?:(?:State|Territory)\s+of\s+)?/gu);
const anyState = ub(new RegExp(stateSource, 'gu'));
// A State's name after `the laws of`, its words perhaps run together or parted by OCR's specks
// (`New ¢ SouthWales`, `Australian a Capital Territory`): the name, as the deed prints it.
const gap = '(?:\\s*|\\s+(?:[^\\p{L}\\s]{1,3}\\s+|\\p{Ll}{1,2}\\s+){1,3})';
const stateAt = [
  ...stateNames.map((name) => ({ name, pattern: ub(new RegExp(`${name.split(' ').join(gap)}\\b`, 'uy')) })),
  { name: null, pattern: ub(new RegExp(`(?:${stateAbbrevs.filter((a) => a === a.toUpperCase()).join('|')})\\b`, 'uy')) },
];
// A State with a postcode after it is an address's (`Box Hill VIC 3128`), not the deed's law.
const postcodeAfter = /^\s*\d{4}\b/u;

/**
 * The State whose law governs the deed: the schedule's, else the State a governing-law clause names
 * after `the laws of`, else any State (not an address's) such a clause or label names, else the State
 * any `laws of …` names.
 */
function findJurisdiction(text: string, fields: Fields[]): string | null {
  for (const f of fields) {
    if (f.key !== 'LAW') continue;
    const m = statePattern.exec(f.value.slice(0, 80));
    if (m) return m[0];
  }
  const lawIn = (window: string) => {
    for (const m of window.matchAll(lawOf)) {
      for (const { name, pattern } of stateAt) {
        pattern.lastIndex = m.index + m[0].length;
        const state = pattern.exec(window);
        if (state) return name ?? state[0];
      }
    }
    return null;
  };
  const clauses = [...text.matchAll(lawClause)].map((m) => text.slice(m.index, sentenceEnd(text, m.index, 400)));
  for (const clause of clauses) {
    const state = lawIn(clause);
    if (state) return state;
  }
  for (const clause of clauses) {
    for (const state of clause.matchAll(anyState)) {
      if (!postcodeAfter.test(clause.slice(state.index + state[0].length))) return state[0];
    }
  }
  return lawIn(text);
}

/** The trust as the deed prints it, or null when it does not name the trust. */
export function findTrust(text: string, fields: Fields[], variation: boolean, hasClasses = false): ExtractedTrust | null {
  const name = findName(text, fields, variation);
  if (!name) return null;
  return {
    name: name.slice(0, 300),
    abn: findAbn(text, fields, name),
    trustType: findType(text, name, hasClasses),
    jurisdiction: findJurisdiction(text, fields)?.slice(0, 100) ?? null,
    establishedDate: spacedDate(findEstablished(text, fields, variation, name))?.slice(0, 100) ?? null,
    vestingDate: spacedDate(findVesting(text, fields, variation, name)),
  };
}

// A title prints its words in capitals (`DEED OF VARIATION`) or with capital initials (`Deed of
// Variation`), never as a sentence's lower-case words (`any change of Appointor`).
const variationTitle = ub(/\b(?:DEED\s+OF\s+(?:VARIATION|AMENDMENT|RECTIFICATION|CHANGE|RETIREMENT|APPOINTMENT|REMOVAL)|(?:VARIATION|AMENDING)\s+DEED|Deed\s+of\s+(?:Variation|Amendment|Rectification|Change|Retirement|Appointment|Removal)|(?:Variation|Amending)\s+Deed)\b/u);
const changeCaps = ub(/\bCHANGE\s+OF\s+(?:TRUSTEES?|APPOINTORS?)\b/u);
const changeTitle = ub(/\bChange\s+of\s+(?:Trustees?|Appointors?)\b/u);
// `This deed of variation is made …`: a deed that calls itself so, whatever its case.
const selfNamed = ub(/\b(?:This|THIS)\s+deed\s+of\s+(?:variation|amendment|rectification|retirement|appointment|removal)\b/iu);

/**
 * A deed that changes an existing trust, rather than making one: its heading says so (`DEED OF VARIATION`,
 * `Deed of Retirement and Appointment of Trustee`, a title `Change of Trustee`). An original deed's
 * clauses speak of `any change of Appointor` in lower case, and may head a clause `Change of Trustee`:
 * only the title block counts for that one.
 */
export function isVariation(text: string): boolean {
  const opening = text.slice(0, 1500);
  return variationTitle.test(opening) || changeCaps.test(opening) || selfNamed.test(opening) || changeTitle.test(titleOf(text));
}
