// The key ring: SECRET_KEY is the current key and seals everything new; PREVIOUS_SECRET_KEYS still open
// and verify, and never seal. Each key is known by an id, a fingerprint of it (never the key), and every
// value sealed under a ring records that id, so that a value tells which key opens it, `pvs keys status`
// counts what each key still holds, and a key can leave the ring once nothing is under it. Values sealed
// before the ring existed (`v1.…`, no id) are opened by trying each key, current first, and are counted as
// "unrecorded" until the re-seal job seals them again. Each purpose still has its own key, derived from
// the ring's key with HKDF and the purpose's label (crypto.ts), as before.
import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import { decrypt, deriveKey } from '../crypto.ts';

export interface RingKey {
  /** `k` and 12 hex digits of an HMAC of the key: names it in sealed values, logs and status, never reveals it. */
  id: string;
  secret: string;
}

/** A value sealed under a key the ring no longer holds: the message names the key's id. */
export class UnknownKeyError extends Error {
  override name = 'UnknownKeyError';
  constructor(readonly keyId: string) {
    super(`sealed under key ${keyId}, which is neither SECRET_KEY nor in PREVIOUS_SECRET_KEYS`);
  }
}

export function keyIdOf(secret: string): string {
  return `k${createHmac('sha256', secret).update('pvs key id').digest('hex').slice(0, 12)}`;
}

export interface Sealer {
  /** AES-256-GCM under the current key: `v2.<key id>.<iv>.<tag>.<ciphertext>`, base64url parts. */
  seal(plaintext: string): string;
  /** Opens a value sealed under any key of the ring (and a `v1` value of before the ring). */
  open(sealed: string): string;
  /**
   * Bytes (an image) sealed with `context` as associated data, so that they open only where they were
   * sealed for: 0x02, the key id's 6 bytes, IV, tag, ciphertext.
   */
  sealBytes(plaintext: Buffer, context: string): Buffer;
  /** Opens sealed bytes of any key of the ring (and the 0x01 form of before the ring, which records no key). */
  openBytes(sealed: Uint8Array, context: string): Buffer;
}

/**
 * Digests of tokens that PVS stores and finds again by the token (link and session tokens, recovery
 * codes): HMAC-SHA-256 under the purpose's key, stored as `<key id>.<hex>`. A token is looked for under
 * every key of the ring (and as the bare hex of before the ring); one found under another than the current
 * key is stored again under the current one when it is used (`isCurrent`), or expires with its token.
 */
export interface Digester {
  /** The digest to store, under the current key. */
  digest(token: string): string;
  /** Every form a stored digest of this token may have; the current key's first. */
  candidates(token: string): string[];
  /** Whether a stored digest is the current key's. */
  isCurrent(stored: string): boolean;
}

/** Keys for HMACs that are checked, never stored (CSRF tokens, signed URLs, the admin token). */
export interface MacKeys {
  /** Signs: the current key's. */
  current: Buffer;
  /** Checks: the current key's first, then each previous key's. */
  all: readonly Buffer[];
}

export interface KeyRing {
  current: RingKey;
  previous: readonly RingKey[];
  /** The current key first. */
  all: readonly RingKey[];
  find(id: string): RingKey | undefined;
  /** The sealer of one purpose (each purpose its own derived keys). */
  sealer(purpose: string): Sealer;
  digester(purpose: string): Digester;
  macKeys(purpose: string): MacKeys;
}

/** The id of the key a sealed value records, or null for a value sealed before the ring (`v1`). */
export function sealedKeyId(sealed: string): string | null {
  if (!sealed.startsWith('v2.')) return null;
  return sealed.slice(3, sealed.indexOf('.', 3));
}

/** The id of the key sealed bytes record, or null for bytes sealed before the ring (0x01). */
export function sealedBytesKeyId(sealed: Uint8Array): string | null {
  if (sealed[0] !== 2 || sealed.length < 35) return null;
  return `k${Buffer.from(sealed.subarray(1, 7)).toString('hex')}`;
}

function gcmOpen(key: Buffer, iv: Uint8Array, tag: Uint8Array, body: Uint8Array, aad?: string): Buffer {
  const decipher = createDecipheriv('aes-256-gcm', key, iv);
  if (aad !== undefined) decipher.setAAD(Buffer.from(aad, 'utf8'));
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(body), decipher.final()]);
}

/** Before the ring a value records no key: each key is tried, the current first (GCM's tag tells a wrong one). */
function firstThatOpens<T>(keys: Buffer[], open: (key: Buffer) => T): T {
  let failure: unknown;
  for (const key of keys) {
    try {
      return open(key);
    } catch (error) {
      failure = error;
    }
  }
  throw failure instanceof Error ? failure : new Error('Unrecognised sealed value');
}

export function createKeyRing(current: string, previous: readonly string[] = []): KeyRing {
  const currentKey = { id: keyIdOf(current), secret: current };
  const previousKeys = previous.map((secret) => ({ id: keyIdOf(secret), secret }));
  const all = [currentKey, ...previousKeys];
  const byId = new Map(all.map((k) => [k.id, k]));
  const find = (id: string) => byId.get(id);

  return {
    current: currentKey,
    previous: previousKeys,
    all,
    find,
    digester(purpose) {
      const keys = all.map((k) => ({ id: k.id, key: deriveKey(k.secret, purpose) }));
      const hex = (key: Buffer, token: string) => createHmac('sha256', key).update(token).digest('hex');
      const prefix = `${currentKey.id}.`;
      return {
        digest: (token) => `${prefix}${hex(keys[0]!.key, token)}`,
        candidates(token) {
          const bare = keys.map((k) => hex(k.key, token));
          // Under each key with its id, then as it was stored before the ring (the bare hex).
          return [...keys.map((k, i) => `${k.id}.${bare[i]}`), ...bare];
        },
        isCurrent: (stored) => stored.startsWith(prefix),
      };
    },
    macKeys(purpose) {
      const keys = all.map((k) => deriveKey(k.secret, purpose));
      return { current: keys[0]!, all: keys };
    },
    sealer(purpose) {
      const derived = new Map(all.map((k) => [k.id, deriveKey(k.secret, purpose)]));
      const sealingKey = derived.get(currentKey.id)!;
      const keyOf = (id: string) => {
        const key = derived.get(id);
        if (!key) throw new UnknownKeyError(id);
        return key;
      };
      return {
        seal(plaintext) {
          const iv = randomBytes(12);
          const cipher = createCipheriv('aes-256-gcm', sealingKey, iv);
          const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
          return ['v2', currentKey.id, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join('.');
        },
        open(sealed) {
          const id = sealedKeyId(sealed);
          if (id === null) return firstThatOpens([...derived.values()], (key) => decrypt(key, sealed));
          const [, , iv, tag, body] = sealed.split('.');
          if (!iv || !tag || body === undefined) throw new Error('Unrecognised sealed value');
          const b64 = (part: string) => Buffer.from(part, 'base64url');
          return gcmOpen(keyOf(id), b64(iv), b64(tag), b64(body)).toString('utf8');
        },
        sealBytes(plaintext, context) {
          const iv = randomBytes(12);
          const cipher = createCipheriv('aes-256-gcm', sealingKey, iv);
          cipher.setAAD(Buffer.from(context, 'utf8'));
          // One copy of the picture besides the cipher's own output: GCM's final() adds no bytes.
          const body = cipher.update(plaintext);
          cipher.final();
          return Buffer.concat([Buffer.from([2]), Buffer.from(currentKey.id.slice(1), 'hex'), iv, cipher.getAuthTag(), body]);
        },
        openBytes(sealed, context) {
          const bytes = Buffer.from(sealed.buffer, sealed.byteOffset, sealed.byteLength);
          const id = sealedBytesKeyId(bytes);
          if (id !== null) return gcmOpen(keyOf(id), bytes.subarray(7, 19), bytes.subarray(19, 35), bytes.subarray(35), context);
          if (bytes[0] !== 1 || bytes.length < 29) throw new Error('Unrecognised sealed bytes');
          return firstThatOpens([...derived.values()], (key) => gcmOpen(key, bytes.subarray(1, 13), bytes.subarray(13, 29), bytes.subarray(29), context));
        },
      };
    },
  };
}
