// Every SQL statement of the audit log (audit_log, migration 0016).
import type { Executor } from '../../platform/db/database.ts';

export interface AuditRow {
  id: string;
  actor_kind: 'OPERATOR' | 'PORTAL_USER' | 'ADMIN';
  actor_id: string;
  actor_email: string;
  partner_id: string | null;
  action: string;
  target_id: string | null;
  detail: Record<string, unknown>;
  created_at: Date;
}

export async function insertEntry(db: Executor, row: AuditRow): Promise<void> {
  await db.query(
    `INSERT INTO audit_log (id, actor_kind, actor_id, actor_email, partner_id, action, target_id, detail, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [row.id, row.actor_kind, row.actor_id, row.actor_email, row.partner_id, row.action, row.target_id, JSON.stringify(row.detail), row.created_at],
  );
}

/** Newest first; `limit + 1` rows (pagination.ts). */
export async function listEntries(
  db: Executor,
  filter: { partnerId?: string; actorKind?: string; action?: string },
  page: { limit: number; from: number },
): Promise<AuditRow[]> {
  return db.query<AuditRow>(
    `SELECT id, actor_kind, actor_id, actor_email, partner_id, action, target_id, detail, created_at FROM audit_log
     WHERE ($1::text IS NULL OR partner_id = $1) AND ($2::text IS NULL OR actor_kind = $2) AND ($3::text IS NULL OR action = $3)
     ORDER BY created_at DESC, id DESC LIMIT $4 OFFSET $5`,
    [filter.partnerId ?? null, filter.actorKind ?? null, filter.action ?? null, page.limit + 1, page.from],
  );
}

/** Every action recorded so far, for the log's filter. */
export async function listActions(db: Executor): Promise<string[]> {
  const rows = await db.query<{ action: string }>('SELECT DISTINCT action FROM audit_log ORDER BY action');
  return rows.map((r) => r.action);
}
