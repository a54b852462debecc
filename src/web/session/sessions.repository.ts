// Every SQL statement about the portal's and the console's sessions (web_sessions, migration 0016).
import type { Executor } from '../../platform/db/database.ts';

export type WebArea = 'portal' | 'console';

export interface SessionRow {
  token_hash: string;
  area: WebArea;
  account_id: string;
  password_change_required: boolean;
  created_at: Date;
  idle_expires_at: Date;
  expires_at: Date;
  revoked_at: Date | null;
  /** When the session last checked a second factor (migration 0021). */
  second_factor_at: Date | null;
}

export async function insertSession(
  db: Executor,
  row: { tokenHash: string; area: WebArea; accountId: string; passwordChangeRequired: boolean; createdAt: Date; idleExpiresAt: Date; expiresAt: Date; secondFactorAt: Date | null },
): Promise<void> {
  await db.query(
    `INSERT INTO web_sessions (token_hash, area, account_id, password_change_required, created_at, idle_expires_at, expires_at, second_factor_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [row.tokenHash, row.area, row.accountId, row.passwordChangeRequired, row.createdAt, row.idleExpiresAt, row.expiresAt, row.secondFactorAt],
  );
}

export async function findSession(db: Executor, tokenHash: string): Promise<SessionRow | undefined> {
  const rows = await db.query<SessionRow>(
    'SELECT token_hash, area, account_id, password_change_required, created_at, idle_expires_at, expires_at, revoked_at, second_factor_at FROM web_sessions WHERE token_hash = $1',
    [tokenHash],
  );
  return rows[0];
}

export async function extendSession(db: Executor, tokenHash: string, idleExpiresAt: Date): Promise<void> {
  await db.query('UPDATE web_sessions SET idle_expires_at = $2 WHERE token_hash = $1 AND revoked_at IS NULL', [tokenHash, idleExpiresAt]);
}

/** The session has just checked a second factor (at sign-in, or a step-up). */
export async function markSecondFactor(db: Executor, tokenHash: string, at: Date): Promise<void> {
  await db.query('UPDATE web_sessions SET second_factor_at = $2 WHERE token_hash = $1 AND revoked_at IS NULL', [tokenHash, at]);
}

export type ChallengePurpose = 'REGISTER' | 'AUTHENTICATE';

/** The session's passkey challenge (migration 0023): one at a time, the newest replacing any other. */
export async function putChallenge(db: Executor, tokenHash: string, challenge: { purpose: ChallengePurpose; challenge: string; expiresAt: Date }): Promise<void> {
  await db.query(
    `INSERT INTO webauthn_challenges (token_hash, purpose, challenge, expires_at) VALUES ($1, $2, $3, $4)
     ON CONFLICT (token_hash) DO UPDATE SET purpose = excluded.purpose, challenge = excluded.challenge, expires_at = excluded.expires_at`,
    [tokenHash, challenge.purpose, challenge.challenge, challenge.expiresAt],
  );
}

/** Takes the session's challenge for this purpose (it is deleted: used once), unless it has expired. */
export async function takeChallenge(db: Executor, tokenHash: string, purpose: ChallengePurpose, now: Date): Promise<string | undefined> {
  const rows = await db.query<{ challenge: string }>('DELETE FROM webauthn_challenges WHERE token_hash = $1 AND purpose = $2 AND expires_at > $3 RETURNING challenge', [
    tokenHash,
    purpose,
    now,
  ]);
  return rows[0]?.challenge;
}

export async function revokeSession(db: Executor, tokenHash: string, at: Date): Promise<void> {
  await db.query('UPDATE web_sessions SET revoked_at = coalesce(revoked_at, $2) WHERE token_hash = $1', [tokenHash, at]);
}

/** Every open session of these accounts (a password change, a disabled account or partner). */
export async function revokeAccountSessions(db: Executor, area: WebArea, accountIds: string[], at: Date): Promise<number> {
  const rows = await db.query(
    'UPDATE web_sessions SET revoked_at = $3 WHERE area = $1 AND account_id = ANY($2::text[]) AND revoked_at IS NULL RETURNING token_hash',
    [area, accountIds, at],
  );
  return rows.length;
}

/** Sessions ended more than a day ago are of no further use. */
export async function deleteEndedSessions(db: Executor, before: Date): Promise<number> {
  const rows = await db.query('DELETE FROM web_sessions WHERE expires_at < $1 OR idle_expires_at < $1 OR revoked_at < $1 RETURNING token_hash', [before]);
  return rows.length;
}
