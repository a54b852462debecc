// Sign-in throttling across accounts: the posts of the sign-in, password and second-factor forms are
// limited per client address, whichever accounts they name, like the token endpoints. The lockout
// (modules/accounts/lockout.ts) stops guessing at one account; this stops one address trying a password
// on many. The limiter's buckets are shared across nodes (platform/rate-limit.ts).
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AreaConfig } from './pages.ts';

/** Seconds to wait before this address may post a sign-in form again; 0 when it may now. */
export function throttledFor(config: Pick<AreaConfig, 'area' | 'signInLimiter'>, request: FastifyRequest): number {
  const decision = config.signInLimiter.take(`web-sign-in:${config.area}:${request.ip}`);
  return decision.allowed ? 0 : Math.max(1, decision.retryAfterSeconds);
}

/** "Try again in 40 seconds" or "in 2 minutes": when, in words. */
export function tryAgainIn(seconds: number): string {
  if (seconds < 60) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
}

/** The page's message, with Retry-After set on the reply (the page itself is the caller's). */
export function throttledMessage(reply: FastifyReply, seconds: number): string {
  reply.header('retry-after', String(seconds));
  return `Too many sign-in attempts from your network address. Try again in ${tryAgainIn(seconds)}.`;
}
