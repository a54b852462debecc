// When to try again and how long to wait. PVS's advice (docs/conventions.md, Overload): wait at least
// Retry-After, and back off further, doubling with jitter, when it comes again.

/** Answers that say "not now" rather than "no": the same request may succeed later. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

/**
 * Answers after which PVS has done nothing for the request (429 is refused before any work; 503 is the
 * load shedder or an unavailable database): safe to repeat even a POST PVS cannot deduplicate.
 */
export function isNothingDoneStatus(status: number): boolean {
  return status === 429 || status === 503;
}

/** `Retry-After` in seconds, from delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text);
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, Math.ceil((at - now) / 1000));
}

export const initialBackoffMs = 500;
export const maxBackoffMs = 8_000;
/**
 * A Retry-After longer than this is not waited out: the caller gets the error (with `retryAfter`) and
 * decides. A lookup's daily read budget answers 429 until tomorrow; no call should hang that long.
 */
export const maxRetryAfterSeconds = 60;

/** The wait before retry number `retry` (0 for the first): jittered exponential, never less than Retry-After. */
export function retryDelayMs(retry: number, retryAfterSeconds: number | undefined, random: () => number = Math.random): number {
  const ceiling = Math.min(maxBackoffMs, initialBackoffMs * 2 ** retry);
  // Half fixed, half random: spreads clients that failed together without ever retrying at once.
  const backoff = ceiling / 2 + (random() * ceiling) / 2;
  return Math.max(backoff, (retryAfterSeconds ?? 0) * 1000);
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
