// ICAO Doc 9303 for the passport's machine-readable zone (TD3: two lines of 44 characters). Pure.
//
//   line 1  P?  issuing state (3)  name (39): SURNAME<<GIVEN<NAMES, `<` for spaces and filling
//   line 2  document number (9) + check · nationality (3) · birth date YYMMDD + check · sex ·
//           expiry YYMMDD + check · personal number (14) + check · composite check
//
// A check digit (Part 3, 4.9) weighs each character 7, 3, 1, 7, 3, 1 … (`<` = 0, 0–9 as themselves, A = 10
// … Z = 35) and keeps the sum modulo 10. The composite covers the document number, the birth date, the
// expiry and the personal number, each with its own check digit.
//
// `correctTd3` turns OCR text into the two lines. It only changes what a position's kind makes impossible
// (a letter where only digits go) or ambiguous (O or 0 in a document number, where the check digit
// decides), and never a check digit itself: a wrong check digit is what tells a misreading, or an altered
// document, from a good read.

export const td3LineLength = 44;

export type Td3Field = 'documentNumber' | 'dateOfBirth' | 'expiryDate' | 'personalNumber' | 'composite';

export const td3CheckedFields: readonly Td3Field[] = ['documentNumber', 'dateOfBirth', 'expiryDate', 'personalNumber', 'composite'];

export interface Td3Fields {
  /** `P` and the type letter, fillers removed: `P`, `PD`, `PO` … */
  documentCode: string;
  /** Alpha-3 as ICAO writes it, fillers removed: `AUS`, `GBR`, `D` (Germany), `UTO` (the specimen). */
  issuingState: string;
  /** Components joined by single spaces: `MULLER LUDENSCHEIDT`. */
  surname: string;
  givenNames: string;
  /** Fillers removed. */
  documentNumber: string;
  nationality: string;
  /** YYMMDD; `<` where a part is unknown. */
  dateOfBirth: string;
  /** `M`, `F`, `X` or `<` (unspecified). */
  sex: string;
  expiryDate: string;
  /** Fillers removed; empty when unused. */
  personalNumber: string;
  /** The name field is full (its last position is a letter): ICAO's sign that a name may be truncated. */
  nameMayBeTruncated: boolean;
}

export type Td3CheckDigits = Record<Td3Field, boolean>;

export interface Td3 {
  fields: Td3Fields;
  checkDigits: Td3CheckDigits;
  /** Every check digit holds. */
  valid: boolean;
}

/** A character's value in a check digit; -1 for a character the zone cannot hold. */
function characterValue(c: string): number {
  if (c === '<') return 0;
  const code = c.charCodeAt(0);
  if (code >= 48 && code <= 57) return code - 48;
  if (code >= 65 && code <= 90) return code - 55;
  return -1;
}

const weights = [7, 3, 1] as const;

/** The check digit of `data` (Part 3, 4.9); throws on a character the zone cannot hold. */
export function checkDigit(data: string): number {
  let sum = 0;
  for (let i = 0; i < data.length; i++) {
    const value = characterValue(data[i]!);
    if (value < 0) throw new RangeError(`not a machine-readable zone character at ${i}`);
    sum += value * weights[i % 3]!;
  }
  return sum % 10;
}

const isZoneText = (text: string) => /^[A-Z0-9<]*$/.test(text);

const agrees = (data: string, digit: string) => /^[0-9]$/.test(digit) && checkDigit(data) === Number(digit);

/** The check digits of line 2, each recomputed from the line. The line must be 44 zone characters. */
export function td3CheckDigits(line2: string): Td3CheckDigits {
  const personal = line2.slice(28, 42);
  const personalCheck = line2[42]!;
  return {
    documentNumber: agrees(line2.slice(0, 9), line2[9]!),
    dateOfBirth: agrees(line2.slice(13, 19), line2[19]!),
    expiryDate: agrees(line2.slice(21, 27), line2[27]!),
    // An unused personal number (all fillers) may carry `<` or 0 as its check digit (Part 4, 4.2.2).
    personalNumber: /^<+$/.test(personal) ? personalCheck === '<' || personalCheck === '0' : agrees(personal, personalCheck),
    composite: agrees(line2.slice(0, 10) + line2.slice(13, 20) + line2.slice(21, 43), line2[43]!),
  };
}

const stripFillers = (text: string) => text.replace(/<+$/, '').replace(/^<+/, '');
const nameComponents = (text: string) => text.split('<').filter(Boolean).join(' ');

/** Parses two TD3 lines; null when they are not 44 zone characters each. */
export function parseTd3(lines: readonly [string, string] | readonly string[]): Td3 | null {
  const [line1, line2] = lines;
  if (lines.length !== 2 || line1?.length !== td3LineLength || line2?.length !== td3LineLength || !isZoneText(line1) || !isZoneText(line2)) return null;
  const name = line1.slice(5);
  const separator = name.indexOf('<<');
  const checkDigits = td3CheckDigits(line2);
  return {
    fields: {
      documentCode: stripFillers(line1.slice(0, 2)),
      issuingState: stripFillers(line1.slice(2, 5)),
      surname: nameComponents(separator < 0 ? name : name.slice(0, separator)),
      givenNames: separator < 0 ? '' : nameComponents(name.slice(separator + 2)),
      documentNumber: line2.slice(0, 9).replaceAll('<', ''),
      nationality: stripFillers(line2.slice(10, 13)),
      dateOfBirth: line2.slice(13, 19),
      sex: line2[20]!,
      expiryDate: line2.slice(21, 27),
      personalNumber: line2.slice(28, 42).replaceAll('<', ''),
      nameMayBeTruncated: name.at(-1) !== '<',
    },
    checkDigits,
    valid: td3CheckedFields.every((f) => checkDigits[f]),
  };
}

export interface Td3Input {
  documentCode?: string;
  issuingState: string;
  /** In zone characters already: `MULLER<LUDENSCHEIDT`. */
  surname: string;
  givenNames: string;
  documentNumber: string;
  nationality: string;
  dateOfBirth: string;
  sex: 'M' | 'F' | '<' | 'X';
  expiryDate: string;
  personalNumber?: string;
  /** The check digit of an unused personal number: `<` (default) or `0`. */
  emptyPersonalNumberCheck?: '<' | '0';
}

const fit = (text: string, length: number) => text.padEnd(length, '<').slice(0, length);

/** The two lines for the given fields, check digits computed; names longer than the field are cut. */
export function formatTd3(input: Td3Input): [string, string] {
  const all = [input.documentCode ?? 'P', input.issuingState, input.surname, input.givenNames, input.documentNumber, input.nationality, input.dateOfBirth, input.expiryDate, input.personalNumber ?? ''];
  if (!all.every(isZoneText)) throw new RangeError('formatTd3 takes zone characters only (A–Z, 0–9, <)');
  const line1 = fit(fit(input.documentCode ?? 'P', 2) + fit(input.issuingState, 3) + input.surname + '<<' + input.givenNames, td3LineLength);
  const number = fit(input.documentNumber, 9);
  const personal = fit(input.personalNumber ?? '', 14);
  const personalCheck = /^<+$/.test(personal) ? (input.emptyPersonalNumberCheck ?? '<') : String(checkDigit(personal));
  const body =
    number +
    checkDigit(number) +
    fit(input.nationality, 3) +
    input.dateOfBirth +
    checkDigit(input.dateOfBirth) +
    input.sex +
    input.expiryDate +
    checkDigit(input.expiryDate) +
    personal +
    personalCheck;
  const composite = checkDigit(body.slice(0, 10) + body.slice(13, 20) + body.slice(21, 43));
  return [line1, body + composite];
}

// ---- OCR correction -------------------------------------------------------------------------------

/** What a position may hold besides `<`: a letter, a digit, either, or the sex (M, F, X). */
type Kind = 'alpha' | 'digit' | 'alnum' | 'sex';

const line2Kinds: readonly Kind[] = Array.from({ length: td3LineLength }, (_, i): Kind => {
  if (i < 9 || (i >= 28 && i < 42)) return 'alnum';
  if (i >= 10 && i < 13) return 'alpha';
  return i === 20 ? 'sex' : 'digit';
});
/** Line 2's check digits: a letter read there is mapped, but then nothing else is changed to agree with it. */
const checkPositions = [9, 19, 27, 42, 43];

// What OCR makes of a character where the other kind belongs.
const asDigit: Record<string, string> = { O: '0', Q: '0', D: '0', U: '0', I: '1', L: '1', Z: '2', S: '5', G: '6', B: '8', A: '4' };
const asLetter: Record<string, string> = { '0': 'O', '1': 'I', '2': 'Z', '4': 'A', '5': 'S', '6': 'G', '7': 'Z', '8': 'B' };
/**
 * In a document or personal number either reading is possible: the check digits choose. Only pairs they
 * can tell apart: G and 6 (16 and 6), S and 8, Z and 5 weigh the same modulo 10 and are left as read.
 */
const alternatives: Record<string, readonly string[]> = {
  '0': ['O'],
  O: ['0'],
  Q: ['0', 'O'],
  D: ['0'],
  '1': ['I'],
  I: ['1'],
  '2': ['Z'],
  Z: ['2', '7'],
  '7': ['Z'],
  '4': ['A'],
  A: ['4'],
  '5': ['S'],
  S: ['5'],
  '8': ['B'],
  B: ['8'],
};

function mapKind(c: string, kind: Kind): string {
  if (c === '<') return c;
  switch (kind) {
    case 'alpha':
      return asLetter[c] ?? c;
    case 'digit':
      return asDigit[c] ?? c;
    case 'sex':
      return 'MFX'.includes(c) ? c : c === 'K' || c === 'L' ? '<' : c === 'H' || c === 'N' ? 'M' : c === 'E' || c === 'P' ? 'F' : c;
    case 'alnum':
      return c;
  }
}

/** Keeps zone characters only: OCR may add spaces, lower case or punctuation. */
const zoneCharacters = (line: string) => line.toUpperCase().replace(/[^A-Z0-9<]/g, '');

/** How much a line looks like TD3 line 1 or 2 (0: not at all); to find them among OCR's lines. */
function lineLikeness(line: string, which: 1 | 2): number {
  // Line 1's tail of fillers is read too long or too short more often than line 2.
  if (line.length < 30 || line.length > (which === 1 ? 60 : 50)) return 0;
  const lengthScore = 1 - Math.min(1, Math.abs(line.length - td3LineLength) / 14);
  if (which === 1) {
    const fillers = (line.match(/</g) ?? []).length;
    return lengthScore * ((line[0] === 'P' ? 1 : 0.3) + (line.includes('<<') ? 1 : 0) + Math.min(1, fillers / 5));
  }
  const digits = (line.match(/[0-9]/g) ?? []).length;
  return lengthScore * (Math.min(1, digits / 15) * 2 + (/[0-9]{6}/.test(line) ? 1 : 0));
}

/** The two lines of the zone among OCR's lines: the adjacent pair most like line 1 then line 2. */
export function findTd3Lines(ocrLines: readonly string[]): [string, string] | null {
  const lines = ocrLines.map(zoneCharacters).filter((l) => l.length > 0);
  let best: [string, string] | null = null;
  let bestScore = 0;
  for (let i = 0; i + 1 < lines.length; i++) {
    const a = lineLikeness(lines[i]!, 1);
    const b = lineLikeness(lines[i + 1]!, 2);
    if (a > 0 && b > 0 && a + b > bestScore) {
      bestScore = a + b;
      best = [lines[i]!, lines[i + 1]!];
    }
  }
  return bestScore >= 1.5 ? best : null;
}

/**
 * Where a field's tail of fillers begins: the first filler after which only fillers follow, OCR reading
 * some of them as K or L (and, in a tail of six or more, a stray character or two at the very end).
 * Letters before it, K and L included, are kept.
 */
function fillerTailAt(text: string): number {
  for (let i = 0; i < text.length; i++) {
    if (text[i] !== '<') continue;
    const rest = text.slice(i);
    if (/^[<KL]*$/.test(rest)) return i;
    if (rest.length >= 6 && /^<[<KL]*[A-Z0-9]{1,2}$/.test(rest) && (rest.match(/[<KL]/g) ?? []).length >= rest.length * 0.8) return i;
  }
  return text.length;
}

const fillerTail = (text: string) => text.slice(0, fillerTailAt(text)).padEnd(text.length, '<');

/** Line 1 at 44 characters: letters where digits were read, the name's tail of fillers rebuilt. */
function normaliseLine1(read: string): string {
  const mapped = [...read].map((c) => mapKind(c, 'alpha')).join('');
  const name = mapped.slice(5);
  return (mapped.slice(0, 5).padEnd(5, '<') + name.slice(0, fillerTailAt(name))).padEnd(td3LineLength, '<').slice(0, td3LineLength);
}

/**
 * Line 2 read at another length than 44, with a run of fillers miscounted (OCR's usual slip): that run
 * recounted. Nothing else is guessed: a character dropped or added among the data would leave too many
 * ways to make the check digits agree by chance.
 */
function fitLine2(read: string): string[] {
  const diff = read.length - td3LineLength;
  if (diff === 0) return [read];
  const out = new Set<string>();
  for (const run of [...read.matchAll(/<{2,}/g)].sort((a, b) => b[0].length - a[0].length).slice(0, 2)) {
    const end = run.index + run[0].length;
    if (diff > 0 && run[0].length > diff) out.add(read.slice(0, end - diff) + read.slice(end));
    if (diff < 0 && diff >= -4) out.add(read.slice(0, end) + '<'.repeat(-diff) + read.slice(end));
  }
  return [...out];
}

/** A number field as read, and with one ambiguous character swapped at a time. */
function readingsOf(field: string): Array<{ text: string; swaps: number }> {
  const out = [{ text: field, swaps: 0 }];
  [...field].forEach((c, i) => {
    for (const o of alternatives[c] ?? []) out.push({ text: field.slice(0, i) + o + field.slice(i + 1), swaps: 1 });
  });
  return out;
}

/** An unknown part of a date is a pair of fillers (`74<<<<`): a lone filler in a pair was a 0 (they weigh the same). */
const datePairs = (date: string) => date.replace(/[0-9<]{2}/g, (pair) => (pair.includes('<') && pair !== '<<' ? pair.replace('<', '0') : pair));

const personalHolds = (text: string, digit: string) => (/^<+$/.test(text) ? digit === '<' || digit === '0' : agrees(text, digit));
const validCount = (checks: Td3CheckDigits) => td3CheckedFields.filter((f) => checks[f]).length;

/**
 * The best reading of a 44-character line 2. Each position gets its kind (a letter read where a digit
 * goes becomes that digit, and so on); a filler inside a number, before its last character, or alone in
 * a date's pair, is a 0 (the two weigh the same in a check digit). Then, when every check digit was read
 * as a digit and a number's own check digit fails, one of its look-alikes (O/0, I/1, Z/2/7, S/5, B/8,
 * A/4) may be swapped for the other, kept only when that number's check digit and the composite then
 * hold. Check digits themselves are never changed, so a wrong one stays wrong.
 */
function bestLine2(read: string): { line: string; valid: number; swaps: number } {
  const mapped = [...read].map((c, i) => mapKind(c, line2Kinds[i]!)).join('');
  const number = mapped.slice(0, 9).replace(/<(?=.*[^<])/g, '0');
  const personal = fillerTail(mapped.slice(28, 42)).replace(/<(?=.*[^<])/g, '0');
  const asRead = number + mapped.slice(9, 13) + datePairs(mapped.slice(13, 19)) + mapped.slice(19, 21) + datePairs(mapped.slice(21, 27)) + mapped.slice(27, 28) + personal + mapped.slice(42);
  const checks = td3CheckDigits(asRead);
  const asIs = { line: asRead, valid: validCount(checks), swaps: 0 };
  const digitsAsRead = checkPositions.every((i) => /[0-9]/.test(read[i]!) || (i === 42 && read[i] === '<'));
  if ((checks.documentNumber && checks.personalNumber) || !digitsAsRead) return asIs;
  // Only a number whose own check digit fails is worth another reading.
  const numbers = readingsOf(number).filter((r) => r.swaps === 0 || (!checks.documentNumber && agrees(r.text, asRead[9]!)));
  const personals = readingsOf(personal).filter((r) => r.swaps === 0 || (!checks.personalNumber && personalHolds(r.text, asRead[42]!)));
  let fixed: { line: string; swaps: number } | null = null;
  for (const n of numbers) {
    for (const p of personals) {
      const swaps = n.swaps + p.swaps;
      if (swaps === 0 || (fixed && swaps >= fixed.swaps)) continue;
      const line = n.text + asRead.slice(9, 28) + p.text + asRead.slice(42);
      // The composite must hold too: a swap that satisfies its own field's digit while the composite,
      // which covers the same characters, still disagrees is a coincidence, not a correction.
      if (td3CheckDigits(line).composite) fixed = { line, swaps };
    }
  }
  return fixed ? { line: fixed.line, valid: validCount(td3CheckDigits(fixed.line)), swaps: fixed.swaps } : asIs;
}

export interface Td3Candidate extends Td3 {
  lines: [string, string];
  /** Ambiguous characters swapped, or runs of fillers recounted, to reach this reading. */
  guesses: number;
}

/**
 * The zone from OCR's lines (any number of them, any length): the two lines found by their structure,
 * line 1's filler tail rebuilt, line 2 brought to 44 characters when a run of fillers was miscounted,
 * every position's kind enforced, and ambiguous characters chosen by the check digits. Null when no two
 * lines look like a passport's zone.
 */
export function correctTd3(ocrLines: readonly string[]): Td3Candidate | null {
  const found = findTd3Lines(ocrLines);
  if (!found) return null;
  const line1 = normaliseLine1(found[0]);
  let best: { line: string; valid: number; guesses: number } | null = null;
  for (const fitted of fitLine2(found[1])) {
    const read = bestLine2(fitted);
    const candidate = { line: read.line, valid: read.valid, guesses: read.swaps + (fitted === found[1] ? 0 : 1) };
    if (!best || candidate.valid > best.valid || (candidate.valid === best.valid && candidate.guesses < best.guesses)) best = candidate;
  }
  if (!best) return null;
  const parsed = parseTd3([line1, best.line]);
  return parsed && { ...parsed, lines: [line1, best.line], guesses: best.guesses };
}
