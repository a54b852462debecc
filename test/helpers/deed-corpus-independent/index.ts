// An independent corpus of Australian trust deeds, for measuring the deed extractor honestly.
//
// WHAT: a seeded generator of trust deeds (born-digital PDFs with a text layer, and scanned PDFs without
// one) each with the answer a perfect extractor would give, in the terms of SPEC's `deed-analysis.completed`
// payload: `trust` (name, abn, trustType, jurisdiction, establishedDate, vestingDate), `parties[]` (role,
// partyKind, businessName, firstName, lastName, acn, abn, address.full) and `beneficiaryClasses`.
//
// WHO AND UNDER WHAT RULES: written by an author who had not read the extractor's rules
// (src/providers/extractor/), the first corpus (test/helpers/deed-corpus/) or the deed extraction tests,
// and worked only from SPEC.md, CONTRACT.md, the payload's field list and role names in docs/deeds.md,
// and general knowledge of how Australian deeds are drafted. Its layouts and wording are therefore not
// shaped by what the extractor already handles. Keep it that way: whoever tunes the extractor should not
// edit this corpus to match it, and should tune against the development half only.
//
// USE:
//   import { independentCorpus } from './helpers/deed-corpus-independent/index.ts';
//   for (const c of independentCorpus({ half: 'development' })) {
//     const pdf = await c.pdf();          // Buffer; scanned cases are image-only (OCR needed)
//     compare(extract(pdf), c.truth);    // and check none of c.datesOfBirth appears in the output
//   }
// `createIndependentCase(seed, scanned)` rebuilds one case; the layout is seed / 1000 (rounded down).
//
// SPLIT (once, by seed; never move a seed between halves): seed = 1000 × layout number + n. Even n is
// `development`, odd n is `held-out`. Per layout, n 0–5 are born-digital (3 per half) and n 100–101
// scanned (1 per half); layouts 3 and 6 (tables) have two more scanned seeds, n 102–103. Each half: 30
// born-digital (2–12 pages) and 12 scanned (1–3 pages, 300 dpi, grain and skew: a few seconds a page to OCR).
//
// THE TRUTH, RULE BY RULE:
// - Roles are SPEC's: TRUSTEE, APPOINTOR (also printed appointer, principal, nominator), SETTLOR,
//   PROTECTOR_GUARDIAN (guardian, protector), BENEFICIARY. SPEC's deed roles have no member or unitholder:
//   an SMSF member and a unitholder are BENEFICIARY (docs/deeds.md). One entry per (party, role).
// - Named primary or specified beneficiaries are BENEFICIARY parties; classes the deed defines by
//   description (General, Eligible, Discretionary, Default, Secondary Beneficiaries) are
//   `beneficiaryClasses`, by the defined name, and are never turned into people.
// - Corporate trustee (layout 7): the company is the TRUSTEE. Its directors, printed beside it and in its
//   execution block, are not parties for being directors: SPEC's deed roles are the trust's, and a
//   company's officers come from a business lookup of its ACN. A director the deed also makes appointor is
//   an APPOINTOR, and only that.
// - Change of trustee (layout 8): the trust as it stands after the deed. New and continuing trustees are
//   TRUSTEE; the retiring trustee and the first trustee named in the recitals are not parties (unless they
//   stay on in another role); when the appointor changes, only the new appointor is APPOINTOR. The
//   original settlor, recited, is the SETTLOR. `establishedDate` is the original deed's date;
//   `jurisdiction` is the variation deed's governing-law clause; `vestingDate` only when recited.
// - SMSF (layout 5): every member is also a trustee: TRUSTEE and BENEFICIARY entries for each. No settlor,
//   vesting date or classes; trustType SMSF.
// - Bare trust (layout 10): the custodian is the TRUSTEE; the fund's trustee(s) the BENEFICIARY; the lender
//   and the fund are named but are not parties, and the fund's name is not the trust's.
// - Unit trust (layout 6): a company unitholder "as trustee for the X Family Trust" is named by its own
//   name; X Family Trust is not this trust.
// - Never parties: witnesses, the law firm that prepared the deed, signing directors, the lender.
// - Names: firstName is every given name in order, lastName the family name with its particles and
//   hyphens (van der Berg, Smith-Jones); titles (Mr, Dr) are dropped. Deeds print names in capitals or
//   surname first (SMITH, John): compare without regard to case; accents count.
// - Businesses: businessName as printed; acn/abn digits only, and only when printed with valid check
//   digits: a few trustee companies in each half are printed with a mistyped ACN, and their truth has
//   acn null.
// - Addresses: as printed, when the deed prints one for that party anywhere; otherwise null.
// - Trust: `name` as printed without a leading "The" or a trailing "Deed" (compare without regard to case);
//   `abn` only when printed; `jurisdiction` the state or territory's name (a printed "the State of" is not
//   part of it); dates and vesting as printed (14th day of March 2019; a phrase for a computed vesting day).
// - Never in the truth: a date of birth. `datesOfBirth` lists every one the case prints, exactly as
//   printed, so a scorer can check that none reaches the payload.
// - Evidence fields (confidence, sourcePage, sourceQuote) are not facts of the deed and are left out.
//
// Deterministic: no clock, no Math.random; a seed gives the same truth and, born-digital, the same bytes
// (the scan step's container is not byte-stable, its pages are). No printed number passes the Tax File
// Number check, so that no case trips the pipeline's TFN quarantine.
import { scanPdf } from '../deed-scans.ts';
import { renderDeed } from './document.ts';
import { createRandom } from './random.ts';
import type { DeedTruth } from './truth.ts';
import { writeBareCustodian } from './layouts/bare-custodian.ts';
import { writeChangeOfTrustee } from './layouts/change-of-trustee.ts';
import type { Layout } from './layouts/common.ts';
import { writeCorporateTrustee } from './layouts/corporate-trustee.ts';
import { writeCoverPage } from './layouts/cover-page.ts';
import { writeDefinitionClauses } from './layouts/definition-clauses.ts';
import { writeRecital } from './layouts/recital.ts';
import { writeScheduleTable } from './layouts/schedule-table.ts';
import { writeSmsf } from './layouts/smsf-member-trustees.ts';
import { writeTitleOnly } from './layouts/title-only.ts';
import { writeUnitRegister } from './layouts/unit-register.ts';

export type { DeedTruth, PartyRole, TruthParty, TruthTrust, TrustType } from './truth.ts';
export { isValidAbn, isValidAcn } from './identifiers.ts';

/** The layouts, numbered as the seeds number them (layout n has seeds 1000·n …). */
export const layouts = {
  1: ['cover-page', writeCoverPage],
  2: ['recital', writeRecital],
  3: ['schedule-table', writeScheduleTable],
  4: ['definition-clauses', writeDefinitionClauses],
  5: ['smsf-member-trustees', writeSmsf],
  6: ['unit-register', writeUnitRegister],
  7: ['corporate-trustee', writeCorporateTrustee],
  8: ['change-of-trustee', writeChangeOfTrustee],
  9: ['title-only', writeTitleOnly],
  10: ['bare-custodian', writeBareCustodian],
} as const satisfies Record<number, readonly [string, Layout]>;

export type LayoutNumber = keyof typeof layouts;
export type LayoutName = (typeof layouts)[LayoutNumber][0];
export type CorpusHalf = 'development' | 'held-out';

export interface IndependentCase {
  /** e.g. `indep-03-schedule-table-3002`, `indep-06-unit-register-6101-scan`. */
  id: string;
  seed: number;
  layout: LayoutName;
  scanned: boolean;
  half: CorpusHalf;
  truth: DeedTruth;
  /** Every date of birth the deed prints, as printed; none may appear in an extraction. */
  datesOfBirth: string[];
  /** The deed as a partner would upload it: born-digital, or (scanned) image-only pages. */
  pdf(): Promise<Buffer>;
  /** The born-digital typesetting; for a scanned case, the pages before they were scanned. */
  sourcePdf(): Promise<Buffer>;
}

const bornDigitalN = [0, 1, 2, 3, 4, 5];
const scannedN = [100, 101];
const extraScannedN = [102, 103];
const extraScannedLayouts: LayoutNumber[] = [3, 6];

export function halfOf(seed: number): CorpusHalf {
  return (seed % 1000) % 2 === 0 ? 'development' : 'held-out';
}

function layoutOf(seed: number): LayoutNumber {
  const number = Math.floor(seed / 1000);
  if (!(number in layouts)) throw new Error(`seed ${seed} names no layout (layouts are 1 to 10: seed = 1000 × layout + n)`);
  return number as LayoutNumber;
}

export function createIndependentCase(seed: number, scanned: boolean): IndependentCase {
  const number = layoutOf(seed);
  const [layout, write] = layouts[number];
  const written = write(createRandom(seed), scanned);
  let source: Promise<Buffer> | undefined;
  let scan: Promise<Buffer> | undefined;
  const sourcePdf = (): Promise<Buffer> => (source ??= renderDeed(written.blocks, written.style));
  const noise = 0.08 + createRandom(seed).fork('scan').next() * 0.17;
  return {
    id: `indep-${String(number).padStart(2, '0')}-${layout}-${seed}${scanned ? '-scan' : ''}`,
    seed,
    layout,
    scanned,
    half: halfOf(seed),
    truth: written.truth,
    datesOfBirth: written.datesOfBirth,
    sourcePdf,
    pdf: () => (scanned ? (scan ??= sourcePdf().then((bytes) => scanPdf(bytes, { seed, dpi: 300, noise }))) : sourcePdf()),
  };
}

/** The seeds of the corpus, with whether each is scanned, in layout order. */
export function corpusSeeds(): Array<{ seed: number; scanned: boolean }> {
  return (Object.keys(layouts).map(Number) as LayoutNumber[]).flatMap((number) => [
    ...bornDigitalN.map((n) => ({ seed: number * 1000 + n, scanned: false })),
    ...scannedN.map((n) => ({ seed: number * 1000 + n, scanned: true })),
    ...(extraScannedLayouts.includes(number) ? extraScannedN.map((n) => ({ seed: number * 1000 + n, scanned: true })) : []),
  ]);
}

/** One half of the corpus: `development` to look at and tune against, `held-out` only to measure. */
export function independentCorpus(options: { half: CorpusHalf }): IndependentCase[] {
  return corpusSeeds()
    .filter(({ seed }) => halfOf(seed) === options.half)
    .map(({ seed, scanned }) => createIndependentCase(seed, scanned));
}
