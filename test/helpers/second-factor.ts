// The tests' authenticator app: enrols an account through the service, as the enrolment page does, and
// answers codes the way a phone would, each for a time step not used before (PVS accepts a code once).
import { totpCodeAt, totpPeriodSeconds } from '../../src/modules/accounts/totp.ts';
import type { SecondFactors } from '../../src/modules/accounts/second-factors.ts';

const periodMs = totpPeriodSeconds * 1000;

export interface TestTotp {
  secret: string;
  /** The last time step a code was given for (PVS refuses a code whose step is not after it). */
  lastStep: number;
  recoveryCodes: string[];
}

/** Enrols the account in an authenticator app whose secret the test holds. */
export async function enrolTestFactor(factors: SecondFactors, account: { id: string; email: string }, now: Date): Promise<TestTotp> {
  const enrolment = await factors.enrolment(account);
  if (!enrolment) throw new Error(`${account.email} has a second factor already`);
  const confirmed = await factors.confirm(account.id, totpCodeAt(enrolment.secret, now));
  if (!confirmed.ok) throw new Error(`could not enrol ${account.email}: ${confirmed.reason}`);
  return { secret: enrolment.secret, lastStep: Math.floor(now.getTime() / periodMs), recoveryCodes: confirmed.recoveryCodes };
}

/**
 * The next code the app can give at `now`: for the first step after the last one used, within the one
 * step either side PVS accepts. Waits (on the real clock) when every step in reach is spent.
 */
export async function nextTotpCode(totp: TestTotp, now: () => Date = () => new Date()): Promise<string> {
  let current = Math.floor(now().getTime() / periodMs);
  const step = Math.max(totp.lastStep + 1, current - 1);
  while (step > current + 1) {
    await new Promise((resolve) => setTimeout(resolve, (current + 1) * periodMs - now().getTime() + 50));
    current = Math.floor(now().getTime() / periodMs);
  }
  totp.lastStep = step;
  return totpCodeAt(totp.secret, new Date(step * periodMs));
}
