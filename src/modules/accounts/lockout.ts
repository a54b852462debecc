// When repeated failed sign-ins lock an operator account, and for how long. Pure, so the rule is tested
// without a database (lockout.test.ts) and stated once: docs/operators.md repeats it for people.

/** Consecutive failed sign-ins that lock the account. */
export const lockoutThreshold = 5;
/** The first lock; each further failure doubles it. */
export const firstLockSeconds = 60;
/** No lock is longer: an attacker who knows an address cannot shut its operator out for days. */
export const maxLockSeconds = 3600;

/**
 * Seconds the account is locked after its `failures`-th consecutive failed sign-in: none below the
 * threshold, then 1, 2, 4, 8, 16, 32 minutes, then an hour for every failure after that. A successful
 * sign-in resets the count; a failure after a lock ends locks again at once, for twice as long.
 */
export function lockSeconds(failures: number): number {
  if (failures < lockoutThreshold) return 0;
  // The exponent is capped so that 2 ** n stays a small, exact number however long the count grows.
  return Math.min(maxLockSeconds, firstLockSeconds * 2 ** Math.min(failures - lockoutThreshold, 16));
}
