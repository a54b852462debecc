// Every SQL statement of the partners domain: partners and their API clients.
import type { Executor } from '../../platform/db/database.ts';
import type { Tenant } from '../../platform/tenancy.ts';

export interface PartnerRow {
  id: string;
  name: string;
  environment: 'sandbox' | 'production';
  monitoring_eligible: boolean;
  commission_bps: number;
  created_at: Date;
  /** Set by an operator: the partner's clients get no tokens and their tokens stop working. */
  disabled_at?: Date | null;
}

export async function insertPartner(db: Executor, partner: PartnerRow): Promise<void> {
  await db.query('INSERT INTO partners (id, name, environment, monitoring_eligible, commission_bps, created_at) VALUES ($1, $2, $3, $4, $5, $6)', [
    partner.id,
    partner.name,
    partner.environment,
    partner.monitoring_eligible,
    partner.commission_bps,
    partner.created_at,
  ]);
}

export interface ApiClientRow {
  id: string;
  label: string | null;
  created_at: Date;
  revoked_at: Date | null;
}

const clientColumns = 'id, label, created_at, revoked_at';

export async function insertApiClient(
  db: Executor,
  client: { id: string; partnerId: string; label?: string | null; secretHash: string; createdAt: Date },
): Promise<void> {
  await db.query('INSERT INTO api_clients (id, partner_id, label, secret_hash, created_at) VALUES ($1, $2, $3, $4, $5)', [
    client.id,
    client.partnerId,
    client.label ?? null,
    client.secretHash,
    client.createdAt,
  ]);
}

export async function listApiClients(db: Executor, tenant: Tenant, page: { limit: number; from: number }): Promise<ApiClientRow[]> {
  return db.query<ApiClientRow>(`SELECT ${clientColumns} FROM api_clients WHERE partner_id = $1 ORDER BY id LIMIT $2 OFFSET $3`, [
    tenant.partnerId,
    page.limit + 1,
    page.from,
  ]);
}

export async function findApiClient(db: Executor, tenant: Tenant, id: string): Promise<ApiClientRow | undefined> {
  const rows = await db.query<ApiClientRow>(`SELECT ${clientColumns} FROM api_clients WHERE partner_id = $1 AND id = $2`, [tenant.partnerId, id]);
  return rows[0];
}

export async function countActiveApiClients(db: Executor, tenant: Tenant): Promise<number> {
  const rows = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM api_clients WHERE partner_id = $1 AND revoked_at IS NULL', [tenant.partnerId]);
  return rows[0]?.n ?? 0;
}

export async function revokeApiClient(db: Executor, tenant: Tenant, id: string, at: Date): Promise<ApiClientRow | undefined> {
  const rows = await db.query<ApiClientRow>(
    `UPDATE api_clients SET revoked_at = coalesce(revoked_at, $3) WHERE partner_id = $1 AND id = $2 RETURNING ${clientColumns}`,
    [tenant.partnerId, id, at],
  );
  return rows[0];
}

/** Whether a client may still use its tokens (revocation, or its partner disabled, takes effect within the token cache time). */
export async function isClientActive(db: Executor, clientId: string): Promise<boolean> {
  const rows = await db.query(
    'SELECT 1 FROM api_clients c JOIN partners p ON p.id = c.partner_id WHERE c.id = $1 AND c.revoked_at IS NULL AND p.disabled_at IS NULL',
    [clientId],
  );
  return rows.length === 1;
}

/** The caller's own partner record. */
export async function findOwnPartner(db: Executor, tenant: Tenant): Promise<PartnerRow | undefined> {
  const rows = await db.query<PartnerRow>('SELECT id, name, environment, monitoring_eligible, commission_bps, created_at, disabled_at FROM partners WHERE id = $1', [tenant.partnerId]);
  return rows[0];
}

export async function countPartners(db: Executor): Promise<number> {
  const rows = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM partners');
  return rows[0]?.n ?? 0;
}

export async function findActiveClient(db: Executor, clientId: string): Promise<{ clientId: string; partnerId: string; secretHash: string } | undefined> {
  const rows = await db.query<{ id: string; partner_id: string; secret_hash: string }>(
    `SELECT c.id, c.partner_id, c.secret_hash FROM api_clients c JOIN partners p ON p.id = c.partner_id
     WHERE c.id = $1 AND c.revoked_at IS NULL AND p.disabled_at IS NULL`,
    [clientId],
  );
  const row = rows[0];
  return row && { clientId: row.id, partnerId: row.partner_id, secretHash: row.secret_hash };
}

export async function replaceSecretHash(db: Executor, clientId: string, from: string, to: string): Promise<void> {
  await db.query('UPDATE api_clients SET secret_hash = $3 WHERE id = $1 AND secret_hash = $2', [clientId, from, to]);
}

// ---- For operators (the console): every partner, across tenants ----

const partnerColumns = 'id, name, environment, monitoring_eligible, commission_bps, created_at, disabled_at';

/** Newest first; `limit + 1` rows (pagination.ts). */
export async function listPartners(db: Executor, page: { limit: number; from: number }): Promise<PartnerRow[]> {
  return db.query<PartnerRow>(`SELECT ${partnerColumns} FROM partners ORDER BY id DESC LIMIT $1 OFFSET $2`, [page.limit + 1, page.from]);
}

export async function findPartner(db: Executor, id: string, options: { lock?: boolean } = {}): Promise<PartnerRow | undefined> {
  const rows = await db.query<PartnerRow>(`SELECT ${partnerColumns} FROM partners WHERE id = $1${options.lock ? ' FOR UPDATE' : ''}`, [id]);
  return rows[0];
}

export async function findPartnerNames(db: Executor, ids: string[]): Promise<Array<{ id: string; name: string }>> {
  return db.query<{ id: string; name: string }>('SELECT id, name FROM partners WHERE id = ANY($1::text[])', [ids]);
}

export async function updatePartner(db: Executor, id: string, change: { monitoring_eligible: boolean; commission_bps: number }): Promise<void> {
  await db.query('UPDATE partners SET monitoring_eligible = $2, commission_bps = $3 WHERE id = $1', [id, change.monitoring_eligible, change.commission_bps]);
}

/** Disables (a time) or enables (null) a partner. */
export async function setPartnerDisabled(db: Executor, id: string, disabledAt: Date | null): Promise<void> {
  await db.query('UPDATE partners SET disabled_at = $2 WHERE id = $1', [id, disabledAt]);
}
