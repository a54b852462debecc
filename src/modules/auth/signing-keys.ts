// ES256 keys for access tokens. They live in the database (private half sealed with a key derived
// from SECRET_KEY) so that every API node signs and verifies with the same keys.
import { decodeProtectedHeader, exportJWK, generateKeyPair, importJWK, type CryptoKey, type JWK } from 'jose';
import type { Clock } from '../../platform/clock.ts';
import type { KeyRing } from '../../platform/keys/key-ring.ts';
import type { Database } from '../../platform/db/database.ts';
import { newId } from '../../platform/ids.ts';

export interface SigningKeys {
  /** The newest key: what new tokens are signed with. */
  active(): { kid: string; privateKey: CryptoKey };
  /** The public key for a kid, reloading from the database once if it is not known here yet. */
  publicKey(kid: string): Promise<CryptoKey | undefined>;
  jwks(): { keys: JWK[] };
}

/** The public key a token names in its header (`kid`); undefined for a token that names none we know. */
export async function keyOfToken(keys: SigningKeys, token: string): Promise<CryptoKey | undefined> {
  let kid: string | undefined;
  try {
    kid = decodeProtectedHeader(token).kid;
  } catch {
    return undefined;
  }
  return kid ? keys.publicKey(kid) : undefined;
}

interface KeyRow {
  kid: string;
  private_jwk_sealed: string;
  public_jwk: JWK;
}

// An arbitrary constant: the advisory lock taken while the first key is created.
const keyCreationLock = 7_311_842_002;

export async function loadSigningKeys(deps: { db: Database; clock: Clock; keyRing: Pick<KeyRing, 'sealer'> }): Promise<SigningKeys> {
  const sealer = deps.keyRing.sealer('signing-keys');
  let rows = await readKeys(deps.db);
  if (rows.length === 0) {
    await deps.db.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1)', [keyCreationLock]);
      const existing = await tx.query('SELECT kid FROM signing_keys LIMIT 1');
      if (existing.length > 0) return;
      const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
      const kid = newId('signingKey');
      const publicJwk = { ...(await exportJWK(publicKey)), kid, alg: 'ES256', use: 'sig' };
      const sealed = sealer.seal(JSON.stringify(await exportJWK(privateKey)));
      await tx.query('INSERT INTO signing_keys (kid, private_jwk_sealed, public_jwk, created_at) VALUES ($1, $2, $3, $4)', [
        kid,
        sealed,
        JSON.stringify(publicJwk),
        deps.clock.now(),
      ]);
    });
    rows = await readKeys(deps.db);
  }

  let publicKeys = await importPublic(rows);
  let jwks = { keys: rows.map((r) => r.public_jwk) };
  const newest = rows[0]!;
  const active = {
    kid: newest.kid,
    privateKey: (await importJWK(JSON.parse(sealer.open(newest.private_jwk_sealed)), 'ES256')) as CryptoKey,
  };
  let lastReload = Date.now();

  return {
    active: () => active,
    async publicKey(kid) {
      const known = publicKeys.get(kid);
      if (known || Date.now() - lastReload < 30_000) return known;
      // A key another node created after this one started. Reload at most every 30 s so that
      // tokens with made-up kids cannot turn every request into a database read.
      lastReload = Date.now();
      const fresh = await readKeys(deps.db);
      publicKeys = await importPublic(fresh);
      jwks = { keys: fresh.map((r) => r.public_jwk) };
      return publicKeys.get(kid);
    },
    jwks: () => jwks,
  };
}

async function readKeys(db: Database): Promise<KeyRow[]> {
  return db.query<KeyRow>('SELECT kid, private_jwk_sealed, public_jwk FROM signing_keys ORDER BY created_at DESC, kid DESC');
}

async function importPublic(rows: KeyRow[]): Promise<Map<string, CryptoKey>> {
  const entries = await Promise.all(rows.map(async (r) => [r.kid, (await importJWK(r.public_jwk, 'ES256')) as CryptoKey] as const));
  return new Map(entries);
}
