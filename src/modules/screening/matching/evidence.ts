// Date of birth and country: evidence for or against a name match, never a match on their own.

export type DateOfBirthEvidence = 'EXACT' | 'SAME_YEAR' | 'CLOSE' | 'CONTRADICTS' | 'NOT_COMPARED';
export type CountryEvidence = 'MATCH' | 'MISMATCH' | 'NOT_COMPARED';

const dobAdjustment: Record<DateOfBirthEvidence, number> = {
  EXACT: 0.05,
  SAME_YEAR: 0.02,
  CLOSE: -0.05,
  // Birth years three or more apart: a namesake, not the listed person, however alike the names.
  CONTRADICTS: -0.3,
  NOT_COMPARED: 0,
};

/** `query` is YYYY-MM-DD; list dates are YYYY, YYYY-MM or YYYY-MM-DD. The most favourable list date counts. */
export function compareDateOfBirth(query: string | undefined, listed: readonly string[]): { evidence: DateOfBirthEvidence; adjustment: number } {
  if (!query || listed.length === 0) return { evidence: 'NOT_COMPARED', adjustment: 0 };
  const year = Number(query.slice(0, 4));
  let best: DateOfBirthEvidence = 'CONTRADICTS';
  let bestAdjustment = dobAdjustment.CONTRADICTS;
  for (const date of listed) {
    const gap = Math.abs(Number(date.slice(0, 4)) - year);
    let evidence: DateOfBirthEvidence;
    let adjustment: number;
    if (gap === 0 && query.startsWith(date)) {
      // Agrees as far as the listing goes: to the day (or month), or in the year when that is all it gives.
      evidence = date.length > 4 ? 'EXACT' : 'SAME_YEAR';
      adjustment = dobAdjustment[evidence];
    } else if (gap === 0) {
      // The same year but another day is weaker than a year-only listing: one of the two dates is wrong.
      evidence = 'SAME_YEAR';
      adjustment = 0;
    } else if (gap <= 2) {
      evidence = 'CLOSE';
      adjustment = dobAdjustment.CLOSE * gap;
    } else {
      evidence = 'CONTRADICTS';
      adjustment = dobAdjustment.CONTRADICTS;
    }
    if (adjustment > bestAdjustment) [best, bestAdjustment] = [evidence, adjustment];
  }
  return { evidence: best, adjustment: bestAdjustment };
}

const countryAdjustment: Record<CountryEvidence, number> = { MATCH: 0.02, MISMATCH: -0.03, NOT_COMPARED: 0 };

/** People move and hold several citizenships: a different country weighs little. */
export function compareCountries(query: readonly string[] | undefined, listed: readonly string[]): { evidence: CountryEvidence; adjustment: number } {
  if (!query || query.length === 0 || listed.length === 0) return { evidence: 'NOT_COMPARED', adjustment: 0 };
  const evidence: CountryEvidence = query.some((c) => listed.includes(c)) ? 'MATCH' : 'MISMATCH';
  return { evidence, adjustment: countryAdjustment[evidence] };
}

/** The most the evidence can add to a name's score: how far below the threshold a name can still match. */
export const maxEvidenceBonus = dobAdjustment.EXACT + countryAdjustment.MATCH;
