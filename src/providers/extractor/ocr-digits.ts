// ACN and ABN digits as OCR reads them: a `0` becomes `O`, a `1` an `I` or `l`, a `5` an `S`, an `8` a `B`
// (`ACN 474 382 35l`). A letter is read back as the digit it resembles only inside a group of the number
// that also holds a real digit, and the number is taken only when its check digit then validates: a
// misread that happens to validate is as unlikely as a misprint that does (one in ten for an ACN, one in
// eighty-nine for an ABN), and a letter that cannot be a digit leaves the number unread.

/** Letters OCR gives for digits, and the digits they stand for. */
const lookalikes: Record<string, string> = { O: '0', o: '0', D: '0', Q: '0', I: '1', l: '1', i: '1', Z: '2', z: '2', S: '5', s: '5', G: '6', b: '6', T: '7', B: '8', g: '9', q: '9' };

/** Whether OCR may have printed a digit as `c`. */
export const looksLikeDigit = (c: string) => c in lookalikes;

/** A regular expression source for one digit as OCR may print it. */
export const digitLike = `[\\d${Object.keys(lookalikes).join('')}]`;

/**
 * The digits of a number printed as `printed` (digits, look-alike letters, spaces, dots, dashes), when it
 * has `length` of them and `isValid` accepts them; else null. Without look-alikes it is the digits as
 * printed, valid or not (the caller checks them as before).
 */
export function readDigits(printed: string, length: number, isValid: (digits: string) => boolean): string | null {
  const groups = printed.split(/[\s.-]+/u).filter(Boolean);
  const plain = groups.join('');
  if (/^\d+$/u.test(plain)) return plain.length === length ? plain : null;
  // Every group holds a real digit: a word after the number (`… 78 of`) is not read as digits.
  if (!groups.every((g) => /\d/u.test(g))) return null;
  const digits = [...plain].map((c) => lookalikes[c] ?? c).join('');
  return digits.length === length && /^\d+$/u.test(digits) && isValid(digits) ? digits : null;
}

/**
 * The first match of an ACN or ABN pattern (vocabulary.ts) in `text`: where it starts and ends, and the
 * number as printed. Groups after the number without a real digit are words (`… 986 of`), not its end.
 */
export function findNumber(pattern: RegExp, text: string): { index: number; end: number; printed: string } | null {
  const m = pattern.exec(text);
  if (!m) return null;
  const printed = m[1]!.replace(/(?:[\s.-]+[^\d\s.-]+)+$/u, '');
  return { index: m.index, end: m.index + m[0].length - (m[1]!.length - printed.length), printed };
}

/** The printed characters of a number as digits, look-alikes read as the digits they resemble (unchecked). */
export const printedDigits = (printed: string) => [...printed.replace(/[\s.-]+/gu, '')].map((c) => lookalikes[c] ?? c).join('').replace(/\D/gu, '');

/** Whether `a` becomes `b` by changing, adding or dropping at most one digit. */
export function withinOneEdit(a: string, b: string): boolean {
  if (Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return a.slice(i + (a.length >= b.length ? 1 : 0)) === b.slice(i + (b.length >= a.length ? 1 : 0));
}

/**
 * A company's ABN is its ACN with two digits before it, so each vouches for the other: an OCR'd ACN that
 * fails its check (a digit misread, dropped or doubled) is the ABN's last nine digits when they are a
 * valid ACN one edit away from what was printed; an ABN likewise from a valid ACN and its two printed
 * first digits.
 */
export function crossCheckNumbers(read: { acn: string | null; abn: string | null }, printed: { acn: string | null; abn: string | null }, checks: { acn: (d: string) => boolean; abn: (d: string) => boolean }): { acn: string | null; abn: string | null } {
  let { acn, abn } = read;
  if (!acn && abn && printed.acn && checks.acn(abn.slice(2)) && withinOneEdit(printed.acn, abn.slice(2))) acn = abn.slice(2);
  if (!abn && acn && printed.abn && printed.abn.length >= 10) {
    const candidate = printed.abn.slice(0, 2) + acn;
    if (checks.abn(candidate) && withinOneEdit(printed.abn, candidate)) abn = candidate;
  }
  return { acn, abn };
}
