// The Tax File Number scan: does a page's text hold a TFN? PVS must not process a document that does
// (SPEC: TFN_CONTENT_DETECTED, the document quarantined and deleted). The answer is a boolean and nothing
// else: which number, where, or how many is never returned, logged or put in an error.
//
// The rule, over runs of digits (digits joined by spaces, hyphens or a line break, as TFNs, ACNs and ABNs
// are printed and wrapped: `123 456 782`, `123456782`, `123-456-782`, `12 345 678`, `123 456\n782`):
//
//   1. A run labelled as a TFN (`TFN`, `T.F.N.`, `Tax File Number`, `Tax File No.` just before it) is a
//      TFN when a stretch of its groups holds 8 or 9 digits, check digit or not (a label says what the
//      number is, and OCR misreads a digit often enough that a wrong check digit proves nothing), or when
//      any 8 or 9 of its digits in a row pass the check (`TFN 123 456 782 1`).
//   2. A run labelled as a company or business number (`ACN`, `A.C.N.`, `ARBN`, `ARSN`, `ABN`,
//      `Australian Company Number` …) is not a TFN, whatever its check digits.
//   3. An unlabelled run is a TFN when it holds exactly 8 or 9 digits whose TFN check digit is right,
//      except a date printed with separators (`14 03 2019`, `2019-03-14`) and a phone number with its
//      label or area code (`Tel 9876 5432`, `(02) 9876 5432`). A longer run (an ABN `51 824 753 556`,
//      `+61 2 9876 5432`, an account number) is one longer number, not a TFN inside it.
//
// The trade-off: a TFN printed without a label and run into other digits by a single space (a table whose
// OCR lost its column gap) is missed; and about 1 in 11 of the 8- and 9-digit numbers a deed prints
// without a label (an ACN without `ACN`, a bare `9876 5432`) passes the TFN check by chance and is flagged.
// Failing a deed that holds no TFN is a nuisance the partner can see and fix; letting a TFN through is not.
//
// A valid ACN is not by itself taken to be no TFN: about one TFN in ten is also a valid ACN, and an
// unlabelled TFN must be found.

const tfnWeights9 = [1, 4, 3, 7, 5, 8, 6, 9, 10];
const tfnWeights8 = [10, 7, 8, 4, 6, 3, 5, 1];

/**
 * A TFN's check: 9 digits with weights 1 4 3 7 5 8 6 9 10, or (older) 8 digits with weights
 * 10 7 8 4 6 3 5 1, summing to a multiple of 11. All zeros (a form's placeholder) is not a TFN.
 */
export function isValidTfn(digits: string): boolean {
  if (!/^\d{8,9}$/.test(digits)) return false;
  const weights = digits.length === 9 ? tfnWeights9 : tfnWeights8;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) sum += Number(digits[i]) * weights[i]!;
  return sum > 0 && sum % 11 === 0;
}

// Separators inside a printed number: one or two spaces (OCR doubles them), a hyphen or dash with at most a
// space either side, or a line break (a number wrapped at the end of a line is still one number; the price
// is that a number ending one line and another starting the next are read as one).
const separator = String.raw`(?: {1,2}| ?[-‐‑‒–—] ?| ?\n ?|[-‐‑‒–—]\n)`;
const digitRun = new RegExp(String.raw`(?<!\d)\d+(?:${separator}\d+)*(?!\d)`, 'g');

/** Words that may follow a label before the number: `TFN No.:`, `ACN number`, `Tax File Number (TFN):`. */
const labelTail = String.raw`(?:\s*\(?(?:TFN|ACN|ABN)\)?)?(?:\s*(?:No|Number|Num|#|is|of))?\.?\s*[:.#\-–(]*\s*$`;
const tfnLabel = new RegExp(String.raw`(?<![A-Za-z])(?:T\.?\s?F\.?\s?N|Tax\s+File\s+(?:Number|No))\.?${labelTail}`, 'i');
const companyLabel = new RegExp(
  String.raw`(?<![A-Za-z])(?:A\.?\s?C\.?\s?N|A\.?\s?R\.?\s?B\.?\s?N|A\.?\s?R\.?\s?S\.?\s?N|A\.?\s?B\.?\s?N|Australian\s+(?:Company|Business|Registered\s+Body|Registered\s+Scheme)\s+Number)\.?${labelTail}`,
  'i',
);
const phoneLabel = /(?:(?<![A-Za-z])(?:Tel|Telephone|Phone|Ph|Fax|Facsimile|Mobile|Mob)\.?\s*[:.]?\s*|\(0\d\)\s*)$/i;

/** How far before a run its label may start. */
const labelReach = 48;

function isDateShaped(groups: string[]): boolean {
  if (groups.length !== 3) return false;
  const [a, b, c] = groups.map(Number) as [number, number, number];
  const [la, lb, lc] = groups.map((g) => g.length) as [number, number, number];
  const year = (y: number) => y >= 1800 && y <= 2199;
  // d(d) m(m) yyyy, either way round for day and month; or yyyy mm dd.
  if (la <= 2 && lb <= 2 && lc === 4) return year(c) && a >= 1 && b >= 1 && Math.min(a, b) <= 12 && Math.max(a, b) <= 31;
  if (la === 4 && lb === 2 && lc === 2) return year(a) && b >= 1 && b <= 12 && c >= 1 && c <= 31;
  return false;
}

/** A labelled run holds a TFN: some stretch of its groups is 8 or 9 digits, or 8 or 9 of its digits pass the check. */
function holdsLabelledTfn(groups: string[], digits: string): boolean {
  for (let start = 0; start < groups.length; start++) {
    let stretch = '';
    for (let end = start; end < groups.length && stretch.length < 8; end++) stretch += groups[end];
    if (stretch.length === 8 || stretch.length === 9) return true;
  }
  for (const length of [9, 8]) for (let at = 0; at + length <= digits.length; at++) if (isValidTfn(digits.slice(at, at + length))) return true;
  return false;
}

/**
 * Text as OCR leaves it, tidied for the scan: full-width digits and odd spaces made plain, and the letters
 * OCR mistakes for digits (O o for 0, I l | for 1) read as digits inside a word that is otherwise digits.
 */
function normaliseForScan(text: string): string {
  return text
    .normalize('NFKC')
    .replace(/[\t\u00a0\u2000-\u200b\u202f\u205f\u3000]/g, ' ')
    .replace(/(?<![A-Za-z0-9])[0-9OoIl|]{3,}(?![A-Za-z0-9])/g, (word) => ((word.match(/\d/g)?.length ?? 0) >= 2 ? word.replace(/[Oo]/g, '0').replace(/[Il|]/g, '1') : word));
}

/** True when the text holds a Tax File Number by the rule above. Never says which, or where. */
export function containsTfn(text: string): boolean {
  const scanned = normaliseForScan(text);
  for (const match of scanned.matchAll(digitRun)) {
    const groups = match[0].split(/\D+/);
    const digits = groups.join('');
    if (digits.length < 8) continue;
    const before = scanned.slice(Math.max(0, match.index - labelReach), match.index);
    if (tfnLabel.test(before)) {
      if (holdsLabelledTfn(groups, digits)) return true;
      continue;
    }
    if (digits.length > 9 || companyLabel.test(before) || phoneLabel.test(before) || isDateShaped(groups)) continue;
    if (isValidTfn(digits)) return true;
  }
  return false;
}
