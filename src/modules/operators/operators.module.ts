// The operators module's wiring: PVS's own staff, their tokens (signed with the auth module's keys), the
// public sign-in at /ops/v1/token and their own /ops/v1 routes.
import type { Config } from '../../config.ts';
import type { Clock } from '../../platform/clock.ts';
import type { Database } from '../../platform/db/database.ts';
import type { Logger } from '../../platform/logger.ts';
import type { Module } from '../../platform/module.ts';
import type { RateLimiter } from '../../platform/rate-limit.ts';
import type { SecondFactors } from '../accounts/second-factors.ts';
import type { SigningKeys } from '../auth/signing-keys.ts';
import { createOperatorTokens } from './operator-tokens.ts';
import { operatorTokenRoutes, registerOperatorRoutes } from './operators.routes.ts';
import { createOperatorService, type OperatorService } from './operators.service.ts';

export interface OperatorModuleDeps {
  db: Database;
  clock: Clock;
  logger: Logger;
  config: Pick<Config, 'PUBLIC_BASE_URL' | 'ENVIRONMENT' | 'PASSWORD_HASH_COST'>;
  keys: SigningKeys;
  /** The token endpoints' limiter (per client and per IP). */
  limiter: RateLimiter;
  /**
   * The operators' second factors, asked for at every token. A getter: the accounts module makes them
   * from this module's password accounts, so it comes after this one in services.ts.
   */
  secondFactors: () => Pick<SecondFactors, 'verify'>;
}

export function createOperatorModule(deps: OperatorModuleDeps): Module<{ operators: OperatorService }> {
  const { clock, config } = deps;
  const operators = createOperatorService({
    db: deps.db,
    clock,
    tokens: createOperatorTokens({ keys: deps.keys, clock, issuer: config.PUBLIC_BASE_URL, environment: config.ENVIRONMENT }),
    logger: deps.logger.child({ module: 'operators' }),
    secondFactors: deps.secondFactors,
    consoleUrl: `${config.PUBLIC_BASE_URL}/console`,
    passwordHashCost: config.PASSWORD_HASH_COST,
  });
  return {
    services: { operators },
    jobs: [],
    routes: {
      opsSignIn: operatorTokenRoutes({ operators, limiter: deps.limiter }),
      ops: (api) => registerOperatorRoutes(api, { operators }),
    },
  };
}
