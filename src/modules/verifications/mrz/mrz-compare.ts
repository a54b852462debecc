// A passport's machine-readable zone against what the person entered on the verification page. Pure.
//
// Names are compared the way ICAO 9303 Part 3 §6 writes them into the zone: capitals A–Z, diacritics
// transliterated (Müller as MULLER or MUELLER, Ødegård as ODEGARD or OEDEGAARD: states choose), spaces and
// hyphens as `<`, apostrophes dropped. A zone whose name field is full may have cut the name short, so a
// zone name that begins what was entered matches. Dates compare as YYMMDD; document numbers without
// fillers, spaces or case; the issuing state's alpha-3 code (or ICAO's own: D for Germany) against the
// entered alpha-2.
import anyAscii from 'any-ascii';
import countries from '../../../platform/iso-countries.ts';
import type { IdentityDocumentFields, IdentityProvider, PersonDetails } from '../../../providers/identity/identity-provider.ts';
import type { Td3Fields } from './icao9303.ts';

/** What the person entered, as the hosted flow took it: dates YYYY-MM-DD, the country ISO 3166 alpha-2. */
export interface EnteredDetails {
  firstName: string;
  middleName?: string;
  lastName: string;
  dateOfBirth: string;
  document: { number: string; expiryDate?: string; issuingCountry: string };
}

/**
 * What the person entered, from a provider's evidence: its details are the person's, its document fields
 * only where the provider keeps what was typed (`ENTERED`). Where it read them from the images (`READ`:
 * Onfido), comparing them with PVS's own reading of the zone would set one reading against another and
 * call the difference the person's, so they are left out: their comparisons are NOT_GIVEN.
 */
export function enteredOf(details: PersonDetails, document: IdentityDocumentFields, source: IdentityProvider['documentFields']): EnteredDetails {
  const typed = source === 'ENTERED' ? document : { number: '', issuingCountry: '' };
  return { ...details, document: typed };
}

export type ComparedField = 'documentNumber' | 'surname' | 'givenNames' | 'dateOfBirth' | 'expiryDate' | 'issuingCountry';

export const comparedFields: readonly ComparedField[] = ['documentNumber', 'surname', 'givenNames', 'dateOfBirth', 'expiryDate', 'issuingCountry'];

export type ComparisonResult = 'MATCH' | 'MISMATCH' | 'NOT_GIVEN';

export interface Comparison {
  field: ComparedField;
  result: ComparisonResult;
}

// ICAO's transliterations where they differ from dropping the accent; a state may use either.
const icaoLetters: Record<string, string> = { Ä: 'AE', Å: 'AA', Ö: 'OE', Ø: 'OE', Ü: 'UE', Æ: 'AE', Œ: 'OE', ß: 'SS', Þ: 'TH', Ĳ: 'IJ' };

/** Each character's possible spellings in the zone, `<` for a break between names, '' for what is dropped. */
function spellingsOf(name: string): string[][] {
  return [...name.normalize('NFC').toUpperCase()].map((c) => {
    if (/[\s\-‐‑–,]/.test(c)) return ['<'];
    const plain = anyAscii(c)
      .toUpperCase()
      .replace(/[^A-Z]/g, '');
    const icao = icaoLetters[c] ?? icaoLetters[c.toUpperCase()];
    return icao && icao !== plain ? [plain, icao] : [plain];
  });
}

const tidy = (zone: string) => zone.replace(/<+/g, '<').replace(/^<|<$/g, '');

/** A name as the zone may write it, each spelling ICAO allows (at most 64; beyond that, all plain or all ICAO). */
export function zoneSpellings(name: string): string[] {
  const letters = spellingsOf(name);
  const choices = letters.filter((options) => options.length > 1).length;
  if (choices > 6) return [...new Set([tidy(letters.map((o) => o[0]).join('')), tidy(letters.map((o) => o.at(-1)).join(''))])];
  let out = [''];
  for (const options of letters) out = out.flatMap((prefix) => options.map((o) => prefix + o));
  return [...new Set(out.map(tidy))];
}

/** Separators aside: "Van der Berg" typed as "Vanderberg" is the same name. */
const joined = (zone: string) => zone.replaceAll('<', '');

/** The zone's name (`MULLER<LUDENSCHEIDT`) against the entered one; a truncated zone may stop early. */
function nameMatches(zoneName: string, entered: string, truncated: boolean): boolean {
  if (!zoneName) return false;
  return zoneSpellings(entered).some((typed) => joined(typed) === joined(zoneName) || (truncated && joined(typed).startsWith(joined(zoneName))));
}

function compareGivenNames(fields: Td3Fields, entered: EnteredDetails): ComparisonResult {
  const zone = fields.givenNames.replaceAll(' ', '<');
  const typed = [entered.firstName, entered.middleName].filter((n) => n?.trim()).join(' ');
  if (!typed.trim()) return 'NOT_GIVEN';
  if (nameMatches(zone, typed, fields.nameMayBeTruncated)) return 'MATCH';
  // Many people leave their middle names out: with none entered, the zone's first given name will do.
  if (!entered.middleName?.trim() && nameMatches(zone.split('<')[0] ?? '', entered.firstName, false)) return 'MATCH';
  return 'MISMATCH';
}

/** YYYY-MM-DD against the zone's YYMMDD; a `<` in the zone is a part the issuing state did not know. */
function compareDate(zone: string, entered: string | undefined): ComparisonResult {
  if (!entered?.trim()) return 'NOT_GIVEN';
  const m = /^\d{2}(\d{2})-(\d{2})-(\d{2})$/.exec(entered.trim());
  if (!m) return 'MISMATCH';
  const typed = m[1]! + m[2]! + m[3]!;
  return [...zone].every((c, i) => c === '<' || c === typed[i]) && zone.length === 6 ? 'MATCH' : 'MISMATCH';
}

const documentNumberOf = (text: string) => text.toUpperCase().replace(/[\s<]/g, '');

// ICAO codes that are not ISO 3166-1 alpha-3 (Doc 9303 Part 3 §5), and the ISO alpha-2 they stand for.
const icaoStates: Record<string, string> = { D: 'DE', GBD: 'GB', GBN: 'GB', GBO: 'GB', GBP: 'GB', GBS: 'GB', RKS: 'XK' };

/** The issuing state's ISO alpha-2, or null for ICAO codes that name no country (UNO, XXA, EUE, the specimen's UTO). */
export function alpha2OfState(code: string): string | null {
  const state = code.replace(/</g, '');
  return icaoStates[state] ?? countries.alpha3ToAlpha2(state) ?? null;
}

function compareCountry(zone: string, entered: string): ComparisonResult {
  const typed = entered.trim().toUpperCase();
  if (!typed) return 'NOT_GIVEN';
  const state = zone.replace(/</g, '');
  const matches = typed.length === 3 ? typed === state || alpha2OfState(typed) === alpha2OfState(state) : alpha2OfState(state) === typed;
  return matches && state.length > 0 ? 'MATCH' : 'MISMATCH';
}

/** Each compared field of the zone against what the person entered, in a fixed order. */
export function compareWithEntered(fields: Td3Fields, entered: EnteredDetails): Comparison[] {
  const typedNumber = documentNumberOf(entered.document.number);
  const results: Record<ComparedField, ComparisonResult> = {
    documentNumber: !typedNumber ? 'NOT_GIVEN' : typedNumber === documentNumberOf(fields.documentNumber) ? 'MATCH' : 'MISMATCH',
    surname: !entered.lastName.trim() ? 'NOT_GIVEN' : nameMatches(fields.surname.replaceAll(' ', '<'), entered.lastName, fields.nameMayBeTruncated && !fields.givenNames) ? 'MATCH' : 'MISMATCH',
    givenNames: compareGivenNames(fields, entered),
    dateOfBirth: compareDate(fields.dateOfBirth, entered.dateOfBirth),
    expiryDate: compareDate(fields.expiryDate, entered.document.expiryDate),
    issuingCountry: compareCountry(fields.issuingState, entered.document.issuingCountry),
  };
  return comparedFields.map((field) => ({ field, result: results[field] }));
}
