// PVS's own record of what it made at Onfido (migrations 0024, 0027): a subject's current applicant,
// every applicant ever made for it (recorded as Onfido answers the create, so that forget finds each one),
// its current document and live photo, and the check of each attempt with what it ran on. Ids, types,
// sides and times only: nothing a person typed or photographed is ever written here.
import type { Database, Executor } from '../../../platform/db/database.ts';
import type { IdentityDocumentType } from '../identity-provider.ts';

export type OnfidoDocumentType = Extract<IdentityDocumentType, 'PASSPORT' | 'DRIVER_LICENCE'>;

export interface OnfidoSubjectRow {
  ref: string;
  applicant_id: string | null;
  live_photo_id: string | null;
}

export interface OnfidoDocumentRow {
  side: 'front' | 'back';
  document_id: string;
  document_type: OnfidoDocumentType;
}

export interface OnfidoCheckRow {
  subject_ref: string;
  attempt: number;
  check_id: string;
  applicant_id: string;
  document_type: OnfidoDocumentType;
  front_document_id: string;
  back_document_id: string | null;
  live_photo_id: string;
  created_at: Date;
  completed_at: Date | null;
}

const checkColumns = 'subject_ref, attempt, check_id, applicant_id, document_type, front_document_id, back_document_id, live_photo_id, created_at, completed_at';

export async function insertSubject(db: Executor, ref: string, at: Date): Promise<void> {
  await db.query('INSERT INTO onfido_identity_subjects (ref, created_at, updated_at) VALUES ($1, $2, $2)', [ref, at]);
}

export async function findSubject(db: Executor, ref: string): Promise<OnfidoSubjectRow | undefined> {
  const [row] = await db.query<OnfidoSubjectRow>('SELECT ref, applicant_id, live_photo_id FROM onfido_identity_subjects WHERE ref = $1', [ref]);
  return row;
}

/**
 * An applicant Onfido has just made for the subject, recorded before anything else is done with it: it
 * holds the person's details, and forget deletes every applicant recorded here.
 */
export async function recordApplicant(db: Executor, ref: string, applicantId: string, at: Date): Promise<void> {
  await db.query('INSERT INTO onfido_identity_applicants (subject_ref, applicant_id, created_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING', [ref, applicantId, at]);
}

/** Forgets the record of an applicant the subject never moved to, once Onfido confirmed it deleted (never before). */
export async function dropApplicant(db: Executor, ref: string, applicantId: string): Promise<void> {
  await db.query('DELETE FROM onfido_identity_applicants WHERE subject_ref = $1 AND applicant_id = $2', [ref, applicantId]);
}

/** Makes the recorded applicant the subject's, which had none; false when another save got there first. */
export async function setApplicant(db: Executor, ref: string, applicantId: string, at: Date): Promise<boolean> {
  const rows = await db.query('UPDATE onfido_identity_subjects SET applicant_id = $2, updated_at = $3 WHERE ref = $1 AND applicant_id IS NULL RETURNING ref', [ref, applicantId, at]);
  return rows.length === 1;
}

export async function setLivePhoto(db: Executor, ref: string, livePhotoId: string, at: Date): Promise<void> {
  await db.query('UPDATE onfido_identity_subjects SET live_photo_id = $2, updated_at = $3 WHERE ref = $1', [ref, livePhotoId, at]);
}

export type DocumentSides = ReadonlyArray<{ side: 'front' | 'back'; documentId: string }>;

async function writeDocument(tx: Executor, ref: string, type: OnfidoDocumentType, sides: DocumentSides, at: Date): Promise<void> {
  await tx.query('DELETE FROM onfido_identity_documents WHERE subject_ref = $1', [ref]);
  for (const { side, documentId } of sides) {
    await tx.query('INSERT INTO onfido_identity_documents (subject_ref, side, document_id, document_type, saved_at) VALUES ($1, $2, $3, $4, $5)', [ref, side, documentId, type, at]);
  }
}

/** The sides of a document saved now replace the current document's, all of them at once. */
export async function replaceDocument(db: Database, ref: string, type: OnfidoDocumentType, sides: DocumentSides, at: Date): Promise<void> {
  await db.transaction(async (tx) => {
    await writeDocument(tx, ref, type, sides, at);
    await tx.query('UPDATE onfido_identity_subjects SET updated_at = $2 WHERE ref = $1', [ref, at]);
  });
}

/**
 * The subject moves to a new applicant, with the copies of its current document and live photo made
 * there. Unless another save moved it first (the applicant it was on is no longer current): false.
 */
export async function switchApplicant(
  db: Database,
  ref: string,
  change: { from: string; to: string; document: { type: OnfidoDocumentType; sides: DocumentSides } | null; livePhotoId: string | null },
  at: Date,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const moved = await tx.query('UPDATE onfido_identity_subjects SET applicant_id = $3, live_photo_id = $4, updated_at = $5 WHERE ref = $1 AND applicant_id = $2 RETURNING ref', [
      ref,
      change.from,
      change.to,
      change.livePhotoId,
      at,
    ]);
    if (moved.length === 0) return false;
    if (change.document) await writeDocument(tx, ref, change.document.type, change.document.sides, at);
    else await tx.query('DELETE FROM onfido_identity_documents WHERE subject_ref = $1', [ref]);
    return true;
  });
}

/**
 * Every applicant PVS made for the subject and has not yet seen deleted: those recorded at their creation
 * (the current one, those earlier attempts ran on, and any whose clean-up delete failed). The current
 * applicant and the checks' were recorded too, but are also read where they are named, so that a row
 * lost from the record never hides an applicant from forget.
 */
export async function applicantIdsOf(db: Executor, ref: string): Promise<string[]> {
  const rows = await db.query<{ applicant_id: string }>(
    `SELECT applicant_id FROM onfido_identity_applicants WHERE subject_ref = $1
     UNION SELECT applicant_id FROM onfido_identity_subjects WHERE ref = $1 AND applicant_id IS NOT NULL
     UNION SELECT applicant_id FROM onfido_identity_checks WHERE subject_ref = $1`,
    [ref],
  );
  return rows.map((r) => r.applicant_id);
}

export async function listDocument(db: Executor, ref: string): Promise<OnfidoDocumentRow[]> {
  return db.query<OnfidoDocumentRow>('SELECT side, document_id, document_type FROM onfido_identity_documents WHERE subject_ref = $1 ORDER BY side DESC', [ref]);
}

export async function findCheck(db: Executor, ref: string, attempt: number): Promise<OnfidoCheckRow | undefined> {
  const [row] = await db.query<OnfidoCheckRow>(`SELECT ${checkColumns} FROM onfido_identity_checks WHERE subject_ref = $1 AND attempt = $2`, [ref, attempt]);
  return row;
}

export async function findCheckById(db: Executor, checkId: string): Promise<OnfidoCheckRow | undefined> {
  const [row] = await db.query<OnfidoCheckRow>(`SELECT ${checkColumns} FROM onfido_identity_checks WHERE check_id = $1`, [checkId]);
  return row;
}

/** Newest attempt first. */
export async function listChecks(db: Executor, ref: string): Promise<OnfidoCheckRow[]> {
  return db.query<OnfidoCheckRow>(`SELECT ${checkColumns} FROM onfido_identity_checks WHERE subject_ref = $1 ORDER BY attempt DESC`, [ref]);
}

/**
 * Records an attempt's check, or answers the one already recorded for it: two runs of the same attempt
 * that raced both end up reading the first check recorded.
 */
export async function insertCheck(db: Executor, row: Omit<OnfidoCheckRow, 'completed_at'>): Promise<OnfidoCheckRow> {
  await db.query(
    `INSERT INTO onfido_identity_checks (subject_ref, attempt, check_id, applicant_id, document_type, front_document_id, back_document_id, live_photo_id, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (subject_ref, attempt) DO NOTHING`,
    [row.subject_ref, row.attempt, row.check_id, row.applicant_id, row.document_type, row.front_document_id, row.back_document_id, row.live_photo_id, row.created_at],
  );
  return (await findCheck(db, row.subject_ref, row.attempt))!;
}

/** The first time PVS sees the check complete; later sightings keep the first time. */
export async function markCompleted(db: Executor, ref: string, attempt: number, at: Date): Promise<Date> {
  const [row] = await db.query<{ completed_at: Date }>(
    'UPDATE onfido_identity_checks SET completed_at = coalesce(completed_at, $3) WHERE subject_ref = $1 AND attempt = $2 RETURNING completed_at',
    [ref, attempt, at],
  );
  return row?.completed_at ?? at;
}

/** The subject with its applicants' records, document and checks (ON DELETE CASCADE). */
export async function deleteSubject(db: Executor, ref: string): Promise<void> {
  await db.query('DELETE FROM onfido_identity_subjects WHERE ref = $1', [ref]);
}
