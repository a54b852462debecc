// Every SQL statement about webhook destinations.
import type { Executor } from '../../platform/db/database.ts';
import type { Tenant } from '../../platform/tenancy.ts';

export interface DestinationRow {
  id: string;
  partner_id: string;
  url: string;
  categories: string[];
  enabled: boolean;
  secret_sealed: string;
  previous_secret_sealed: string | null;
  previous_secret_expires_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

const columns = 'id, partner_id, url, categories, enabled, secret_sealed, previous_secret_sealed, previous_secret_expires_at, created_at, updated_at';

export async function insertDestination(db: Executor, row: Omit<DestinationRow, 'previous_secret_sealed' | 'previous_secret_expires_at'>): Promise<void> {
  await db.query(
    `INSERT INTO webhook_destinations (id, partner_id, url, categories, enabled, secret_sealed, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [row.id, row.partner_id, row.url, row.categories, row.enabled, row.secret_sealed, row.created_at, row.updated_at],
  );
}

export async function listDestinations(db: Executor, tenant: Tenant, page: { limit: number; from: number }): Promise<DestinationRow[]> {
  return db.query<DestinationRow>(
    `SELECT ${columns} FROM webhook_destinations WHERE partner_id = $1 AND deleted_at IS NULL ORDER BY id LIMIT $2 OFFSET $3`,
    [tenant.partnerId, page.limit + 1, page.from],
  );
}

export async function findDestination(db: Executor, tenant: Tenant, id: string): Promise<DestinationRow | undefined> {
  const rows = await db.query<DestinationRow>(`SELECT ${columns} FROM webhook_destinations WHERE partner_id = $1 AND id = $2 AND deleted_at IS NULL`, [
    tenant.partnerId,
    id,
  ]);
  return rows[0];
}

export async function updateDestination(
  db: Executor,
  tenant: Tenant,
  id: string,
  changes: { url?: string; categories?: string[]; enabled?: boolean },
  at: Date,
): Promise<DestinationRow | undefined> {
  const rows = await db.query<DestinationRow>(
    `UPDATE webhook_destinations SET url = coalesce($3, url), categories = coalesce($4, categories), enabled = coalesce($5, enabled), updated_at = $6
     WHERE partner_id = $1 AND id = $2 AND deleted_at IS NULL RETURNING ${columns}`,
    [tenant.partnerId, id, changes.url ?? null, changes.categories ?? null, changes.enabled ?? null, at],
  );
  return rows[0];
}

export async function deleteDestination(db: Executor, tenant: Tenant, id: string, at: Date): Promise<DestinationRow | undefined> {
  const rows = await db.query<DestinationRow>(
    `UPDATE webhook_destinations SET deleted_at = $3, enabled = false, updated_at = $3
     WHERE partner_id = $1 AND id = $2 AND deleted_at IS NULL RETURNING ${columns}`,
    [tenant.partnerId, id, at],
  );
  return rows[0];
}

/** The current secret becomes the previous one (still signing until previousUntil); a new one takes over. */
export async function rotateSecret(db: Executor, tenant: Tenant, id: string, sealed: string, previousUntil: Date, at: Date): Promise<DestinationRow | undefined> {
  const rows = await db.query<DestinationRow>(
    `UPDATE webhook_destinations SET previous_secret_sealed = secret_sealed, previous_secret_expires_at = $4, secret_sealed = $3, updated_at = $5
     WHERE partner_id = $1 AND id = $2 AND deleted_at IS NULL RETURNING ${columns}`,
    [tenant.partnerId, id, sealed, previousUntil, at],
  );
  return rows[0];
}

/**
 * Destinations that receive a category now: enabled, not deleted, subscribed to it; monitoring
 * only for partners eligible for it (a second guard behind the monitoring module's own).
 */
/**
 * The destinations an event of `category` goes to. Sent with the transaction's held writes (an event's own
 * insert, the state it reports): nothing PVS holds in a transaction changes a destination or a partner's
 * monitoring eligibility.
 */
export async function subscribedDestinationIds(db: Executor, partnerId: string, category: string): Promise<string[]> {
  const rows = await db.query<{ id: string }>(
    `SELECT d.id FROM webhook_destinations d
     WHERE d.partner_id = $1 AND d.enabled AND d.deleted_at IS NULL AND $2 = ANY (d.categories)
       AND ($2 <> 'MONITORING' OR EXISTS (SELECT 1 FROM partners p WHERE p.id = d.partner_id AND p.monitoring_eligible))
     ORDER BY d.id`,
    [partnerId, category],
    { withHeldWrites: true },
  );
  return rows.map((r) => r.id);
}
