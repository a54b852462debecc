// The accounts module's wiring: partners' portal users, and the second factors of both kinds of password
// account. (The operators module makes its own password accounts from password-accounts.ts; the web areas
// sign both in.) No routes or jobs of its own.
import type { Config } from '../../config.ts';
import type { Clock } from '../../platform/clock.ts';
import type { KeyRing } from '../../platform/keys/key-ring.ts';
import type { Database } from '../../platform/db/database.ts';
import type { Logger } from '../../platform/logger.ts';
import type { Module } from '../../platform/module.ts';
import type { OperatorService } from '../operators/operators.service.ts';
import type { PartnerService } from '../partners/partners.service.ts';
import { createPortalUserService, type PortalUserService } from './portal-users.service.ts';
import { createSecondFactors, type SecondFactors } from './second-factors.ts';

export interface AccountModuleDeps {
  db: Database;
  clock: Clock;
  logger: Logger;
  config: Pick<Config, 'ENVIRONMENT' | 'PUBLIC_BASE_URL' | 'PASSWORD_HASH_COST'>;
  /** Seals the TOTP secrets (platform/keys). */
  keyRing: Pick<KeyRing, 'sealer' | 'digester'>;
  partners: Pick<PartnerService, 'getOwn'>;
  operators: Pick<OperatorService, 'accounts'>;
}

export function createAccountModule(deps: AccountModuleDeps): Module<{ portalUsers: PortalUserService; operatorFactors: SecondFactors; portalUserFactors: SecondFactors }> {
  const { db, clock, config } = deps;
  const portalUsers = createPortalUserService({ ...deps, logger: deps.logger.child({ module: 'portal-users' }), passwordHashCost: config.PASSWORD_HASH_COST });
  // The one place the second factors' keys come from: TOTP secrets are sealed, recovery codes HMACed.
  const sealer = deps.keyRing.sealer('mfa-secrets');
  const recoveryCodes = deps.keyRing.digester('mfa-recovery-codes');
  const issuer = config.ENVIRONMENT === 'production' ? 'PVS' : 'PVS sandbox';
  const logger = deps.logger.child({ module: 'second-factors' });
  // Passkeys are bound to the address people reach PVS at: its host is the relying party, its origin the one expected.
  const publicUrl = new URL(config.PUBLIC_BASE_URL);
  const relyingParty = { id: publicUrl.hostname, name: 'PVS', origin: publicUrl.origin };
  const factorsOf = (table: 'operators' | 'portal_users', accounts: Parameters<typeof createSecondFactors>[0]['accounts']) =>
    createSecondFactors({ db, clock, logger, table, accounts, sealer, recoveryCodes, issuer, relyingParty });
  return {
    services: {
      portalUsers,
      operatorFactors: factorsOf('operators', deps.operators.accounts),
      portalUserFactors: factorsOf('portal_users', portalUsers.accounts),
    },
    jobs: [],
    routes: {},
  };
}
