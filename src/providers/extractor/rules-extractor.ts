// The in-house deed extractor: rules over the pages' text, no model and no network. It reads the
// schedule, the parties clause's defined terms, the definitions and the sentences that appoint someone
// (see README.md), merges what names the same person in the same role, drops whoever a variation retires,
// and quotes every party from its page verbatim. It never logs: a deed is names, addresses and numbers.
//
// Confidence: HIGH when the schedule, the parties clause or a definition names the party in its role;
// MEDIUM for a successor appointor, a unitholder or SMSF member read as a beneficiary, a party only a
// sentence names (`… as Settlor`), and anything read from an OCR'd page.
import { Value } from '@sinclair/typebox/value';
import { DeedExtraction, ExtractedParty, type DeedPage } from './deed-payload.ts';
import { isValidAbn, isValidAcn } from '../../platform/business-numbers.ts';
import { crossCheckNumbers } from './ocr-digits.ts';
import { buildDeedText, pageIndexAt, quoteAt, type DeedText } from './deed-text.ts';
import type { DeedExtractor, ExtractResult } from './extractor.ts';
import { definedTermMentions, definitionMentions, heldOnTrustMentions, sentenceMentions, type Mention } from './mentions.ts';
import type { ParsedParty } from './party-parse.ts';
import { registerMentions } from './register-table.ts';
import { readSchedules } from './schedule.ts';
import { findTrust, isVariation } from './trust-fields.ts';
import { type RoleKey, ub } from './vocabulary.ts';

type Role = ExtractedParty['role'];

const roles: Record<Exclude<RoleKey, 'CLASS'>, Role> = {
  TRUSTEE: 'TRUSTEE',
  APPOINTOR: 'APPOINTOR',
  SETTLOR: 'SETTLOR',
  GUARDIAN: 'PROTECTOR_GUARDIAN',
  NAMED: 'BENEFICIARY',
  UNITHOLDER: 'BENEFICIARY',
  MEMBER: 'BENEFICIARY',
};
const roleOrder: Role[] = ['SETTLOR', 'TRUSTEE', 'APPOINTOR', 'PROTECTOR_GUARDIAN', 'BENEFICIARY', 'UBO', 'OTHER_CONTROLLER', 'OTHER'];
const sourceRank: Record<Mention['source'], number> = { schedule: 4, parties: 4, definition: 3, sentence: 1 };

interface Candidate {
  role: Role;
  key: string;
  mention: Mention;
  party: ParsedParty;
  /** Its place in the list the mention names (0 for the first). */
  index: number;
}

/**
 * A name as a key: case, accents, punctuation and the spelling of a company's suffix do not matter, nor
 * hyphens (OCR cannot tell `GEOF-\nFREY` broken at a line's end from a hyphenated name, so both spellings
 * of a name must meet).
 */
export function nameKey(party: Pick<ParsedParty, 'businessName' | 'firstName' | 'lastName'>): string {
  const name = party.businessName ?? `${party.firstName} ${party.lastName}`;
  return name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/-/g, '')
    .replace(ub(/\bproprietary\b/g), 'pty')
    .replace(ub(/\blimited\b/g), 'ltd')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

const isUpper = (s: string | null) => s !== null && s === s.toUpperCase() && s !== s.toLowerCase();
const birth = ub(/\bborn\b|\bdate\s+of\s+birth\b|\bD\.?O\.?B\b/iu);

function confidenceOf(c: Candidate): ExtractedParty['confidence'] {
  if (c.mention.qualifier === 'successor' || c.mention.role === 'UNITHOLDER' || c.mention.role === 'MEMBER' || c.mention.source === 'sentence') return 'MEDIUM';
  return 'HIGH';
}

/** The quote's span: the role's words and the party together when they sit close, else the party alone. */
function quoteSpan(doc: DeedText, c: Candidate): [number, number] {
  const { mention, party } = c;
  const start = Math.min(mention.roleStart, party.nameStart);
  const end = Math.max(mention.roleEnd, party.end);
  const together = end - start <= 400 && pageIndexAt(doc, start) === pageIndexAt(doc, end - 1) && !birth.test(doc.text.slice(start, party.nameStart));
  return together ? [start, end] : [party.nameStart, party.end];
}

function toParty(doc: DeedText, group: Candidate[]): ExtractedParty | null {
  const ranked = [...group].sort((a, b) => score(b) - score(a));
  const best = ranked[0]!;
  const quote = quoteAt(doc, ...quoteSpan(doc, best));
  if (!quote) return null;
  const pick = <K extends 'acn' | 'abn' | 'address'>(k: K) => ranked.map((c) => c.party[k]).find((v) => v !== null) ?? null;
  const confidences = group.map(confidenceOf);
  let confidence: ExtractedParty['confidence'] = confidences.includes('HIGH') ? 'HIGH' : 'MEDIUM';
  if (confidence === 'HIGH' && quote.page.source === 'OCR') confidence = 'MEDIUM';
  const p = best.party;
  const address = pick('address');
  let numbers = { acn: pick('acn'), abn: pick('abn') };
  // Only OCR misreads a digit; a text layer's failing ACN is the deed's own misprint and stays unread.
  if (quote.page.source === 'OCR' && p.kind === 'BUSINESS') {
    const printed = { acn: ranked.map((c) => c.party.printed.acn).find((v) => v !== null) ?? null, abn: ranked.map((c) => c.party.printed.abn).find((v) => v !== null) ?? null };
    numbers = crossCheckNumbers(numbers, printed, { acn: isValidAcn, abn: isValidAbn });
  }
  return {
    role: best.role,
    partyKind: p.kind,
    businessName: p.businessName?.slice(0, 300) ?? null,
    firstName: p.firstName?.slice(0, 200) ?? null,
    lastName: p.lastName?.slice(0, 200) ?? null,
    acn: p.kind === 'BUSINESS' ? numbers.acn : null,
    abn: numbers.abn,
    address: address ? { full: address.slice(0, 500) } : null,
    confidence,
    sourcePage: quote.page.number,
    sourceQuote: quote.quote,
  };
}

/** Mixed case over capitals, the schedule and parties clause over sentences, the current holder over a successor. */
function score(c: Candidate): number {
  const name = c.party.businessName ?? c.party.lastName;
  return sourceRank[c.mention.source] + (c.mention.qualifier === 'current' ? 2 : 0) + (isUpper(name) ? 0 : 1) + (c.party.address ? 0.5 : 0) - c.index * 0.01;
}

function sameName(a: string, b: string): boolean {
  const key = (s: string) => s.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().replace(/^the\s+/u, '').replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
  return key(a) === key(b);
}

function classesOf(found: Array<{ name: string; at: number }>): string[] {
  const seen = new Map<string, string>();
  for (const c of [...found].sort((a, b) => a.at - b.at)) {
    const key = c.name.toLowerCase().replace(/beneficiary$/u, 'beneficiaries');
    if (!seen.has(key)) seen.set(key, c.name.slice(0, 500));
  }
  return [...seen.values()].slice(0, 100);
}

/** Every string of `value` (names, addresses, the trust's fields) on one line: the text keeps its line breaks, values do not. */
function oneLine<T extends object>(value: T): T {
  const flat = (v: unknown): unknown => (typeof v === 'string' ? v.replace(/\s+/gu, ' ') : v && typeof v === 'object' ? oneLine(v) : v);
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, k === 'sourceQuote' ? v : flat(v)])) as T;
}

/** The extraction for `pages`; pure and synchronous. */
export function extractDeed(pages: readonly DeedPage[]): DeedExtraction {
  const doc = buildDeedText([...pages].sort((a, b) => a.number - b.number));
  const text = doc.text;
  const variation = isVariation(text);
  const schedule = readSchedules(text, { ocr: pages.some((p) => p.source === 'OCR') });
  const definitions = definitionMentions(text);
  const trust = findTrust(text, schedule.fields, variation, definitions.classes.length + schedule.classes.length > 0);
  const mentions = [...schedule.mentions, ...registerMentions(text), ...definedTermMentions(text), ...definitions.mentions, ...sentenceMentions(text), ...heldOnTrustMentions(text)]
    // `X Pty Ltd as trustee for the Y Fund` is the trustee of another trust, not of this one.
    .filter((m) => !m.capacity || (trust !== null && sameName(m.capacity, trust.name)));

  const candidates: Candidate[] = mentions.flatMap((mention) =>
    mention.role === 'CLASS' ? [] : mention.parties.map((party, index) => ({ role: roles[mention.role as Exclude<RoleKey, 'CLASS'>], key: nameKey(party), mention, party, index })),
  );
  // Whoever retires from a role (a variation's `Retiring Appointor`, `X retires as Appointor`) no longer holds it.
  const retired = new Set(candidates.filter((c) => c.mention.qualifier === 'retiring').map((c) => `${c.role}|${c.key}`));
  const groups = new Map<string, Candidate[]>();
  for (const c of candidates) {
    if (c.mention.qualifier === 'retiring') continue;
    const id = `${c.role}|${c.key}`;
    groups.set(id, [...(groups.get(id) ?? []), c]);
  }
  const parties: Array<{ party: ExtractedParty; at: number }> = [];
  for (const [id, group] of groups) {
    if (retired.has(id) && !group.some((c) => c.mention.explicitlyNew)) continue;
    const party = toParty(doc, group);
    if (party && Value.Check(ExtractedParty, party)) parties.push({ party, at: Math.min(...group.map((c) => c.party.nameStart)) });
  }
  parties.sort((a, b) => roleOrder.indexOf(a.party.role) - roleOrder.indexOf(b.party.role) || a.at - b.at);

  return {
    trust: trust && oneLine(trust),
    parties: parties.slice(0, 500).map((p) => oneLine(p.party)),
    beneficiaryClasses: classesOf([...definitions.classes, ...schedule.classes]),
  };
}

export function createRulesExtractor(): DeedExtractor {
  return {
    name: 'rules',
    async extract(pages, options = {}): Promise<ExtractResult> {
      options.signal?.throwIfAborted();
      let extraction: DeedExtraction;
      try {
        extraction = extractDeed(pages);
      } catch {
        // A rule that trips on some text is a bug to find from a deed we may not keep; the deed's words
        // must not reach a log, so the answer is only that there is no usable answer.
        return { ok: false, reason: 'INVALID' };
      }
      return Value.Check(DeedExtraction, extraction) ? { ok: true, extraction } : { ok: false, reason: 'INVALID' };
    },
  };
}
