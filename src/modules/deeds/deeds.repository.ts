// Every SQL statement about deed analyses. Rows hold identifiers, status, counts and times only.
import type { Executor } from '../../platform/db/database.ts';
import type { Tenant } from '../../platform/tenancy.ts';

export const deedStatuses = ['AWAITING_UPLOAD', 'PROCESSING', 'REVIEW_READY', 'FAILED', 'DISCARDED', 'EXPIRED'] as const;
export type DeedStatus = (typeof deedStatuses)[number];
export const failureReasons = ['OCR_FAILED', 'TFN_CONTENT_DETECTED', 'EXTRACTION_INVALID_OUTPUT', 'ANALYSIS_UNAVAILABLE', 'TIMED_OUT'] as const;
export type FailureReason = (typeof failureReasons)[number];

export interface DeedRow {
  id: string;
  partner_id: string;
  verification_request_id: string | null;
  contact_id: string | null;
  status: DeedStatus;
  storage_key: string;
  upload_expires_at: Date;
  byte_size: number | null;
  page_count: number | null;
  ocr_page_count: number | null;
  party_count: number | null;
  beneficiary_class_count: number | null;
  failure_reason: FailureReason | null;
  started_at: Date | null;
  finished_at: Date | null;
  document_purged_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

const columns = `id, partner_id, verification_request_id, contact_id, status, storage_key, upload_expires_at, byte_size, page_count,
  ocr_page_count, party_count, beneficiary_class_count, failure_reason, started_at, finished_at, document_purged_at, created_at, updated_at`;

export async function insertDeed(db: Executor, row: Pick<DeedRow, 'id' | 'partner_id' | 'verification_request_id' | 'contact_id' | 'storage_key' | 'upload_expires_at' | 'created_at'>): Promise<void> {
  await db.query(
    `INSERT INTO deed_analyses (id, partner_id, verification_request_id, contact_id, status, storage_key, upload_expires_at, created_at, updated_at)
     VALUES ($1, $2, $3, $4, 'AWAITING_UPLOAD', $5, $6, $7, $7)`,
    [row.id, row.partner_id, row.verification_request_id, row.contact_id, row.storage_key, row.upload_expires_at, row.created_at],
  );
}

export async function findDeed(db: Executor, tenant: Tenant, id: string, options: { lock?: boolean } = {}): Promise<DeedRow | undefined> {
  const [row] = await db.query<DeedRow>(`SELECT ${columns} FROM deed_analyses WHERE id = $1 AND partner_id = $2${options.lock ? ' FOR UPDATE' : ''}`, [id, tenant.partnerId]);
  return row;
}

/** For the job and the sweeps, which act for every partner. */
export async function findDeedById(db: Executor, id: string, options: { lock?: boolean } = {}): Promise<DeedRow | undefined> {
  const [row] = await db.query<DeedRow>(`SELECT ${columns} FROM deed_analyses WHERE id = $1${options.lock ? ' FOR UPDATE' : ''}`, [id]);
  return row;
}

export async function listDeeds(db: Executor, tenant: Tenant, query: { limit: number; from: number; status?: DeedStatus }): Promise<DeedRow[]> {
  return db.query<DeedRow>(
    `SELECT ${columns} FROM deed_analyses WHERE partner_id = $1 AND ($2::text IS NULL OR status = $2) ORDER BY id DESC LIMIT $3 OFFSET $4`,
    [tenant.partnerId, query.status ?? null, query.limit + 1, query.from],
  );
}

/** How many of the partner's analyses were created since `since`, by status (the portal's overview). */
export async function countDeedsSince(db: Executor, tenant: Tenant, since: Date): Promise<Array<{ status: DeedStatus; n: number }>> {
  const rows = await db.query<{ status: DeedStatus; n: string | number }>(
    'SELECT status, count(*) AS n FROM deed_analyses WHERE partner_id = $1 AND created_at >= $2 GROUP BY status',
    [tenant.partnerId, since],
  );
  return rows.map((r) => ({ status: r.status, n: Number(r.n) }));
}

export async function markStarted(db: Executor, id: string, facts: { byteSize: number; pageCount: number }, at: Date): Promise<void> {
  await db.query("UPDATE deed_analyses SET status = 'PROCESSING', byte_size = $2, page_count = $3, started_at = $4, updated_at = $4 WHERE id = $1", [id, facts.byteSize, facts.pageCount, at]);
}

export async function markReviewReady(db: Executor, id: string, counts: { partyCount: number; beneficiaryClassCount: number; ocrPageCount: number }, at: Date): Promise<void> {
  await db.query(
    "UPDATE deed_analyses SET status = 'REVIEW_READY', party_count = $2, beneficiary_class_count = $3, ocr_page_count = $4, finished_at = $5, updated_at = $5 WHERE id = $1",
    [id, counts.partyCount, counts.beneficiaryClassCount, counts.ocrPageCount, at],
  );
}

export async function markFailed(db: Executor, id: string, reason: FailureReason, at: Date): Promise<void> {
  await db.query("UPDATE deed_analyses SET status = 'FAILED', failure_reason = $2, finished_at = $3, updated_at = $3 WHERE id = $1", [id, reason, at]);
}

/** DISCARDED or EXPIRED: the analysis ends where it is. */
export async function markEnded(db: Executor, id: string, status: 'DISCARDED' | 'EXPIRED', at: Date): Promise<void> {
  await db.query('UPDATE deed_analyses SET status = $2, finished_at = COALESCE(finished_at, $3), updated_at = $3 WHERE id = $1', [id, status, at]);
}

export async function markDocumentPurged(db: Executor, id: string, at: Date): Promise<void> {
  await db.query('UPDATE deed_analyses SET document_purged_at = $2, updated_at = $2 WHERE id = $1 AND document_purged_at IS NULL', [id, at]);
}

/** Uploads never started whose window for starting has closed (created before `before`). */
export async function listUnstarted(db: Executor, before: Date, limit: number): Promise<Array<Pick<DeedRow, 'id'>>> {
  return db.query("SELECT id FROM deed_analyses WHERE status = 'AWAITING_UPLOAD' AND created_at < $1 ORDER BY created_at LIMIT $2", [before, limit]);
}

/** Analyses still PROCESSING that started before `before`: their job died past its deadline. */
export async function listStuck(db: Executor, before: Date, limit: number): Promise<Array<Pick<DeedRow, 'id'>>> {
  return db.query("SELECT id FROM deed_analyses WHERE status = 'PROCESSING' AND started_at < $1 ORDER BY started_at LIMIT $2", [before, limit]);
}

/** Ended analyses whose document may still be in storage (a crash between the end and the deletion). */
export async function listUnpurged(db: Executor, limit: number): Promise<Array<Pick<DeedRow, 'id' | 'storage_key'>>> {
  return db.query(
    "SELECT id, storage_key FROM deed_analyses WHERE document_purged_at IS NULL AND status IN ('REVIEW_READY', 'FAILED', 'DISCARDED', 'EXPIRED') ORDER BY updated_at LIMIT $1",
    [limit],
  );
}
