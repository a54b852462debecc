// Opaque, prefixed, time-sortable identifiers: `lkp_01J…`. The body is a ULID (48-bit millisecond
// time, 80 random bits, Crockford base32), so ids sort by creation time as text.
import { randomFillSync } from 'node:crypto';

export const idPrefixes = {
  partner: 'ptn',
  apiClient: 'cli',
  lookup: 'lkp',
  verification: 'ver',
  individual: 'ind',
  idvEntity: 'ent',
  deedAnalysis: 'dda',
  contact: 'con',
  charge: 'chg',
  billingRun: 'brn',
  payment: 'pay',
  notification: 'whn',
  event: 'evt',
  destination: 'whd',
  monitoringAlert: 'mal',
  screeningImport: 'sli',
  job: 'job',
  request: 'req',
  signingKey: 'key',
  operator: 'opr',
  portalUser: 'usr',
  auditEntry: 'aud',
  evidenceRead: 'evr',
  passkey: 'psk',
} as const;

export type IdKind = keyof typeof idPrefixes;

const alphabet = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

function encodeTime(ms: number): string {
  let out = '';
  for (let i = 0; i < 10; i++) {
    out = alphabet[ms % 32] + out;
    ms = Math.floor(ms / 32);
  }
  return out;
}

// Random bytes come from a pool refilled from the CSPRNG 4 KiB at a time (as crypto.randomUUID does):
// one randomBytes(16) call per id cost more than the rest of the id, and every request makes one.
const pool = Buffer.alloc(4096);
let poolOffset = pool.length;

function randomDigits(): number[] {
  if (poolOffset + 16 > pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  const digits: number[] = [];
  for (let i = 0; i < 16; i++) digits.push(pool[poolOffset + i]! % 32);
  poolOffset += 16;
  return digits;
}

// Monotonic within a millisecond (as the ULID specification describes): an id made in the same
// millisecond as an earlier one in this process takes that one's random part plus one, so ids, and the
// events and rows they name, sort in the order they were made. Other processes' ids in that millisecond
// interleave by chance, as before. The last 256 milliseconds used are remembered, not only the last: ids
// stamped by an injected clock (a job's, a test's) interleave with ids stamped by the system clock.
const recent = new Map<number, number[]>();

function nextDigits(now: number): number[] {
  const previous = recent.get(now);
  if (previous) {
    const digits = [...previous];
    let i = digits.length - 1;
    while (i >= 0 && digits[i] === 31) digits[i--] = 0;
    // 80 bits exhausted within one millisecond cannot happen in practice; start afresh if it does.
    if (i >= 0) {
      digits[i]! += 1;
      remember(now, digits);
      return digits;
    }
  }
  const digits = randomDigits();
  remember(now, digits);
  return digits;
}

/** Most recently used last, so a millisecond still in use (a stopped test clock's) is never the one dropped. */
function remember(now: number, digits: number[]): void {
  recent.delete(now);
  recent.set(now, digits);
  if (recent.size > 256) recent.delete(recent.keys().next().value!);
}

export function newId(kind: IdKind, now: number = Date.now()): string {
  return `${idPrefixes[kind]}_${encodeTime(now)}${nextDigits(now).map((d) => alphabet[d]).join('')}`;
}

const idShape = /^[a-z]{3}_[0-9A-HJKMNP-TV-Z]{26}$/;

/**
 * An id for examples (the OpenAPI document, the guides, the event reference): the kind's prefix and a
 * fixed body, `lkp_01JD0000000000000000000000`; `n` tells several of one kind apart (`ent_…0001`).
 */
export function exampleId(kind: IdKind, n = 0): string {
  return `${idPrefixes[kind]}_01JD${String(n).padStart(22, '0')}`;
}

/** True when the text has the shape of an id of that kind (it may still not exist). */
export function isId(kind: IdKind, text: string): boolean {
  return text.startsWith(`${idPrefixes[kind]}_`) && idShape.test(text);
}
