// Australian business numbers: the ABN (11 digits) and the ACN (9 digits), each with a check digit.

/** Spaces are tolerated (partners copy numbers as printed: "51 824 753 556"); nothing else is. */
export function digitsOf(value: string): string {
  return value.replace(/ /g, '');
}

/** ATO's algorithm: subtract 1 from the first digit, weight, and the sum divides by 89. */
export function isValidAbn(abn: string): boolean {
  if (!/^\d{11}$/.test(abn)) return false;
  const weights = [10, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19];
  const digits = [...abn].map(Number);
  digits[0]! -= 1;
  return digits.reduce((sum, digit, i) => sum + digit * weights[i]!, 0) % 89 === 0;
}

/** ASIC's algorithm: weights 8 down to 1 on the first eight digits; the ninth completes the sum to a multiple of 10. */
export function isValidAcn(acn: string): boolean {
  if (!/^\d{9}$/.test(acn)) return false;
  const sum = [...acn.slice(0, 8)].reduce((total, digit, i) => total + Number(digit) * (8 - i), 0);
  return (10 - (sum % 10)) % 10 === Number(acn[8]);
}

/** Why an identifier is refused, for the problem's message; undefined when it is valid. */
export function abnProblem(value: string): string | undefined {
  const abn = digitsOf(value);
  if (!/^\d+$/.test(abn)) return 'must be digits (spaces allowed)';
  if (abn.length !== 11) return `must be 11 digits, got ${abn.length}`;
  return isValidAbn(abn) ? undefined : 'the check digits are wrong: not a valid ABN';
}

export function acnProblem(value: string): string | undefined {
  const acn = digitsOf(value);
  if (!/^\d+$/.test(acn)) return 'must be digits (spaces allowed)';
  if (acn.length !== 9) return `must be 9 digits, got ${acn.length}`;
  return isValidAcn(acn) ? undefined : 'the check digit is wrong: not a valid ACN';
}
