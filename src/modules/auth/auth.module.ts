// The auth module's wiring: the signing keys (loaded, or made on first start) and their schedule, the
// partners' access tokens, and the OAuth token endpoint.
import type { Config } from '../../config.ts';
import type { KeyRing } from '../../platform/keys/key-ring.ts';
import type { Clock } from '../../platform/clock.ts';
import type { Database } from '../../platform/db/database.ts';
import { defineJob, type JobDefinition } from '../../platform/jobs/job.ts';
import type { Logger } from '../../platform/logger.ts';
import type { Module } from '../../platform/module.ts';
import type { RateLimiter } from '../../platform/rate-limit.ts';
import { signingKeysJob } from './auth.jobs.ts';
import { registerOAuthRoutes } from './oauth.routes.ts';
import { loadSigningKeys, type SigningKeys } from './signing-keys.ts';
import { createTokenService, type ClientCredentialsLookup, type TokenService } from './tokens.service.ts';

export { authJobSpecs } from './auth.jobs.ts';

export interface AuthModuleDeps {
  db: Database;
  clock: Clock;
  logger: Logger;
  config: Pick<Config, 'PUBLIC_BASE_URL' | 'ENVIRONMENT' | 'SIGNING_KEY_ROTATION_DAYS'>;
  /** Seals the signing keys' private halves (platform/keys). */
  keyRing: Pick<KeyRing, 'sealer'>;
  /** The partners module's API clients. */
  clients: ClientCredentialsLookup;
  /** Per client and per IP on /oauth2/token. */
  limiter: RateLimiter;
}

const day = 24 * 3600_000;

export async function createAuthModule(deps: AuthModuleDeps): Promise<Module<{ keys: SigningKeys; tokens: TokenService }>> {
  const { clock, config } = deps;
  const keys = await loadSigningKeys({ db: deps.db, clock, keyRing: deps.keyRing, logger: deps.logger.child({ module: 'auth' }) });
  const tokens = createTokenService({ clients: deps.clients, keys, clock, issuer: config.PUBLIC_BASE_URL, environment: config.ENVIRONMENT });
  const rotationDays = config.SIGNING_KEY_ROTATION_DAYS;
  const jobs = [
    defineJob({
      ...signingKeysJob,
      // Both steps are safe to repeat: the rotation decides under a lock whether the newest key is due.
      handler: async () => {
        if (rotationDays > 0) await keys.rotateIfOlderThan(new Date(clock.now().getTime() - rotationDays * day));
        await keys.deleteRetired();
      },
    }),
  ] as JobDefinition[];
  return {
    services: { keys, tokens },
    jobs,
    routes: { public: (app) => registerOAuthRoutes(app, { tokens, keys, limiter: deps.limiter }) },
  };
}
