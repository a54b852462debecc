// When a declined billing run is tried again, by the card network's merchant advice code (CONTRACT §8).
// Pure: the billing run service records what this decides.

export const retryDelayHours = 24;
export const maxRetriesOnCard = 3;

/**
 * The time of the next attempt, or null when the run waits for a new card.
 * - `01` (updated card details needed): none until the card changes.
 * - `02` (try again later): after 24 h, at most 3 retries on the same card.
 * - `03`, `21` (do not try again; the holder stopped payments): never on this card.
 * - no code, or one the networks have not defined for this: treated as `02`, the soft-decline default.
 * `attemptsOnCard` counts the attempts on the current card, the one that just failed included.
 */
export function nextRetryAt(input: { merchantAdviceCode: string | null; attemptsOnCard: number; failedAt: Date; noCard?: boolean }): Date | null {
  if (input.noCard) return null;
  const code = input.merchantAdviceCode;
  if (code === '01' || code === '03' || code === '21') return null;
  const retriesSoFar = input.attemptsOnCard - 1;
  if (retriesSoFar >= maxRetriesOnCard) return null;
  return new Date(input.failedAt.getTime() + retryDelayHours * 3600_000);
}
