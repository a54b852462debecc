// The SQL of the operators' review queue: individuals waiting in MANUAL_REVIEW across every partner, and
// one individual with what an operator needs beside the evidence (its request, its attempts, a decision).
import type { Executor } from '../../platform/db/database.ts';
import type { IndividualRow, RequestRow } from './verifications.repository.ts';

export interface ReviewRow {
  individual_id: string;
  request_id: string;
  partner_id: string;
  mode: RequestRow['mode'];
  entity_name: string | null;
  role: IndividualRow['role'];
  external_id: string | null;
  attempt_count: number;
  risk_level: IndividualRow['risk_level'];
  check_results: IndividualRow['check_results'];
  /** When the individual's latest outcome sent it to review (its attempt's check time). */
  review_since: Date;
}

// Since when: the check of the attempt that ended in MANUAL_REVIEW; an individual's updated_at would move
// with any later write, the attempt's checked_at does not.
const reviewSince = `coalesce((SELECT max(a.checked_at) FROM verification_attempts a WHERE a.individual_id = i.id AND a.status = 'MANUAL_REVIEW'), i.updated_at)`;

// The entity: the request's own name, or for a lookup-bound request (which holds none) its lookup's, as
// the partner API and the hosted page name it (lookups.service.ts entityNameOf, which this mirrors: the
// lookup must be the request's partner's). The one column of the lookups domain read here, in the queue's
// own query, so a page of reviews costs no query per row.
const entityName = `coalesce(r.entity_name, (SELECT l.entity_name FROM business_lookups l WHERE l.id = r.lookup_id AND l.partner_id = r.partner_id))`;

/** Oldest first: whoever has waited longest is decided first. `limit + 1` rows (pagination.ts). */
export async function listInReview(db: Executor, page: { limit: number; from: number }): Promise<ReviewRow[]> {
  return db.query<ReviewRow>(
    `SELECT i.id AS individual_id, i.request_id, i.partner_id, r.mode, ${entityName} AS entity_name, i.role, i.external_id, i.attempt_count, i.risk_level, i.check_results,
            ${reviewSince} AS review_since
       FROM verification_individuals i JOIN verification_requests r ON r.id = i.request_id
      WHERE i.status = 'MANUAL_REVIEW'
      ORDER BY review_since, i.id LIMIT $1 OFFSET $2`,
    [page.limit + 1, page.from],
  );
}

export async function countInReview(db: Executor): Promise<number> {
  const [row] = await db.query<{ n: number }>("SELECT count(*)::int AS n FROM verification_individuals WHERE status = 'MANUAL_REVIEW'");
  return row?.n ?? 0;
}

export interface ReviewedIndividualRow extends ReviewRow {
  status: IndividualRow['status'];
  role_description: string | null;
  max_attempts: number;
  manual_override: boolean;
  completed_at: Date | null;
  request_status: RequestRow['status'];
  decision: 'PASS' | 'FAIL' | null;
  decided_by: string | null;
  decided_at: Date | null;
  note: string | null;
}

/** One individual of one request, whatever its status, with the operator's decision if there is one. */
export async function findReviewed(db: Executor, requestId: string, individualId: string): Promise<ReviewedIndividualRow | undefined> {
  const rows = await db.query<ReviewedIndividualRow>(
    `SELECT i.id AS individual_id, i.request_id, i.partner_id, r.mode, ${entityName} AS entity_name, i.role, i.external_id, i.attempt_count, i.risk_level, i.check_results,
            ${reviewSince} AS review_since,
            i.status, i.role_description, i.max_attempts, i.manual_override, i.completed_at, r.status AS request_status,
            d.decision, d.operator_id AS decided_by, d.decided_at, d.note
       FROM verification_individuals i JOIN verification_requests r ON r.id = i.request_id
       LEFT JOIN verification_decisions d ON d.individual_id = i.id
      WHERE i.id = $1 AND i.request_id = $2`,
    [individualId, requestId],
  );
  return rows[0];
}
