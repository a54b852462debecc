// The deed corpus: generated Australian trust deeds, each with the answer a perfect extractor gives.
//
// What it is for. The rule-based extractor (src/providers/extractor/) is measured against it
// (bench/scenarios/deed-extraction.ts, and a test asserting party F1 and trust-field accuracy), and the
// deed pipeline's tests use it for real PDFs: born-digital, with a text layer on every page, some with a
// Tax File Number printed in them.
//
// What is in it. `deedCorpus()` answers 38 cases, the same on every machine (each is drawn from a fixed
// seed; nothing reads the clock or Math.random; `deedCorpus({ seed })` draws 38 others of the same kinds):
//   - discretionary (14), unit (6), hybrid (4), fixed (2), bare (3, one that never names its trust: the
//     truth's trust is null), self managed super funds (4), deeds of variation (5: change of appointor,
//     change of trustee, an added guardian and successor appointors, an SMSF's change of trustee);
//   - three long deeds of 100 to 135 pages (boilerplate clauses), the rest 1 to 9 pages;
//   - the schedule first, last, or absent (names in the parties clause and the definitions); schedule
//     tables with item numbers, two-column tables, `Label: value` lines and stacked labels; headed
//     `SCHEDULE`, `SCHEDULE 1`, `Particulars`, `DEED DETAILS` …;
//   - parties clauses `BY … AND …`, `PARTIES 1. … 2. …`, `BETWEEN … of the one part AND …`, or only a
//     reference to the schedule; defined terms `(the "Trustee")`, `("Settlor")`, `(hereinafter called
//     "the Appointor")`, `(together the "Appointors")`;
//   - role words Appointor / Appointer / Principal / Nominator, Guardian / Protector, Trustee / Original
//     Trustee / Initial Trustee, Primary / Specified beneficiaries, General / Secondary / Eligible /
//     Default classes; successor appointors in the schedule or in a clause (`If … dies …, X shall become
//     the Appointor`); several appointors; `being initially …`; `The first Guardian is …`; `Name: …
//     Address: …` blocks; corporate and individual trustees; unitholders; SMSF members; a company that is
//     `… as trustee for the X Superannuation Fund` (a beneficiary, not a trustee of this trust);
//   - ACNs spelled `ACN 123 456 789`, `A.C.N. 123456789`, `(ACN …)`, `Australian Company Number …`,
//     `A.C.N. 123.456.789`, one with a wrong check digit (the truth's acn is null); company ABNs;
//   - names with accents (José, Zoë, Łukasz, Nguyễn), hyphens (Anne-Marie, Smith-Jones) and particles
//     (van der Berg, de la Cruz); in capitals in some parties clauses; dates of birth after some names
//     (never part of the truth); dates as `3 June 2019`, `3rd day of June 2019`, `June 3, 2019`,
//     `03/06/2019`; vesting as rules (`the day before the eightieth anniversary of …`) or dates; every
//     State's and Territory's governing law; running headers and `Page n of N` footers.
//
// The truth (`DeedCase.truth`) is the payload's DeedExtraction without pages, quotes and confidence:
// trust fields as printed, parties by role, kind, names split into given and family names (a particle
// belongs to the family name), ACN/ABN digits only and only when the deed prints a valid one, address as
// printed (or null when the deed prints none for that party), beneficiary classes by name. A deed of
// variation's truth is the trust as the variation leaves it: the retiring appointor or trustee is not a
// party, the established date is the original deed's, the vesting date null.
//
// TFNs. Four cases print a TFN (`DeedCase.tfn`, valid check digit; one has 8 digits), in a schedule row or a
// clause, spaced, plain or dashed. `renderDeed(c, { tfn })` prints any TFN you give where the deed has a
// place for one (every case has one), and `makeTfn(seed, 8 | 9)` makes valid ones (`isValidTfn` checks).
// A TFN is never part of the truth. Beware: a 9-digit ACN passes the TFN check about one time in eleven.
//
// Speed: composing is instant; rendering all 38 takes about 5 s on 2 cores (`renderDeed`, pdfkit), and
// reading their text layers with pdfjs about as long. Scanned deeds are not generated here: render, then
// rasterise, when the OCR pipeline needs them.
import { composeDeed, type ComposeSpec } from './compose.ts';
import { makeTfn } from './identifiers.ts';
import type { DeedCase } from './types.ts';
import { composeVariation, type VariationSpec } from './variation.ts';

export { renderDeed, type RenderOptions } from './render.ts';
export { makeTfn, isValidTfn, makeAcn, makeAbn } from './identifiers.ts';
export type { DeedBlock, DeedCase, DeedKind, DeedTruth, ExpectedParty } from './types.ts';

type Spec = ({ variation?: false } & Omit<ComposeSpec, 'seed'>) | ({ variation: true } & Omit<VariationSpec, 'seed'>);

const specs: Spec[] = [
  { id: 'd01-discretionary-schedule-last-items', kind: 'DISCRETIONARY', force: { schedule: 'last', scheduleStyle: 'item-table', parties: 'by-and' }, cast: { trustee: 'company' } },
  { id: 'd02-discretionary-schedule-first-colon', kind: 'DISCRETIONARY', force: { schedule: 'first', scheduleStyle: 'colon', scheduleHeading: 'DEED DETAILS' } },
  { id: 'd03-discretionary-no-schedule', kind: 'DISCRETIONARY', force: { schedule: 'none', parties: 'parties-list' }, cast: { successors: 1 } },
  { id: 'd04-discretionary-appointer-several', kind: 'DISCRETIONARY', force: { appointorWord: 'Appointer', appointorIn: 'schedule', listStyle: 'numbered', schedule: 'last' }, cast: { appointors: 3 } },
  { id: 'd05-discretionary-principal-successor-schedule', kind: 'DISCRETIONARY', force: { appointorWord: 'Principal', successorIn: 'schedule', schedule: 'last' }, cast: { successors: 2 } },
  { id: 'd06-discretionary-nominator-successor-clause', kind: 'DISCRETIONARY', force: { appointorWord: 'Nominator', successorIn: 'clause', addresses: true }, cast: { successors: 1, appointors: 2 } },
  { id: 'd07-discretionary-protector-in-parties', kind: 'DISCRETIONARY', force: { guardianWord: 'Protector', guardianIn: 'parties', appointorIn: 'parties', parties: 'by-and', upperInParties: true }, cast: { guardian: true, trustee: 'individuals' } },
  { id: 'd08-discretionary-guardian-definition-birth-dates', kind: 'DISCRETIONARY', force: { guardianIn: 'definition', birthDates: true, namedIn: 'schedule', schedule: 'first', guardianWord: 'Guardian' }, cast: { guardian: true } },
  { id: 'd09-discretionary-invalid-acn', kind: 'DISCRETIONARY', misprintAcn: true, force: { schedule: 'last', scheduleStyle: 'numbered-table' } },
  { id: 'd10-discretionary-between-capitals', kind: 'DISCRETIONARY', force: { parties: 'between', upperInParties: true, trusteeWord: 'Original Trustee' }, cast: { trustee: 'company' } },
  { id: 'd11-discretionary-schedule-reference-stacked', kind: 'DISCRETIONARY', force: { parties: 'schedule-ref', scheduleStyle: 'stacked', scheduleHeading: 'Particulars', schedule: 'first' } },
  { id: 'd12-discretionary-tfn-in-deed', kind: 'DISCRETIONARY', tfn: true, force: { schedule: 'last', scheduleStyle: 'item-table' } },
  { id: 'd13-discretionary-semicolons-initial-trustee', kind: 'DISCRETIONARY', force: { listStyle: 'semicolon', trusteeWord: 'Initial Trustee', namedWord: 'Specified', addresses: true, appointorIn: 'schedule', schedule: 'first' }, cast: { appointors: 2, guardian: true } },
  { id: 'u01-unit-schedule-last', kind: 'UNIT', force: { schedule: 'last' } },
  { id: 'u02-unit-schedule-first-table', kind: 'UNIT', force: { schedule: 'first', scheduleStyle: 'numbered-table' } },
  { id: 'u03-unit-no-schedule', kind: 'UNIT', force: { schedule: 'none' } },
  { id: 'u04-unit-tfn', kind: 'UNIT', tfn: true },
  { id: 'u05-unit-invalid-acn', kind: 'UNIT', misprintAcn: true, force: { scheduleStyle: 'colon' } },
  { id: 'h01-hybrid-schedule-last', kind: 'HYBRID', force: { schedule: 'last' } },
  { id: 'h02-hybrid-schedule-first', kind: 'HYBRID', force: { schedule: 'first', appointorWord: 'Principal' } },
  { id: 'h03-hybrid-no-schedule', kind: 'HYBRID', force: { schedule: 'none' } },
  { id: 'f01-fixed-schedule', kind: 'FIXED', force: { schedule: 'last' } },
  { id: 'f02-fixed-no-schedule', kind: 'FIXED', force: { schedule: 'none' } },
  { id: 'b01-bare-schedule', kind: 'BARE', force: { schedule: 'last' } },
  { id: 'b02-bare-no-schedule', kind: 'BARE', force: { schedule: 'none' } },
  { id: 'b03-bare-unnamed-trust', kind: 'BARE', noTrustName: true, force: { schedule: 'none' } },
  { id: 's01-smsf-schedule-last', kind: 'SMSF', force: { schedule: 'last' }, cast: { trustee: 'company' } },
  { id: 's02-smsf-schedule-first', kind: 'SMSF', force: { schedule: 'first', scheduleStyle: 'item-table' }, cast: { trustee: 'individuals' } },
  { id: 's03-smsf-tfn', kind: 'SMSF', tfn: true },
  { id: 's04-smsf-no-schedule', kind: 'SMSF', force: { schedule: 'none' } },
  { id: 'v01-variation-appointor', variation: true, change: 'appointor' },
  { id: 'v02-variation-trustee', variation: true, change: 'trustee' },
  { id: 'v03-variation-guardian-successors', variation: true, change: 'guardian' },
  { id: 'v04-variation-smsf-trustee', variation: true, change: 'smsf-trustee' },
  { id: 'v05-variation-appointor-tfn', variation: true, change: 'appointor', tfn: true },
  { id: 'l01-long-discretionary', kind: 'DISCRETIONARY', long: true },
  { id: 'l02-long-unit', kind: 'UNIT', long: true, force: { schedule: 'first' } },
  { id: 'l03-long-hybrid', kind: 'HYBRID', long: true, force: { schedule: 'last' } },
];

/**
 * Every case, in a fixed order. Cheap: no PDF is made until `renderDeed`. Another `seed` draws other
 * deeds of the same 38 kinds (other names, wording and layout choices): a check that a rule is not fitted
 * to the default corpus.
 */
export function deedCorpus(options: { seed?: number } = {}): DeedCase[] {
  let tfns = 0;
  const base = options.seed ?? 20_250;
  return specs.map((spec, i) => {
    const seed = base + i * 7919;
    const deed = spec.variation ? composeVariation({ ...spec, seed }) : composeDeed({ ...spec, seed });
    // The cases with a TFN: one of them 8 digits long (older TFNs are).
    if (spec.tfn) deed.tfn = makeTfn(seed, tfns++ === 1 ? 8 : 9);
    if (spec.tfn) deed.features.push('tfn');
    return deed;
  });
}
