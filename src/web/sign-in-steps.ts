// Where a session stands in signing in, and how fresh its second factor is. A session is open from the
// right password on, but until its steps are done it opens only the page of the next step: its own
// password (a one-time password to replace), then its second factor (a code after the password, or the
// enrolment an account that must have one and has none). Pure, so area.ts and the pages agree.
import type { AccountRow } from '../modules/accounts/accounts.repository.ts';
import type { WebSession } from './session/sessions.service.ts';

export type SignInStep = 'password' | 'second-factor' | 'enrol';

/** The step this session must still take, or undefined when it is signed in. */
export async function pendingStep(
  session: Pick<WebSession, 'passwordChangeRequired' | 'secondFactorAt'>,
  account: Pick<AccountRow, 'second_factor_enrolled_at'>,
  /** Whether the account must have a second factor (operators always; portal users when their partner says so). */
  requiresSecondFactor: () => Promise<boolean>,
): Promise<SignInStep | undefined> {
  if (session.passwordChangeRequired) return 'password';
  if (account.second_factor_enrolled_at) return session.secondFactorAt ? undefined : 'second-factor';
  return (await requiresSecondFactor()) ? 'enrol' : undefined;
}

/** The page of a step. */
export function stepPath(area: string, step: SignInStep): string {
  return step === 'password' ? `/${area}/password` : step === 'enrol' ? `/${area}/second-factor/enrol` : `/${area}/second-factor`;
}

/** Whether the session's last second factor is older than `maxMinutes` (or it has none): ask again first. */
export function stepUpDue(session: Pick<WebSession, 'secondFactorAt'>, now: Date, maxMinutes: number): boolean {
  return !session.secondFactorAt || now.getTime() - session.secondFactorAt.getTime() > maxMinutes * 60_000;
}
