import type { Clock } from '../../platform/clock.ts';
import { hashSecret } from '../../platform/crypto.ts';
import { newClientSecret } from './api-clients.service.ts';
import type { Database } from '../../platform/db/database.ts';
import { notFound } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import * as repo from './partners.repository.ts';
import type { CreatedPartner, CreatePartnerInput, Partner } from './partners.schemas.ts';

export interface PartnerService {
  create(input: CreatePartnerInput): Promise<CreatedPartner>;
  getOwn(tenant: Tenant): Promise<Partner>;
  count(): Promise<number>;
  /** The partner's name and whether an operator disabled it; undefined when it does not exist. */
  standing(tenant: Tenant): Promise<{ name: string; disabled: boolean } | undefined>;
}

export function toPartner(row: repo.PartnerRow): Partner {
  return {
    id: row.id,
    name: row.name,
    environment: row.environment,
    monitoringEligible: row.monitoring_eligible,
    commissionBps: row.commission_bps,
    createdAt: row.created_at.toISOString(),
  };
}

export function createPartnerService(deps: { db: Database; clock: Clock; environment: 'sandbox' | 'production' }): PartnerService {
  return {
    async create(input) {
      const now = deps.clock.now();
      const partnerId = newId('partner', now.getTime());
      const clientId = newId('apiClient', now.getTime());
      const clientSecret = newClientSecret();
      // Hash before the transaction: scrypt is slow on purpose and must not hold a connection.
      const secretHash = await hashSecret(clientSecret);
      await deps.db.transaction(async (tx) => {
        await repo.insertPartner(tx, {
          id: partnerId,
          name: input.name,
          environment: deps.environment,
          monitoring_eligible: input.monitoring ?? false,
          commission_bps: input.commissionBps ?? 0,
          created_at: now,
        });
        await repo.insertApiClient(tx, { id: clientId, partnerId, secretHash, createdAt: now });
      });
      return { partnerId, name: input.name, monitoringEligible: input.monitoring ?? false, commissionBps: input.commissionBps ?? 0, clientId, clientSecret };
    },

    async getOwn(tenant) {
      const row = await repo.findOwnPartner(deps.db, tenant);
      if (!row) throw notFound('The partner');
      return toPartner(row);
    },

    count: () => repo.countPartners(deps.db),

    async standing(tenant) {
      const row = await repo.findOwnPartner(deps.db, tenant);
      return row && { name: row.name, disabled: row.disabled_at != null };
    },
  };
}
