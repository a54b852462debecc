// Every SQL statement about passkeys (migration 0023). A passkey belongs to one account (an operator's or
// a portal user's id); every statement names the account, so no id from a form reaches another's.
import type { Executor } from '../../platform/db/database.ts';

export interface PasskeyRow {
  id: string;
  account_id: string;
  credential_id: string;
  public_key: Uint8Array;
  /** bigint: a string from node-postgres. */
  counter: string | number;
  transports: string[];
  name: string;
  created_at: Date;
  last_used_at: Date | null;
}

const columns = 'id, account_id, credential_id, public_key, counter, transports, name, created_at, last_used_at';

export async function listPasskeys(db: Executor, accountId: string): Promise<PasskeyRow[]> {
  return db.query<PasskeyRow>(`SELECT ${columns} FROM passkeys WHERE account_id = $1 ORDER BY created_at, id`, [accountId]);
}

export async function findPasskeyByCredential(db: Executor, accountId: string, credentialId: string): Promise<PasskeyRow | undefined> {
  const rows = await db.query<PasskeyRow>(`SELECT ${columns} FROM passkeys WHERE account_id = $1 AND credential_id = $2`, [accountId, credentialId]);
  return rows[0];
}

/** False when the credential is registered already (to this account or another). */
export async function insertPasskey(
  db: Executor,
  row: { id: string; accountId: string; credentialId: string; publicKey: Uint8Array; counter: number; transports: string[]; name: string; at: Date },
): Promise<boolean> {
  const rows = await db.query(
    `INSERT INTO passkeys (id, account_id, credential_id, public_key, counter, transports, name, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (credential_id) DO NOTHING RETURNING id`,
    [row.id, row.accountId, row.credentialId, row.publicKey, row.counter, row.transports, row.name, row.at],
  );
  return rows.length === 1;
}

/**
 * Records a use and the authenticator's new count, only if the count is still the one just checked
 * against: two requests signing with the same count cannot both pass.
 */
export async function recordUse(db: Executor, id: string, change: { previousCounter: number; counter: number; at: Date }): Promise<boolean> {
  const rows = await db.query('UPDATE passkeys SET counter = $3, last_used_at = $4 WHERE id = $1 AND counter = $2 RETURNING id', [id, change.previousCounter, change.counter, change.at]);
  return rows.length === 1;
}

export async function deletePasskey(db: Executor, accountId: string, id: string): Promise<PasskeyRow | undefined> {
  const rows = await db.query<PasskeyRow>(`DELETE FROM passkeys WHERE account_id = $1 AND id = $2 RETURNING ${columns}`, [accountId, id]);
  return rows[0];
}

export async function deletePasskeys(db: Executor, accountId: string): Promise<number> {
  return (await db.query('DELETE FROM passkeys WHERE account_id = $1 RETURNING id', [accountId])).length;
}

export async function countPasskeys(db: Executor, accountId: string): Promise<number> {
  const rows = await db.query<{ n: string | number }>('SELECT count(*) AS n FROM passkeys WHERE account_id = $1', [accountId]);
  return Number(rows[0]?.n ?? 0);
}
