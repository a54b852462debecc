// Australian business numbers as partners send them: the ABN (11 digits) and the ACN (9 digits).
import { isValidAbn, isValidAcn } from '../../platform/business-numbers.ts';

export { isValidAbn, isValidAcn };

/** Spaces are tolerated (partners copy numbers as printed: "51 824 753 556"); nothing else is. */
export function digitsOf(value: string): string {
  return value.replace(/ /g, '');
}

/** Why an identifier is refused, for the problem's message; undefined when it is valid. */
export function abnProblem(value: string): string | undefined {
  const abn = digitsOf(value);
  if (!/^\d+$/.test(abn)) return 'must be digits (spaces allowed)';
  if (abn.length !== 11) return `must be 11 digits, got ${abn.length}`;
  return isValidAbn(abn) ? undefined : 'has wrong check digits (not a valid ABN)';
}

export function acnProblem(value: string): string | undefined {
  const acn = digitsOf(value);
  if (!/^\d+$/.test(acn)) return 'must be digits (spaces allowed)';
  if (acn.length !== 9) return `must be 9 digits, got ${acn.length}`;
  return isValidAcn(acn) ? undefined : 'has a wrong check digit (not a valid ACN)';
}
