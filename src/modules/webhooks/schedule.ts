// When a failed delivery is tried again. After attempt n fails, the next comes after schedule[n-1],
// ±10 % jitter: at most 10 attempts, all within 24 hours of the first. A receiver's Retry-After is
// honoured inside those bounds: never sooner than the schedule, never later than its longest step,
// never past the 24-hour window.

export const retryDelaysSeconds = [30, 120, 480, 1800, 3600, 7200, 14_400, 21_600, 28_800] as const;
export const maxAttempts = retryDelaysSeconds.length + 1;
export const deliveryWindowMs = 24 * 3600 * 1000;

/**
 * The time of the next attempt after `failedAttempt` failed, or null when there is none.
 * `random` gives [0, 1); 0.5 means no jitter (tests pass a constant).
 */
export function nextAttemptAt(args: {
  failedAttempt: number;
  firstAttemptAt: Date;
  now: Date;
  retryAfterSeconds?: number;
  random: () => number;
  maxAttempts?: number;
}): Date | null {
  const limit = args.maxAttempts ?? maxAttempts;
  if (args.failedAttempt >= limit) return null;
  const base = retryDelaysSeconds[Math.min(args.failedAttempt, retryDelaysSeconds.length) - 1]!;
  const jittered = base * (0.9 + 0.2 * args.random());
  const longest = retryDelaysSeconds[retryDelaysSeconds.length - 1]!;
  const delay = args.retryAfterSeconds === undefined ? jittered : Math.max(jittered, Math.min(args.retryAfterSeconds, longest));
  const deadline = args.firstAttemptAt.getTime() + deliveryWindowMs;
  if (args.now.getTime() >= deadline) return null;
  return new Date(Math.min(args.now.getTime() + Math.round(delay * 1000), deadline));
}

/** Retry-After as seconds: a number of seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, now: Date): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.round((at - now.getTime()) / 1000));
}
