// The person's details as PVS answers them: every optional field present, as null when not given.
// Evidence (`claimedIdentity`) and the reports print the same fields, so they share this one mapping;
// and whether a verified name and date of birth are the ones the register gave, for the reports, the
// console and the check job.
import type { PersonDetails } from '../../providers/identity/identity-provider.ts';

export interface AnsweredPersonDetails {
  firstName: string;
  middleName: string | null;
  lastName: string;
  dateOfBirth: string;
  address: { line1: string; line2: string | null; locality: string; state: string | null; postcode: string | null; country: string };
  email: string | null;
  phone: string | null;
}

export function answeredDetails(details: PersonDetails): AnsweredPersonDetails {
  const { address } = details;
  return {
    firstName: details.firstName,
    middleName: details.middleName ?? null,
    lastName: details.lastName,
    dateOfBirth: details.dateOfBirth,
    address: {
      line1: address.line1,
      line2: address.line2 ?? null,
      locality: address.locality,
      state: address.state ?? null,
      postcode: address.postcode ?? null,
      country: address.country,
    },
    email: details.email ?? null,
    phone: details.phone ?? null,
  };
}

// Latin letters that are not a base letter with a mark, so NFKD leaves them whole.
const plainLetters: Record<string, string> = { Ø: 'O', Æ: 'AE', Œ: 'OE', ẞ: 'SS', Đ: 'D', Ł: 'L', Þ: 'TH', Ð: 'D', Ħ: 'H', Ŧ: 'T' };

/** A name's words for comparing: accents, case and punctuation gone (`Ødegård-Smith` → `ODEGARD SMITH`). */
function folded(name: string): string[] {
  return name
    .toUpperCase()
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/[ØÆŒẞĐŁÞÐĦŦ]/gu, (letter) => plainLetters[letter]!)
    .split(/[^\p{L}]+/u)
    .filter(Boolean);
}

/**
 * Whether a person's verified name is the register's: the same family name and the same first given
 * name, ignoring case, accents and punctuation. Middle names are left out: registers and documents carry
 * them inconsistently.
 */
export function sameRegisterName(verified: { firstName: string; lastName: string }, register: { givenNames: string; familyName: string }): boolean {
  const [first] = folded(verified.firstName);
  const [registerFirst] = folded(register.givenNames);
  return folded(verified.lastName).join(' ') === folded(register.familyName).join(' ') && first !== undefined && first === registerFirst;
}

/**
 * Whether a date of birth entered is the register's, compared exactly (both YYYY-MM-DD); null when the
 * register holds none: nothing to compare. Unlike a name, a date of birth never changes (decision 122).
 */
export function sameRegisterDateOfBirth(entered: string, register: string | null): boolean | null {
  return register === null ? null : entered === register;
}
