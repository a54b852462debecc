// Scores a deed extraction against a generated deed's truth (test/helpers/deed-corpus/).
//
// Parties: a party matches a true one when role, kind and normalised name agree (case, accents and
// letters with a stroke such as `ł` and `ø`, punctuation and the spelling of `Pty Ltd` aside), and, when the truth has an ACN or ABN, that the
// extraction has the same digits. Each true party matches at most one extracted party. Precision, recall
// and F1 are counted over all parties of all deeds (micro-averaged). Whether a matched person's name was
// split right (given names / family name) is counted beside, not in F1.
//
// Trust fields (name, abn, trustType, jurisdiction, establishedDate, vestingDate): right when equal after
// collapsing whitespace, ignoring case, accents (as for names: OCR reads `García` as `Garcia`), trailing
// punctuation and a leading `the` (a deed prints
// `The Smith Family Trust` in one place and `the Smith Family Trust` in another: both are as printed).
// A deed whose truth has no trust expects all six null.
//
// The caller supplies the pages (`scoreDeedPages`): the text layer for born-digital deeds, or whatever
// the OCR pipeline reads from a scanned rendering of the same deed, so both are scored the same way.
import { Value } from '@sinclair/typebox/value';
import { DeedExtraction, type DeedPage, type ExtractedParty, type ExtractedTrust } from '../../src/providers/extractor/deed-payload.ts';
import { quoteOnPage } from '../../src/modules/deeds/quotes.ts';
import type { DeedExtractor } from '../../src/providers/extractor/extractor.ts';
import type { DeedCase, DeedTruth, ExpectedParty } from '../../test/helpers/deed-corpus/index.ts';

export const trustFields = ['name', 'abn', 'trustType', 'jurisdiction', 'establishedDate', 'vestingDate'] as const;
export type TrustField = (typeof trustFields)[number];

export interface DeedScore {
  id: string;
  truePositives: number;
  falsePositives: number;
  falseNegatives: number;
  /** True parties not found, and extracted ones that match none: `ROLE KIND name`, for a report. */
  missed: string[];
  extra: string[];
  /** Matched individuals, and how many of them had given and family names split as the truth has them. */
  individualsMatched: number;
  namesSplitRight: number;
  fields: Array<{ field: TrustField; expected: string | null; actual: string | null; right: boolean }>;
  classesRight: boolean;
  /** What makes the answer unusable or wrong in kind: schema, a quote not on its page, a date of birth. */
  problems: string[];
}

export interface CorpusScore {
  deeds: number;
  precision: number;
  recall: number;
  f1: number;
  /** Right trust fields over all fields of all deeds. */
  trustFieldAccuracy: number;
  perField: Record<TrustField, number>;
  nameSplitAccuracy: number;
  classAccuracy: number;
  problems: number;
}

/** Letters with a stroke or a ligature that NFKD does not take apart: as unaccented letters. */
const foldLetters = (s: string) => s.replace(/[łŁøØđĐħĦ]/gu, (c) => ({ ł: 'l', Ł: 'L', ø: 'o', Ø: 'O', đ: 'd', Đ: 'D', ħ: 'h', Ħ: 'H' })[c]!).replace(/æ/gu, 'ae').replace(/Æ/gu, 'AE').replace(/ß/gu, 'ss');
const withoutAccents = (s: string) => foldLetters(s.normalize('NFKD').replace(/\p{M}/gu, ''));

const normaliseName = (s: string) =>
  withoutAccents(s)
    .toLowerCase()
    .replace(/\bproprietary\b/g, 'pty')
    .replace(/\blimited\b/g, 'ltd')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

const nameOf = (p: Pick<ExpectedParty, 'businessName' | 'firstName' | 'lastName'>) => p.businessName ?? `${p.firstName ?? ''} ${p.lastName ?? ''}`;
const label = (p: Pick<ExpectedParty, 'role' | 'partyKind' | 'businessName' | 'firstName' | 'lastName'>) => `${p.role} ${p.partyKind} ${nameOf(p)}`;

export function normaliseField(value: string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  return withoutAccents(value).replace(/\s+/g, ' ').trim().replace(/[.,;:]+$/u, '').replace(/^the\s+/iu, '').toLowerCase();
}

function matches(truth: ExpectedParty, got: ExtractedParty): boolean {
  if (truth.role !== got.role || truth.partyKind !== got.partyKind) return false;
  if (normaliseName(nameOf(truth)) !== normaliseName(nameOf(got))) return false;
  if (truth.acn && truth.acn !== got.acn) return false;
  if (truth.abn && truth.abn !== got.abn) return false;
  return true;
}

const datePattern = /\b\d{1,2}(?:st|nd|rd|th)?\s+(?:day\s+of\s+)?[A-Z][a-z]+\s+\d{4}\b|\b\d{1,2}\/\d{1,2}\/\d{2,4}\b/u;

/** Scores one extraction; `pages` (when given) are what it was extracted from, for the quote check. */
export function scoreExtraction(id: string, truth: DeedTruth, extraction: DeedExtraction, pages?: readonly DeedPage[]): DeedScore {
  const problems: string[] = [];
  if (!Value.Check(DeedExtraction, extraction)) problems.push(`schema: ${[...Value.Errors(DeedExtraction, extraction)].slice(0, 3).map((e) => `${e.path} ${e.message}`).join('; ')}`);
  const byNumber = new Map(pages?.map((p) => [p.number, p]));
  for (const p of extraction.parties) {
    if (pages && !quoteOnPage(p.sourceQuote, byNumber.get(p.sourcePage))) problems.push(`quote of ${label(p)} is not on page ${p.sourcePage}`);
    const fields = [p.businessName, p.firstName, p.lastName, p.address?.full].filter((v): v is string => !!v);
    if (fields.some((v) => /\bborn\b/iu.test(v)) || [p.firstName, p.lastName, p.businessName].some((v) => v && datePattern.test(v))) problems.push(`a date of birth in ${label(p)}`);
    if (/\bborn\b|\bdate of birth\b/iu.test(p.sourceQuote)) problems.push(`a date of birth in the quote of ${label(p)}`);
  }

  const unmatched = [...extraction.parties];
  let truePositives = 0;
  let individualsMatched = 0;
  let namesSplitRight = 0;
  const missed: string[] = [];
  for (const t of truth.parties) {
    const i = unmatched.findIndex((g) => matches(t, g));
    if (i < 0) {
      missed.push(label(t));
      continue;
    }
    const got = unmatched.splice(i, 1)[0]!;
    truePositives++;
    if (t.partyKind === 'INDIVIDUAL') {
      individualsMatched++;
      if (normaliseName(t.firstName ?? '') === normaliseName(got.firstName ?? '') && normaliseName(t.lastName ?? '') === normaliseName(got.lastName ?? '')) namesSplitRight++;
    }
  }

  const fields = trustFields.map((field) => {
    const expected = truth.trust ? (truth.trust[field] as string | null) : null;
    const actual = extraction.trust ? ((extraction.trust as ExtractedTrust)[field] as string | null) : null;
    return { field, expected, actual, right: normaliseField(expected) === normaliseField(actual) };
  });
  const classKey = (list: string[]) => [...new Set(list.map((c) => normaliseField(c)))].sort().join('|');
  return {
    id,
    truePositives,
    falsePositives: unmatched.length,
    falseNegatives: missed.length,
    missed,
    extra: unmatched.map(label),
    individualsMatched,
    namesSplitRight,
    fields,
    classesRight: classKey(truth.beneficiaryClasses) === classKey(extraction.beneficiaryClasses),
    problems,
  };
}

/** Extracts `deed` from `pages` (a text layer, or OCR of a scan) and scores it. An extractor that fails scores nothing found. */
export async function scoreDeedPages(deed: DeedCase, pages: readonly DeedPage[], extractor: DeedExtractor): Promise<DeedScore> {
  const result = await extractor.extract(pages);
  if (!result.ok) {
    const empty: DeedExtraction = { trust: null, parties: [], beneficiaryClasses: [] };
    const score = scoreExtraction(deed.id, deed.truth, empty);
    score.problems.push(`extractor answered ${result.reason}`);
    return score;
  }
  return scoreExtraction(deed.id, deed.truth, result.extraction, pages);
}

const ratio = (n: number, of: number) => (of ? n / of : 1);

export function summariseScores(scores: readonly DeedScore[]): CorpusScore {
  const sum = (f: (s: DeedScore) => number) => scores.reduce((n, s) => n + f(s), 0);
  const tp = sum((s) => s.truePositives);
  const precision = ratio(tp, tp + sum((s) => s.falsePositives));
  const recall = ratio(tp, tp + sum((s) => s.falseNegatives));
  const perField = Object.fromEntries(trustFields.map((f) => [f, ratio(scores.filter((s) => s.fields.find((x) => x.field === f)!.right).length, scores.length)])) as Record<TrustField, number>;
  return {
    deeds: scores.length,
    precision,
    recall,
    f1: precision + recall ? (2 * precision * recall) / (precision + recall) : 0,
    trustFieldAccuracy: ratio(sum((s) => s.fields.filter((f) => f.right).length), scores.length * trustFields.length),
    perField,
    nameSplitAccuracy: ratio(sum((s) => s.namesSplitRight), sum((s) => s.individualsMatched)),
    classAccuracy: ratio(scores.filter((s) => s.classesRight).length, scores.length),
    problems: sum((s) => s.problems.length),
  };
}
