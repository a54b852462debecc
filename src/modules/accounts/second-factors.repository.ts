// Every SQL statement about second factors (migration 0021; passkeys have passkeys.repository.ts): the TOTP columns of the two account tables
// (the table name from accounts.repository.ts's closed list, never from input), recovery codes, and the
// partners that require a second factor of their portal users.
import type { Executor } from '../../platform/db/database.ts';
import type { AccountTable } from './accounts.repository.ts';

export interface FactorRow {
  totp_secret_sealed: string | null;
  totp_pending_sealed: string | null;
  totp_enrolled_at: Date | null;
  /** bigint: a string from node-postgres. */
  totp_last_step: string | number | null;
  /** The account's passkeys (migration 0023). */
  passkeys: string | number;
}

export async function findFactor(db: Executor, table: AccountTable, id: string): Promise<FactorRow | undefined> {
  const rows = await db.query<FactorRow>(`SELECT totp_secret_sealed, totp_pending_sealed, totp_enrolled_at, totp_last_step, (SELECT count(*) FROM passkeys p WHERE p.account_id = ${table}.id) AS passkeys FROM ${table} WHERE id = $1`, [id]);
  return rows[0];
}

/** The secret shown on the enrolment page, kept until it is confirmed (or another replaces it). */
export async function setPendingSecret(db: Executor, table: AccountTable, id: string, sealed: string, at: Date): Promise<void> {
  await db.query(`UPDATE ${table} SET totp_pending_sealed = $2, updated_at = $3 WHERE id = $1 AND totp_enrolled_at IS NULL`, [id, sealed, at]);
}

/** The pending secret becomes the secret; false when the account enrolled meanwhile (another tab). */
export async function enrolSecret(db: Executor, table: AccountTable, id: string, change: { sealed: string; step: number; at: Date }): Promise<boolean> {
  const rows = await db.query(
    `UPDATE ${table} SET totp_secret_sealed = $2, totp_pending_sealed = NULL, totp_enrolled_at = $4, totp_last_step = $3, updated_at = $4
     WHERE id = $1 AND totp_enrolled_at IS NULL RETURNING id`,
    [id, change.sealed, change.step, change.at],
  );
  return rows.length === 1;
}

/**
 * Records the step of an accepted code, only if it is after the last one: two requests with the same
 * code cannot both pass, whichever reads first.
 */
export async function acceptStep(db: Executor, table: AccountTable, id: string, step: number): Promise<boolean> {
  const rows = await db.query(`UPDATE ${table} SET totp_last_step = $2 WHERE id = $1 AND (totp_last_step IS NULL OR totp_last_step < $2) RETURNING id`, [id, step]);
  return rows.length === 1;
}

/** Removes the factor (and any secret awaiting confirmation): the account enrols again. False when it had neither. */
export async function clearFactor(db: Executor, table: AccountTable, id: string, at: Date): Promise<boolean> {
  const rows = await db.query(
    `UPDATE ${table} SET totp_secret_sealed = NULL, totp_pending_sealed = NULL, totp_enrolled_at = NULL, totp_last_step = NULL, updated_at = $2
     WHERE id = $1 AND (totp_enrolled_at IS NOT NULL OR totp_pending_sealed IS NOT NULL) RETURNING id`,
    [id, at],
  );
  return rows.length === 1;
}

export async function replaceRecoveryCodes(db: Executor, accountId: string, hashes: string[], at: Date): Promise<void> {
  await db.query('DELETE FROM recovery_codes WHERE account_id = $1', [accountId]);
  await db.query('INSERT INTO recovery_codes (account_id, code_hash, created_at) SELECT $1, unnest($2::text[]), $3', [accountId, hashes, at]);
}

export async function deleteRecoveryCodes(db: Executor, accountId: string): Promise<number> {
  return (await db.query('DELETE FROM recovery_codes WHERE account_id = $1 RETURNING code_hash', [accountId])).length;
}

/** Marks an unused code used; false when it is unknown or was used already. */
/** `codeHashes`: the typed code's digest under each key of the ring. */
export async function useRecoveryCode(db: Executor, accountId: string, codeHashes: string[], at: Date): Promise<boolean> {
  const rows = await db.query('UPDATE recovery_codes SET used_at = $3 WHERE account_id = $1 AND code_hash = ANY ($2::text[]) AND used_at IS NULL RETURNING code_hash', [
    accountId,
    codeHashes,
    at,
  ]);
  return rows.length === 1;
}

export async function countUnusedRecoveryCodes(db: Executor, accountId: string): Promise<number> {
  const rows = await db.query<{ n: string | number }>('SELECT count(*) AS n FROM recovery_codes WHERE account_id = $1 AND used_at IS NULL', [accountId]);
  return Number(rows[0]?.n ?? 0);
}

export async function isSecondFactorRequired(db: Executor, partnerId: string): Promise<boolean> {
  return (await db.query('SELECT 1 FROM portal_mfa_requirements WHERE partner_id = $1', [partnerId])).length === 1;
}

/** True when this changed the requirement. */
export async function setSecondFactorRequired(db: Executor, partnerId: string, change: { required: boolean; by: string; at: Date }): Promise<boolean> {
  const rows = change.required
    ? await db.query('INSERT INTO portal_mfa_requirements (partner_id, required_by, required_at) VALUES ($1, $2, $3) ON CONFLICT (partner_id) DO NOTHING RETURNING partner_id', [
        partnerId,
        change.by,
        change.at,
      ])
    : await db.query('DELETE FROM portal_mfa_requirements WHERE partner_id = $1 RETURNING partner_id', [partnerId]);
  return rows.length === 1;
}
