// How the reports say statuses, results and roles in words a compliance officer files, with the tone of
// each. A value PVS does not know yet (the lists are open) prints in words, in a neutral tone.
import { describeRoles, roleEntity } from '../roles.ts';
import type { Tone } from './pdf-style.ts';
import { formatDate, words } from './report-format.ts';
import type { ReportRiskLevel } from './report-model.ts';

type Said = { words: string; tone: Tone };

const individualStatuses: Record<string, Said> = {
  PENDING: { words: 'Not started', tone: 'neutral' },
  IN_PROGRESS: { words: 'In progress', tone: 'neutral' },
  PASSED: { words: 'Verified', tone: 'good' },
  MANUALLY_PASSED: { words: 'Verified by manual review', tone: 'good' },
  MANUAL_REVIEW: { words: 'Needs manual review', tone: 'warn' },
  FAILED: { words: 'Failed', tone: 'bad' },
  LOCKED_OUT: { words: 'Failed: attempts used up', tone: 'bad' },
};

export function individualStatus(status: string): Said {
  return individualStatuses[status] ?? { words: words(status), tone: 'neutral' };
}

/** The four outcomes the entity report counts people by. */
export type OutcomeGroup = 'verified' | 'review' | 'failed' | 'pending';

export function outcomeGroup(status: string): OutcomeGroup {
  if (status === 'PASSED' || status === 'MANUALLY_PASSED') return 'verified';
  if (status === 'MANUAL_REVIEW') return 'review';
  if (status === 'FAILED' || status === 'LOCKED_OUT') return 'failed';
  return 'pending';
}

const requestStatuses: Record<string, string> = {
  DRAFT: 'Draft: no links sent yet',
  UBO_REVIEW: 'Waiting for the partner to confirm the people are the whole structure',
  READY_TO_SEND: 'Ready: no links sent yet',
  VERIFICATIONS_SENT: 'In progress: links sent',
  COMPLETED: 'Completed: every person has an outcome',
};

export const requestStatus = (status: string) => requestStatuses[status] ?? words(status);

const riskTones: Record<ReportRiskLevel, Tone> = { LOW: 'good', MEDIUM: 'warn', HIGH: 'bad', UNKNOWN: 'neutral' };

export function risk(level: ReportRiskLevel): Said {
  return { words: level === 'UNKNOWN' ? 'Risk not assessed' : `${words(level)} risk`, tone: riskTones[level] ?? 'neutral' };
}

const checkResults: Record<string, Said> = {
  PASS: { words: 'Pass', tone: 'good' },
  FAIL: { words: 'Fail', tone: 'bad' },
  REVIEW: { words: 'Review', tone: 'warn' },
  INCONCLUSIVE: { words: 'Inconclusive', tone: 'warn' },
};

export function checkResult(result: string): Said {
  return checkResults[result] ?? { words: words(result), tone: 'neutral' };
}

const attemptStatuses: Record<string, Said> = {
  CHECKING: { words: 'Being checked', tone: 'neutral' },
  PASSED: { words: 'Passed', tone: 'good' },
  MANUAL_REVIEW: { words: 'Manual review', tone: 'warn' },
  RETRY: { words: 'Failed, retry allowed', tone: 'warn' },
  FAILED: { words: 'Failed', tone: 'bad' },
  LOCKED_OUT: { words: 'Failed, locked out', tone: 'bad' },
  UNAVAILABLE: { words: 'Not checked: service down', tone: 'neutral' },
};

export function attemptStatus(status: string): Said {
  return attemptStatuses[status] ?? { words: words(status), tone: 'neutral' };
}

/**
 * A person's roles in the hosted page's words (roles.ts), as a label, and the business they are of when
 * given: `Beneficial owner, director and company secretary of WATTLE CREEK LOGISTICS PTY LTD`. The partner's
 * own description of the role, when it is not register codes, follows: `Trustee · Trustee of the Smith Family Trust`.
 */
export function roleWords(individual: { role: string; roleDescription: string | null }, entityName: string | null = null): string {
  const { label, described, unnamed } = describeRoles(individual.role, individual.roleDescription);
  const entity = roleEntity(individual.role, entityName);
  const roles = label ? `${label}${entity ? ` of ${entity}` : ''}` : `${individual.role === 'OTHER' ? 'Other role' : words(individual.role)}${entity ? `, for ${entity}` : ''}`;
  return described ? `${roles} · ${described}` : unnamed.length ? `${roles} · ${unnamed.join(', ')}` : roles;
}

export const modeWords = { AUSTRAC_CDD: 'AUSTRAC customer due diligence', TPB_POI: 'Tax Practitioners Board proof of identity' } as const;

export const documentWords = { PASSPORT: 'Passport', DRIVER_LICENCE: 'Driver licence', MEDICARE: 'Medicare card' } as const;

/** `Passed by PVS operator opr_… on 22 Nov 2026 23:31 UTC`. */
/** What to say when the verified name is not the register's: the reader must decide whether it is the same person. */
export function registerNameWarning(name: string, registerName: string): { title: string; body: string } {
  return {
    title: 'The verified name is not the name on the register.',
    body: `The person verified as ${name}; the register names this party ${registerName}. Confirm they are the same person (a changed or anglicised name, a nickname) before relying on this result.`,
  };
}

/**
 * What to say when the date of birth entered is not the register's (decision 122): unlike a name it never
 * changes, so the register is wrong or someone other than the party completed the link.
 */
export function registerDateOfBirthWarning(entered: string, register: string): { title: string; body: string } {
  return {
    title: 'The date of birth entered is not the one on the register.',
    body: `The person entered ${formatDate(entered)}; the register holds ${formatDate(register)} for this party. A date of birth does not change: either the register is wrong or someone other than this party completed the verification. Find out which before relying on this result.`,
  };
}

/** Where the operator's reasons are: PVS keeps them (decision 94); the partner asks PVS support. */
export const decisionRecordWords = 'The operator’s reasons are kept in PVS’s review record.';

export function decisionWords(decision: { decision: 'PASS' | 'FAIL'; decidedBy: string }, when: string): string {
  return `${decision.decision === 'PASS' ? 'Passed' : 'Failed'} by PVS operator ${decision.decidedBy} on ${when}`;
}
