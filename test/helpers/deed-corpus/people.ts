// Made-up people, companies and addresses for the deed corpus. Names mix Anglo-Australian, accented Latin
// (José, Zoë, Łukasz, Nguyễn), hyphenated given and family names, and family names with particles
// (van der Berg, de la Cruz): the cases a name splitter gets wrong.
import { makeAbn, makeAcn } from './identifiers.ts';
import type { Random } from './random.ts';

export interface Person {
  kind: 'INDIVIDUAL';
  firstName: string;
  lastName: string;
  address: string;
}

export interface Company {
  kind: 'BUSINESS';
  businessName: string;
  acn: string;
  /** Printed with the company only when set. */
  abn: string | null;
  address: string;
  /** When the deed prints an ACN with a wrong check digit (a typo): the printed digits; the truth's acn is null. */
  misprintedAcn?: string;
  /** A company that acts as trustee of another trust: printed `… as trustee for the <capacity>`. */
  capacity?: string;
}

export type Party = Person | Company;

const givenNames = [
  'Olivia', 'Charlotte', 'Amelia', 'Isla', 'Mia', 'Grace', 'Matilda', 'Ruby', 'Harper', 'Evelyn',
  'Jack', 'William', 'Oliver', 'Noah', 'Thomas', 'Henry', 'Lachlan', 'Hamish', 'Angus', 'Samuel',
  'Margaret', 'Patricia', 'Priscilla', 'Geoffrey', 'Malcolm', 'Bronwyn', 'Kylie', 'Darren', 'Warwick', 'Leanne',
  'José', 'Zoë', 'Chloé', 'Renée', 'François', 'Łukasz', 'Søren', 'Inés', 'Björn', 'Anaïs',
  'Jean-Luc', 'Anne-Marie', 'Mary-Kate', 'Thi Hoa', 'Minh', 'Wei', 'Priya', 'Arjun', 'Siobhán', 'Eóin',
];
const middleNames = ['James', 'Louise', 'Anne', 'Edward', 'Rose', 'Michael', 'Jane', 'Alexander', 'Maree', 'Joseph', 'María', 'Élise', 'Kim', 'Lee'];
const familyNames = [
  'Smith', 'Nguyen', 'Williams', 'Brown', 'Wilson', 'Taylor', 'Anderson', 'Thompson', 'Walker', 'Harris',
  'Fairbairn', 'McAllister', "O'Connor", 'MacKenzie', 'Papadopoulos', 'Kowalski', 'Rossi', 'Chen', 'Patel', 'Singh',
  'Núñez', 'García', 'Müller', 'Lefèvre', 'Wójcik', 'Nguyễn', 'Trần', 'Østergaard', 'Böhm', 'Citroën',
  'Smith-Jones', 'Fitzgerald-Hay', 'Ashton-Clarke', 'Núñez-García', 'Lloyd-Evans',
  'van der Berg', 'de la Cruz', 'da Silva', 'van Dyke', 'de Souza', 'von Stein', 'di Marco',
];
const streetNames = ['Wattle', 'Banksia', 'Jacaranda', 'Acacia', 'Ironbark', 'Collins', 'George', 'Queen', 'King William', 'Hay', 'Murray', 'Elizabeth', 'Macquarie', 'Stirling', 'Flinders', 'Bourke', 'Oxford', 'Military', 'Beach', 'Hill'];
const streetTypes = ['Street', 'Road', 'Avenue', 'Parade', 'Crescent', 'Place', 'Drive', 'Terrace', 'Lane', 'Court', 'Highway', 'St', 'Rd'];
export const localities: ReadonlyArray<{ suburb: string; state: string; postcode: string }> = [
  { suburb: 'Sydney', state: 'NSW', postcode: '2000' },
  { suburb: 'Bondi Beach', state: 'NSW', postcode: '2026' },
  { suburb: 'Parramatta', state: 'NSW', postcode: '2150' },
  { suburb: 'Melbourne', state: 'VIC', postcode: '3000' },
  { suburb: 'Fitzroy', state: 'VIC', postcode: '3065' },
  { suburb: 'Brighton', state: 'VIC', postcode: '3186' },
  { suburb: 'Brisbane', state: 'QLD', postcode: '4000' },
  { suburb: 'Toowong', state: 'QLD', postcode: '4066' },
  { suburb: 'Surfers Paradise', state: 'QLD', postcode: '4217' },
  { suburb: 'Adelaide', state: 'SA', postcode: '5000' },
  { suburb: 'Glenelg', state: 'SA', postcode: '5045' },
  { suburb: 'Perth', state: 'WA', postcode: '6000' },
  { suburb: 'Nedlands', state: 'WA', postcode: '6009' },
  { suburb: 'Hobart', state: 'TAS', postcode: '7000' },
  { suburb: 'Launceston', state: 'TAS', postcode: '7250' },
  { suburb: 'Darwin', state: 'NT', postcode: '0800' },
  { suburb: 'Canberra', state: 'ACT', postcode: '2601' },
  { suburb: 'Kingston', state: 'ACT', postcode: '2604' },
];
const companyWords = ['Harbour', 'Bayside', 'Wattle Creek', 'Ironbark', 'Southern Cross', 'Coral Sea', 'Red Gum', 'Blue Wren', 'Kestrel', 'Tallowwood', 'Emu Plains', 'Saltbush', 'Highgate', 'Meridian'];
const companyKinds = ['Nominees', 'Holdings', 'Investments', 'Custodians', 'Super', 'Management', 'Enterprises', 'Capital'];
const companySuffixes = ['Pty Ltd', 'Pty Ltd', 'Pty Ltd', 'Pty. Ltd.', 'Pty Limited', 'Proprietary Limited', 'PTY LTD'];

/** An address as a deed prints it, e.g. `Unit 4, 27 Wattle Street, Fitzroy VIC 3065`. */
export function makeAddress(r: Random): string {
  const place = r.pick(localities);
  const street = `${r.between(1, 240)} ${r.pick(streetNames)} ${r.pick(streetTypes)}`;
  const unit = r.int(6);
  const prefix = unit === 0 ? `Unit ${r.between(1, 30)}, ` : unit === 1 ? `Level ${r.between(2, 40)}, ` : unit === 2 ? `${r.between(1, 12)}/` : '';
  if (r.chance(0.06)) return `PO Box ${r.between(10, 9999)}, ${place.suburb} ${place.state} ${place.postcode}`;
  return `${prefix}${street}, ${place.suburb} ${place.state} ${place.postcode}`;
}

export function makePerson(r: Random, lastName?: string): Person {
  const first = r.pick(givenNames);
  const middle = r.chance(0.45) ? ` ${r.pick(middleNames)}` : '';
  return { kind: 'INDIVIDUAL', firstName: `${first}${middle}`, lastName: lastName ?? r.pick(familyNames), address: makeAddress(r) };
}

export function pickFamilyName(r: Random): string {
  return r.pick(familyNames);
}

/** A company whose name comes from the family's (or a place-like word), e.g. `Nguyen Nominees Pty Ltd`. */
export function makeCompany(r: Random, options: { familyName?: string; kind?: string; withAbn?: boolean } = {}): Company {
  const stem = options.familyName && r.chance(0.6) ? options.familyName.replace(/^(van der|de la|da|van|de|von|di) /, (p) => p[0]!.toUpperCase() + p.slice(1)) : r.pick(companyWords);
  const suffix = r.pick(companySuffixes);
  const acn = makeAcn(r);
  return { kind: 'BUSINESS', businessName: `${stem} ${options.kind ?? r.pick(companyKinds)} ${suffix}`, acn, abn: options.withAbn ? makeAbn(r, acn) : null, address: makeAddress(r) };
}

export function fullName(party: Party): string {
  return party.kind === 'BUSINESS' ? party.businessName : `${party.firstName} ${party.lastName}`;
}
