// URLs that carry their own permission: whoever holds one may use it until it expires, with no token.
// The signature is an HMAC over the path, every signed parameter and the expiry, so changing any of them,
// adding a parameter or moving the expiry makes it fail. Used by the report URLs (and fit for any other
// short-lived link PVS hands out to be opened directly).
import { createHmac } from 'node:crypto';
import type { Clock } from './clock.ts';
import { constantTimeEqual } from './crypto.ts';

export type SignedUrlCheck = { ok: true } | { ok: false; reason: 'invalid' | 'expired' };

const signatureShape = /^[A-Za-z0-9_-]{43}$/;
const expiresShape = /^[0-9]{1,12}$/;

/** `keys`: signs with the first; a URL signed with any of them holds (keys rotated: platform/keys). */
export function createUrlSigner(deps: { keys: { current: Buffer; all: readonly Buffer[] }; clock: Clock; baseUrl: string }) {
  const { clock } = deps;

  function signatureOf(path: string, params: Record<string, string>, expires: string, key = deps.keys.current): string {
    const signed = Object.keys(params)
      .sort()
      .map((name) => `${name}=${params[name]}`)
      .join('&');
    return createHmac('sha256', key).update(`v1\n${path}\n${signed}\n${expires}`).digest('base64url');
  }

  return {
    /** An absolute URL for `path` (beginning with `/`) with `params`, usable for `ttlSeconds`. */
    sign(path: string, params: Record<string, string>, ttlSeconds: number): { url: string; expiresAt: Date } {
      const expiresAt = new Date(Math.floor(clock.now().getTime() / 1000) * 1000 + ttlSeconds * 1000);
      const expires = String(expiresAt.getTime() / 1000);
      const query = new URLSearchParams({ ...params, expires, signature: signatureOf(path, params, expires) });
      return { url: `${deps.baseUrl}${path}?${query.toString()}`, expiresAt };
    },

    /**
     * Checks a signed URL's path and query as received. `expires` and `signature` are the signer's own;
     * every other parameter must be one that was signed. An expired URL is told apart from a forged one
     * only after its signature holds, so a forger learns nothing from the answer.
     */
    verify(path: string, query: Record<string, string | undefined>): SignedUrlCheck {
      const { expires, signature, ...rest } = query;
      if (!expires || !signature || !expiresShape.test(expires) || !signatureShape.test(signature)) return { ok: false, reason: 'invalid' };
      const params: Record<string, string> = {};
      for (const [name, value] of Object.entries(rest)) if (value !== undefined) params[name] = value;
      if (!deps.keys.all.some((key) => constantTimeEqual(signatureOf(path, params, expires, key), signature))) return { ok: false, reason: 'invalid' };
      if (clock.now().getTime() >= Number(expires) * 1000) return { ok: false, reason: 'expired' };
      return { ok: true };
    },
  };
}

export type UrlSigner = ReturnType<typeof createUrlSigner>;
