// The SQL of identity retention (identity-retention.ts): the individuals whose provider subject is due to
// be forgotten, and the record that it was.
import type { Executor } from '../../platform/db/database.ts';

export type ForgottenReason = 'ABANDONED' | 'RETENTION';

/** Individuals quiet (or finished) at or before these moments are due. */
export interface RetentionCutoffs {
  /** For an unfinished individual that never submitted. */
  abandonedBefore: Date;
  /** For a finished individual, and an unfinished one that submitted at least once. */
  retainedBefore: Date;
}

export interface DueSubject {
  individual_id: string;
  subject_ref: string;
  reason: ForgottenReason;
  /** When the period began: the outcome, or the moment the individual went quiet. */
  since: Date;
}

// An unfinished individual (never MANUAL_REVIEW: an operator owes it a decision) goes quiet when its last
// link and session stop working (spent, replaced, revoked or expired) and its last attempt was checked,
// whichever is latest. A live link or session ends in the future, so it holds the individual. An attempt
// being checked holds anyone. The status lists are spelled as migration 0025's partial indexes spell them.
const dueSubjects = `
  WITH open AS (
    SELECT i.id, i.subject_ref,
           EXISTS (SELECT 1 FROM verification_attempts a WHERE a.individual_id = i.id) AS submitted,
           coalesce(greatest(
             (SELECT max(least(l.used_at, l.replaced_at, l.expires_at)) FROM verification_links l WHERE l.individual_id = i.id),
             (SELECT max(least(s.revoked_at, s.expires_at)) FROM verification_sessions s WHERE s.individual_id = i.id),
             (SELECT max(a.checked_at) FROM verification_attempts a WHERE a.individual_id = i.id)
           ), i.created_at) AS quiet_since
      FROM verification_individuals i
     WHERE i.subject_ref IS NOT NULL AND i.status IN ('PENDING', 'IN_PROGRESS') AND ($4::text IS NULL OR i.id = $4)
       AND NOT EXISTS (SELECT 1 FROM verification_attempts a WHERE a.individual_id = i.id AND a.status = 'CHECKING')
  )
  (SELECT id AS individual_id, subject_ref, CASE WHEN submitted THEN 'RETENTION' ELSE 'ABANDONED' END AS reason, quiet_since AS since
     FROM open
    WHERE quiet_since <= CASE WHEN submitted THEN $2::timestamptz ELSE $1::timestamptz END
    ORDER BY quiet_since, id LIMIT $3)
  UNION ALL
  (SELECT i.id, i.subject_ref, 'RETENTION', i.completed_at
     FROM verification_individuals i
    WHERE i.subject_ref IS NOT NULL AND i.status IN ('PASSED', 'MANUALLY_PASSED', 'FAILED', 'LOCKED_OUT') AND i.completed_at <= $2::timestamptz
      AND ($4::text IS NULL OR i.id = $4)
      AND NOT EXISTS (SELECT 1 FROM verification_attempts a WHERE a.individual_id = i.id AND a.status = 'CHECKING')
    ORDER BY i.completed_at, i.id LIMIT $3)
  ORDER BY since, individual_id LIMIT $3`;

/** The longest due first, at most `limit`. */
export async function listDueSubjects(db: Executor, cutoffs: RetentionCutoffs, limit: number): Promise<DueSubject[]> {
  return db.query<DueSubject>(dueSubjects, [cutoffs.abandonedBefore, cutoffs.retainedBefore, limit, null]);
}

/** Still due, for the same subject: read again just before the provider is asked. */
export async function isStillDue(db: Executor, due: Pick<DueSubject, 'individual_id' | 'subject_ref'>, cutoffs: RetentionCutoffs): Promise<boolean> {
  const [row] = await db.query<DueSubject>(dueSubjects, [cutoffs.abandonedBefore, cutoffs.retainedBefore, 1, due.individual_id]);
  return row?.subject_ref === due.subject_ref;
}

/**
 * Clears the subject and records when and why, only while the individual still holds the subject the
 * provider forgot (compare-and-set): false when it no longer does. `updated_at` is left alone: it dates
 * the verification's own progress (the portal's "since").
 */
export async function recordForgotten(db: Executor, individualId: string, subjectRef: string, reason: ForgottenReason, at: Date): Promise<boolean> {
  const rows = await db.query(
    `UPDATE verification_individuals SET subject_ref = NULL, subject_forgotten_at = $3, subject_forgotten_reason = $4
      WHERE id = $1 AND subject_ref = $2 RETURNING id`,
    [individualId, subjectRef, at, reason],
  );
  return rows.length === 1;
}
