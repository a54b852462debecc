// The people, companies, places and dates a deed names. Names are drawn from the mix an Australian practice
// sees: accents (Zoë, Nguyễn), hyphens (Anne-Marie, Harding-Blake), particles (van der Berg, da Silva),
// apostrophes (O'Brien, D'Angelo). Every person and company is made whole here; a layout only prints them.
import { abnForAcn, generateAcn, mistypeAcn } from './identifiers.ts';
import type { Random } from './random.ts';

export interface CalendarDate {
  day: number;
  month: number;
  year: number;
}

export interface Person {
  kind: 'person';
  given: string[];
  family: string;
  title: string;
  /** Printed only where a layout chooses to; never part of the truth. */
  birth: CalendarDate;
  /** As printed, or null when the deed gives none for this person. */
  address: string | null;
}

export interface Company {
  kind: 'company';
  name: string;
  /** The digits the deed prints (possibly mistyped), or null when it prints none. */
  acnPrinted: string | null;
  abnPrinted: string | null;
  address: string | null;
}

export type Entity = Person | Company;

const maleNames = [
  'James', 'William', 'Oliver', 'Lachlan', 'Hamish', 'Angus', 'Declan', 'Mitchell', 'Graeme', 'Trevor', 'Nathan',
  'Arjun', 'Vikram', 'Wei', 'Minh', 'Quang', 'Giuseppe', 'Marco', 'Nikolaos', 'Georgios', 'Omar', 'Tariq', 'Kenji',
  'José', 'André', 'François', 'Jérôme', 'Søren', 'Björn', 'Łukasz', 'Jean-Luc', 'Jean-Pierre', 'Seán', 'Ciarán',
  'Hemi', 'Stuart', 'Colin', 'Peter', 'John', 'Michael', 'David', 'Anh',
];

const femaleNames = [
  'Charlotte', 'Olivia', 'Amelia', 'Isla', 'Matilda', 'Grace', 'Chloé', 'Zoë', 'Renée', 'Noémie', 'Siobhán',
  'Aoife', 'Mary-Anne', 'Anne-Marie', 'Kylie', 'Narelle', 'Leanne', 'Priya', 'Ananya', 'Mei', 'Thi', 'Linh', 'Hoa',
  'Giulia', 'Francesca', 'Eleni', 'Despina', 'Fatima', 'Layla', 'Yuki', 'Ingrid', 'Małgorzata', 'Agnieszka',
  'Dorothée', 'Inès', 'Aroha', 'Rosemary', 'Kate', 'Bronwyn', 'Margaret', 'Elizabeth', 'Ann', 'Jane',
];

const familyNames = [
  'Smith', 'Williams', 'Brown', 'Wilson', 'Taylor', 'Fairweather', 'Hargreaves', 'Nguyen', 'Nguyễn', 'Tran', 'Le',
  'Pham', 'Chen', 'Wang', 'Ng', 'Patel', 'Singh', 'Sharma', 'Rossi', 'Romano', 'Bianchi', 'Papadopoulos',
  'Nikolaidis', 'Kowalski', 'Wiśniewski', 'Müller', 'Schröder', "O'Brien", "O'Sullivan", 'McDonald', 'MacGregor',
  'Fitzgerald', 'Smith-Jones', 'Harding-Blake', 'Lloyd-Davies', 'van der Berg', 'van den Heuvel', 'de Vries',
  'van Rooyen', 'de Souza', 'da Silva', 'de la Cruz', "D'Angelo", 'Di Stefano', 'von Bibra', 'Le Roux', 'St Clair',
  'Björklund', 'Østergaard', 'Kaur', 'Okonkwo', 'Haddad', 'Yamamoto', 'Ferreira', 'Beaumont', 'Whitlam',
];


const places = [
  ['Toowong', 'QLD', '4066', 'Queensland'], ['Paddington', 'QLD', '4064', 'Queensland'], ['Southport', 'QLD', '4215', 'Queensland'],
  ['Townsville', 'QLD', '4810', 'Queensland'], ['Mosman', 'NSW', '2088', 'New South Wales'], ['Parramatta', 'NSW', '2150', 'New South Wales'],
  ['Newtown', 'NSW', '2042', 'New South Wales'], ['Wagga Wagga', 'NSW', '2650', 'New South Wales'], ['Chatswood', 'NSW', '2067', 'New South Wales'],
  ['Hawthorn', 'VIC', '3122', 'Victoria'], ['Brunswick', 'VIC', '3056', 'Victoria'], ['Geelong', 'VIC', '3220', 'Victoria'],
  ['Bendigo', 'VIC', '3550', 'Victoria'], ['Box Hill', 'VIC', '3128', 'Victoria'], ['Subiaco', 'WA', '6008', 'Western Australia'],
  ['Fremantle', 'WA', '6160', 'Western Australia'], ['Joondalup', 'WA', '6027', 'Western Australia'], ['Norwood', 'SA', '5067', 'South Australia'],
  ['Glenelg', 'SA', '5045', 'South Australia'], ['Sandy Bay', 'TAS', '7005', 'Tasmania'], ['Launceston', 'TAS', '7250', 'Tasmania'],
  ['Kingston', 'ACT', '2604', 'Australian Capital Territory'], ['Belconnen', 'ACT', '2617', 'Australian Capital Territory'],
  ['Parap', 'NT', '0820', 'Northern Territory'], ['Alice Springs', 'NT', '0870', 'Northern Territory'],
] as const;

const streets = [
  'Banksia Parade', 'Station Street', 'High Street', 'Jacaranda Avenue', 'Wattle Grove', 'Beach Road', 'Sturt Street',
  'Military Road', 'Coronation Drive', 'Stirling Highway', 'Macquarie Street', 'Lygon Street', 'Bay Road',
  'Harbour Terrace', 'Gum Tree Lane', 'Ironbark Close', 'Kurrajong Crescent', 'Hill Street', 'Victoria Road',
  'Bridge Road', 'Esplanade', 'Mitchell Street', 'Murray Street', 'Church Street', 'Bellbird Way',
];

const companyWords = [
  'Wattle', 'Banksia', 'Kestrel', 'Ironbark', 'Coolabah', 'Bluegum', 'Jacaranda', 'Saltbush', 'Brolga', 'Currawong',
  'Pelican Bay', 'Quandong', 'Warrawee', 'Otway', 'Grampians', 'Nullarbor', 'Southern Cross', 'Harbourside',
  'Red Gum', 'Tamar Valley', 'Silver Wattle', 'Kookaburra Hill', 'Mallee', 'Riverbend',
];

export const months = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

export function createDate(random: Random, fromYear: number, toYear: number): CalendarDate {
  return { day: random.int(1, 28), month: random.int(1, 12), year: random.int(fromYear, toYear) };
}

function ordinal(day: number): string {
  const tens = day % 100;
  if (tens >= 11 && tens <= 13) return `${day}th`;
  return `${day}${['th', 'st', 'nd', 'rd'][day % 10] ?? 'th'}`;
}

export type DateStyle = 'long' | 'ordinal' | 'day-of' | 'numeric';

/** 14 March 2019 · 14th March 2019 · 14th day of March 2019 · 14/03/2019. */
export function printDate(date: CalendarDate, style: DateStyle): string {
  const month = months[date.month - 1]!;
  switch (style) {
    case 'long':
      return `${date.day} ${month} ${date.year}`;
    case 'ordinal':
      return `${ordinal(date.day)} ${month} ${date.year}`;
    case 'day-of':
      return `${ordinal(date.day)} day of ${month} ${date.year}`;
    case 'numeric':
      return `${String(date.day).padStart(2, '0')}/${String(date.month).padStart(2, '0')}/${date.year}`;
  }
}

export interface Place {
  suburb: string;
  stateCode: string;
  postcode: string;
  stateName: string;
}

export function createPlace(random: Random): Place {
  const [suburb, stateCode, postcode, stateName] = random.pick(places);
  return { suburb, stateCode, postcode, stateName };
}

/** 12 Banksia Parade, Toowong QLD 4066 · Unit 4, 22 Station Street, Box Hill VIC 3128 · … Hawthorn Victoria 3122 */
export function createAddress(random: Random, place: Place = createPlace(random)): string {
  const street = `${random.int(1, 240)} ${random.pick(streets)}`;
  const prefix = random.pick(['', '', '', `Unit ${random.int(1, 30)}, `, `Level ${random.int(1, 12)}, `, `${random.int(1, 9)}/`]);
  const line = `${prefix}${street}`;
  return random.chance(0.8) ? `${line}, ${place.suburb} ${place.stateCode} ${place.postcode}` : `${line} ${place.suburb} ${place.stateName} ${place.postcode}`;
}

export interface PersonOptions {
  family?: string;
  /** Leave the address out of the deed. */
  withoutAddress?: boolean;
  place?: Place;
  bornFrom?: number;
  bornTo?: number;
}

export function createPerson(random: Random, options: PersonOptions = {}): Person {
  const count = random.pick([1, 2, 2, 2, 3]);
  const female = random.chance(0.5);
  const given = random.sample(female ? femaleNames : maleNames, count);
  return {
    kind: 'person',
    given,
    family: options.family ?? random.pick(familyNames),
    title: random.chance(0.12) ? 'Dr' : female ? random.pick(['Mrs', 'Ms']) : 'Mr',
    birth: createDate(random, options.bornFrom ?? 1942, options.bornTo ?? 1996),
    address: options.withoutAddress ? null : createAddress(random, options.place),
  };
}

export function pickFamilyName(random: Random): string {
  return random.pick(familyNames);
}

function registrableName(name: string): string {
  const plain = name.replace(/Ł/g, 'L').replace(/ł/g, 'l').replace(/Ø/g, 'O').replace(/ø/g, 'o').normalize('NFD').replace(/[\u0300-\u036f]/g, '');
  return plain[0]!.toUpperCase() + plain.slice(1);
}

export type CompanySuffix = 'Pty Ltd' | 'Pty. Ltd.' | 'Proprietary Limited' | 'Pty Limited';

export interface CompanyOptions {
  /** Builds the name on a family name (Nguyen Nominees Pty Ltd) instead of a place word. */
  family?: string;
  kind?: 'Nominees' | 'Holdings' | 'Investments' | 'Super' | 'Custodian' | 'Property';
  withoutAcn?: boolean;
  withAbn?: boolean;
  /** Print the ACN with a wrong check digit (the truth then carries no ACN). */
  mistypedAcn?: boolean;
  withoutAddress?: boolean;
  capitals?: boolean;
  place?: Place;
}

export function createCompany(random: Random, options: CompanyOptions = {}): Company {
  const kind = options.kind ?? random.pick(['Nominees', 'Holdings', 'Investments', 'Nominees'] as const);
  const suffix = random.pick<CompanySuffix>(['Pty Ltd', 'Pty Ltd', 'Pty. Ltd.', 'Proprietary Limited', 'Pty Limited']);
  // ASIC registers names in plain Latin letters: Nguyễn becomes Nguyen, van der Berg becomes Van der Berg.
  const family = options.family ? registrableName(options.family) : null;
  const first = family ? (random.chance(0.2) ? `${family[0]} & ${random.pick(['K', 'M', 'J', 'R'])}` : family) : random.pick(companyWords);
  const plain = `${first} ${kind} ${suffix}`;
  const acn = generateAcn(random);
  return {
    kind: 'company',
    name: options.capitals ? plain.toUpperCase() : plain,
    acnPrinted: options.withoutAcn ? null : options.mistypedAcn ? mistypeAcn(acn) : acn,
    abnPrinted: options.withAbn ? abnForAcn(acn) : null,
    address: options.withoutAddress ? null : createAddress(random, options.place),
  };
}

export type NameStyle = 'natural' | 'capitals' | 'surname-first' | 'titled' | 'family-capitals';

/** How a deed prints a person: John Peter Smith · JOHN PETER SMITH · SMITH, John Peter · Mr John Peter Smith · John Peter SMITH. */
export function printName(person: Person, style: NameStyle): string {
  const given = person.given.join(' ');
  switch (style) {
    case 'natural':
      return `${given} ${person.family}`;
    case 'capitals':
      return `${given} ${person.family}`.toUpperCase();
    case 'surname-first':
      return `${person.family.toUpperCase()}, ${given}`;
    case 'titled':
      return `${person.title} ${given} ${person.family}`;
    case 'family-capitals':
      return `${given} ${person.family.toUpperCase()}`;
  }
}

export function printEntityName(entity: Entity, style: NameStyle): string {
  return entity.kind === 'person' ? printName(entity, style) : entity.name;
}
