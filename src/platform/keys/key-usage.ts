// Where the key ring's work is stored, and what each key still holds there: every sealed column (values
// to open) and every digest column (tokens to find). A column added later that holds a sealed value or a
// digest must be listed here, or `pvs keys status` would not count it, the start-up check would not guard
// it and the re-seal job would leave it under an old key (test/keys/key-usage.test.ts finds every
// `*_sealed` column of the schema and fails on one missing here).
import { ConfigError } from '../../config.ts';
import type { Executor } from '../db/database.ts';
import type { KeyRing } from './key-ring.ts';

export interface SealedColumn {
  table: string;
  column: string;
  /** The sealer's purpose (key-ring.ts). */
  purpose: string;
  /** The row's primary key columns, to seal a value again in its place. */
  key: readonly string[];
  /** Sealed bytes, with these columns joined by `:` as their associated data. */
  bytesContext?: readonly string[];
}

export const sealedColumns: readonly SealedColumn[] = [
  { table: 'signing_keys', column: 'private_jwk_sealed', purpose: 'signing-keys', key: ['kid'] },
  { table: 'events', column: 'payload_sealed', purpose: 'event-payloads', key: ['id'] },
  { table: 'webhook_destinations', column: 'secret_sealed', purpose: 'webhook-secrets', key: ['id'] },
  { table: 'webhook_destinations', column: 'previous_secret_sealed', purpose: 'webhook-secrets', key: ['id'] },
  { table: 'payments', column: 'prn', purpose: 'payment-prns', key: ['id'] },
  { table: 'monitoring_subscriptions', column: 'date_of_birth_sealed', purpose: 'monitoring-dates-of-birth', key: ['contact_id'] },
  { table: 'operators', column: 'totp_secret_sealed', purpose: 'mfa-secrets', key: ['id'] },
  { table: 'operators', column: 'totp_pending_sealed', purpose: 'mfa-secrets', key: ['id'] },
  { table: 'portal_users', column: 'totp_secret_sealed', purpose: 'mfa-secrets', key: ['id'] },
  { table: 'portal_users', column: 'totp_pending_sealed', purpose: 'mfa-secrets', key: ['id'] },
  { table: 'sandbox_identity_steps', column: 'fields_sealed', purpose: 'sandbox-identity', key: ['id'] },
  { table: 'sandbox_identity_images', column: 'sealed', purpose: 'sandbox-identity', key: ['step_id', 'side'], bytesContext: ['step_id', 'side'] },
];

export interface DigestColumn {
  table: string;
  column: string;
  /** Rows whose token still works: a digest under a previous key matters only while its token does. */
  live: string;
}

export const digestColumns: readonly DigestColumn[] = [
  { table: 'verification_links', column: 'token_hash', live: 'used_at IS NULL AND replaced_at IS NULL AND expires_at > now()' },
  { table: 'verification_sessions', column: 'token_hash', live: 'revoked_at IS NULL AND expires_at > now()' },
  { table: 'card_links', column: 'token_hash', live: 'used_at IS NULL AND replaced_at IS NULL AND expires_at > now()' },
  { table: 'payment_links', column: 'token_hash', live: 'replaced_at IS NULL AND expires_at > now()' },
  // Recovery codes do not expire: one under a key that leaves the ring stops working.
  { table: 'recovery_codes', column: 'code_hash', live: 'used_at IS NULL' },
];

/** The key id a stored value records, in SQL: `unrecorded` for a value of before the ring. */
function keyIdSql(c: { column: string; bytesContext?: readonly string[] }, kind: 'sealed' | 'digest'): string {
  if (kind === 'digest') return `CASE WHEN ${c.column} ~ '^k[0-9a-f]{12}[.]' THEN substr(${c.column}, 1, 13) ELSE 'unrecorded' END`;
  if (c.bytesContext) return `CASE WHEN get_byte(${c.column}, 0) = 2 THEN 'k' || encode(substring(${c.column} from 2 for 6), 'hex') ELSE 'unrecorded' END`;
  return `CASE WHEN ${c.column} LIKE 'v2.%' THEN substr(${c.column}, 4, 13) ELSE 'unrecorded' END`;
}

export interface KeyUsage {
  /** `table.column`, the key id (or `unrecorded`), and how many values: sealed, or live digests. */
  sealed: Array<{ place: string; keyId: string; count: number }>;
  digests: Array<{ place: string; keyId: string; count: number }>;
}

/** What each key holds: one grouped count per column. */
export async function keyUsage(db: Executor): Promise<KeyUsage> {
  const count = async (c: { table: string; column: string; bytesContext?: readonly string[] }, kind: 'sealed' | 'digest', where: string) => {
    const rows = await db.query<{ key_id: string; n: string | number }>(
      `SELECT ${keyIdSql(c, kind)} AS key_id, count(*) AS n FROM ${c.table} WHERE ${c.column} IS NOT NULL AND ${where} GROUP BY 1 ORDER BY 1`,
    );
    return rows.map((r) => ({ place: `${c.table}.${c.column}`, keyId: r.key_id, count: Number(r.n) }));
  };
  const sealed = (await Promise.all(sealedColumns.map((c) => count(c, 'sealed', 'true')))).flat();
  const digests = (await Promise.all(digestColumns.map((c) => count(c, 'digest', c.live)))).flat();
  return { sealed, digests };
}

/**
 * The key ids that hold sealed values and are not in the ring (`known`): what cannot be opened. A start
 * refuses to go on with any (services.ts), naming them, rather than fail at the first read of one.
 */
export function missingKeys(usage: KeyUsage, known: ReadonlySet<string>): Map<string, string[]> {
  const missing = new Map<string, string[]>();
  for (const { place, keyId, count } of usage.sealed) {
    if (keyId === 'unrecorded' || known.has(keyId)) continue;
    missing.set(keyId, [...(missing.get(keyId) ?? []), `${place}: ${count}`]);
  }
  return missing;
}

/**
 * Stops a start whose database holds values sealed under a key the ring does not hold, naming the key;
 * else answers what each key holds.
 */
export async function refuseMissingKeys(db: Executor, ring: Pick<KeyRing, 'all'>): Promise<KeyUsage> {
  const usage = await keyUsage(db);
  const missing = missingKeys(usage, new Set(ring.all.map((k) => k.id)));
  if (missing.size === 0) return usage;
  const listed = [...missing].map(([id, places]) => `${id} (${places.join(', ')})`).join('; ');
  throw new ConfigError(
    `PREVIOUS_SECRET_KEYS: the database holds values sealed under ${listed}, which is neither SECRET_KEY nor in PREVIOUS_SECRET_KEYS. Add that key back to PREVIOUS_SECRET_KEYS (pvs keys status shows what each key holds; docs/security.md, "Key ring")`,
  );
}

export interface KeyStatus {
  current: string;
  previous: string[];
  /** Each key that is configured or holds anything: what it holds, and whether it may leave the ring. */
  keys: Array<{ keyId: string; role: 'current' | 'previous' | 'not configured' | 'before the ring'; sealed: number; liveDigests: number; removable: boolean }>;
  sealed: KeyUsage['sealed'];
  digests: KeyUsage['digests'];
  /** The re-seal job of the current key: none until a start found something to seal again. */
  reseal: { status: string; attempts: number; lastError: string | null } | null;
}

/** `pvs keys status`: what each key id still holds, and the re-seal job's state. */
export async function keyStatus(db: Executor, ring: Pick<KeyRing, 'current' | 'previous'>): Promise<KeyStatus> {
  const usage = await keyUsage(db);
  const ids = [ring.current.id, ...ring.previous.map((k) => k.id), ...usage.sealed.map((u) => u.keyId), ...usage.digests.map((u) => u.keyId)];
  const roleOf = (id: string) =>
    id === ring.current.id ? 'current' : id === 'unrecorded' ? 'before the ring' : ring.previous.some((k) => k.id === id) ? 'previous' : 'not configured';
  const sum = (list: KeyUsage['sealed'], id: string) => list.filter((u) => u.keyId === id).reduce((n, u) => n + u.count, 0);
  const keys = [...new Set(ids)].map((keyId) => {
    const sealed = sum(usage.sealed, keyId);
    const liveDigests = sum(usage.digests, keyId);
    const role = roleOf(keyId) as KeyStatus['keys'][number]['role'];
    return { keyId, role, sealed, liveDigests, removable: role === 'previous' && sealed === 0 && liveDigests === 0 };
  });
  const [job] = await db.query<{ status: string; attempts: number; last_error: string | null }>('SELECT status, attempts, last_error FROM jobs WHERE key = $1', [
    `keys.reseal:${ring.current.id}`,
  ]);
  return {
    current: ring.current.id,
    previous: ring.previous.map((k) => k.id),
    keys,
    sealed: usage.sealed,
    digests: usage.digests,
    reseal: job ? { status: job.status, attempts: job.attempts, lastError: job.last_error } : null,
  };
}
