// The auth module's wiring: the signing keys (loaded, or made on first start), the partners' access tokens,
// and the OAuth token endpoint.
import type { Config } from '../../config.ts';
import type { KeyRing } from '../../platform/keys/key-ring.ts';
import type { Clock } from '../../platform/clock.ts';
import type { Database } from '../../platform/db/database.ts';
import type { Module } from '../../platform/module.ts';
import type { RateLimiter } from '../../platform/rate-limit.ts';
import { registerOAuthRoutes } from './oauth.routes.ts';
import { loadSigningKeys, type SigningKeys } from './signing-keys.ts';
import { createTokenService, type ClientCredentialsLookup, type TokenService } from './tokens.service.ts';

export interface AuthModuleDeps {
  db: Database;
  clock: Clock;
  config: Pick<Config, 'PUBLIC_BASE_URL' | 'ENVIRONMENT'>;
  /** Seals the signing keys' private halves (platform/keys). */
  keyRing: Pick<KeyRing, 'sealer'>;
  /** The partners module's API clients. */
  clients: ClientCredentialsLookup;
  /** Per client and per IP on /oauth2/token. */
  limiter: RateLimiter;
}

export async function createAuthModule(deps: AuthModuleDeps): Promise<Module<{ keys: SigningKeys; tokens: TokenService }>> {
  const { clock, config } = deps;
  const keys = await loadSigningKeys({ db: deps.db, clock, keyRing: deps.keyRing });
  const tokens = createTokenService({ clients: deps.clients, keys, clock, issuer: config.PUBLIC_BASE_URL, environment: config.ENVIRONMENT });
  return {
    services: { keys, tokens },
    jobs: [],
    routes: { public: (app) => registerOAuthRoutes(app, { tokens, keys, limiter: deps.limiter }) },
  };
}
