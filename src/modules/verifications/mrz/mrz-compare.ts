// What PVS's reading of a passport's zone means: each field against what the person entered, and the one
// check item it becomes in checkResults. Pure. Messages name fields, never their values.
import anyAscii from 'any-ascii';
import countries from 'i18n-iso-countries';
import type { CheckResultItem } from '../verifications.repository.ts';
import type { CheckedField, Td3 } from './icao9303.ts';

export type ComparedField = 'documentNumber' | 'surname' | 'givenNames' | 'dateOfBirth' | 'expiryDate' | 'issuingCountry';
export type Comparison = { field: ComparedField; result: 'MATCH' | 'MISMATCH' | 'NOT_GIVEN' };

/** What the person entered, as the hosted flow validated it (dates YYYY-MM-DD, country ISO alpha-2). */
export interface Entered {
  firstName: string;
  middleName?: string;
  lastName: string;
  dateOfBirth: string;
  document: { number: string; expiryDate?: string; issuingCountry: string };
}

/** The zone as the evidence answer shows it (SPEC's document-details). */
export interface MrzFindings {
  found: boolean;
  lines: string[];
  checkDigits: Array<{ field: CheckedField; valid: boolean }>;
  comparisons: Comparison[];
}

/** ICAO 9303 Part 3 §6: names in the zone are capitals A–Z, other characters transliterated or dropped. */
export function mrzName(name: string): string {
  return anyAscii(name)
    .toUpperCase()
    .replace(/['’`]/g, '')
    .replace(/[^A-Z]+/g, '<')
    .replace(/^<+|<+$/g, '');
}

/** Edits (insert, delete, replace) from `a` to `b`, stopping early past 2. */
function distance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 2) return 3;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = current;
  }
  return previous[b.length]!;
}

/**
 * A zone whose name field is full may have cut the last name short: a prefix then matches. OCR misreads
 * a letter now and then (O as D), and names carry no check digit: one letter off in a name of five or
 * more still matches.
 */
function namesMatch(read: string, entered: string, truncated: boolean): boolean {
  const zone = mrzName(read);
  const typed = mrzName(entered);
  if (zone.length === 0) return false;
  return zone === typed || (truncated && typed.startsWith(zone)) || (typed.length >= 5 && distance(zone, typed) <= 1);
}

/** ICAO's codes that are not ISO 3166-1 alpha-3 (D for Germany), and the specimen state UTO. */
const specialStates: Record<string, string> = { D: 'DE', 'D<<': 'DE', UTO: 'UTO' };

function stateMatches(zone: string, alpha2: string): boolean {
  const code = zone.replace(/<+$/, '');
  const mapped = specialStates[code] ?? specialStates[zone] ?? countries.alpha3ToAlpha2(code);
  return mapped === alpha2.toUpperCase();
}

/** Each compared field: the zone against what was entered. */
export function compareWithEntered(td3: Td3, entered: Entered): Comparison[] {
  const result = (given: boolean, same: boolean): Comparison['result'] => (!given ? 'NOT_GIVEN' : same ? 'MATCH' : 'MISMATCH');
  const givenNames = [entered.firstName, entered.middleName].filter(Boolean).join(' ');
  const expiry = entered.document.expiryDate;
  const truncated = !td3.lines[0].endsWith('<');
  return [
    { field: 'documentNumber', result: result(true, td3.documentNumber === entered.document.number.toUpperCase().replace(/[\s<]/g, '')) },
    { field: 'surname', result: result(true, namesMatch(td3.surname, entered.lastName, truncated)) },
    // A zone may hold the first given name only, or all of them.
    { field: 'givenNames', result: result(true, namesMatch(td3.givenNames, givenNames, truncated) || namesMatch(td3.givenNames, entered.firstName, truncated)) },
    { field: 'dateOfBirth', result: result(true, td3.dateOfBirth === entered.dateOfBirth.slice(2).replace(/-/g, '')) },
    { field: 'expiryDate', result: result(Boolean(expiry), td3.expiryDate === expiry?.slice(2).replace(/-/g, '')) },
    { field: 'issuingCountry', result: result(true, stateMatches(td3.issuingState, entered.document.issuingCountry)) },
  ];
}

export function findingsOf(td3: Td3 | undefined, entered: Entered): MrzFindings {
  if (!td3) return { found: false, lines: [], checkDigits: [], comparisons: [] };
  return { found: true, lines: [...td3.lines], checkDigits: td3.checkDigits, comparisons: compareWithEntered(td3, entered) };
}

const fieldWords: Record<ComparedField | CheckedField, string> = {
  documentNumber: 'document number',
  surname: 'surname',
  givenNames: 'given names',
  dateOfBirth: 'date of birth',
  expiryDate: 'expiry date',
  issuingCountry: 'issuing country',
  personalNumber: 'personal number',
  composite: 'composite',
};

function list(fields: string[]): string {
  return fields.length <= 1 ? (fields[0] ?? '') : `${fields.slice(0, -1).join(', ')} and ${fields.at(-1)}`;
}

const name = 'Passport machine-readable zone';

/** The one checkResults item a reading becomes (docs/verifications.md "PVS's own reading of a passport"). */
export function mrzCheckOf(findings: MrzFindings): CheckResultItem {
  if (!findings.found) {
    return { name, checkType: 'DOCUMENT_MRZ', result: 'INCONCLUSIVE', code: 'MRZ_NOT_READ', message: 'The machine-readable zone could not be read from the front image; the document provider’s checks decide.' };
  }
  const invalid = findings.checkDigits.filter((c) => !c.valid).map((c) => fieldWords[c.field]);
  if (invalid.length > 0) {
    return {
      name,
      checkType: 'DOCUMENT_MRZ',
      result: 'INCONCLUSIVE',
      code: 'MRZ_CHECK_DIGIT_INVALID',
      message: `The ${list(invalid)} check ${invalid.length === 1 ? 'digit does' : 'digits do'} not match: a misreading or an altered document; the document provider’s checks decide.`,
    };
  }
  const differing = findings.comparisons.filter((c) => c.result === 'MISMATCH').map((c) => fieldWords[c.field]);
  if (differing.length > 0) {
    return {
      name,
      checkType: 'DOCUMENT_MRZ',
      result: 'REVIEW',
      code: 'MRZ_DETAILS_MISMATCH',
      message: `The zone reads correctly, but its ${list(differing)} ${differing.length === 1 ? 'differs' : 'differ'} from what the person entered; a person should compare them.`,
    };
  }
  return { name, checkType: 'DOCUMENT_MRZ', result: 'PASS', code: 'MRZ_VALID_AND_MATCHING', message: 'The zone reads correctly and matches what the person entered.' };
}
