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

function encodeRandom(): string {
  if (poolOffset + 16 > pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  let out = '';
  for (let i = 0; i < 16; i++) out += alphabet[pool[poolOffset + i]! % 32];
  poolOffset += 16;
  return out;
}

export function newId(kind: IdKind, now: number = Date.now()): string {
  return `${idPrefixes[kind]}_${encodeTime(now)}${encodeRandom()}`;
}

const idShape = /^[a-z]{3}_[0-9A-HJKMNP-TV-Z]{26}$/;

/** True when the text has the shape of an id of that kind (it may still not exist). */
export function isId(kind: IdKind, text: string): boolean {
  return text.startsWith(`${idPrefixes[kind]}_`) && idShape.test(text);
}
