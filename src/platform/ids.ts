// Opaque, prefixed, time-sortable identifiers: `lkp_01J…`. The body is a ULID (48-bit millisecond
// time, 80 random bits, Crockford base32), so ids sort by creation time as text.
import { randomBytes } from 'node:crypto';

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

function encodeRandom(): string {
  const bytes = randomBytes(16);
  let out = '';
  for (let i = 0; i < 16; i++) out += alphabet[bytes[i]! % 32];
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
