// ES256 keys for access tokens. They live in the database (private half sealed with the key ring) so that
// every API node signs and verifies with the same keys. A rotation adds a key that is published at once and
// signs from a minute later, when every node has loaded it; the key it replaces verifies, and stays in the
// JWKS, until every token it signed has expired plus the JWKS cache time, then leaves by itself
// (docs/security.md, "Signing keys").
import { decodeProtectedHeader, exportJWK, generateKeyPair, importJWK, type CryptoKey, type JWK } from 'jose';
import type { Clock } from '../../platform/clock.ts';
import type { KeyRing } from '../../platform/keys/key-ring.ts';
import type { Database, Tx } from '../../platform/db/database.ts';
import { newId } from '../../platform/ids.ts';
import type { Logger } from '../../platform/logger.ts';
import * as repo from './signing-keys.repository.ts';

/** No token signed with these keys lives longer (partner tokens 1 h, operator tokens 15 min; a test holds both to it). */
export const tokenLifetimeLimitSeconds = 3600;
/** How long a partner may cache /.well-known/jwks.json (its Cache-Control max-age). */
export const jwksCacheSeconds = 300;
/** Each node reads the keys again when it uses them this long after it last did (by the injected clock). */
export const reloadSeconds = 30;
/**
 * A new key signs this long after it is made. Every node has read it by then, so whichever node signs a
 * token with it, every other verifies it. Twice the reload interval: a node may read just before the
 * rotation's transaction commits.
 */
export const publishLeadSeconds = 2 * reloadSeconds;
/** A replaced key leaves this long after its successor starts signing (its last token's life, then the JWKS cache time). */
export const retireAfterSeconds = tokenLifetimeLimitSeconds + jwksCacheSeconds;

export interface SigningKeyRotation {
  /** The new key: in the JWKS at once, signing on every node from `signsFrom`. */
  kid: string;
  createdAt: Date;
  signsFrom: Date;
  /** The key it replaces: it signs until `signsFrom`, verifies and stays in the JWKS until `leavesAt`, then leaves by itself. */
  replaced: { kid: string; leavesAt: Date };
}

export interface SigningKeys {
  /** The key new tokens are signed with: the newest whose `signs_from` has come. */
  active(): Promise<{ kid: string; privateKey: CryptoKey }>;
  /** The public key for a kid; undefined for a kid never known here or retired. */
  publicKey(kid: string): Promise<CryptoKey | undefined>;
  /** The public keys that verify: the signing key, any newer one about to sign, and replaced keys until they leave. */
  jwks(): Promise<{ keys: JWK[] }>;
  /** Adds a new key (`pvs keys rotate-signing`); safe beside a scheduled rotation on another node. */
  rotate(): Promise<SigningKeyRotation>;
  /**
   * The scheduled rotation: adds a key only if the newest was made before `madeBefore`, deciding under the
   * key-creation lock, so that two workers running it at once make one key. Undefined when none was due.
   */
  rotateIfOlderThan(madeBefore: Date): Promise<SigningKeyRotation | undefined>;
  /** Deletes the rows of keys that have left (past `retires_at`); answers their kids. */
  deleteRetired(): Promise<string[]>;
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

export interface KeyTimes {
  kid: string;
  signsFrom: Date;
  retiresAt: Date | null;
}

/** Whether a key still verifies and is in the JWKS at `now`. */
export function isPublished(key: KeyTimes, now: Date): boolean {
  return key.retiresAt === null || key.retiresAt > now;
}

/**
 * The key that signs at `now`, of keys given newest first: the newest published one whose `signsFrom` has
 * come, or the oldest published one if none has (a clock behind the one that made them).
 */
export function signingKeyAt<K extends KeyTimes>(keys: readonly K[], now: Date): K | undefined {
  const published = keys.filter((k) => isPublished(k, now));
  return published.find((k) => k.signsFrom <= now) ?? published.at(-1);
}

interface LoadedKey extends KeyTimes {
  publicJwk: JWK;
  publicKey: CryptoKey;
  privateJwkSealed: string;
}

export async function loadSigningKeys(deps: { db: Database; clock: Clock; keyRing: Pick<KeyRing, 'sealer'>; logger: Pick<Logger, 'info'> }): Promise<SigningKeys> {
  const { db, clock, logger } = deps;
  const sealer = deps.keyRing.sealer('signing-keys');

  async function makeKey(tx: Tx, createdAt: Date, signsFrom: Date): Promise<string> {
    const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
    const kid = newId('signingKey');
    const publicJwk = { ...(await exportJWK(publicKey)), kid, alg: 'ES256', use: 'sig' };
    const privateJwkSealed = sealer.seal(JSON.stringify(await exportJWK(privateKey)));
    await repo.insertKey(tx, { kid, privateJwkSealed, publicJwk, createdAt, signsFrom });
    return kid;
  }

  if ((await repo.readKeys(db)).length === 0) {
    await db.transaction(async (tx) => {
      await repo.lockKeyCreation(tx);
      if (await repo.findNewestKey(tx)) return;
      // The first key signs at once: no node can have signed with another.
      const now = clock.now();
      await makeKey(tx, now, now);
    });
  }

  let keys: LoadedKey[] = [];
  let loadedAt = 0;
  let loading: Promise<void> | undefined;
  const privateKeys = new Map<string, CryptoKey>();

  // One read at a time per process, however many requests find the keys due for one.
  function reload(): Promise<void> {
    loading ??= (async () => {
      const startedAt = clock.now().getTime();
      const rows = await repo.readKeys(db);
      const known = new Map(keys.map((k) => [k.kid, k.publicKey]));
      keys = await Promise.all(
        rows.map(async (r) => ({
          kid: r.kid,
          signsFrom: r.signs_from,
          retiresAt: r.retires_at,
          publicJwk: r.public_jwk,
          publicKey: known.get(r.kid) ?? ((await importJWK(r.public_jwk, 'ES256')) as CryptoKey),
          privateJwkSealed: r.private_jwk_sealed,
        })),
      );
      for (const kid of privateKeys.keys()) if (!keys.some((k) => k.kid === kid)) privateKeys.delete(kid);
      loadedAt = startedAt;
    })().finally(() => {
      loading = undefined;
    });
    return loading;
  }

  // Keys another node made since this one last read them (a rotation) are read within reloadSeconds of
  // their commit, which publishLeadSeconds allows for. A token naming a kid unknown here costs no read of
  // its own, so made-up kids cannot turn every request into a database read.
  async function current(): Promise<LoadedKey[]> {
    const age = clock.now().getTime() - loadedAt;
    // A clock set back (or a test's) reads again too, rather than waiting for the time it had reached.
    if (age >= reloadSeconds * 1000 || age < 0) await reload();
    return keys;
  }

  async function rotateIf(madeBefore: Date | undefined): Promise<SigningKeyRotation | undefined> {
    const rotation = await db.transaction(async (tx) => {
      await repo.lockKeyCreation(tx);
      const newest = await repo.findNewestKey(tx);
      if (!newest) throw new Error('No signing key to replace: the first one is made when the service starts');
      // A second worker running the schedule at the same time finds the first one's key, new enough.
      if (madeBefore && newest.created_at >= madeBefore) return undefined;
      const createdAt = clock.now();
      const signsFrom = new Date(createdAt.getTime() + publishLeadSeconds * 1000);
      const leavesAt = new Date(signsFrom.getTime() + retireAfterSeconds * 1000);
      const kid = await makeKey(tx, createdAt, signsFrom);
      await repo.setRetirement(tx, kid, leavesAt);
      return { kid, createdAt, signsFrom, replaced: { kid: newest.kid, leavesAt } };
    });
    if (rotation) {
      const { kid, signsFrom, replaced } = rotation;
      logger.info({ kid, signsFrom, replacedKid: replaced.kid, replacedLeavesAt: replaced.leavesAt, scheduled: madeBefore !== undefined }, 'signing key rotated');
      // Not a read that began before the commit: this node has the new key in hand once rotate answers.
      await loading?.catch(() => {});
      await reload();
    }
    return rotation;
  }

  await reload();

  return {
    async active() {
      const loaded = await current();
      // The newest key never retires, so there is always one.
      const key = signingKeyAt(loaded, clock.now())!;
      let privateKey = privateKeys.get(key.kid);
      if (!privateKey) {
        privateKey = (await importJWK(JSON.parse(sealer.open(key.privateJwkSealed)), 'ES256')) as CryptoKey;
        privateKeys.set(key.kid, privateKey);
      }
      return { kid: key.kid, privateKey };
    },
    async publicKey(kid) {
      const key = (await current()).find((k) => k.kid === kid);
      return key && isPublished(key, clock.now()) ? key.publicKey : undefined;
    },
    async jwks() {
      const loaded = await current();
      const now = clock.now();
      return { keys: loaded.filter((k) => isPublished(k, now)).map((k) => k.publicJwk) };
    },
    rotate: async () => (await rotateIf(undefined))!,
    rotateIfOlderThan: (madeBefore) => rotateIf(madeBefore),
    async deleteRetired() {
      const kids = await repo.deleteRetiredKeys(db, clock.now());
      if (kids.length > 0) {
        logger.info({ kids }, 'retired signing keys deleted');
        await reload();
      }
      return kids;
    },
  };
}
