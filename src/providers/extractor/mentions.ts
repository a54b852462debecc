// Where a deed names someone in a role, outside its schedule: a defined term after a party
// (`JOHN SMITH of … (the "Appointor")`), a definition (`"Guardian" means Jane Doe of …`), and sentences
// (`… as Settlor`, `X is appointed as Guardian`, `If A dies, B shall become the Appointor`, `X retires as
// Appointor`). Each is read only where the words around it are a party and nothing else, so the
// thousands of `the Appointor may remove the Trustee` in the body name no one.
import { isLeadIn, parsePartyList, type ParsedParty } from './party-parse.ts';
import { nonNameWords, qualifierOf, qualifierSource, roleOf, roleSource, type Qualifier, type RoleKey, ub } from './vocabulary.ts';

export interface Mention {
  role: RoleKey;
  qualifier: Qualifier;
  /** `new`, `incoming`, `replacement`, `continuing` was written: the party holds the role despite an earlier retirement. */
  explicitlyNew: boolean;
  source: 'schedule' | 'parties' | 'definition' | 'sentence';
  /** Where the words naming the role are (doc offsets), to quote with the party. */
  roleStart: number;
  roleEnd: number;
  /** Parties with doc offsets. */
  parties: ParsedParty[];
  /** `… as trustee for the X Fund`: the trust the capacity is for (another trust's, unless it is this deed's). */
  capacity?: string;
}

const role = `(?:(${qualifierSource})\\s+)?(${roleSource})`;
const abbreviation = ub(/(?:\b(?:Pty|Ltd|Co|No|Nos|St|Rd|Ave|Mr|Mrs|Ms|Dr|Inc|Corp|Pl|Pde|Cres|Hwy|Mt|Ste|Prof|Cth|Vic|Qld|Tas|PTY|LTD|CO|NO|INC)|\b\p{Lu}|\.\p{Lu})$/u);

/** Where the sentence holding `at` begins (after the last full stop that ends a sentence). */
export function sentenceStart(text: string, at: number, limit = 800): number {
  const from = Math.max(0, at - limit);
  const window = text.slice(from, at);
  let best = 0;
  for (const m of window.matchAll(/[.;]\s+(?=["'(]?[\p{Lu}\d])/gu)) if (m[0].startsWith(';') || !abbreviation.test(window.slice(0, m.index))) best = m.index + m[0].length;
  return from + best;
}

/** Where the sentence holding `at` ends: a full stop that ends a sentence, or `semicolon` (any semicolon by default). */
export function sentenceEnd(text: string, at: number, limit = 800, semicolon = /;/u): number {
  const window = text.slice(at, at + limit);
  const stop = semicolon.exec(window)?.index ?? window.length;
  for (const m of window.matchAll(/\.(?=\s+["'(]?[\p{Lu}\d]|\s*$)/gu)) {
    if (m.index > stop) break;
    if (!abbreviation.test(window.slice(0, m.index))) return at + m.index;
  }
  return at + Math.min(stop, window.length);
}

const boundary = ub(new RegExp(
  [
    '[;](?=\\s)',
    '(?<!\\b(?:Address|ACN|ABN|Name|office|No|Number))[:](?=\\s)',
    '\\bBETWEEN\\b', '\\bbetween\\b', '\\bBY\\b:?', '\\bby\\b', '\\bAND\\b:?',
    '\\bPARTIES\\b', '\\bParties\\b', '\\bof the (?:one|other|first|second|third) part\\b',
    '(?:^|\\s)\\(?\\d{1,2}[.)](?=\\s)', '(?:^|\\s)\\d{1,2}\\.\\d{1,2}(?=\\s)', '(?:^|\\s)\\([a-zA-Z]{1,3}\\)(?=\\s)', '(?:^|\\s)[A-Z]\\.(?=\\s)',
    '[.](?=\\s+["\'(]?\\p{Lu})',
  ].join('|'),
  'gu',
));

/**
 * The party or parties just before `end`: from the nearest boundary (`BY`, `AND`, `;`, `1.`, a sentence's
 * start, the previous defined term) or, failing that, from a later comma (`If A dies, B …`). Strict:
 * everything in between must be parties.
 */
export function partiesBefore(text: string, end: number, floor: number): ParsedParty[] | null {
  // A party ends with a capitalised word (a name, a suburb, `Ltd`), a number (a postcode, an ACN) or a
  // parenthesis: `such amount as the Trustee` is over before it starts.
  if (!/[\p{Lu}\d)][\p{L}\p{M}\d.)'’-]*[\s,]*$/u.test(text.slice(Math.max(floor, end - 40), end))) return null;
  const from = Math.max(floor, end - 700);
  const window = text.slice(from, end);
  let start = 0;
  for (const m of window.matchAll(boundary)) {
    if (m[0].startsWith('.') && abbreviation.test(window.slice(0, m.index))) continue;
    start = m.index + m[0].length;
  }
  // A clause's heading run into its text (`2. GUARDIAN Jane Doe of …`) is not part of the party.
  const heading = /^\s*(?:\p{Lu}{2,}\s+){1,4}(?=\p{Lu}\p{Ll}|(?:Mr|Mrs|Ms|Dr)\b)/u.exec(window.slice(start));
  if (heading && heading[0].trim().split(/\s+/u).every((w) => nonNameWords.has(w.toLowerCase()) || roleOf(w) !== null)) start += heading[0].length;
  // `X Pty Ltd … whose directors are A and B (the "Trustee")`: the company is the party, its directors are
  // not (their names come from a lookup of its ACN), so the chunk stops where they are introduced.
  const directors = ub(/,?\s+(?:whose\s+(?:sole\s+)?directors?|(?:its|the)\s+(?:sole\s+)?directors?\s+(?:is|are|being))\b/iu).exec(window.slice(start));
  const stop = directors ? start + directors.index : window.length;
  const starts = [start];
  if (!directors) for (const m of window.slice(start).matchAll(ub(/,\s+|\b(?:then|for|to|in\s+favour\s+of|namely)\s+/gu))) starts.push(start + m.index + m[0].length);
  for (const s of starts) {
    const chunk = window.slice(s, stop).replace(/[\s,]+$/u, '');
    if (!chunk) continue;
    const parties = parsePartyList(chunk, { strict: true });
    if (parties) return parties.map((p) => shift(p, from + s));
  }
  return null;
}

/** The parties at the start of the text from `start` to the sentence's end (definitions, `appointed as Guardian: …`). */
export function partiesAfter(text: string, start: number, stop: RegExp): ParsedParty[] {
  // A semicolon may separate two people; it ends the list only before the next definition or paragraph.
  let end = sentenceEnd(text, start, 1200, /;\s*(?=["'(\d]|and\s+\(|or\s+\()|;\s*$/u);
  const cut = stop.exec(text.slice(start, end));
  if (cut) end = start + cut.index;
  const chunk = text.slice(start, end);
  if (!/^\s*(?:\d{1,2}\.\s+)?[\p{Lu}\d]/u.test(chunk) || /^\s*(?:The|Any|Each|Such|All|A|An|Those|These|Every|In|Where|If|Subject)(?=\s|$)/u.test(chunk)) return [];
  const parties = parsePartyList(chunk, { strict: false }) ?? [];
  // The first party must start the text: `the person named …` is no name.
  if (!parties.length || !isLeadIn(chunk.slice(0, parties[0]!.start))) return [];
  return parties.map((p) => shift(p, start));
}

function shift(p: ParsedParty, by: number): ParsedParty {
  return { ...p, start: p.start + by, end: p.end + by, nameStart: p.nameStart + by, nameEnd: p.nameEnd + by };
}

const definedTermWords = /^(?:each|an?|and|together|jointly|collectively|both|individually|severally|hereinafter|herein|called|referred|to|as|described|known|the|in|this|deed|or)$/iu;

/** `NAME … (the "Trustee")`, `(together the "Appointors")`, `(hereinafter called "the Settlor")`, `(Settlor)`. */
export function definedTermMentions(text: string): Mention[] {
  const out: Mention[] = [];
  let floor = 0;
  for (const m of text.matchAll(/\(([^()]{1,90})\)/gu)) {
    const inside = m[1]!.replace(/["']/g, ' ');
    const roles = [...inside.matchAll(ub(new RegExp(`\\b${role}\\b`, 'giu')))];
    if (!roles.length) continue;
    const rest = inside.replace(ub(new RegExp(`\\b${role}\\b`, 'giu')), ' ');
    if (!rest.split(/\s+/u).filter(Boolean).every((w) => definedTermWords.test(w))) continue;
    // The role word of a defined term is capitalised: `(as trustee)` alone is not one.
    const roleWords = roles.filter((r) => /^\p{Lu}/u.test(r[2]!));
    if (!roleWords.length) continue;
    const parties = partiesBefore(text, m.index, floor);
    floor = m.index + m[0].length;
    if (!parties) continue;
    for (const r of roleWords) {
      const key = roleOf(r[2]!);
      if (!key || key === 'CLASS') continue;
      out.push({ role: key, qualifier: qualifierOf(r[1]), explicitlyNew: isNew(r[1]), source: 'parties', roleStart: m.index, roleEnd: m.index + m[0].length, parties });
    }
  }
  return out;
}

const isNew = (word: string | undefined) => /^(?:new|incoming|replacement|continuing|additional)$/iu.test(word ?? '');

const definitionStop = ub(/,?\s+or\s+(?:the\s+)?(?:survivor|such|any|other|if|failing)\b|\s+and\s+(?:includes|any|each)\b|,?\s+(?:being|provided\s+that|or,\s+if)\b|\s+\(or\b|,?\s+(?:jointly|together)\b/u);

/** `"Appointor" means John Smith …`; `"General Beneficiaries" means …` gives a class (its name). */
export function definitionMentions(text: string): { mentions: Mention[]; classes: Array<{ name: string; at: number }> } {
  const mentions: Mention[] = [];
  const classes: Array<{ name: string; at: number }> = [];
  const pattern = new RegExp(`(["'])\\s*${role}\\s*\\1\\s+(?:means|shall\\s+mean|is|are)\\s*:?\\s+`, 'giu');
  for (const m of text.matchAll(pattern)) {
    const key = roleOf(m[3]!);
    if (!key || !/^\p{Lu}/u.test(m[3]!)) continue;
    if (key === 'CLASS') {
      classes.push({ name: m[3]!.replace(/\s+/g, ' '), at: m.index });
      continue;
    }
    const start = m.index + m[0].length;
    let parties = partiesAfter(text, start, definitionStop);
    // `"Appointor" means the person holding that office from time to time, being initially Jane Doe.`
    if (!parties.length) {
      const initially = ub(/\b(?:being\s+initially|initially|namely|being)\s+(?=\p{Lu})/u).exec(text.slice(start, sentenceEnd(text, start, 600)));
      if (initially) parties = partiesAfter(text, start + initially.index + initially[0].length, definitionStop);
    }
    if (parties.length) mentions.push({ role: key, qualifier: qualifierOf(m[2]), explicitlyNew: isNew(m[2]), source: 'definition', roleStart: m.index, roleEnd: start, parties });
  }
  return { mentions, classes };
}

const successorContext = ub(/\b(?:death|dies|die|died|decease|incapac\w*|bankrupt\w*|ceases?|unable|unwilling|resign\w*|vacat\w*|survivor|surviving|successor)\b/iu);

/** Sentences that name a party in a role. */
export function sentenceMentions(text: string): Mention[] {
  const out: Mention[] = [];
  const push = (m: RegExpMatchArray, parties: ParsedParty[] | null, qualifier: Qualifier, word: string | undefined, roleWord: string) => {
    const key = roleOf(roleWord);
    if (!parties?.length || !key || key === 'CLASS') return;
    const roleEnd = m.index! + m[0].length;
    const capacity = ub(/^\s+(?:for|of)\s+(?:the\s+)?((?:[\p{Lu}\d][\p{L}\d&'.-]*\s+|(?:and|of|&)\s+){0,8}?(?:Trust|Fund|Settlement|TRUST|FUND))\b/u).exec(text.slice(roleEnd, roleEnd + 160))?.[1];
    // `Guardian of the Trust` is this deed's own trust, by its defined term; only a name is another trust's.
    const named = capacity && !/^(?:Trust|Fund|Settlement|TRUST|FUND)$/u.test(capacity) ? capacity : undefined;
    out.push({ role: key, qualifier, explicitlyNew: isNew(word), source: 'sentence', roleStart: m.index!, roleEnd, parties, ...(named ? { capacity: named } : {}) });
  };
  const inSuccession = (at: number) => successorContext.test(text.slice(sentenceStart(text, at), at));
  const backwards: Array<[RegExp, (m: RegExpMatchArray) => Qualifier]> = [
    [ub(new RegExp(`(?:\\s*,?\\s+in\\s+(?:its|his|her|their)(?:\\s+or\\s+(?:his|her))?\\s+capacity)?\\s+as\\s+(?:the\\s+|an?\\s+)?${role}\\b`, 'giu')), (m) => qualifierOf(m[1])],
    [ub(new RegExp(`\\s+(?:hereby\\s+)?(?:retires?|resigns?|is\\s+removed|are\\s+removed|ceases?\\s+to\\s+be|has\\s+ceased\\s+to\\s+be|retired|resigned)\\s+(?:as\\s+|from\\s+(?:the\\s+)?office\\s+of\\s+)?(?:an?\\s+|the\\s+)?${role}\\b`, 'giu')), () => 'retiring'],
    [ub(new RegExp(`\\s+(?:is|are|shall\\s+be|will\\s+be|be)\\s+(?:hereby\\s+)?(?:appointed|nominated)\\s+(?:as\\s+)?(?:an?\\s+|the\\s+)?${role}\\b`, 'giu')), (m) => (qualifierOf(m[1]) === 'current' && inSuccession(m.index!) ? 'successor' : qualifierOf(m[1]))],
    // `Jane Doe of … is the Guardian of the Trust`.
    [ub(new RegExp(`\\s+(?:is|are)\\s+(?:the|an?)\\s+${role}\\s+(?:of|for)\\s+(?:the|this)\\s+(?:Trust|Fund|Deed|Settlement)\\b`, 'giu')), (m) => (inSuccession(m.index!) ? 'successor' : qualifierOf(m[1]))],
    [ub(new RegExp(`\\s+(?:shall|will|is\\s+to|are\\s+to)\\s+(?:then\\s+|thereupon\\s+|jointly\\s+|immediately\\s+)?(?:become|be)\\s+(?:the\\s+|an?\\s+)?${role}\\b`, 'giu')), (m) => (inSuccession(m.index!) ? 'successor' : qualifierOf(m[1]))],
  ];
  for (const [pattern, qualify] of backwards) {
    for (const m of text.matchAll(pattern)) {
      const qualifier = qualify(m);
      // A former holder named by apposition: `John Smith, the former Appointor,` is caught by the retirement sentences.
      push(m, partiesBefore(text, m.index, sentenceStart(text, m.index)), qualifier, m[1], m[2]!);
    }
  }
  // `… appoints X as Guardian`, `… nominates X to be the Appointor`.
  for (const m of text.matchAll(ub(/\b(?:appoints?|nominates?)\s+(?!the\b|any\b|a\b|an\b|such\b|another\b|one\b)/giu))) {
    const start = m.index + m[0].length;
    const tail = text.slice(start, Math.min(text.length, start + 500));
    const as = ub(new RegExp(`\\s+(?:as|to\\s+be)\\s+(?:an?\\s+|the\\s+)?${role}\\b`, 'iu')).exec(tail);
    if (!as) continue;
    const parties = parsePartyList(tail.slice(0, as.index), { strict: true });
    const q = qualifierOf(as[1]);
    push({ ...as, index: start + as.index } as RegExpMatchArray, parties?.map((p) => shift(p, start)) ?? null, q === 'current' && inSuccession(start) ? 'successor' : q, as[1], as[2]!);
  }
  // `The first Guardian is Jane Doe of …`, `The initial Appointor shall be …`, `The Appointor of the Trust
  // is …` (what follows must be a name: `the Appointor shall be the person …` names no one).
  for (const m of text.matchAll(new RegExp(`\\b(?:(?:the\\s+)?(?:first|initial|original)\\s+|The\\s+)${role}(?:\\s+of\\s+(?:the|this)\\s+(?:Trust|Fund|Deed|Settlement))?\\s+(?:is|are|shall\\s+be|will\\s+be)\\s+`, 'giu'))) {
    const first = /^(?:the\s+)?(?:first|initial|original)\s/iu.test(m[0]);
    if (!first && !/^The\s/u.test(m[0])) continue;
    push(m, partiesAfter(text, m.index + m[0].length, definitionStop), first || !inSuccession(m.index) ? 'current' : 'successor', first ? 'first' : m[1], m[2]!);
  }
  // `the following persons are appointed as successor Appointors in the order named: A and B.`
  for (const m of text.matchAll(new RegExp(`(?:appointed|nominated)\\s+as\\s+(?:the\\s+)?${role}[^:.;]{0,40}:\\s*`, 'giu'))) {
    const q = qualifierOf(m[1]);
    push(m, partiesAfter(text, m.index + m[0].length, definitionStop), q === 'current' && inSuccession(m.index) ? 'successor' : q, m[1], m[2]!);
  }
  return out;
}

const term = String.raw`\p{Lu}\p{L}+(?:\s+\p{Lu}\p{L}+){0,2}`;
const definedTerm = new RegExp(String.raw`\(\s*(?:the\s+)?["'“‘]\s*(${term})\s*["'”’]\s*\)`, 'gu');
const heldOnTrust = ub(new RegExp(String.raw`\b[Tt]he\s+(${term})\s+(?:(?:shall|will|has\s+agreed\s+to|agrees\s+to)\s+)?(?:acquire\s+and\s+)?holds?\s+[^.;]{0,150}?\b(?:on|upon)\s+(?:a\s+)?(?:bare\s+|simple\s+|separate\s+)?trust\s+for\s+the\s+(${term})\b`, 'gu'));

/**
 * A bare trust's own words for its parties: \`X Pty Ltd (the "Custodian") AND Jane and John Smith as trustees
 * for the Smith Super Fund (the "Borrower") … The Custodian holds the Asset on a bare trust for the
 * Borrower\`. Whoever holds on trust for another is the trustee; the one it is held for, the beneficiary.
 */
export function heldOnTrustMentions(text: string): Mention[] {
  const terms = new Map<string, { parties: ParsedParty[]; start: number; end: number }>();
  let floor = 0;
  for (const m of text.matchAll(definedTerm)) {
    const parties = partiesBefore(text, m.index, floor);
    floor = m.index + m[0].length;
    if (parties && !terms.has(m[1]!)) terms.set(m[1]!, { parties, start: m.index, end: floor });
  }
  const out: Mention[] = [];
  for (const m of text.matchAll(heldOnTrust)) {
    for (const [name, key] of [[m[1]!, 'TRUSTEE'], [m[2]!, 'NAMED']] as const) {
      const found = terms.get(name);
      if (found) out.push({ role: key, qualifier: 'current', explicitlyNew: false, source: 'sentence', roleStart: found.start, roleEnd: found.end, parties: found.parties });
    }
  }
  return out;
}
