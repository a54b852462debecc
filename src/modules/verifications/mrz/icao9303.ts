// A passport's machine-readable zone (ICAO Doc 9303, TD3: two lines of 44 characters), from OCR text to
// fields and check digits. Pure.
//
//   line 1  P? · issuing state (3) · name (39): SURNAME<<GIVEN<NAMES, `<` for spaces and filling
//   line 2  document number (9) + check · nationality (3) · birth date YYMMDD + check · sex ·
//           expiry YYMMDD + check · personal number (14) + check · composite check
//
// The OCR's usual confusions (O for 0, runs of `<` read as K or L …) are undone from the zone's own
// structure: which positions hold digits, which letters, where fillers go. A check digit is never
// "corrected" to fit: detecting a wrong one is the point. Where a field may hold letters and digits both
// (the document and personal numbers), the reading whose check digit holds is preferred.

export const td3Length = 44;

/** ICAO 9303 Part 3 §4.9: values `<`=0, 0–9, A=10 … Z=35, weighted 7, 3, 1 repeating, sum mod 10. */
export function checkDigit(field: string): number {
  let sum = 0;
  for (let i = 0; i < field.length; i++) {
    const c = field[i]!;
    const value = c === '<' ? 0 : c >= '0' && c <= '9' ? c.charCodeAt(0) - 48 : c >= 'A' && c <= 'Z' ? c.charCodeAt(0) - 55 : NaN;
    if (Number.isNaN(value)) return NaN;
    sum += value * [7, 3, 1][i % 3]!;
  }
  return sum % 10;
}

export type CheckedField = 'documentNumber' | 'dateOfBirth' | 'expiryDate' | 'personalNumber' | 'composite';

export interface Td3 {
  lines: [string, string];
  documentCode: string;
  issuingState: string;
  /** Name components joined by single spaces: `MULLER LUDENSCHEIDT`. */
  surname: string;
  givenNames: string;
  documentNumber: string;
  nationality: string;
  /** YYMMDD, as printed. */
  dateOfBirth: string;
  sex: string;
  /** YYMMDD, as printed. */
  expiryDate: string;
  personalNumber: string;
  checkDigits: Array<{ field: CheckedField; valid: boolean }>;
}

const digitFor: Record<string, string> = { O: '0', Q: '0', D: '0', U: '0', I: '1', L: '1', T: '7', Z: '2', S: '5', G: '6', B: '8', A: '4' };
const letterFor: Record<string, string> = { '0': 'O', '1': 'I', '2': 'Z', '4': 'A', '5': 'S', '6': 'G', '8': 'B' };
/** Characters OCR reads in place of each other in the fields that may hold letters and digits both. */
const lookalikes: Record<string, string[]> = {
  '0': ['O'],
  O: ['0'],
  '1': ['I'],
  I: ['1'],
  '2': ['Z'],
  '7': ['Z'],
  Z: ['2', '7'],
  '5': ['S'],
  S: ['5'],
  '8': ['B'],
  B: ['8'],
};

const asDigits = (text: string) => [...text].map((c) => (c >= '0' && c <= '9' ? c : (digitFor[c] ?? c))).join('');
const asLetters = (text: string) => [...text].map((c) => letterFor[c] ?? c).join('');
const digitOrFiller = (c: string) => (c === '<' ? '<' : asDigits(c));

function check(value: string, digit: string): boolean {
  return /^[0-9]$/.test(digit) && checkDigit(value) === Number(digit);
}

/** The personal number's check digit may be `<` when the number is all fillers. */
function personalCheck(value: string, digit: string): boolean {
  return /^<+$/.test(value) && (digit === '<' || digit === '0') ? true : check(value, digit);
}

/**
 * An alphanumeric field as read, or else the lookalike reading with the fewest changes for which `holds`
 * (over the first 8 ambiguous characters).
 */
function lookalikeReading(raw: string, holds: (value: string) => boolean): string {
  if (holds(raw)) return raw;
  const ambiguous = [...raw].map((c, i) => (lookalikes[c] ? i : -1)).filter((i) => i >= 0).slice(0, 8);
  let readings = [{ value: raw, changes: 0 }];
  for (const at of ambiguous) {
    readings = readings.flatMap((r) => [r, ...lookalikes[r.value[at]!]!.map((c) => ({ value: r.value.slice(0, at) + c + r.value.slice(at + 1), changes: r.changes + 1 }))]);
  }
  return readings.sort((a, b) => a.changes - b.changes).find((r) => holds(r.value))?.value ?? raw;
}

/** The name field: letters and fillers only, and every filler from the first run of three on. */
function nameFieldOf(raw: string): string {
  const letters = asLetters(raw).replace(/[^A-Z<]/g, '<');
  const run = letters.indexOf('<<<');
  return run === -1 ? letters : letters.slice(0, run).padEnd(letters.length, '<');
}

/** Line 2 with digits where digits belong and letters where letters belong. */
function repairLine2(line: string): string {
  const c = [...line];
  for (let i = 13; i <= 27; i++) if (i !== 20) c[i] = digitOrFiller(c[i]!); // birth date, expiry, their check digits
  for (const i of [9, 42, 43]) c[i] = digitOrFiller(c[i]!);
  for (const i of [10, 11, 12]) c[i] = asLetters(c[i]!);
  c[20] = c[20] === 'M' || c[20] === 'F' ? c[20] : c[20] === 'H' ? 'M' : c[20] === 'E' || c[20] === 'P' ? 'F' : '<';
  return c.join('');
}

function fitLength(line: string): string {
  return line.length >= td3Length ? line.slice(0, td3Length) : line.padEnd(td3Length, '<');
}

/**
 * Line 2 at 44 characters. OCR miscounts runs of fillers, which sit in the personal number: the fields
 * before it and the two check digits after it keep their places, and the personal number takes what is
 * between. Once the personal number's fillers begin they go on to its end: a K or L among them is a misread `<`.
 */
function alignLine2(line: string): string {
  let personal = line.slice(28, line.length - 2);
  const fillers = personal.indexOf('<<');
  if (fillers !== -1) personal = personal.slice(0, fillers) + personal.slice(fillers).replace(/[KLCE]/g, '<');
  personal = personal.length > 14 ? personal.replace(/<+$/, '').padEnd(14, '<').slice(0, 14) : personal.padEnd(14, '<');
  const check = line.at(-2)!;
  return line.slice(0, 28).padEnd(28, '<') + personal + (/[KLCE]/.test(check) ? '<' : check) + line.at(-1)!;
}

/** Text as OCR gave it → lines that may be the zone's: capitals, digits and fillers only. */
function candidateLines(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.toUpperCase().replace(/[«‹]/g, '<<').replace(/\s+/g, '').replace(/[^A-Z0-9<]/g, ''))
    .filter((line) => line.length >= 30 && line.length <= 56);
}

/** Parses two TD3 lines of 44 characters. */
export function parseTd3(lines: [string, string]): Td3 {
  const [one, two] = lines;
  const names = nameFieldOf(one.slice(5));
  const separator = names.indexOf('<<');
  const surname = separator === -1 ? names : names.slice(0, separator);
  const given = separator === -1 ? '' : names.slice(separator + 2);
  const compositeOf = (line: string) => line.slice(0, 10) + line.slice(13, 20) + line.slice(21, 43);
  // One check digit is weak evidence alone (a tenth of readings satisfy it by chance): a lookalike reading
  // must satisfy the composite too, so that a wrong check digit is not explained away.
  const documentNumber = lookalikeReading(two.slice(0, 9), (value) => check(value, two[9]!) && check(compositeOf(value + two.slice(9)), two[43]!));
  const withPersonal = (personal: string) => documentNumber + two.slice(9, 28) + personal + two.slice(42);
  const personalNumber = lookalikeReading(two.slice(28, 42), (value) => personalCheck(value, two[42]!) && check(compositeOf(withPersonal(value)), two[43]!));
  const line2 = withPersonal(personalNumber);
  return {
    lines: [one.slice(0, 5) + names, line2],
    documentCode: one.slice(0, 2).replace(/<+$/, ''),
    issuingState: one.slice(2, 5),
    surname: surname.replace(/<+/g, ' ').trim(),
    givenNames: given.replace(/<+/g, ' ').trim(),
    documentNumber: documentNumber.replace(/<+$/, ''),
    nationality: line2.slice(10, 13),
    dateOfBirth: line2.slice(13, 19),
    sex: line2[20]!,
    expiryDate: line2.slice(21, 27),
    personalNumber: line2.slice(28, 42).replace(/<+$/, ''),
    checkDigits: [
      { field: 'documentNumber', valid: check(documentNumber, line2[9]!) },
      { field: 'dateOfBirth', valid: check(line2.slice(13, 19), line2[19]!) },
      { field: 'expiryDate', valid: check(line2.slice(21, 27), line2[27]!) },
      { field: 'personalNumber', valid: personalCheck(line2.slice(28, 42), line2[42]!) },
      { field: 'composite', valid: check(compositeOf(line2), line2[43]!) },
    ],
  };
}

/**
 * The passport zone in OCR text: the last two lines that can be TD3 lines (the zone is at the foot of the
 * page), repaired by position. Undefined when there is none.
 */
export function readTd3(ocrText: string): Td3 | undefined {
  const lines = candidateLines(ocrText);
  const second = lines.findLastIndex((line) => /^[A-Z0-9<]{9}[0-9OQDUILTZSGBA<][A-Z0-9<]{3}[0-9OQDUILTZSGBA]{6}/.test(line));
  if (second < 1) return undefined;
  const first = fitLength(lines[second - 1]!);
  if (!/^P[A-Z<]/.test(first)) return undefined;
  return parseTd3([first.slice(0, 2) + asLetters(first.slice(2, 5)) + first.slice(5), repairLine2(alignLine2(lines[second]!))]);
}

/** Whether every check digit of a reading holds. */
export function allValid(td3: Td3): boolean {
  return td3.checkDigits.every((c) => c.valid);
}
