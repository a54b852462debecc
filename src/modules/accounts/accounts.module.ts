// The accounts module's wiring: partners' portal users. (The operators module makes its own password
// accounts from password-accounts.ts; the web areas sign both in.) No routes or jobs of its own.
import type { Clock } from '../../platform/clock.ts';
import type { Database } from '../../platform/db/database.ts';
import type { Logger } from '../../platform/logger.ts';
import type { Module } from '../../platform/module.ts';
import type { PartnerService } from '../partners/partners.service.ts';
import { createPortalUserService, type PortalUserService } from './portal-users.service.ts';

export interface AccountModuleDeps {
  db: Database;
  clock: Clock;
  logger: Logger;
  partners: Pick<PartnerService, 'getOwn'>;
}

export function createAccountModule(deps: AccountModuleDeps): Module<{ portalUsers: PortalUserService }> {
  const portalUsers = createPortalUserService({ ...deps, logger: deps.logger.child({ module: 'portal-users' }) });
  return { services: { portalUsers }, jobs: [], routes: {} };
}
