// A partner's staff who sign in to the portal (/portal): made by `pvs portal-user create`, each bound to
// one partner, whose data alone the portal shows them. Password rules: password-accounts.ts.
import type { Clock } from '../../platform/clock.ts';
import type { Database, Executor } from '../../platform/db/database.ts';
import type { Logger } from '../../platform/logger.ts';
import { tenantOf } from '../../platform/tenancy.ts';
import type { PartnerService } from '../partners/partners.service.ts';
import { createPasswordAccounts } from './password-accounts.ts';
import { isSecondFactorRequired, setSecondFactorRequired } from './second-factors.repository.ts';

export interface CreatedPortalUser {
  portalUserId: string;
  partnerId: string;
  email: string;
  /** One-time: shown once, only a slow hash is kept, and it must be replaced at the first sign-in. */
  password: string;
}

export function createPortalUserService(deps: { db: Database; clock: Clock; logger: Logger; partners: Pick<PartnerService, 'getOwn'>; passwordHashCost: number }) {
  const accounts = createPasswordAccounts({ db: deps.db, clock: deps.clock, logger: deps.logger, table: 'portal_users', idKind: 'portalUser', passwordHashCost: deps.passwordHashCost });
  return {
    accounts,

    /** Throws NOT_FOUND for a partner that does not exist, INVALID_STATE for an email already in use. */
    async create(input: { partnerId: string; email: string }): Promise<CreatedPortalUser> {
      await deps.partners.getOwn(tenantOf(input.partnerId));
      const created = await accounts.create({ email: input.email, partnerId: input.partnerId });
      return { portalUserId: created.id, partnerId: input.partnerId, email: created.email, password: created.password };
    },

    async disable(email: string) {
      const row = await accounts.disable(email);
      return { portalUserId: row.id, email: row.email, disabledAt: row.disabled_at!.toISOString() };
    },

    /** Whether the partner requires a second factor of all its portal users (a console setting). */
    requiresSecondFactor: (partnerId: string) => isSecondFactorRequired(deps.db, partnerId),

    /** Sets the partner's requirement; true when this changed it. `tx` holds the change with its audit entry. */
    async setSecondFactorRequired(tx: Executor, partnerId: string, change: { required: boolean; by: string }): Promise<boolean> {
      const changed = await setSecondFactorRequired(tx, partnerId, { ...change, at: deps.clock.now() });
      if (changed) deps.logger.info({ partnerId, required: change.required, by: change.by }, 'portal second factor requirement changed');
      return changed;
    },
  };
}

export type PortalUserService = ReturnType<typeof createPortalUserService>;
