// Reads parties out of a stretch of deed text that names them in one role: `Wattle Nominees Pty Ltd
// ACN 123 456 789 of Level 2, 10 Queen Street, Brisbane QLD 4000`, `John Smith of …, Sydney NSW 2000 and
// Jane Smith of …`, `1. Olivia Nguyễn 2. Minh Nguyễn`. Companies end at their suffix (`Pty Ltd`); a
// person's name is the run of capitalised words before `of`, a comma, a number or an ACN, or a family name
// in capitals before a comma and the given names (`SMITH, John`). A list is split where what follows is
// itself a party, and, after an address, only once the address has ended (a postcode or a State): `Unit 4,
// 27 Beach Road, Bondi Beach NSW 2026` is one address, not three people; `John and Mary Smith` is two.
// ACN and ABN digits may be OCR's look-alike letters (ocr-digits.ts).
import { isValidAbn, isValidAcn } from '../../platform/business-numbers.ts';
import { findNumber, printedDigits, readDigits } from './ocr-digits.ts';
import { abnPattern, acnPattern, companySuffixSource, month, nonNameWords, onOneLine, particles, stateAbbrevs, stateNames, streetTypes, titles, ub } from './vocabulary.ts';

export interface ParsedParty {
  kind: 'BUSINESS' | 'INDIVIDUAL';
  businessName: string | null;
  firstName: string | null;
  lastName: string | null;
  /** Digits only and check-digit valid, else null (a printed but invalid number is dropped). */
  acn: string | null;
  abn: string | null;
  /** The ACN's and ABN's digits as printed, checked or not (an OCR'd page's numbers are cross-checked later). */
  printed: { acn: string | null; abn: string | null };
  address: string | null;
  /** Offsets in the text given to the parser: the whole piece, and where the name starts and ends. */
  start: number;
  end: number;
  nameStart: number;
  nameEnd: number;
  /** Nothing unexplained follows the name (what a sentence's clause must be to be read as a party). */
  clean: boolean;
}

const leading = /^(?:[\s\-:;,.]+|(?:and|AND|And|&|BY|By|by|BETWEEN|Between|between|Item\s+\d{1,2}[.:]?|ITEM\s+\d{1,2}[.:]?|\d{1,2}[.)]|\(\s*[a-zA-Z0-9]{1,4}\s*\)|(?:Full\s+)?[Nn]ame\s*:)(?=\s|$)\s*)*/u;
const companyName = ub(new RegExp(`^([\\p{Lu}0-9][^;()]{0,150}?\\b${companySuffixSource})(?=[\\s,;()]|$)`, 'iu'));
const nameToken = /^(?:[\p{Lu}][\p{L}\p{M}'’-]*\.?|[\p{Lu}]\.)$/u;
const addressIntro =
  ub(/^[\s,]*(?:of|whose\s+(?:residential\s+|postal\s+|business\s+)?address\s+is|whose\s+registered\s+office\s+is(?:\s+situated)?\s+at|whose\s+registered\s+office\s+is|having\s+its\s+registered\s+office\s+at|of\s+registered\s+office|registered\s+office\s*:?|residing\s+at|resident\s+at|care\s+of|c\/-|located\s+at|situated\s+at|[Aa]ddress(?:\s+for\s+service)?\s*:?)\s+(?!the\b)/u);
const addressStart = ub(/^[\s,]*(?=\d|(?:Unit|Level|Suite|Shop|Lot|Apartment|Flat|Villa|Locked\s+Bag|P\.?\s?O\.?\s+Box|GPO\s+Box|Post\s+Office\s+Box)\b)/iu);
// Where an address stops: a parenthesis, a date of birth, a capacity, an identifier, a clause number, a
// sentence's end, a heading, or three words in lower case in a row (a sentence has resumed).
const addressEnd =
  ub(/\s*\((?!\s*(?:ACN|ABN|A\.C\.N|A\.B\.N))|,?\s+born\b|,?\s*\b(?:date\s+of\s+birth|D\.?O\.?B\.?)\b|\s+as\s+(?:the\s+)?trustees?\b|\s+in\s+(?:its|his|her|their)(?:\s+or\s+(?:his|her))?\s+capacity\b|\s+(?:being|who|which)\s|;|\s+(?:A\.?C\.?N|A\.?B\.?N)\b|\s+(?:AND|and)\s+(?:together|each|jointly)\b|,?\s+(?:or|and)\s+(?:the|such|any|includes|his|her|their|its)\b|\s+\d{1,2}\.\d{1,2}(?=\s)|\.\s+(?=\p{Lu})|\s+(?:EXECUTED|SIGNED|SCHEDULE|RECITALS|BACKGROUND)\b|\s+(?:\p{Ll}+\s+){2,}\p{Ll}+\b/u);
const states = [...stateNames, ...stateAbbrevs].join('|');
/** A street's name at the start of a text: `Bellbird Way`, `Gum Tree Lane,` (what follows a street number). */
const streetName = ub(new RegExp(`^\\s*(?:\\p{Lu}[\\p{L}'-]*\\s+){1,3}(?:${streetTypes.join('|')})\\b`, 'u'));
/** An address has ended: `… NSW 2000`, `… Fitzroy 3065`, `… Victoria`, `… Australia` (not `PO Box 4742`). */
const postcodeEnd = ub(new RegExp(`(?:\\b(?:${states})\\.?,?\\s*\\d{4}|\\b(?!(?:Box|Bag|Level|Unit|Suite|Lot|Shop)\\s)\\p{Lu}[\\p{L}'-]+\\s+\\d{4}|\\b(?:${states})|Australia)\\.?$`, 'u'));
const separator = /\s*;\s*(?:and\s+)?|\s+(?:and|AND|&)\s+|,\s+(?:and\s+)?|\s+(?=\(?\d{1,2}[.)]\s)|\s+(?=\([a-z]{1,3}\)\s)|(?<=\))\s+(?=\p{Lu})|\s+\d(?:[\d,]{0,9}\d)?(?:\s+[Uu]nits?|\s+UNITS?)?\s+(?=\p{Lu})/gu;

/**
 * A date straight after a person's name is a date of birth, however it is printed: a register's column
 * (`TRAN, Chloé 12 July 1971 21 Murray St …`), a bare `Jane Doe, 1 April 1980, of …`, or what OCR left of
 * one (`2 November` with its year on the next line). It is read past, never kept.
 */
const leadingBirthDate = ub(new RegExp(
  `^[\\s,:;(]*(?:(?:born(?:\\s+on)?|date\\s+of\\s+birth|D\\.?O\\.?B\\.?)\\s*:?\\s*)?(?:\\d{1,2}(?:st|nd|rd|th)?\\s+(?:day\\s+of\\s+)?${month}(?!\\s+(?:${streetTypes.join('|')})\\b)(?:,?\\s*\\d{4})?|${month}\\s+\\d{1,2}(?:st|nd|rd|th)?(?:,?\\s*\\d{4})?|\\d{1,2}[/.-]\\d{1,2}[/.-](?:\\d{4}|\\d{2}))\\b[\\s,;)]*`,
  'iu',
));

const lineSeparator = new RegExp(`${separator.source}|\\n(?=\\p{Lu})`, 'gu');

/** Whether `text` is only what may come before a party: list numbers, `and`, `Name:`, a title. */
export function isLeadIn(text: string): boolean {
  let rest = text.slice(leading.exec(text)![0].length);
  for (let m = /^(\S+)\s*/u.exec(rest); m && titles.test(m[1]!); m = /^(\S+)\s*/u.exec(rest)) rest = rest.slice(m[0].length);
  return rest.trim() === '';
}

/** Given names and family name: a family name takes the particles before it (`van der Berg`, `de la Cruz`). */
export function splitName(tokens: readonly string[]): { firstName: string; lastName: string } {
  let k = tokens.length - 1;
  while (k - 1 >= 1 && particles.has(tokens[k - 1]!.toLowerCase())) k--;
  return { firstName: tokens.slice(0, k).join(' '), lastName: tokens.slice(k).join(' ') };
}

/** The ACN and ABN after a name (valid, else null), and where each marker starts and its number ends (-1: none). */
function identifiers(text: string): { acn: string | null; abn: string | null; printed: ParsedParty['printed']; acnAt: number; abnAt: number; idEnd: number } {
  const [acn, acnDigits] = readNumber(text, acnPattern, 9, isValidAcn);
  const [abn, abnDigits] = readNumber(text, abnPattern, 11, isValidAbn);
  return {
    acn: acnDigits && isValidAcn(acnDigits) ? acnDigits : null,
    abn: abnDigits && isValidAbn(abnDigits) ? abnDigits : null,
    printed: { acn: acn ? printedDigits(acn.printed) : null, abn: abn ? printedDigits(abn.printed) : null },
    acnAt: acn ? acn.index : -1,
    abnAt: abn ? abn.index : -1,
    idEnd: Math.max(0, acn?.end ?? 0, abn?.end ?? 0),
  };
}

/** A number after its marker, and its digits: run on over a line's end only when that makes it valid. */
function readNumber(text: string, pattern: RegExp, length: number, valid: (digits: string) => boolean): [ReturnType<typeof findNumber>, string | null] {
  const across = findNumber(pattern, text);
  const acrossDigits = across ? readDigits(across.printed, length, valid) : null;
  if (across && acrossDigits && valid(acrossDigits)) return [across, acrossDigits];
  const line = findNumber(onOneLine(pattern), text);
  return line ? [line, readDigits(line.printed, length, valid)] : [across, acrossDigits];
}

/** `text` with its first ACN and ABN (marker and number) blanked out, so an address can be read around them. */
function withoutNumbers(text: string): string {
  let out = text;
  for (const pattern of [acnPattern, abnPattern]) {
    const found = findNumber(pattern, out);
    if (found) out = out.slice(0, found.index) + ' '.repeat(found.end - found.index) + out.slice(found.end);
  }
  return out;
}

/** What follows a name: the address, if one starts here, up to where it ends. */
function readAddress(after: string): { address: string | null; start: number; end: number } {
  const intro = addressIntro.exec(after) ?? addressStart.exec(after);
  if (!intro) return { address: null, start: 0, end: 0 };
  const rest = after.slice(intro[0].length);
  const cut = addressEnd.exec(rest);
  let address = (cut ? rest.slice(0, cut.index) : rest).replace(/[\s,.;:]+$/u, '');
  // An address that runs on past its postcode has swallowed something else.
  if (address.length > 300) {
    const postcode = ub(/\b\d{4}\b/u).exec(address.slice(20));
    address = postcode ? address.slice(0, 20 + postcode.index + 4) : address.slice(0, 300);
  }
  if (!/\p{L}/u.test(address) || address.length < 4) return { address: null, start: 0, end: 0 };
  return { address, start: intro[0].length, end: intro[0].length + address.length };
}

/** A person's name at the start of `text`: its tokens and where it ends, or null. */
function readPersonName(text: string): { tokens: string[]; length: number } | null {
  const tokens: string[] = [];
  const ends: number[] = [];
  for (const m of text.matchAll(/\S+/gu)) {
    const raw = m[0];
    const token = raw.replace(/[,;:]+$/u, '');
    const lower = token.toLowerCase();
    const isParticle = particles.has(lower) && token === lower;
    if (isParticle ? tokens.length === 0 : !nameToken.test(token) || nonNameWords.has(lower) || nonNameWords.has(lower.replace(/[.']/g, ''))) break;
    tokens.push(token);
    ends.push(m.index + token.length);
    if (token !== raw || tokens.length >= 7) break; // a comma ends the name
  }
  // A name does not end with a particle in lower case or an initial; a capitalised one is a family name
  // (`Giuseppe Le`, `Thi Do`).
  while (tokens.length && (particles.has(tokens.at(-1)!) || /^\p{Lu}\.?$/u.test(tokens.at(-1)!))) {
    tokens.pop();
    ends.pop();
  }
  return tokens.length >= 2 ? { tokens, length: ends.at(-1)! } : null;
}

/**
 * A name printed family name first, in capitals, then a comma and the given names in mixed case
 * (`SMITH, John Albert`, `VAN DER BERG, Thomas`). One family name only: `JOHN SMITH, Mary Jones` is two
 * people.
 */
function readSurnameFirst(text: string): { firstName: string; lastName: string; length: number } | null {
  const m = /^((?:\p{Lu}+\s+){0,2}\p{Lu}[\p{Lu}'’-]+),\s+/u.exec(text);
  if (!m) return null;
  const family = m[1]!.split(/\s+/u);
  if (!family.slice(0, -1).every((w) => particles.has(w.toLowerCase())) || nonNameWords.has(family.at(-1)!.toLowerCase())) return null;
  const given: string[] = [];
  let length = 0;
  for (const t of text.slice(m[0].length).matchAll(/\S+/gu)) {
    const token = t[0].replace(/[,;:]+$/u, '');
    if (given.length >= 4 || !/^\p{Lu}\p{Ll}[\p{L}\p{M}'’-]*$/u.test(token) || nonNameWords.has(token.toLowerCase())) break;
    given.push(token);
    length = m[0].length + t.index + token.length;
    if (token !== t[0]) break; // a comma ends the name
  }
  return given.length ? { firstName: given.join(' '), lastName: family.join(' '), length } : null;
}

/** The words of a company's name: capitalised, or the few small words names have (`Smith and Sons`). */
const companyWords = (name: string) => !/["'](?:\s|$)|["“”]/u.test(name) && name.split(/\s+/u).every((w) => /^[\p{Lu}0-9&(]/u.test(w) || /^(?:and|of|the|for|de|la|du|van|der|von|y|&)$/u.test(w));

/** A company's name at the start of `text`: up to its suffix, or (without one) up to its ACN. */
function readCompanyName(text: string): number | null {
  const company = companyName.exec(text);
  if (company) {
    const name = company[1]!;
    const suffixStart = name.search(new RegExp(`${companySuffixSource}$`, 'iu'));
    const body = name.slice(0, suffixStart).trim();
    if (/\p{Lu}/u.test(name[suffixStart] ?? '') && !/^(?:the|this|any|each|such|a)(?=\s|$)/iu.test(name) && !ub(/\b(?:ACN|ABN|A\.C\.N)\b|\d{3}/u).test(body.slice(1)) && (!body || companyWords(body))) return name.length;
  }
  const acn = acnPattern.exec(text.slice(0, 160));
  if (acn && acn.index > 2) {
    const name = text.slice(0, acn.index).replace(/[\s(,]+$/u, '');
    if (/^[\p{Lu}0-9]/u.test(name) && !/[()]/u.test(name) && name.split(' ').length <= 8 && companyWords(name) && !/^(?:The|This|Any|Each|Such|A)(?=\s|$)/u.test(name)) return name.length;
  }
  return null;
}

/** One party at the start of `piece` (offsets relative to `piece`, shifted by `base`). */
export function parseParty(piece: string, base = 0): ParsedParty | null {
  let i = leading.exec(piece)![0].length;
  // Titles go; they are not given names.
  for (let m = /^(\S+)\s+/u.exec(piece.slice(i)); m && titles.test(m[1]!); m = /^(\S+)\s+/u.exec(piece.slice(i))) i += m[0].length;
  const rest = piece.slice(i);
  let nameLength: number;
  let parsed: Pick<ParsedParty, 'kind' | 'businessName' | 'firstName' | 'lastName'>;
  const companyLength = readCompanyName(rest);
  if (companyLength !== null) {
    nameLength = companyLength;
    parsed = { kind: 'BUSINESS', businessName: rest.slice(0, companyLength).replace(/\s+/g, ' '), firstName: null, lastName: null };
  } else {
    const surnameFirst = readSurnameFirst(rest);
    const person = surnameFirst ? null : readPersonName(rest);
    if (surnameFirst) {
      nameLength = surnameFirst.length;
      parsed = { kind: 'INDIVIDUAL', businessName: null, firstName: surnameFirst.firstName, lastName: surnameFirst.lastName };
    } else if (person) {
      nameLength = person.length;
      parsed = { kind: 'INDIVIDUAL', businessName: null, ...splitName(person.tokens) };
    } else return null;
  }
  const birthDate = parsed.kind === 'INDIVIDUAL' ? leadingBirthDate.exec(rest.slice(nameLength)) : null;
  const after = birthDate ? ' '.repeat(birthDate[0].length) + rest.slice(nameLength + birthDate[0].length) : rest.slice(nameLength);
  const ids = identifiers(after.slice(0, 120));
  const blanked = withoutNumbers(after).replace(/^[\s(]*\)/u, (m) => ' '.repeat(m.length));
  const address = readAddress(blanked);
  // Clean: straight after the name comes nothing, an identifier, an address, a parenthesis or a date of birth.
  const next = after.replace(/^[\s,]+/u, '');
  const clean =
    next === '' ||
    address.address !== null ||
    ids.acnAt >= 0 ||
    ids.abnAt >= 0 ||
    ub(/^(?:\(|born\b|date of birth|as\s+(?:the\s+)?trustees?\b|in\s+(?:its|his|her|their)(?:\s+or\s+(?:his|her))?\s+capacity|A\.?C\.?N|A\.?B\.?N)/iu).test(next);
  // A party's text (what its quote may cover) stops before a date of birth; its address is still read.
  const end = birthDate ? nameLength : nameLength + Math.max(address.address ? address.end : 0, ids.idEnd);
  return {
    ...parsed,
    acn: parsed.kind === 'BUSINESS' ? ids.acn : null,
    abn: ids.abn,
    printed: ids.printed,
    address: address.address,
    start: base + i,
    end: base + i + Math.min(rest.length, end),
    nameStart: base + i,
    nameEnd: base + i + nameLength,
    clean,
  };
}

/**
 * Two people sharing a family name (`John and Mary Smith of …`): the first takes the second's family name
 * and address. Only a single given name before `and`: `John Albert and Mary Smith` is two names already.
 */
function parseJoint(piece: string, base: number): [ParsedParty, ParsedParty] | null {
  const i = leading.exec(piece)![0].length;
  const m = /^(\p{Lu}[\p{L}\p{M}'’-]+)\s+(?:and|AND|&)\s+/u.exec(piece.slice(i));
  if (!m || nonNameWords.has(m[1]!.toLowerCase()) || titles.test(m[1]!)) return null;
  const second = parseParty(piece.slice(i + m[0].length), base + i + m[0].length);
  if (!second || second.kind !== 'INDIVIDUAL') return null;
  return [{ ...second, firstName: m[1]!, start: base + i, nameStart: base + i }, second];
}

/**
 * Every party in `text`, in order. `strict`: all of it must be parties (the clause before a defined term
 * or an `as Appointor`), else null; otherwise the parties that can be read, the rest ignored. `lines`: a
 * line break before a capital separates too (a schedule's table cell lists one name a line, with nothing
 * else between them); not in prose, where a name wraps from one line to the next.
 */
export function parsePartyList(text: string, options: { strict: boolean; lines?: boolean }): ParsedParty[] | null {
  const cuts = [0];
  let current = 0;
  for (const sep of text.matchAll(options.lines ? lineSeparator : separator)) {
    const at = sep.index;
    const next = at + sep[0].length;
    if (at <= current) continue;
    const left = parseParty(text.slice(current, at));
    if (!left) continue;
    const nextSep = new RegExp(separator.source, 'gu');
    nextSep.lastIndex = next;
    const following = nextSep.exec(text);
    const segment = text.slice(next, following ? following.index : text.length);
    // `SMITH, John`: the family name alone before the next comma is the start of a name.
    const right = parseParty(segment) ?? (/^\p{Lu}[\p{Lu}'’-]+$/u.test(segment.trim()) ? parseParty(text.slice(next, next + 200)) : null);
    if (!right) continue;
    // A unit register's holding (`John Smith 50 Mary Jones 50`) separates two names, not an address's
    // number: not one after an address, nor one before a street (`SMITH, Jane 100 Bellbird Way`).
    if (/^\s+\d/u.test(sep[0]) && (current + left.nameEnd !== at || streetName.test(segment))) {
      // Unless the number is the postcode that ends an address, and a name follows (a table's rows run
      // together: `Jane Doe 1 Hill St, Norwood SA 5067 John Doe …`).
      const withPostcode = /^\s+\d{4}\s+$/u.test(sep[0]) ? parseParty(text.slice(current, next).trimEnd()) : null;
      if (!withPostcode?.address || !postcodeEnd.test(withPostcode.address)) continue;
    }
    // After an address, a line ends a party only once the address has ended.
    if (sep[0] === '\n' && left.address && !postcodeEnd.test(left.address)) continue;
    // After an address, a comma separates two parties only once the address has ended; and a comma
    // inside a name printed family name first (`DE SOUZA, Søren`) separates nothing.
    const comma = sep[0].trim().startsWith(',');
    if (comma && left.address && !postcodeEnd.test(left.address)) continue;
    if (comma && current + (parseParty(text.slice(current, current + 200))?.nameEnd ?? 0) > at) continue;
    cuts.push(next);
    current = next;
  }
  const parties: ParsedParty[] = [];
  for (let k = 0; k < cuts.length; k++) {
    const from = cuts[k]!;
    let to = k + 1 < cuts.length ? cuts[k + 1]! : text.length;
    // The separator belongs to neither party.
    const piece = text.slice(from, to).replace(/(?:\s*[;,]\s*(?:and\s+)?|\s+(?:and|AND|&))\s*$/u, '');
    to = from + piece.length;
    const joint = parseParty(piece, from) ? null : parseJoint(piece, from);
    const party = joint?.[1] ?? parseParty(piece, from);
    const remainder = party ? piece.slice(party.end - from).trim() : '';
    const whole = ub(/^(?:[,.;)]*|\(.*\)|,?\s*born\b.*|,?\s*(?:date\s+of\s+birth|D\.?O\.?B)\b.*|as\s+(?:the\s+)?trustees?\b.*|,?\s*in\s+(?:its|his|her|their)(?:\s+or\s+(?:his|her))?\s+capacity\b.*)$/isu).test(remainder);
    if (!party || (options.strict && (!party.clean || !whole))) {
      if (options.strict) return null;
      continue;
    }
    parties.push(...(joint ?? [party]));
  }
  return parties.length ? parties : options.strict ? null : [];
}
