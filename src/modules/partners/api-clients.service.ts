// A partner's API clients: credentials for /oauth2/token. Several may be active at once, so a partner
// rotates without downtime: create a new client, deploy it, revoke the old one.
import type { Clock } from '../../platform/clock.ts';
import { digestSecret, randomToken } from '../../platform/crypto.ts';
import type { Database, Tx } from '../../platform/db/database.ts';
import { AppError, notFound } from '../../platform/errors.ts';
import { toPage } from '../../platform/http/pagination.ts';
import { newId } from '../../platform/ids.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { replaceApiClientSecret } from './api-clients.repository.ts';
import type { ApiClient, CreateApiClientBody, CreatedApiClient } from './api-clients.schemas.ts';
import * as repo from './partners.repository.ts';

export function newClientSecret(): string {
  return `pvs_secret_${randomToken(32)}`;
}

function toApiClient(row: repo.ApiClientRow): ApiClient {
  return { id: row.id, label: row.label, createdAt: row.created_at.toISOString(), revokedAt: row.revoked_at?.toISOString() ?? null };
}

export interface PreparedClient {
  secret: string;
  secretHash: string;
}

export function createApiClientService(deps: { db: Database; clock: Clock }) {
  return {
    /** A new secret and its digest, made before the transaction that keeps it. */
    async prepare(): Promise<PreparedClient> {
      const secret = newClientSecret();
      return { secret, secretHash: digestSecret(secret) };
    },

    async create(tx: Tx, tenant: Tenant, input: CreateApiClientBody, prepared: PreparedClient): Promise<CreatedApiClient> {
      const now = deps.clock.now();
      const id = newId('apiClient', now.getTime());
      await repo.insertApiClient(tx, { id, partnerId: tenant.partnerId, label: input.label, secretHash: prepared.secretHash, createdAt: now });
      return { id, label: input.label ?? null, createdAt: now.toISOString(), revokedAt: null, clientSecret: prepared.secret };
    },

    async list(tenant: Tenant, page: { limit: number; from: number }) {
      const rows = await repo.listApiClients(deps.db, tenant, page);
      return toPage(rows.map(toApiClient), page);
    },

    async get(tenant: Tenant, id: string): Promise<ApiClient> {
      const row = await repo.findApiClient(deps.db, tenant, id);
      if (!row) throw notFound(`API client ${id}`);
      return toApiClient(row);
    },

    /**
     * Gives an active client a new secret (from prepare()); the old one stops obtaining tokens at once,
     * while tokens it already obtained live out their hour. The portal's "rotate secret".
     */
    async rotateSecret(tx: Tx, tenant: Tenant, id: string, prepared: PreparedClient): Promise<CreatedApiClient> {
      const row = await replaceApiClientSecret(tx, tenant, id, prepared.secretHash);
      if (row) return { ...toApiClient(row), clientSecret: prepared.secret };
      if (await repo.findApiClient(tx, tenant, id)) throw new AppError('INVALID_STATE', 'This API client is revoked; a revoked client cannot be given a new secret');
      throw notFound(`API client ${id}`);
    },

    async revoke(tenant: Tenant, id: string): Promise<ApiClient> {
      return deps.db.transaction(async (tx) => {
        const row = await repo.findApiClient(tx, tenant, id);
        if (!row) throw notFound(`API client ${id}`);
        if (!row.revoked_at && (await repo.countActiveApiClients(tx, tenant)) <= 1) {
          throw new AppError('INVALID_STATE', 'This is your last active API client; create another before revoking it');
        }
        return toApiClient((await repo.revokeApiClient(tx, tenant, id, deps.clock.now()))!);
      });
    },
  };
}

export type ApiClientService = ReturnType<typeof createApiClientService>;
