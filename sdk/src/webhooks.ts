// Verifying a delivery (docs/webhooks.md, Verifying a delivery): HMAC-SHA256(secret, x-timestamp + "." +
// raw body) in lowercase hex, compared in constant time with x-signature or, for 24 h after a rotation,
// x-signature-previous; a timestamp more than 300 s from now is refused. The same algorithm as the
// standalone helper sdk/verify-webhook.js (sdk/test/webhooks.test.ts checks that the two agree).
import { createHmac, timingSafeEqual } from 'node:crypto';
import { PvsError } from './errors.ts';
import type { WebhookEvent } from './types.ts';

export type WebhookHeaders = Record<string, string | string[] | undefined> | { get(name: string): string | null };
export type RawBody = string | Uint8Array;

/** A delivery that must not be believed; `status` is what to answer PVS (401 bad signature, 400 bad timestamp or body). */
export class WebhookVerificationError extends PvsError {
  declare readonly status: 400 | 401;
}

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof headers.get === 'function') return (headers as { get(name: string): string | null }).get(name) ?? undefined;
  const plain = headers as Record<string, string | string[] | undefined>;
  const key = name in plain ? name : Object.keys(plain).find((k) => k.toLowerCase() === name);
  const value = key === undefined ? undefined : plain[key];
  return Array.isArray(value) ? value[0] : value;
}

export function computeSignature(secret: string, timestamp: string | number, rawBody: RawBody): string {
  return createHmac('sha256', secret).update(`${timestamp}.`).update(rawBody).digest('hex');
}

function sameHex(expected: string, given: string | undefined): boolean {
  if (given === undefined || !/^[0-9a-f]{64}$/.test(given)) return false;
  return timingSafeEqual(Buffer.from(expected, 'hex'), Buffer.from(given, 'hex'));
}

function refuse(status: 400 | 401, code: string, message: string): never {
  throw new WebhookVerificationError(message, { status, code, detail: message });
}

function assertRaw(rawBody: unknown): asserts rawBody is RawBody {
  if (typeof rawBody === 'string' || rawBody instanceof Uint8Array) {
    if (rawBody === '[object Object]') {
      refuse(400, 'BODY_NOT_RAW', 'The body is "[object Object]": a parsed object was turned back into a string. Pass the raw bytes as received.');
    }
    return;
  }
  const what = rawBody === null || rawBody === undefined ? String(rawBody) : `an already-parsed ${Array.isArray(rawBody) ? 'array' : typeof rawBody}`;
  refuse(
    400,
    'BODY_NOT_RAW',
    `constructEvent needs the raw request body (a Buffer, Uint8Array or string, exactly as received) and was given ${what}. ` +
      'A JSON body parser ran before this handler; give the webhook route the raw body instead ' +
      "(Express: express.raw({ type: 'application/json' }) on this route, declared before express.json()). " +
      'A parsed and re-serialised body never matches the signature.',
  );
}

export interface ConstructEventOptions {
  /** How far the timestamp may be from now, either way (default 300 s). */
  toleranceSeconds?: number;
  now?: Date;
}

/**
 * Verifies a delivery and answers its event, typed by `type`. Throws WebhookVerificationError when the
 * body is not raw, the timestamp is missing or stale (status 400), or no secret signs it (status 401).
 * `secrets` may list several: a receiver moving to a rotated secret can accept the old one meanwhile.
 */
export function constructEvent(rawBody: RawBody, headers: WebhookHeaders, secrets: string | readonly string[], options: ConstructEventOptions = {}): WebhookEvent {
  assertRaw(rawBody as unknown);
  const tolerance = options.toleranceSeconds ?? 300;
  const timestamp = header(headers, 'x-timestamp');
  if (!timestamp || !/^[0-9]{1,12}$/.test(timestamp)) refuse(400, 'TIMESTAMP_INVALID', 'x-timestamp is missing or not a number of seconds');
  const signature = header(headers, 'x-signature');
  const previous = header(headers, 'x-signature-previous');
  const signed = (typeof secrets === 'string' ? [secrets] : secrets).some((secret) => {
    const expected = computeSignature(secret, timestamp, rawBody);
    return sameHex(expected, signature) || sameHex(expected, previous);
  });
  if (!signed) refuse(401, 'SIGNATURE_MISMATCH', 'The signature does not match: wrong secret, or a body that is not the exact bytes PVS sent');
  const now = Math.floor((options.now ?? new Date()).getTime() / 1000);
  if (Math.abs(now - Number(timestamp)) > tolerance) refuse(400, 'TIMESTAMP_STALE', `x-timestamp is more than ${tolerance} s from this clock`);
  const text = typeof rawBody === 'string' ? rawBody : Buffer.from(rawBody.buffer, rawBody.byteOffset, rawBody.byteLength).toString('utf8');
  try {
    return JSON.parse(text) as WebhookEvent;
  } catch {
    return refuse(400, 'BODY_NOT_JSON', 'The body is signed but is not JSON');
  }
}

/**
 * A body and headers signed as PVS signs a delivery, for a partner's own tests of their receiver:
 * `const { body, headers } = signTestPayload({ type: 'payment.succeeded', … }, secret)`.
 */
export function signTestPayload(payload: object | string, secret: string, options: { timestamp?: number } = {}): { body: string; headers: Record<string, string> } {
  const body = typeof payload === 'string' ? payload : JSON.stringify(payload);
  const timestamp = String(options.timestamp ?? Math.floor(Date.now() / 1000));
  return {
    body,
    headers: { 'content-type': 'application/json', 'x-timestamp': timestamp, 'x-signature': computeSignature(secret, timestamp, body) },
  };
}

export const webhooks = { constructEvent, signTestPayload, computeSignature };
