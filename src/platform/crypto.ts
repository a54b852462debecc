// Secrets at rest: slow hashes for passwords, fast digests for the secrets PVS generates (API client
// secrets), HMAC digests for link tokens, AES-GCM for secrets the service must read back (signing keys,
// webhook secrets). Every key is derived from SECRET_KEY with HKDF and a purpose label, so one root secret
// never signs two kinds of thing.
import {
  createCipheriv,
  createHash,
  createDecipheriv,
  createHmac,
  hkdfSync,
  randomBytes,
  scrypt as scryptCallback,
  timingSafeEqual,
  type ScryptOptions,
} from 'node:crypto';

/** scrypt's cost (log2 of N) for new password hashes unless PASSWORD_HASH_COST says otherwise; production's floor. */
export const defaultPasswordHashCost = 15;
const scryptParams = { r: 8, p: 1, keyLength: 32 };
/**
 * What scrypt needs is 128 · N · r bytes; twice that leaves room for Node's own check. Never more than the
 * highest PASSWORD_HASH_COST (17) needs: a stored hash naming a larger N fails to verify rather than take the memory.
 */
const scryptMemory = (N: number, r: number) => Math.min(2 * 128 * N * r, 2 * 128 * 2 ** 17 * 8);

function scrypt(secret: string, salt: Buffer, keyLength: number, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scryptCallback(secret, salt, keyLength, options, (error, key) => (error ? reject(error) : resolve(key))),
  );
}

/**
 * A slow, salted hash (scrypt) in a self-describing string, `scrypt$N$r$p$salt$hash`: for passwords, which
 * people choose and an attacker holding the hashes could guess. `cost` is log2 of N (PASSWORD_HASH_COST).
 */
export async function hashSecret(secret: string, cost = defaultPasswordHashCost): Promise<string> {
  const salt = randomBytes(16);
  const { r, p, keyLength } = scryptParams;
  const N = 2 ** cost;
  const hash = await scrypt(secret, salt, keyLength, { N, r, p, maxmem: scryptMemory(N, r) });
  return ['scrypt', N, r, p, salt.toString('base64url'), hash.toString('base64url')].join('$');
}

/**
 * A digest of a secret PVS generated from 256 random bits (an API client's secret), `sha256$hash`. Nobody can
 * guess such a secret from its digest however fast the digest is, so a slow hash would only make every
 * token request wait on it (decision 136).
 */
export function digestSecret(secret: string): string {
  return `sha256$${createHash('sha256').update(secret).digest('base64url')}`;
}

/** Whether `secret` is the one `stored` (from hashSecret or digestSecret) was made from. */
export async function verifySecret(secret: string, stored: string): Promise<boolean> {
  if (stored.startsWith('sha256$')) {
    const expected = Buffer.from(stored.slice('sha256$'.length), 'base64url');
    const actual = createHash('sha256').update(secret).digest();
    return expected.length === actual.length && timingSafeEqual(expected, actual);
  }
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const actual = await scrypt(secret, Buffer.from(salt, 'base64url'), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem: scryptMemory(Number(n), Number(r)),
  });
  return timingSafeEqual(expected, actual);
}

const decoys = new Map<number, Promise<string>>();

/** A hash of nothing in particular at `cost`, verified against when an email is unknown so that the time taken does not tell. */
export function decoyHash(cost = defaultPasswordHashCost): Promise<string> {
  let decoy = decoys.get(cost);
  if (!decoy) decoys.set(cost, (decoy = hashSecret('decoy', cost)));
  return decoy;
}

export function deriveKey(secretKey: string, purpose: string): Buffer {
  return Buffer.from(hkdfSync('sha256', secretKey, 'pvs', purpose, 32));
}

export function hmacHex(key: Buffer | string, text: string): string {
  return createHmac('sha256', key).update(text).digest('hex');
}

export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

export function constantTimeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** AES-256-GCM; the result is `v1.iv.tag.ciphertext`, base64url parts. */
export function encrypt(key: Buffer, plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join('.');
}

export function decrypt(key: Buffer, sealed: string): string {
  const [version, iv, tag, body] = sealed.split('.');
  if (version !== 'v1' || !iv || !tag || body === undefined) throw new Error('Unrecognised sealed value');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
}

/** Seal and open with one key (for values the service must read back). */
export function createSealer(key: Buffer): { seal(plaintext: string): string; open(sealed: string): string } {
  return { seal: (plaintext) => encrypt(key, plaintext), open: (sealed) => decrypt(key, sealed) };
}
