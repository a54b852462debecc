// SQL about API clients' secrets that the portal needs beyond partners.repository.ts (where the rest of
// the api_clients statements live).
import type { Executor } from '../../platform/db/database.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import type { ApiClientRow } from './partners.repository.ts';

/** Replaces the secret's hash of an active client; undefined when there is no such active client. */
export async function replaceApiClientSecret(db: Executor, tenant: Tenant, id: string, secretHash: string): Promise<ApiClientRow | undefined> {
  const rows = await db.query<ApiClientRow>(
    'UPDATE api_clients SET secret_hash = $3 WHERE partner_id = $1 AND id = $2 AND revoked_at IS NULL RETURNING id, label, created_at, revoked_at',
    [tenant.partnerId, id, secretHash],
  );
  return rows[0];
}
