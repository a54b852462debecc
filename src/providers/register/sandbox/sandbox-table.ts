// The sandbox test values of CONTRACT §13, as the registers would hold them. Every name is fictional, and no
// person here is on the fixture screening list (screening is tested on its own).
//
// A person's partyRef is `SBX-<ACN>-<n>`, after the company where the person first appears; it stays the
// same wherever the person appears again (a director of one company who holds shares in another).
import type { RegisterParty } from '../ownership-report.ts';
import type { AbnRecord } from '../register.ts';
import { abnOfAcn, type Holding, partiesOf, type SandboxCompany } from './sandbox-model.ts';

const person = (partyRef: string, givenNames: string, familyName: string): RegisterParty => ({ partyRef, givenNames, familyName });

const penroseHarriet = person('SBX-111111114-1', 'Harriet Jane', 'PENROSE');
const penroseMalcolm = person('SBX-111111114-2', 'Malcolm David', 'PENROSE');
const kingsley = person('SBX-222222228-1', 'Oliver James', 'KINGSLEY');
const fairbairn = person('SBX-333333332-1', 'Priscilla Mary', 'FAIRBAIRN');
const merriweather = person('SBX-333333332-2', 'Daniel Hugh', 'MERRIWEATHER');
const bradshawLachlan = person('SBX-444444446-1', 'Lachlan Peter', 'BRADSHAW');
const bradshawGrace = person('SBX-444444446-2', 'Grace Eleanor', 'BRADSHAW');
const carrington = person('SBX-555555550-1', 'Edwina Rose', 'CARRINGTON');
const hargreave = person('SBX-555555550-2', 'Samuel John', 'HARGREAVE');
const lindqvist = person('SBX-666666664-1', 'Beatrice Anne', 'LINDQVIST');
const halloran = person('SBX-666666664-2', 'Rupert Alan', 'HALLORAN');
const doughertyVincent = person('SBX-777777778-1', 'Vincent Paul', 'DOUGHERTY');
const doughertyNaomi = person('SBX-777777778-2', 'Naomi Claire', 'DOUGHERTY');
const farrant = person('SBX-777777778-3', 'Imogen Kate', 'FARRANT');
const marsden = person('SBX-888888882-1', 'Geoffrey Alan', 'MARSDEN');
const tremayne = person('SBX-888888882-2', 'Yvonne Louise', 'TREMAYNE');
const nakamura = person('SBX-888888882-3', 'Kenji Robert', 'NAKAMURA');
const forsythe = person('SBX-888888882-4', 'Alison Margaret', 'FORSYTHE');
const lockwood = person('SBX-888888882-5', 'Bernard Hugh', 'LOCKWOOD');
const dunstan = person('SBX-888888882-6', 'Rachel Anne', 'DUNSTAN');

interface CompanyInput {
  acn: string;
  name: string;
  registeredOn: string;
  place: [state: string, postcode: string];
  businessNames?: string[];
  officers: SandboxCompany['officers'];
  holdings: SandboxCompany['holdings'];
}

/** An active proprietary company registered for GST a month after it was registered. */
function proprietary(input: CompanyInput): SandboxCompany {
  const [state, postcode] = input.place;
  return {
    acn: input.acn,
    abn: abnOfAcn(input.acn),
    name: input.name,
    abr: { entityTypeCode: 'PRV', status: 'ACTIVE', statusFrom: input.registeredOn, gstRegisteredFrom: firstOfNextMonth(input.registeredOn), businessNames: input.businessNames ?? [], state, postcode },
    asic: { type: 'APTY', class: 'LMSH', subClass: 'PROP', status: 'REGD', registeredOn: input.registeredOn, deregisteredOn: null },
    officers: input.officers,
    holdings: input.holdings,
  };
}

function firstOfNextMonth(date: string): string {
  const [year, month] = date.split('-').map(Number) as [number, number];
  return month === 12 ? `${year + 1}-01-01` : `${year}-${String(month + 1).padStart(2, '0')}-01`;
}

const director = (party: RegisterParty, appointedOn: string) => ({ party, role: 'DIRECTOR' as const, appointedOn });
const secretary = (party: RegisterParty, appointedOn: string) => ({ party, role: 'SECRETARY' as const, appointedOn });
const holds = (party: RegisterParty, percent: number): Holding => ({ kind: 'PERSON', party, percent });

/** 555 555 550's holding chain: MYALL HOLDINGS NO. 1 holds the root, NO. 2 holds NO. 1, …, a person holds NO. 7. */
const myallChain = ['555000014', '555000023', '555000032', '555000041', '555000050', '555000069', '555000078'];

const companies: SandboxCompany[] = [
  proprietary({
    acn: '111111114', name: 'BLUEGUM ORCHARDS PTY LTD', registeredOn: '2012-03-19', place: ['NSW', '2800'], businessNames: ['Bluegum Orchards'],
    officers: [director(penroseHarriet, '2012-03-19'), director(penroseMalcolm, '2015-07-01')],
    holdings: [holds(penroseHarriet, 100)],
  }),
  proprietary({
    acn: '222222228', name: 'WATTLE CREEK LOGISTICS PTY LTD', registeredOn: '2009-11-02', place: ['VIC', '3029'], businessNames: ['Wattle Creek Freight'],
    // Kingsley is director and secretary: two appointments, one party.
    officers: [director(kingsley, '2009-11-02'), secretary(kingsley, '2009-11-02'), director(fairbairn, '2014-02-17')],
    holdings: [holds(kingsley, 40), { kind: 'COMPANY', acn: '333333332', percent: 60 }],
  }),
  proprietary({
    acn: '333333332', name: 'FAIRBAIRN MERRIWEATHER HOLDINGS PTY LTD', registeredOn: '2013-08-26', place: ['VIC', '3000'],
    officers: [director(fairbairn, '2013-08-26'), director(merriweather, '2013-08-26')],
    holdings: [holds(fairbairn, 50), holds(merriweather, 50)],
  }),
  proprietary({
    acn: '444444446', name: 'CORELLA CONSTRUCTIONS PTY LTD', registeredOn: '2016-05-09', place: ['QLD', '4350'],
    officers: [director(bradshawLachlan, '2016-05-09'), director(bradshawGrace, '2016-05-09')],
    holdings: [holds(bradshawLachlan, 50), { kind: 'TRUST', name: 'ASHCOMBE NOMINEES PTY LTD ATF THE BRADSHAW FAMILY TRUST', percent: 50 }],
  }),
  proprietary({
    acn: '555555550', name: 'MYALL PASTORAL PTY LTD', registeredOn: '2004-02-23', place: ['NSW', '2400'], businessNames: ['Myall Downs'],
    officers: [director(carrington, '2004-02-23'), director(hargreave, '2010-10-04')],
    holdings: [{ kind: 'COMPANY', acn: myallChain[0]!, percent: 100 }],
  }),
  ...myallChain.map((acn, i) => proprietary({
    acn, name: `MYALL HOLDINGS NO. ${i + 1} PTY LTD`, registeredOn: `2004-01-${10 + i}`, place: ['NSW', '2400'],
    officers: [director(carrington, `2004-01-${10 + i}`)],
    holdings: [i + 1 < myallChain.length ? { kind: 'COMPANY', acn: myallChain[i + 1]!, percent: 100 } : holds(carrington, 100)],
  })),
  proprietary({
    acn: '666666664', name: 'GALAH GROVE VINEYARDS PTY LTD', registeredOn: '2011-09-12', place: ['SA', '5352'], businessNames: ['Galah Grove Wines'],
    officers: [director(lindqvist, '2011-09-12'), director(halloran, '2011-09-12')],
    // The share register names the 30 % holder by initials only, with no identifier the report can link.
    holdings: [holds(lindqvist, 70), { kind: 'UNLINKED', name: 'M. R. ABERNATHY', percent: 30 }],
  }),
  proprietary({
    acn: '777777778', name: 'TALLOWOOD TIMBER SUPPLIES PTY LTD', registeredOn: '2007-06-04', place: ['NSW', '2450'],
    officers: [director(doughertyVincent, '2007-06-04'), director(doughertyNaomi, '2007-06-04'), secretary(farrant, '2019-01-14')],
    holdings: 'UNAVAILABLE',
  }),
  {
    acn: '888888882',
    abn: abnOfAcn('888888882'),
    name: 'COOLABAH RESOURCES LIMITED',
    abr: { entityTypeCode: 'PUB', status: 'ACTIVE', statusFrom: '1999-11-01', gstRegisteredFrom: '2000-07-01', businessNames: [], state: 'WA', postcode: '6000' },
    asic: { type: 'APUB', class: 'LMSH', subClass: 'LISN', status: 'REGD', registeredOn: '1998-10-15', deregisteredOn: null },
    officers: [
      director(marsden, '2011-05-20'), director(tremayne, '2014-11-27'), director(nakamura, '2018-03-01'), director(forsythe, '2021-08-16'),
      secretary(lockwood, '2016-02-08'),
      // An alternate director: an officer who is neither a director nor the secretary.
      { party: dunstan, role: 'OFFICER', appointedOn: '2022-06-30' },
    ],
    // Listed: thousands of holders on the share register and no ownership graph in the report.
    holdings: null,
  },
  {
    acn: '999999996',
    abn: abnOfAcn('999999996'),
    name: 'PADDLEWHEEL CATERING PTY LTD',
    abr: { entityTypeCode: 'PRV', status: 'CANCELLED', statusFrom: '2021-04-30', gstRegisteredFrom: null, businessNames: [], state: 'SA', postcode: '5253' },
    asic: { type: 'APTY', class: 'LMSH', subClass: 'PROP', status: 'DRGD', registeredOn: '2008-04-14', deregisteredOn: '2021-03-28' },
    // Deregistered: its officers ceased and its shares no longer exist, so there is nothing current to report.
    officers: [],
    holdings: null,
  },
];

/** The table's businesses that are not companies: no ACN, so no company record, officers or ownership. */
const businesses: AbnRecord[] = [
  {
    abn: '53900000001', status: 'ACTIVE', statusFrom: '2018-01-15', entityName: 'ABERCROMBIE, FIONA MAREE', entityType: 'SOLE_TRADER',
    entityTypeCode: 'IND', entityTypeName: 'Individual/Sole Trader', acn: null, gstRegisteredFrom: null,
    businessNames: ['Fiona Abercrombie Photography'], state: 'TAS', postcode: '7250',
  },
  {
    abn: '34900000002', status: 'ACTIVE', statusFrom: '2015-07-01', entityName: 'The Trustee for the WOLLEMI FAMILY TRUST', entityType: 'TRUST',
    entityTypeCode: 'DTT', entityTypeName: 'Discretionary Trading Trust', acn: null, gstRegisteredFrom: null,
    businessNames: [], state: 'QLD', postcode: '4217',
  },
  {
    abn: '15900000003', status: 'ACTIVE', statusFrom: '2019-02-11', entityName: 'D K FAIRWEATHER & S L MONTGOMERY', entityType: 'PARTNERSHIP',
    entityTypeCode: 'PTR', entityTypeName: 'Other Partnership', acn: null, gstRegisteredFrom: '2019-03-01',
    businessNames: ['Fairweather Montgomery Surveying'], state: 'ACT', postcode: '2612',
  },
];

export const tableCompanies: ReadonlyMap<string, SandboxCompany> = new Map(companies.map((c) => [c.acn, c]));
export const tableCompaniesByAbn: ReadonlyMap<string, SandboxCompany> = new Map(companies.map((c) => [c.abn, c]));
export const tableBusinesses: ReadonlyMap<string, AbnRecord> = new Map(businesses.map((b) => [b.abn, b]));

/** Every person of the table, by partyRef. */
export const tablePersons: ReadonlyMap<string, RegisterParty> = new Map(companies.flatMap(partiesOf).map((p) => [p.partyRef, p]));

/** The ABN register answers NOT_FOUND for this one (CONTRACT §13). */
export const abnNotOnRegister = '85900000004';
/** The ABN register answers UNAVAILABLE for this one, on every call (CONTRACT §13). */
export const abnRegisterUnavailable = '66900000005';
/**
 * ATO's published example ABN (valid check digits, last nine digits not an ACN). The register answers
 * UNAVAILABLE on the first two calls for it in each sandbox instance, then answers like any other number
 * (a synthetic sole trader or partnership), so a lookup job's retries can be tested end to end.
 */
export const abnTransientlyUnavailable = '51824753556';
export const transientFailures = 2;
