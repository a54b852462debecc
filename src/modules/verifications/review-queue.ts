// The operators' review queue as the console shows it: individuals in MANUAL_REVIEW, and one individual
// with its decision. Ids, check codes and the operator's note only, never the person: their details are
// evidence, fetched live (evidence.service.ts). The SQL: review-queue.repository.ts.
import type { ReviewedIndividualRow, ReviewRow } from './review-queue.repository.ts';
import type { CheckResultItem } from './verifications.repository.ts';

export interface ReviewItem {
  verificationRequestId: string;
  individualId: string;
  partnerId: string;
  mode: 'AUSTRAC_CDD' | 'TPB_POI';
  entityName: string | null;
  role: string;
  externalId: string | null;
  attemptCount: number;
  riskLevel: string | null;
  /** The checks that asked for a person to look (neither PASS nor INCONCLUSIVE: outcomes.ts), in the order they ran. */
  reasons: CheckResultItem[];
  checkResults: CheckResultItem[];
  reviewSince: string;
}

export interface ReviewedIndividual extends ReviewItem {
  status: string;
  roleDescription: string | null;
  maxAttempts: number;
  manualOverride: boolean;
  completedAt: string | null;
  requestStatus: string;
  decision: { decision: 'PASS' | 'FAIL'; decidedBy: string; decidedAt: string; note: string } | null;
}

export function toReviewItem(row: ReviewRow): ReviewItem {
  return {
    verificationRequestId: row.request_id,
    individualId: row.individual_id,
    partnerId: row.partner_id,
    mode: row.mode,
    entityName: row.entity_name,
    role: row.role,
    externalId: row.external_id,
    attemptCount: row.attempt_count,
    riskLevel: row.risk_level,
    reasons: row.check_results.filter((c) => c.result !== 'PASS' && c.result !== 'INCONCLUSIVE'),
    checkResults: row.check_results,
    reviewSince: row.review_since.toISOString(),
  };
}

export function toReviewedIndividual(row: ReviewedIndividualRow): ReviewedIndividual {
  return {
    ...toReviewItem(row),
    status: row.status,
    roleDescription: row.role_description,
    maxAttempts: row.max_attempts,
    manualOverride: row.manual_override,
    completedAt: row.completed_at?.toISOString() ?? null,
    requestStatus: row.request_status,
    decision: row.decision && { decision: row.decision, decidedBy: row.decided_by!, decidedAt: row.decided_at!.toISOString(), note: row.note! },
  };
}
