// OAuth 2.0 client credentials: a partner's API client exchanges its id and secret for a short-lived
// ES256 JWT, which every /v1 call then presents. Verified tokens are cached briefly so that checking
// a token does not dominate a request.
import { jwtVerify, SignJWT, errors as joseErrors } from 'jose';
import type { Clock } from '../../platform/clock.ts';
import { digestSecret, verifySecret } from '../../platform/crypto.ts';
import { keyOfToken, type SigningKeys } from './signing-keys.ts';

export const apiScope = 'channel-partner-api/server';
export const tokenLifetimeSeconds = 3600;

export interface TokenClaims {
  clientId: string;
  partnerId: string;
  scope: string;
  env: string;
  expiresAt: number;
}

export interface ClientCredentialsLookup {
  findActiveClient(clientId: string): Promise<{ clientId: string; partnerId: string; secretHash: string } | undefined>;
  /** Replaces a client's secret hash, if it is still `from` (a client's scrypt hash, once its secret is known to match). */
  replaceSecretHash(clientId: string, from: string, to: string): Promise<void>;
  isClientActive(clientId: string): Promise<boolean>;
}

export type IssueResult =
  | { ok: true; body: { access_token: string; token_type: 'Bearer'; expires_in: number; scope: string } }
  | { ok: false; error: 'invalid_client' | 'invalid_scope'; description: string };

export interface TokenService {
  issue(input: { clientId: string; clientSecret: string; scope?: string }): Promise<IssueResult>;
  /** The claims of a valid token for this environment, or undefined. */
  verify(token: string): Promise<TokenClaims | undefined>;
}

const decoyDigest = digestSecret('decoy');
const cacheLimit = 10_000;
const cacheSeconds = 60;

export function createTokenService(deps: {
  clients: ClientCredentialsLookup;
  keys: SigningKeys;
  clock: Clock;
  issuer: string;
  environment: string;
}): TokenService {
  const cache = new Map<string, { claims: TokenClaims; kid: string; until: number }>();

  return {
    async issue({ clientId, clientSecret, scope }) {
      const client = await deps.clients.findActiveClient(clientId);
      // Verify against a decoy when the client is unknown, so the answer's timing does not tell.
      const matches = await verifySecret(clientSecret, client?.secretHash ?? decoyDigest);
      if (!client || !matches) return { ok: false, error: 'invalid_client', description: 'Unknown client or wrong secret' };
      // A secret issued before decision 136 has a scrypt hash: now that it matched, keep its digest instead.
      if (client.secretHash.startsWith('scrypt$')) await deps.clients.replaceSecretHash(client.clientId, client.secretHash, digestSecret(clientSecret));
      if (scope !== undefined && scope.split(' ').some((s) => s !== apiScope)) {
        return { ok: false, error: 'invalid_scope', description: `The only scope is ${apiScope}` };
      }
      const now = Math.floor(deps.clock.now().getTime() / 1000);
      const { kid, privateKey } = await deps.keys.active();
      const token = await new SignJWT({ partner_id: client.partnerId, scope: apiScope, env: deps.environment })
        .setProtectedHeader({ alg: 'ES256', kid, typ: 'JWT' })
        .setIssuer(deps.issuer)
        .setSubject(client.clientId)
        .setIssuedAt(now)
        .setExpirationTime(now + tokenLifetimeSeconds)
        .sign(privateKey);
      return { ok: true, body: { access_token: token, token_type: 'Bearer', expires_in: tokenLifetimeSeconds, scope: apiScope } };
    },

    async verify(token) {
      const nowMs = deps.clock.now().getTime();
      const cached = cache.get(token);
      if (cached) {
        // A signing key that has left ends its tokens at once, cached or not.
        if (cached.until > nowMs && (await deps.keys.publicKey(cached.kid))) return cached.claims;
        cache.delete(token);
      }
      const key = await keyOfToken(deps.keys, token);
      if (!key) return undefined;
      try {
        const { payload, protectedHeader } = await jwtVerify(token, key, {
          algorithms: ['ES256'],
          issuer: deps.issuer,
          currentDate: new Date(nowMs),
        });
        const { partner_id: partnerId, scope, env, sub, exp } = payload as Record<string, unknown>;
        if (typeof partnerId !== 'string' || typeof sub !== 'string' || typeof exp !== 'number') return undefined;
        // A token minted for another environment (sandbox vs production) is no token here.
        if (env !== deps.environment) return undefined;
        if (typeof scope !== 'string' || !scope.split(' ').includes(apiScope)) return undefined;
        // A revoked client's tokens stop working once this check runs again (at most cacheSeconds later).
        if (!(await deps.clients.isClientActive(sub))) return undefined;
        const claims: TokenClaims = { clientId: sub, partnerId, scope, env, expiresAt: exp };
        if (cache.size >= cacheLimit) cache.delete(cache.keys().next().value!);
        // keyOfToken found the key by this kid.
        cache.set(token, { claims, kid: protectedHeader.kid!, until: Math.min(exp * 1000, nowMs + cacheSeconds * 1000) });
        return claims;
      } catch (error) {
        if (error instanceof joseErrors.JOSEError) return undefined;
        throw error;
      }
    },
  };
}
