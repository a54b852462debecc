// The audit trail of evidence: every evidence read and report rendering, who made it and what it answered.
// Never what was read. The reader is a partner's API client or a PVS operator (the console), one of them.
import type { Executor } from '../../platform/db/database.ts';
import type { EvidenceStatus } from './evidence.schemas.ts';

export type EvidenceKind = 'DOCUMENT_DETAILS' | 'AML_MATCHES' | 'ENTITY_REPORT' | 'INDIVIDUAL_REPORT';

export interface EvidenceReadRow {
  id: string;
  partner_id: string;
  /** The partner's API client that read it; null when an operator did. */
  api_client_id: string | null;
  /** The operator (`opr_…`) who read it in the console; null when a partner did. */
  operator_id: string | null;
  verification_request_id: string;
  individual_id: string | null;
  kind: EvidenceKind;
  include_scans: boolean | null;
  status: EvidenceStatus;
  http_request_id: string;
  read_at: Date;
}

const columns = 'id, partner_id, api_client_id, operator_id, verification_request_id, individual_id, kind, include_scans, status, http_request_id, read_at';

export async function insertRead(db: Executor, row: EvidenceReadRow): Promise<void> {
  await db.query(`INSERT INTO evidence_reads (${columns}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`, [
    row.id,
    row.partner_id,
    row.api_client_id,
    row.operator_id,
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
  /** PARTNER: reads by API clients; OPERATOR: reads in the console. */
  readerKind?: 'PARTNER' | 'OPERATOR';
  limit: number;
  from: number;
}

/** Newest first: an operator looks at what happened lately. */
export async function listReads(db: Executor, filter: ReadFilter): Promise<EvidenceReadRow[]> {
  return db.query<EvidenceReadRow>(
    `SELECT ${columns} FROM evidence_reads
     WHERE ($1::text IS NULL OR partner_id = $1) AND ($2::text IS NULL OR verification_request_id = $2) AND ($3::text IS NULL OR individual_id = $3)
       AND ($4::text IS NULL OR ($4 = 'OPERATOR') = (operator_id IS NOT NULL))
     ORDER BY id DESC LIMIT $5 OFFSET $6`,
    [filter.partnerId ?? null, filter.verificationRequestId ?? null, filter.individualId ?? null, filter.readerKind ?? null, filter.limit + 1, filter.from],
  );
}
