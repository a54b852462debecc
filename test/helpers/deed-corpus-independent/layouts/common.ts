// What several layouts share: the cast of a family discretionary trust, its name, its governing-law and
// vesting wording, and its classes of beneficiary.
import { add, joinAnd, runs, term, type Draft } from '../draft.ts';
import type { Block, DeedStyle } from '../document.ts';
import { createCompany, createDate, createPerson, createPlace, months, pickFamilyName, type CalendarDate, type Company, type Entity, type Person, type Place } from '../people.ts';
import type { Random } from '../random.ts';
import type { DeedTruth } from '../truth.ts';

/** What a layout hands back: the blocks and how to set them, the truth, and the dates of birth it printed. */
export interface Written {
  blocks: Block[];
  style: DeedStyle;
  truth: DeedTruth;
  datesOfBirth: string[];
}

export type Layout = (random: Random, short: boolean) => Written;

/** Van der Berg for the start of a name; the family name as written otherwise. */
export function capitalised(family: string): string {
  return family[0]!.toUpperCase() + family.slice(1);
}

export function familyTrustName(random: Random, family: string): string {
  const base = capitalised(family);
  return random.pick([`${base} Family Trust`, `${base} Family Trust`, `${base} Investment Trust`, `${base} Discretionary Trust`, `${base} Family Trust No. ${random.int(2, 4)}`]);
}

export interface FamilyCast {
  family: string;
  place: Place;
  settlor: Person;
  /** One company, or one or two individuals. */
  trustees: Entity[];
  /** Directors of a company trustee, when there is one. */
  directors: Person[];
  appointors: Person[];
  guardian: Person | null;
  primary: Person[];
}

export interface CastOptions {
  companyTrustee?: boolean;
  /** Addresses printed for appointors and beneficiaries too (settlor and trustees always have one). */
  addresses?: boolean;
  guardian?: boolean;
  primaryBeneficiaries?: boolean;
}

/** A family: two adults (sometimes not sharing a name), their children, an accountant as settlor. */
export function createFamilyCast(random: Random, options: CastOptions = {}): FamilyCast {
  const family = pickFamilyName(random);
  const place = createPlace(random);
  const companyTrustee = options.companyTrustee ?? random.chance(0.55);
  // Individual trustees are always given an address, as every deed does.
  const withAddress = options.addresses ?? (!companyTrustee || random.chance(0.5));
  const parentA = createPerson(random, { family, place, withoutAddress: !withAddress, bornFrom: 1945, bornTo: 1980 });
  const parentB = createPerson(random, { family: random.chance(0.75) ? family : pickFamilyName(random), place, withoutAddress: !withAddress, bornFrom: 1945, bornTo: 1980 });
  // Adults share a home; the second parent's address is printed as the first's.
  if (parentA.address) parentB.address = parentA.address;
  const children = Array.from({ length: random.int(1, 3) }, () => createPerson(random, { family, place, withoutAddress: true, bornFrom: 1975, bornTo: 2008 }));
  const settlor = createPerson(random, { place });
  const trustee: Company = createCompany(random, { family: random.chance(0.6) ? family : undefined, place, capitals: random.chance(0.5), mistypedAcn: random.chance(0.12) });
  const parentsAsTrustees = random.chance(0.5) ? [parentA, parentB] : [parentA];
  const appointors = random.chance(0.6) ? [parentA, parentB] : [parentA];
  return {
    family,
    place,
    settlor,
    trustees: companyTrustee ? [trustee] : parentsAsTrustees,
    directors: companyTrustee ? (random.chance(0.7) ? [parentA, parentB] : [parentA]) : [],
    appointors,
    guardian: (options.guardian ?? random.chance(0.35)) ? createPerson(random, { place, withoutAddress: !withAddress }) : null,
    primary: (options.primaryBeneficiaries ?? random.chance(0.6)) ? [parentA, parentB, ...children].slice(0, random.int(2, 4)) : [],
  };
}

/** "the laws of Victoria" and its variants; the truth is the state's name. */
export function governingLawSentence(random: Random, place: Place): string {
  // A territory takes the article (the laws of the Northern Territory); the truth is the name without it.
  const state = place.stateName.includes('Territory') ? `the ${place.stateName}` : place.stateName;
  return random.pick([
    `This Deed is governed by and shall be construed in accordance with the laws of ${state}.`,
    `The proper law of the Trust is the law of ${state}, and the parties submit to the non-exclusive jurisdiction of its courts.`,
    `This Deed shall be governed by the laws in force in ${state === place.stateName ? `the State of ${state}` : state}.`,
  ]);
}

export interface Vesting {
  /** What the deed prints, and so what the truth holds. */
  printed: string;
}

/** A vesting date written out, or the phrase by which a deed computes it (printed, never computed here). */
export function createVesting(random: Random, established: CalendarDate): Vesting {
  if (random.chance(0.65)) {
    const day = random.pick([{ day: 30, month: 6 }, { day: 31, month: 12 }, { day: established.day, month: established.month }]);
    return { printed: `${day.day} ${months[day.month - 1]} ${established.year + random.pick([79, 80])}` };
  }
  return {
    printed: random.pick([
      'the day before the eightieth anniversary of the date of this Deed',
      'the date which is eighty years less one day after the Commencement Date',
      'the last day of the perpetuity period applicable to the Trust',
    ]),
  };
}

export function establishedDate(random: Random, fromYear = 1988, toYear = 2023): CalendarDate {
  return createDate(random, fromYear, toYear);
}

export interface BeneficiaryClass {
  name: string;
  definition: string;
}

/** The classes a discretionary deed defines by description, one to three of them. */
export function beneficiaryClasses(random: Random, hasPrimary: boolean, words: { appointor?: string; primary?: string } = {}): BeneficiaryClass[] {
  const primary = words.primary ?? 'Primary Beneficiaries';
  const who = hasPrimary ? `a ${primary.replace(/ies$/, 'y')}` : `the ${words.appointor ?? 'Appointor'}`;
  const general: BeneficiaryClass = {
    name: random.pick(['General Beneficiaries', 'Eligible Beneficiaries', 'Discretionary Beneficiaries']),
    definition: `${hasPrimary ? `the ${primary}; ` : ''}any spouse, child, grandchild, parent, brother, sister, niece or nephew of ${who}; any company in which any of them holds shares; the trustee of any trust under which any of them may benefit; and any charitable institution`,
  };
  const classes = [general];
  if (random.chance(0.5)) classes.push({ name: 'Default Beneficiaries', definition: `the children of ${who} living on the Vesting Day, in equal shares` });
  if (random.chance(0.2)) classes.push({ name: 'Secondary Beneficiaries', definition: `the grandchildren and great-grandchildren of ${who}` });
  return classes;
}

/** "'General Beneficiaries' means …" as a paragraph with the term in bold. */
export function defineClass(draft: Draft, cls: BeneficiaryClass, indent = 0): Block {
  return { kind: 'paragraph', text: runs(term(draft, cls.name), ` means ${cls.definition}.`), indent };
}

export function addTitle(draft: Draft, lines: string[], size = 18): void {
  lines.forEach((text, i) => add(draft, { kind: 'title', text, size: i === 0 ? size : size - 4 }));
}

export function settledSum(random: Random): string {
  return random.pick(['$10.00', 'ten dollars ($10)', '$10', 'the sum of twenty dollars ($20.00)']);
}

export function listNames(people: Entity[], print: (entity: Entity) => string): string {
  return joinAnd(people.map(print));
}

