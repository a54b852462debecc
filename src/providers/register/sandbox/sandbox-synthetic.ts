// Every valid identifier that is not in the table still answers (CONTRACT §13): a company, a sole trader or
// a partnership made up from the number itself. The number seeds a generator, so the same number gives the
// same business, officers, owners and personal details in every sandbox, on every run, with nothing stored.
//
// Synthetic party refs are `SBX-<ACN>-<n>`, the n-th person of that company, so personal details can be
// read back from a ref alone.
import type { PersonDetails, RegisterParty } from '../ownership-report.ts';
import type { AbnRecord } from '../register.ts';
import { abnOfAcn, addDays, dateBetween, type Holding, pickFrom, type SandboxCompany, seededRandom } from './sandbox-model.ts';

// Fictional people: none of these words is a name on the fixture screening list (sandbox-register.test.ts
// checks), nor a sandbox verification keyword (Review, Fail, Fraud, Unavailable).
const names = {
  feminine: {
    given: ['Amelia', 'Charlotte', 'Isla', 'Olivia', 'Ava', 'Mia', 'Grace', 'Zoe', 'Ruby', 'Harper', 'Chloe', 'Matilda', 'Lucy', 'Evie', 'Hannah', 'Mei', 'Ananya', 'Siobhan', 'Aroha', 'Rosa', 'Sofia', 'Nadia'],
    middle: ['Jane', 'Louise', 'Marie', 'Rose', 'Anne', 'Kate', 'Joy'],
  },
  masculine: {
    given: ['Jack', 'Oliver', 'William', 'Noah', 'Leo', 'Henry', 'Lucas', 'Thomas', 'James', 'Hugo', 'Archie', 'Oscar', 'Liam', 'Ethan', 'Samuel', 'Wei', 'Hiroshi', 'Arjun', 'Declan', 'Mateo'],
    middle: ['James', 'John', 'Michael', 'Peter', 'David', 'Alan', 'Lee'],
  },
} as const;
export const givenNamePool = [...names.feminine.given, ...names.masculine.given];
export const middleNamePool = [...names.feminine.middle, ...names.masculine.middle];
export const familyNamePool = [
  'ASHWORTH', 'BARNETT', 'CALLOWAY', 'DELANEY', 'ELLERY', 'FENWICK', 'GARRITY', 'HOLLINGS', 'IVERSON', 'JARDINE', 'KELLERMAN',
  'LANGFORD', 'MARCHETTI', 'NGUYEN', 'PEMBERTON', 'RADCLIFFE', 'SORENSEN', 'TAKAHASHI', 'UNDERWOOD', 'VIDLER', 'WHITCOMBE',
  'YEOMAN', 'ZHANG', 'CASTELLANO', 'KOWALCZYK', 'PAPADOPOULOS', 'TRAN', 'FERREIRA', 'BRENNAN', 'MACKINTOSH', 'FEATHERSTONE',
  'GREENHALGH', 'LINDSAY', 'PETRAKIS', 'SANDOVAL', 'WAKEFIELD', 'ABBOTT',
] as const;
export const companyWordPools = {
  first: [
    'BLACKWOOD', 'BRIGALOW', 'BUNYA', 'CASSOWARY', 'CURRAWONG', 'FLAME TREE', 'GIDGEE', 'HOOP PINE', 'JARRAH', 'KURRAJONG',
    'LILLYPILLY', 'MALLEE', 'MARRI', 'MULGA', 'PAPERBARK', 'QUANDONG', 'RIVERGUM', 'SANDSTONE', 'SPINIFEX', 'STRINGYBARK',
    'TEA TREE', 'TUART', 'WANDOO', 'WARATAH', 'YARRAN',
  ],
  second: [
    'BUILDING', 'CABINETRY', 'CARPENTRY', 'CIVIL', 'CONSULTING', 'DESIGN', 'ELECTRICAL', 'ENGINEERING', 'FARMING', 'FREIGHT',
    'HOLDINGS', 'HOSPITALITY', 'IMPORTS', 'INVESTMENTS', 'JOINERY', 'LANDSCAPING', 'MEDICAL', 'PLUMBING', 'PROPERTY', 'ROOFING',
    'SURVEYING', 'TECHNOLOGY', 'TRADING', 'TRANSPORT', 'VENTURES',
  ],
} as const;
const trades = ['Plumbing', 'Electrical', 'Bookkeeping', 'Photography', 'Landscaping', 'Carpentry', 'Tiling', 'Physiotherapy', 'Cleaning', 'Catering'] as const;

/** Real localities with their state and postcode. */
const localities: ReadonlyArray<readonly [locality: string, state: string, postcode: string]> = [
  ['PARRAMATTA', 'NSW', '2150'], ['NEWTOWN', 'NSW', '2042'], ['CHATSWOOD', 'NSW', '2067'], ['WOLLONGONG', 'NSW', '2500'],
  ['NEWCASTLE', 'NSW', '2300'], ['FITZROY', 'VIC', '3065'], ['GEELONG', 'VIC', '3220'], ['BALLARAT', 'VIC', '3350'],
  ['BOX HILL', 'VIC', '3128'], ['TOOWONG', 'QLD', '4066'], ['TOWNSVILLE', 'QLD', '4810'], ['MAROOCHYDORE', 'QLD', '4558'],
  ['FREMANTLE', 'WA', '6160'], ['SUBIACO', 'WA', '6008'], ['GLENELG', 'SA', '5045'], ['NORWOOD', 'SA', '5067'],
  ['SANDY BAY', 'TAS', '7005'], ['LAUNCESTON', 'TAS', '7250'], ['BRADDON', 'ACT', '2612'], ['PARAP', 'NT', '0820'],
];
const streets = ['Banksia', 'Wattle', 'Jacaranda', 'Kurrajong', 'Bottlebrush', 'Grevillea', 'Boronia', 'Waratah', 'Correa', 'Melaleuca', 'Acacia', 'Casuarina'] as const;
const streetTypes = ['Street', 'Road', 'Avenue', 'Crescent', 'Parade', 'Lane', 'Court', 'Drive'] as const;

/** Shares of 1, 2 or 3 owners: each split sums to 100. */
const splits: Record<number, ReadonlyArray<readonly number[]>> = {
  1: [[100]],
  2: [[50, 50], [60, 40], [75, 25], [70, 30]],
  3: [[40, 30, 30], [34, 33, 33], [50, 25, 25], [60, 20, 20]],
};

const titleCase = (text: string) => text.toLowerCase().replace(/\b[a-z]/g, (c) => c.toUpperCase());

/** `count` people with distinct full names; now and then two share a family name, as spouses do. */
function drawPeople(random: () => number, count: number, refOf: (i: number) => string): RegisterParty[] {
  const people: RegisterParty[] = [];
  while (people.length < count) {
    const pool = random() < 0.5 ? names.feminine : names.masculine;
    const given = pickFrom(random, pool.given);
    const givenNames = random() < 0.6 ? `${given} ${pickFrom(random, pool.middle)}` : given;
    const familyName = people.length > 0 && random() < 0.3 ? people[0]!.familyName : pickFrom(random, familyNamePool);
    if (people.some((p) => p.givenNames.split(' ')[0] === given && p.familyName === familyName)) continue;
    people.push({ partyRef: refOf(people.length), givenNames, familyName });
  }
  return people;
}

/**
 * A company for any valid ACN: 1–3 directors, 1–3 individual owners (the first owners are the directors,
 * as in most small companies), a separate secretary about a third of the time. Registered 2003–2023.
 */
export function syntheticCompany(acn: string): SandboxCompany {
  const random = seededRandom(`company:${acn}`);
  const name = `${pickFrom(random, companyWordPools.first)} ${pickFrom(random, companyWordPools.second)} PTY LTD`;
  const registeredOn = dateBetween(random, 2003, 2023);
  const [, state, postcode] = pickFrom(random, localities);
  const gstRegisteredFrom = random() < 0.75 ? addDays(registeredOn, 7 + Math.floor(random() * 60)) : null;
  const businessNames = random() < 0.5 ? [titleCase(name.replace(/ PTY LTD$/, ''))] : [];
  const directors = 1 + Math.floor(random() * 3);
  const owners = 1 + Math.floor(random() * 3);
  const split = pickFrom(random, splits[owners]!);
  const hasSecretary = random() < 0.35;
  const people = drawPeople(random, Math.max(directors, owners) + (hasSecretary ? 1 : 0), (i) => `SBX-${acn}-${i + 1}`);

  const officers: SandboxCompany['officers'] = people.slice(0, directors).map((party) => ({ party, role: 'DIRECTOR', appointedOn: registeredOn }));
  if (hasSecretary) officers.push({ party: people.at(-1)!, role: 'SECRETARY', appointedOn: registeredOn });
  const holdings: Holding[] = split.map((percent, i) => ({ kind: 'PERSON', party: people[i]!, percent }));
  return {
    acn,
    abn: abnOfAcn(acn),
    name,
    abr: { entityTypeCode: 'PRV', status: 'ACTIVE', statusFrom: registeredOn, gstRegisteredFrom, businessNames, state, postcode },
    asic: { type: 'APTY', class: 'LMSH', subClass: 'PROP', status: 'REGD', registeredOn, deregisteredOn: null },
    officers,
    holdings,
  };
}

/** A business for a valid ABN that is not a company's: a sole trader (60 %) or a partnership of two. */
export function syntheticBusiness(abn: string): AbnRecord {
  const random = seededRandom(`business:${abn}`);
  const soleTrader = random() < 0.6;
  const people = drawPeople(random, soleTrader ? 1 : 2, (i) => `${abn}-${i + 1}`);
  const statusFrom = dateBetween(random, 2003, 2023);
  const [, state, postcode] = pickFrom(random, localities);
  const gstRegisteredFrom = random() < 0.5 ? addDays(statusFrom, 7 + Math.floor(random() * 60)) : null;
  const trade = pickFrom(random, trades);
  const [first, second] = people as [RegisterParty, RegisterParty | undefined];
  const common = { abn, status: 'ACTIVE' as const, statusFrom, acn: null, gstRegisteredFrom, state, postcode };
  if (soleTrader || !second) {
    return {
      ...common,
      // ABR writes an individual as FAMILY, GIVEN NAMES.
      entityName: `${first.familyName}, ${first.givenNames.toUpperCase()}`,
      entityType: 'SOLE_TRADER', entityTypeCode: 'IND', entityTypeName: 'Individual/Sole Trader',
      businessNames: random() < 0.7 ? [`${first.givenNames.split(' ')[0]} ${titleCase(first.familyName)} ${trade}`] : [],
    };
  }
  const initials = (p: RegisterParty) => p.givenNames.split(' ').map((n) => n[0]).join(' ');
  return {
    ...common,
    entityName: `${initials(first)} ${first.familyName} & ${initials(second)} ${second.familyName}`,
    entityType: 'PARTNERSHIP', entityTypeCode: 'PTR', entityTypeName: 'Other Partnership',
    businessNames: [`${titleCase(first.familyName)} & ${titleCase(second.familyName)} ${trade}`],
  };
}

/** A person's date of birth (1945–1984: of age at any appointment) and home address, from the partyRef. */
export function personDetailsOf(party: RegisterParty): PersonDetails {
  const random = seededRandom(`person:${party.partyRef}`);
  const dateOfBirth = dateBetween(random, 1945, 1984);
  const [locality, state, postcode] = pickFrom(random, localities);
  const line1 = `${1 + Math.floor(random() * 180)} ${pickFrom(random, streets)} ${pickFrom(random, streetTypes)}`;
  return { ...party, dateOfBirth, address: { line1, locality, state, postcode, country: 'AU' } };
}
