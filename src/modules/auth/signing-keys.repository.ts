// Every SQL statement of the signing keys (the `signing_keys` table).
import type { JWK } from 'jose';
import type { Executor, Tx } from '../../platform/db/database.ts';

export interface SigningKeyRow {
  kid: string;
  private_jwk_sealed: string;
  public_jwk: JWK;
  created_at: Date;
  signs_from: Date;
  retires_at: Date | null;
}

// An arbitrary constant: the advisory lock taken while a key is created (the first one, or a rotation), so
// that two nodes or two workers doing it at once make one key.
const keyCreationLock = 7_311_842_002;

export async function lockKeyCreation(tx: Tx): Promise<void> {
  await tx.query('SELECT pg_advisory_xact_lock($1)', [keyCreationLock]);
}

/** Every key, the newest first (retired ones too, until the job deletes them). */
export async function readKeys(db: Executor): Promise<SigningKeyRow[]> {
  return db.query<SigningKeyRow>('SELECT kid, private_jwk_sealed, public_jwk, created_at, signs_from, retires_at FROM signing_keys ORDER BY created_at DESC, kid DESC');
}

export async function findNewestKey(tx: Executor): Promise<{ kid: string; created_at: Date } | undefined> {
  const rows = await tx.query<{ kid: string; created_at: Date }>('SELECT kid, created_at FROM signing_keys ORDER BY created_at DESC, kid DESC LIMIT 1');
  return rows[0];
}

export async function insertKey(
  tx: Executor,
  key: { kid: string; privateJwkSealed: string; publicJwk: JWK; createdAt: Date; signsFrom: Date },
): Promise<void> {
  await tx.query('INSERT INTO signing_keys (kid, private_jwk_sealed, public_jwk, created_at, signs_from) VALUES ($1, $2, $3, $4, $5)', [
    key.kid,
    key.privateJwkSealed,
    JSON.stringify(key.publicJwk),
    key.createdAt,
    key.signsFrom,
  ]);
}

/** Gives every key but `newKid` that has no retirement yet this one (in practice: the key newKid replaces). */
export async function setRetirement(tx: Executor, newKid: string, retiresAt: Date): Promise<void> {
  await tx.query('UPDATE signing_keys SET retires_at = $2 WHERE retires_at IS NULL AND kid <> $1', [newKid, retiresAt]);
}

/** Deletes the keys retired by `now`; answers their kids. */
export async function deleteRetiredKeys(db: Executor, now: Date): Promise<string[]> {
  const rows = await db.query<{ kid: string }>('DELETE FROM signing_keys WHERE retires_at <= $1 RETURNING kid', [now]);
  return rows.map((r) => r.kid);
}
