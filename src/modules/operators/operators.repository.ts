// Every SQL statement of the operators domain.
import type { Executor } from '../../platform/db/database.ts';

export interface OperatorRow {
  id: string;
  email: string;
  password_hash: string;
  must_change_password: boolean;
  password_changed_at: Date;
  failed_logins: number;
  locked_until: Date | null;
  disabled_at: Date | null;
  created_at: Date;
}

const columns = 'id, email, password_hash, must_change_password, password_changed_at, failed_logins, locked_until, disabled_at, created_at';

/** False when an operator with this email exists already (the email is stored normalised). */
export async function insertOperator(db: Executor, row: { id: string; email: string; passwordHash: string; createdAt: Date }): Promise<boolean> {
  const rows = await db.query(
    `INSERT INTO operators (id, email, password_hash, must_change_password, password_changed_at, created_at, updated_at)
     VALUES ($1, $2, $3, true, $4, $4, $4) ON CONFLICT (email) DO NOTHING RETURNING id`,
    [row.id, row.email, row.passwordHash, row.createdAt],
  );
  return rows.length === 1;
}

export async function findOperatorByEmail(db: Executor, email: string): Promise<OperatorRow | undefined> {
  const rows = await db.query<OperatorRow>(`SELECT ${columns} FROM operators WHERE email = $1`, [email]);
  return rows[0];
}

export async function findOperatorById(db: Executor, id: string, options: { lock?: boolean } = {}): Promise<OperatorRow | undefined> {
  const rows = await db.query<OperatorRow>(`SELECT ${columns} FROM operators WHERE id = $1${options.lock ? ' FOR UPDATE' : ''}`, [id]);
  return rows[0];
}

export async function recordFailedLogin(db: Executor, id: string, change: { failures: number; lockedUntil: Date | null; at: Date }): Promise<void> {
  await db.query('UPDATE operators SET failed_logins = $2, locked_until = $3, updated_at = $4 WHERE id = $1', [id, change.failures, change.lockedUntil, change.at]);
}

/** A correct password: the failure count starts again. */
export async function clearFailedLogins(db: Executor, id: string, at: Date, options: { signedIn: boolean }): Promise<void> {
  await db.query(
    `UPDATE operators SET failed_logins = 0, locked_until = NULL, updated_at = $2, last_login_at = CASE WHEN $3 THEN $2 ELSE last_login_at END WHERE id = $1`,
    [id, at, options.signedIn],
  );
}

/** Replaces the password only if it is still the one just verified; false when another request changed it first. */
export async function changePassword(db: Executor, id: string, change: { previousHash: string; newHash: string; at: Date }): Promise<boolean> {
  const rows = await db.query(
    `UPDATE operators SET password_hash = $3, must_change_password = false, password_changed_at = $4, updated_at = $4
     WHERE id = $1 AND password_hash = $2 RETURNING id`,
    [id, change.previousHash, change.newHash, change.at],
  );
  return rows.length === 1;
}

export async function disableOperator(db: Executor, email: string, at: Date): Promise<OperatorRow | undefined> {
  const rows = await db.query<OperatorRow>(
    `UPDATE operators SET disabled_at = coalesce(disabled_at, $2), updated_at = $2 WHERE email = $1 RETURNING ${columns}`,
    [email, at],
  );
  return rows[0];
}
