// Australian business numbers' check digits, shared by the lookups (validating what partners send)
// and the register providers (reading what registers publish).

const acnWeights = [8, 7, 6, 5, 4, 3, 2, 1];
const abnWeights = [10, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19];

/** ASIC's check digit (a modified modulus 10); ARBNs and ARSNs use the same formula. */
export function acnCheckDigit(firstEight: string): number {
  let sum = 0;
  for (let i = 0; i < 8; i++) sum += Number(firstEight[i]) * acnWeights[i]!;
  return (10 - (sum % 10)) % 10;
}

export function isValidAcn(acn: string): boolean {
  return /^\d{9}$/.test(acn) && acnCheckDigit(acn) === Number(acn[8]);
}

/** The ATO's ABN check: subtract 1 from the first digit, weight, and the sum is a multiple of 89. */
export function isValidAbn(abn: string): boolean {
  if (!/^\d{11}$/.test(abn)) return false;
  let sum = 0;
  for (let i = 0; i < 11; i++) sum += (Number(abn[i]) - (i === 0 ? 1 : 0)) * abnWeights[i]!;
  return sum % 89 === 0;
}
