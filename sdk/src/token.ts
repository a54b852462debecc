// The access token, fetched with the client credentials and kept until a minute before it expires.
// Concurrent calls that find no fresh token share one request for it: the token endpoint is rate
// limited (60 a minute per client), and a burst of calls at start-up must not spend that budget.
import type { Transport } from './transport.ts';

/** A token is renewed this long before PVS says it expires, so it never expires in flight. */
export const refreshMarginSeconds = 60;
export const tokenScope = 'channel-partner-api/server';

interface Held {
  token: string;
  renewAt: number;
}

export function createTokenSource(deps: { transport: Transport; clientId: string; clientSecret: string; now?: () => number }) {
  const now = deps.now ?? Date.now;
  let held: Held | undefined;
  let pending: Promise<string> | undefined;

  async function fetchToken(): Promise<string> {
    const form = new URLSearchParams({ grant_type: 'client_credentials', client_id: deps.clientId, client_secret: deps.clientSecret, scope: tokenScope });
    const answer = await deps.transport.send({ method: 'POST', path: '/oauth2/token', form, repeatable: true });
    const body = answer.body as { access_token?: unknown; expires_in?: unknown };
    if (typeof body?.access_token !== 'string') throw new Error('PVS answered the token request without an access_token');
    const expiresIn = typeof body.expires_in === 'number' ? body.expires_in : 3600;
    held = { token: body.access_token, renewAt: now() + Math.max(0, expiresIn - refreshMarginSeconds) * 1000 };
    return held.token;
  }

  return {
    /** A token fresh for at least another minute. */
    get(): Promise<string> {
      if (held && now() < held.renewAt) return Promise.resolve(held.token);
      pending ??= fetchToken().finally(() => {
        pending = undefined;
      });
      return pending;
    },
    /** PVS refused `token` (revoked, rotated keys): forget it, unless a newer one has replaced it already. */
    invalidate(token: string): void {
      if (held?.token === token) held = undefined;
    },
  };
}

export type TokenSource = ReturnType<typeof createTokenSource>;
