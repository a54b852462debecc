// Every SQL statement of the partners domain: partners and their API clients.
import type { Executor } from '../../platform/db/database.ts';
import type { Tenant } from '../../platform/tenancy.ts';

export interface PartnerRow {
  id: string;
  name: string;
  environment: 'sandbox' | 'production';
  monitoring_eligible: boolean;
  created_at: Date;
}

export async function insertPartner(db: Executor, partner: PartnerRow): Promise<void> {
  await db.query('INSERT INTO partners (id, name, environment, monitoring_eligible, created_at) VALUES ($1, $2, $3, $4, $5)', [
    partner.id,
    partner.name,
    partner.environment,
    partner.monitoring_eligible,
    partner.created_at,
  ]);
}

export async function insertApiClient(db: Executor, client: { id: string; partnerId: string; secretHash: string; createdAt: Date }): Promise<void> {
  await db.query('INSERT INTO api_clients (id, partner_id, secret_hash, created_at) VALUES ($1, $2, $3, $4)', [
    client.id,
    client.partnerId,
    client.secretHash,
    client.createdAt,
  ]);
}

/** The caller's own partner record. */
export async function findOwnPartner(db: Executor, tenant: Tenant): Promise<PartnerRow | undefined> {
  const rows = await db.query<PartnerRow>('SELECT id, name, environment, monitoring_eligible, created_at FROM partners WHERE id = $1', [tenant.partnerId]);
  return rows[0];
}

export async function countPartners(db: Executor): Promise<number> {
  const rows = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM partners');
  return rows[0]?.n ?? 0;
}

export async function findActiveClient(db: Executor, clientId: string): Promise<{ clientId: string; partnerId: string; secretHash: string } | undefined> {
  const rows = await db.query<{ id: string; partner_id: string; secret_hash: string }>(
    'SELECT id, partner_id, secret_hash FROM api_clients WHERE id = $1 AND revoked_at IS NULL',
    [clientId],
  );
  const row = rows[0];
  return row && { clientId: row.id, partnerId: row.partner_id, secretHash: row.secret_hash };
}
