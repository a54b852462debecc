// The tests' authenticator app: enrols an account through the service, as the enrolment page does, and
// answers codes the way a phone would, each for a time step not used before (PVS accepts a code once).
import { totpCodeAt, totpPeriodSeconds } from '../../src/modules/accounts/totp.ts';
import type { SecondFactors } from '../../src/modules/accounts/second-factors.ts';

const periodMs = totpPeriodSeconds * 1000;

/** A clock a test can move forward: the system's, unless moved (the tests' services run on one). */
export interface MovableClock {
  now(): Date;
  advance(ms: number): void;
}

/**
 * The system's clock, which the test can move forward. The services of createTestContext run on one (unless
 * given a clock), so that the tests' authenticator moves PVS on to a fresh time step instead of waiting up
 * to 30 s of real time for it, in browser suites too, whose pages run on real time.
 */
export function createMovableClock(): MovableClock {
  let offset = 0;
  return {
    now: () => new Date(Date.now() + offset),
    advance(ms) {
      offset += ms;
    },
  };
}

export interface TestTotp {
  secret: string;
  /** The last time step a code was given for (PVS refuses a code whose step is not after it). */
  lastStep: number;
  recoveryCodes: string[];
  /** The clock of the services that check the codes, when the test can move it: then nothing waits. */
  clock?: MovableClock;
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
 * step either side PVS accepts. When every step in reach is spent, moves `totp.clock` on to the next step,
 * or, without one, waits for it on the real clock.
 */
export async function nextTotpCode(totp: TestTotp, now: () => Date = () => totp.clock?.now() ?? new Date()): Promise<string> {
  let current = Math.floor(now().getTime() / periodMs);
  const step = Math.max(totp.lastStep + 1, current - 1);
  while (step > current + 1) {
    const untilNextStep = (current + 1) * periodMs - now().getTime() + 50;
    if (totp.clock) totp.clock.advance(untilNextStep);
    else await new Promise((resolve) => setTimeout(resolve, untilNextStep));
    current = Math.floor(now().getTime() / periodMs);
  }
  totp.lastStep = step;
  return totpCodeAt(totp.secret, new Date(step * periodMs));
}
