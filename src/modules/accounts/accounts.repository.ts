// Every SQL statement about password accounts: PVS's operators (console) and partners' portal users.
// The two tables have the same sign-in columns (migrations 0009 and 0016), so one set of statements
// serves both; the table name comes from this closed list, never from input.
import type { Executor } from '../../platform/db/database.ts';

export type AccountTable = 'operators' | 'portal_users';

export interface AccountRow {
  id: string;
  email: string;
  /** The portal user's partner; undefined for operators. */
  partner_id?: string;
  password_hash: string;
  must_change_password: boolean;
  password_changed_at: Date;
  failed_logins: number;
  locked_until: Date | null;
  last_login_at: Date | null;
  disabled_at: Date | null;
  created_at: Date;
  /** When the account enrolled an authenticator app (migration 0021); null while it has none. */
  totp_enrolled_at: Date | null;
  /** When it first had a second factor it still has, an authenticator app or a passkey (migration 0023); null while it has none. */
  second_factor_enrolled_at: Date | null;
}

const columns = (table: AccountTable) =>
  `id, email, ${table === 'portal_users' ? 'partner_id, ' : ''}password_hash, must_change_password, password_changed_at, failed_logins, locked_until, last_login_at, disabled_at, created_at, totp_enrolled_at,
   least(totp_enrolled_at, (SELECT min(p.created_at) FROM passkeys p WHERE p.account_id = ${table}.id)) AS second_factor_enrolled_at`;

/** False when an account with this email exists already in the table (the email is stored normalised). */
export async function insertAccount(
  db: Executor,
  table: AccountTable,
  row: { id: string; email: string; passwordHash: string; createdAt: Date; partnerId?: string },
): Promise<boolean> {
  const rows =
    table === 'portal_users'
      ? await db.query(
          `INSERT INTO portal_users (id, partner_id, email, password_hash, must_change_password, password_changed_at, created_at, updated_at)
           VALUES ($1, $2, $3, $4, true, $5, $5, $5) ON CONFLICT (email) DO NOTHING RETURNING id`,
          [row.id, row.partnerId, row.email, row.passwordHash, row.createdAt],
        )
      : await db.query(
          `INSERT INTO operators (id, email, password_hash, must_change_password, password_changed_at, created_at, updated_at)
           VALUES ($1, $2, $3, true, $4, $4, $4) ON CONFLICT (email) DO NOTHING RETURNING id`,
          [row.id, row.email, row.passwordHash, row.createdAt],
        );
  return rows.length === 1;
}

export async function findAccountByEmail(db: Executor, table: AccountTable, email: string): Promise<AccountRow | undefined> {
  const rows = await db.query<AccountRow>(`SELECT ${columns(table)} FROM ${table} WHERE email = $1`, [email]);
  return rows[0];
}

export async function findAccountById(db: Executor, table: AccountTable, id: string, options: { lock?: boolean } = {}): Promise<AccountRow | undefined> {
  const rows = await db.query<AccountRow>(`SELECT ${columns(table)} FROM ${table} WHERE id = $1${options.lock ? ' FOR UPDATE' : ''}`, [id]);
  return rows[0];
}

export async function listAccounts(db: Executor, table: AccountTable, filter: { partnerId?: string }): Promise<AccountRow[]> {
  return table === 'portal_users' && filter.partnerId
    ? db.query<AccountRow>(`SELECT ${columns(table)} FROM portal_users WHERE partner_id = $1 ORDER BY email`, [filter.partnerId])
    : db.query<AccountRow>(`SELECT ${columns(table)} FROM ${table} ORDER BY email`);
}

export async function recordFailedLogin(db: Executor, table: AccountTable, id: string, change: { failures: number; lockedUntil: Date | null; at: Date }): Promise<void> {
  await db.query(`UPDATE ${table} SET failed_logins = $2, locked_until = $3, updated_at = $4 WHERE id = $1`, [id, change.failures, change.lockedUntil, change.at]);
}

/** A correct password: the failure count starts again. */
export async function clearFailedLogins(db: Executor, table: AccountTable, id: string, at: Date, options: { signedIn: boolean }): Promise<void> {
  await db.query(
    `UPDATE ${table} SET failed_logins = 0, locked_until = NULL, updated_at = $2, last_login_at = CASE WHEN $3 THEN $2 ELSE last_login_at END WHERE id = $1`,
    [id, at, options.signedIn],
  );
}

/** Replaces the password only if it is still the one just verified; false when another request changed it first. */
export async function changePassword(db: Executor, table: AccountTable, id: string, change: { previousHash: string; newHash: string; at: Date }): Promise<boolean> {
  const rows = await db.query(
    `UPDATE ${table} SET password_hash = $3, must_change_password = false, password_changed_at = $4, updated_at = $4
     WHERE id = $1 AND password_hash = $2 RETURNING id`,
    [id, change.previousHash, change.newHash, change.at],
  );
  return rows.length === 1;
}

export async function disableAccount(db: Executor, table: AccountTable, email: string, at: Date): Promise<AccountRow | undefined> {
  const rows = await db.query<AccountRow>(
    `UPDATE ${table} SET disabled_at = coalesce(disabled_at, $2), updated_at = $2 WHERE email = $1 RETURNING ${columns(table)}`,
    [email, at],
  );
  return rows[0];
}
