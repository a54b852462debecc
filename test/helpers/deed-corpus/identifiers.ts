// Identifiers a deed prints: ACNs and ABNs with valid check digits (and, on purpose, an ACN with a wrong
// one), and Tax File Numbers for the TFN scan's tests. All made up; a valid check digit says nothing about
// whether the number was ever issued.
import { acnCheckDigit, isValidAbn } from '../../../src/platform/business-numbers.ts';
import { createRandom, type Random } from './random.ts';

const digits = (r: Random, n: number) => Array.from({ length: n }, () => r.int(10)).join('');

/** Nine digits whose last is ASIC's check digit. */
export function makeAcn(r: Random): string {
  const first = `${1 + r.int(9)}${digits(r, 7)}`;
  return `${first}${acnCheckDigit(first)}`;
}

/** Nine digits whose check digit is wrong: a typo in the deed, which the extractor must not pass on. */
export function makeInvalidAcn(r: Random): string {
  const valid = makeAcn(r);
  const wrong = (Number(valid[8]) + 1 + r.int(9)) % 10;
  return `${valid.slice(0, 8)}${wrong}`;
}

/**
 * An ABN: for a company, its ACN with the two leading check digits the ATO's rule gives (as the ATO
 * issues them); otherwise nine random digits. Exactly one prefix in 10–99 passes for most bases; a
 * base that has none is drawn again.
 */
export function makeAbn(r: Random, acn?: string): string {
  for (;;) {
    const base = acn ?? `${1 + r.int(9)}${digits(r, 8)}`;
    for (let prefix = 10; prefix <= 99; prefix++) if (isValidAbn(`${prefix}${base}`)) return `${prefix}${base}`;
    if (acn) acn = undefined;
  }
}

const tfnWeights9 = [1, 4, 3, 7, 5, 8, 6, 9, 10];
const tfnWeights8 = [10, 7, 8, 4, 6, 3, 5, 1];

/** The ATO's TFN check: the weighted sum of the digits is a multiple of 11 (9 or 8 digits). */
export function isValidTfn(tfn: string): boolean {
  const weights = tfn.length === 9 ? tfnWeights9 : tfn.length === 8 ? tfnWeights8 : undefined;
  if (!weights || !/^\d+$/.test(tfn)) return false;
  return weights.reduce((sum, w, i) => sum + w * Number(tfn[i]), 0) % 11 === 0;
}

/**
 * A Tax File Number that passes the check, drawn from `seed` (the same seed, the same number). The last
 * digit is found by trying all ten: its weight (10, or 1 for 8 digits) is coprime with 11, so at most
 * one works; a base with none is drawn again.
 */
export function makeTfn(seed: number, length: 8 | 9 = 9): string {
  const r = createRandom(seed ^ 0x7f4a7c15);
  for (;;) {
    const base = `${1 + r.int(9)}${digits(r, length - 2)}`;
    for (let last = 0; last < 10; last++) if (isValidTfn(`${base}${last}`)) return `${base}${last}`;
  }
}

/** How a deed prints a number: `123 456 789`, `123456789`; an ABN `12 345 678 901`. */
export function groupAcn(acn: string, style: 'spaced' | 'plain' | 'dotted'): string {
  if (style === 'plain') return acn;
  const groups = [acn.slice(0, 3), acn.slice(3, 6), acn.slice(6)];
  return groups.join(style === 'dotted' ? '.' : ' ');
}

export function groupAbn(abn: string, style: 'spaced' | 'plain'): string {
  return style === 'plain' ? abn : `${abn.slice(0, 2)} ${abn.slice(2, 5)} ${abn.slice(5, 8)} ${abn.slice(8)}`;
}

export function groupTfn(tfn: string, style: 'spaced' | 'plain' | 'dashed'): string {
  if (style === 'plain' || tfn.length !== 9) return tfn;
  const groups = [tfn.slice(0, 3), tfn.slice(3, 6), tfn.slice(6)];
  return groups.join(style === 'dashed' ? '-' : ' ');
}
