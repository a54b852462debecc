// Australian company and business numbers with real check digits (ASIC's ACN rule, the ABR's ABN rule),
// and the printed forms deeds use for them.
import type { Random } from './random.ts';

const acnWeights = [8, 7, 6, 5, 4, 3, 2, 1];
const abnWeights = [10, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19];
const tfnWeights = [1, 4, 3, 7, 5, 8, 6, 9, 10];

function digitsOf(value: string): number[] {
  return [...value].map(Number);
}

/** ACN: the weighted sum of the first eight digits (8..1), its complement modulo 10 is the ninth. */
export function acnCheckDigit(firstEight: string): number {
  const sum = digitsOf(firstEight).reduce((total, digit, i) => total + digit * acnWeights[i]!, 0);
  return (10 - (sum % 10)) % 10;
}

export function isValidAcn(acn: string): boolean {
  return /^\d{9}$/.test(acn) && acnCheckDigit(acn.slice(0, 8)) === Number(acn[8]);
}

/** ABN: subtract 1 from the first digit; the weighted sum (10, 1, 3, … 19) is a multiple of 89. */
export function isValidAbn(abn: string): boolean {
  if (!/^\d{11}$/.test(abn)) return false;
  const digits = digitsOf(abn);
  digits[0] = digits[0]! - 1;
  return digits.reduce((total, digit, i) => total + digit * abnWeights[i]!, 0) % 89 === 0;
}

/**
 * A nine-digit run that passes the Tax File Number check. A deed carrying one may be quarantined by a TFN
 * scan, which is not what these cases test, so no printed number is allowed to look like one.
 */
function looksLikeTfn(nine: string): boolean {
  return digitsOf(nine).reduce((total, digit, i) => total + digit * tfnWeights[i]!, 0) % 11 === 0;
}

/** The two leading digits that make `nine` an ABN (there is always exactly one pair from 10 to 99). */
export function abnPrefix(nine: string): string {
  for (let prefix = 10; prefix <= 99; prefix++) {
    if (isValidAbn(`${prefix}${nine}`)) return String(prefix);
  }
  throw new Error(`no ABN prefix for ${nine}`);
}

function randomDigits(random: Random, count: number): string {
  let out = '';
  for (let i = 0; i < count; i++) out += String(random.int(0, 9));
  return out;
}

export function generateAcn(random: Random): string {
  for (;;) {
    const first = `${random.int(0, 6)}${randomDigits(random, 7)}`;
    const acn = `${first}${acnCheckDigit(first)}`;
    if (!looksLikeTfn(acn) && !looksLikeTfn(`${abnPrefix(acn)}${acn}`.slice(0, 9))) return acn;
  }
}

/** A company's ABN: its ACN behind two check digits, as the ABR issues them. */
export function abnForAcn(acn: string): string {
  return `${abnPrefix(acn)}${acn}`;
}

/** A trust's ABN: no ACN inside it, just nine digits behind the check pair. */
export function generateAbn(random: Random): string {
  for (;;) {
    const nine = `${random.int(1, 9)}${randomDigits(random, 8)}`;
    const abn = `${abnPrefix(nine)}${nine}`;
    if (!looksLikeTfn(nine) && !looksLikeTfn(abn.slice(0, 9))) return abn;
  }
}

/** The same number with its check digit changed, as a typist might leave it: printed, but not valid. */
export function mistypeAcn(acn: string): string {
  const check = (Number(acn[8]) + 3) % 10;
  return `${acn.slice(0, 8)}${check}`;
}

export type NumberStyle = 'grouped' | 'plain';

/** 123 456 789, or 123456789. */
export function printAcn(acn: string, style: NumberStyle = 'grouped'): string {
  return style === 'plain' ? acn : `${acn.slice(0, 3)} ${acn.slice(3, 6)} ${acn.slice(6)}`;
}

/** 12 345 678 901, or 12345678901. */
export function printAbn(abn: string, style: NumberStyle = 'grouped'): string {
  return style === 'plain' ? abn : `${abn.slice(0, 2)} ${abn.slice(2, 5)} ${abn.slice(5, 8)} ${abn.slice(8)}`;
}
