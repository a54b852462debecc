// The audit trail of evidence: every evidence read and report rendering, who made it and what it answered.
// Never what was read.
import type { Executor } from '../../platform/db/database.ts';
import type { EvidenceStatus } from './evidence.schemas.ts';

export type EvidenceKind = 'DOCUMENT_DETAILS' | 'AML_MATCHES' | 'ENTITY_REPORT' | 'INDIVIDUAL_REPORT';

export interface EvidenceReadRow {
  id: string;
  partner_id: string;
  api_client_id: string;
  verification_request_id: string;
  individual_id: string | null;
  kind: EvidenceKind;
  include_scans: boolean | null;
  status: EvidenceStatus;
  http_request_id: string;
  read_at: Date;
}

const columns = 'id, partner_id, api_client_id, verification_request_id, individual_id, kind, include_scans, status, http_request_id, read_at';

export async function insertRead(db: Executor, row: EvidenceReadRow): Promise<void> {
  await db.query(`INSERT INTO evidence_reads (${columns}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`, [
    row.id,
    row.partner_id,
    row.api_client_id,
    row.verification_request_id,
    row.individual_id,
    row.kind,
    row.include_scans,
    row.status,
    row.http_request_id,
    row.read_at,
  ]);
}

export interface ReadFilter {
  partnerId?: string;
  verificationRequestId?: string;
  individualId?: string;
  limit: number;
  from: number;
}

/** Newest first: an operator looks at what happened lately. */
export async function listReads(db: Executor, filter: ReadFilter): Promise<EvidenceReadRow[]> {
  return db.query<EvidenceReadRow>(
    `SELECT ${columns} FROM evidence_reads
     WHERE ($1::text IS NULL OR partner_id = $1) AND ($2::text IS NULL OR verification_request_id = $2) AND ($3::text IS NULL OR individual_id = $3)
     ORDER BY id DESC LIMIT $4 OFFSET $5`,
    [filter.partnerId ?? null, filter.verificationRequestId ?? null, filter.individualId ?? null, filter.limit + 1, filter.from],
  );
}
