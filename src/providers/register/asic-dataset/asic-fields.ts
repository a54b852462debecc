// The identifiers and dates of ASIC's company dataset, read strictly: a value we would have to guess at
// is refused with the reason, and the caller names the line and column.

import { acnCheckDigit, isValidAbn } from '../../../platform/business-numbers.ts';

export type FieldResult<T> = { ok: true; value: T } | { ok: false; reason: string };

/**
 * An ACN as some extracts write it (`004 085 616`, `4085616`) to its 9 digits. Leading zeros are
 * restored; a number that does not fit in 9 digits or fails its check digit is refused.
 */
export function normaliseAcn(text: string): FieldResult<string> {
  const digits = text.replace(/[\s\u00a0]/g, '');
  if (digits === '') return { ok: false, reason: 'the ACN is empty' };
  if (!/^\d+$/.test(digits)) return { ok: false, reason: `"${text}" is not an ACN: only digits and spaces are allowed` };
  if (digits.length > 9) return { ok: false, reason: `"${text}" is not an ACN: ${digits.length} digits, at most 9` };
  const acn = digits.padStart(9, '0');
  const expected = acnCheckDigit(acn);
  if (expected !== Number(acn[8])) return { ok: false, reason: `"${text}" is not a valid ACN: the check digit is ${acn[8]}, expected ${expected}` };
  return { ok: true, value: acn };
}

/** An ABN to its 11 digits, or null where the dataset has none (empty, or `0` as ASIC writes it). */
export function normaliseAbn(text: string): FieldResult<string | null> {
  const digits = text.replace(/[\s\u00a0]/g, '');
  if (digits === '' || /^0+$/.test(digits)) return { ok: true, value: null };
  if (!/^\d{11}$/.test(digits)) return { ok: false, reason: `"${text}" is not an ABN: expected 11 digits, or empty` };
  if (!isValidAbn(digits)) return { ok: false, reason: `"${text}" is not a valid ABN: the check digits do not add up` };
  return { ok: true, value: digits };
}

const pad = (n: number) => String(n).padStart(2, '0');

/** ASIC's `DD/MM/YYYY` to `YYYY-MM-DD`; empty is null; anything else, or a day that does not exist, is refused. */
export function parseAsicDate(text: string): FieldResult<string | null> {
  const value = text.trim();
  if (value === '') return { ok: true, value: null };
  const match = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(value);
  if (!match) return { ok: false, reason: `"${text}" is not a date; expected DD/MM/YYYY` };
  const [day, month, year] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) {
    return { ok: false, reason: `"${text}" is not a date: there is no such day` };
  }
  return { ok: true, value: `${year}-${pad(month)}-${pad(day)}` };
}
