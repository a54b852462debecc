// What an attempt's checks mean for the individual, and what the individuals mean for the request. Pure:
// the check job and the operator's decision apply it. The rules (CONTRACT §6, docs/verifications.md):
//   a hard failure (a fraud signal, a document reported lost or stolen)        FAILED at once
//   any check FAIL                                                          a failed attempt: IN_PROGRESS
//                                                 again while attempts remain, LOCKED_OUT at the limit
//   an AML possible match, or any check REVIEW                              MANUAL_REVIEW (never a pass)
//   every check PASS (or INCONCLUSIVE) and screening CLEAR                  PASSED
// INCONCLUSIVE is a check that could not tell either way (a passport's machine-readable zone that could not
// be read, or whose check digits do not add up): it is reported, and the other checks decide.
// A lookup-bound person's date of birth that is not the register's is a REVIEW check of PVS's own
// (registerDateOfBirthCheck): what would pass goes to MANUAL_REVIEW, never FAILED (decision 122).
// Risk: LOW for a pass; MEDIUM when a person must look (a REVIEW); HIGH for an AML match, a failure or
// a lockout. The request's risk is the highest of its individuals', UNKNOWN until one has an outcome.
import type { IdentityCheck } from '../../providers/identity/identity-provider.ts';
import { sameRegisterDateOfBirth } from './person-details.ts';
import type { AttemptStatus, CheckResultItem, RiskLevel } from './verifications.repository.ts';
import type { IndividualStatus } from './verifications.schemas.ts';

export interface Findings {
  checks: Array<IdentityCheck | CheckResultItem>;
  hardFailure: boolean;
  /** AML screening of the claimed identity: how many list entries may be this person (0: clear). */
  amlMatches: number;
}

export interface Outcome {
  status: IndividualStatus;
  attempt: Exclude<AttemptStatus, 'CHECKING' | 'UNAVAILABLE'>;
  riskLevel: RiskLevel;
  /** Every check, AML screening last, as `checkResults[]` shows them. */
  checkResults: CheckResultItem[];
}

/** The AML screening check as `checkResults[]` shows it: a count, never a listed name. */
export function amlCheck(matches: number): CheckResultItem {
  return matches === 0
    ? { name: 'AML screening', checkType: 'AML', result: 'PASS', code: 'AML_CLEAR', message: 'No sanctions or politically exposed persons list entry matches.' }
    : {
        name: 'AML screening',
        checkType: 'AML',
        result: 'REVIEW',
        code: 'AML_POSSIBLE_MATCH',
        message: `${matches} sanctions or politically exposed persons list ${matches === 1 ? 'entry may be' : 'entries may be'} this person; an operator decides.`,
      };
}

/**
 * A lookup-bound person's date of birth against the one the register holds for their party, as
 * `checkResults[]` shows it: PASS when the same, REVIEW when not (a register error, or someone else
 * completed the link: an operator compares both dates), none when the register holds no date. The
 * dates themselves are never in it: check results are stored and sent to the partner.
 */
export function registerDateOfBirthCheck(entered: string, register: string | null): CheckResultItem | null {
  const same = sameRegisterDateOfBirth(entered, register);
  if (same === null) return null;
  const check = { name: 'Date of birth against the register', checkType: 'REGISTER_DATE_OF_BIRTH' };
  return same
    ? { ...check, result: 'PASS', code: 'REGISTER_DATE_OF_BIRTH_MATCHES', message: 'The date of birth entered is the one the register holds for this party.' }
    : {
        ...check,
        result: 'REVIEW',
        code: 'REGISTER_DATE_OF_BIRTH_DIFFERS',
        message: 'The date of birth entered is not the one the register holds for this party: the register is wrong, or someone other than the party completed the link. An operator compares the two dates.',
      };
}

/** The outcome of attempt number `attemptCount` (counted at submit) of at most `maxAttempts`. */
export function outcomeOf(findings: Findings, attempts: { attemptCount: number; maxAttempts: number }): Outcome {
  const checkResults = [...findings.checks.map(({ name, checkType, result, code, message }) => ({ name, checkType, result, code, ...(message ? { message } : {}) })), amlCheck(findings.amlMatches)];
  if (findings.hardFailure) return { status: 'FAILED', attempt: 'FAILED', riskLevel: 'HIGH', checkResults };
  if (findings.checks.some((c) => c.result === 'FAIL')) {
    return attempts.attemptCount >= attempts.maxAttempts
      ? { status: 'LOCKED_OUT', attempt: 'LOCKED_OUT', riskLevel: 'HIGH', checkResults }
      : { status: 'IN_PROGRESS', attempt: 'RETRY', riskLevel: 'MEDIUM', checkResults };
  }
  if (findings.amlMatches > 0) return { status: 'MANUAL_REVIEW', attempt: 'MANUAL_REVIEW', riskLevel: 'HIGH', checkResults };
  if (findings.checks.some((c) => c.result !== 'PASS' && c.result !== 'INCONCLUSIVE')) return { status: 'MANUAL_REVIEW', attempt: 'MANUAL_REVIEW', riskLevel: 'MEDIUM', checkResults };
  return { status: 'PASSED', attempt: 'PASSED', riskLevel: 'LOW', checkResults };
}

const riskOrder: readonly RiskLevel[] = ['LOW', 'MEDIUM', 'HIGH'];

export function requestRisk(individuals: ReadonlyArray<{ risk_level: RiskLevel | null }>): RiskLevel | 'UNKNOWN' {
  const levels = individuals.map((i) => i.risk_level).filter((level): level is RiskLevel => level !== null);
  if (levels.length === 0) return 'UNKNOWN';
  return riskOrder[Math.max(...levels.map((level) => riskOrder.indexOf(level)))]!;
}

/** The AML screening outcome an individual's checks recorded (amlCheck above made the item): for the reports. */
export function amlOutcomeOf(checkResults: readonly CheckResultItem[]): { outcome: 'CLEAR' | 'POSSIBLE_MATCH' | 'NOT_RUN'; matchCount: number } {
  const item = checkResults.find((c) => c.checkType === 'AML');
  if (!item) return { outcome: 'NOT_RUN', matchCount: 0 };
  if (item.code === 'AML_CLEAR') return { outcome: 'CLEAR', matchCount: 0 };
  return { outcome: 'POSSIBLE_MATCH', matchCount: Number(/^\d+/.exec(item.message ?? '')?.[0] ?? 1) };
}
