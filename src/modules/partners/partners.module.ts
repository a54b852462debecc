// The partners module's wiring: partners and their API clients, their /v1 routes, and what other modules
// read of a partner (monitoring eligibility, commission, the API client behind a token) without its tables.
import type { Config } from '../../config.ts';
import type { Clock } from '../../platform/clock.ts';
import type { Database, Tx } from '../../platform/db/database.ts';
import type { Idempotency } from '../../platform/http/idempotency.ts';
import type { Module } from '../../platform/module.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import type { ClientCredentialsLookup } from '../auth/tokens.service.ts';
import { registerApiClientRoutes } from './api-clients.routes.ts';
import { createApiClientService, type ApiClientService } from './api-clients.service.ts';
import * as repo from './partners.repository.ts';
import { registerPartnerRoutes } from './partners.routes.ts';
import { createPartnerService, type PartnerService } from './partners.service.ts';

export interface PartnerModuleDeps {
  db: Database;
  clock: Clock;
  config: Pick<Config, 'ENVIRONMENT'>;
  idempotency: Idempotency;
}

export interface PartnerModule extends Module<{ partners: PartnerService; apiClients: ApiClientService }> {
  /** Whether the partner may use continuous monitoring (webhooks and monitoring ask). */
  isMonitoringEligible(tenant: Tenant): Promise<boolean>;
  /** The partner's commission in basis points, read in the caller's transaction (payments). */
  commissionBps(tx: Tx, tenant: Tenant): Promise<number>;
  /** The active API clients the token endpoint checks credentials against (auth). */
  clientCredentials: ClientCredentialsLookup;
}

export function createPartnerModule(deps: PartnerModuleDeps): PartnerModule {
  const { db, clock, idempotency } = deps;
  const partners = createPartnerService({ db, clock, environment: deps.config.ENVIRONMENT });
  const apiClients = createApiClientService({ db, clock });
  return {
    services: { partners, apiClients },
    isMonitoringEligible: async (tenant) => (await repo.findOwnPartner(db, tenant))?.monitoring_eligible ?? false,
    commissionBps: async (tx, tenant) => (await repo.findOwnPartner(tx, tenant))?.commission_bps ?? 0,
    clientCredentials: {
      findActiveClient: (id) => repo.findActiveClient(db, id),
      replaceSecretHash: (id, from, to) => repo.replaceSecretHash(db, id, from, to),
      isClientActive: (id) => repo.isClientActive(db, id),
    },
    jobs: [],
    routes: {
      partner(api) {
        registerPartnerRoutes(api, { partners });
        registerApiClientRoutes(api, { apiClients, idempotency });
      },
    },
  };
}
