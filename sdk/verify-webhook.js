// Verifies a PVS webhook delivery the way a partner should. Plain JavaScript with no dependencies, so
// it can be imported (`import { verifyWebhook } from 'pvs/verify-webhook'`) or copied as it is.
//
//   const result = verifyWebhook(secret, request.headers, rawBody);
//   if (!result.ok) return response.status(result.status).end();   // 401 bad signature, 400 stale
//
// rawBody must be the exact bytes received (a Buffer or string), before any JSON parsing: a body that
// was parsed and serialised again will not match the signature.
import { createHmac, timingSafeEqual } from 'node:crypto';

function header(headers, name) {
  if (typeof headers.get === 'function') return headers.get(name) ?? undefined;
  // Node lower-cases header names; a hand-built object may not have.
  const key = name in headers ? name : Object.keys(headers).find((k) => k.toLowerCase() === name);
  const value = key === undefined ? undefined : headers[key];
  return Array.isArray(value) ? value[0] : value;
}

function sameHex(expected, given) {
  if (typeof given !== 'string' || !/^[0-9a-f]{64}$/.test(given)) return false;
  return timingSafeEqual(Buffer.from(expected, 'hex'), Buffer.from(given, 'hex'));
}

/** HMAC-SHA256(secret, timestamp + "." + rawBody), lowercase hex. */
export function signWebhook(secret, timestamp, rawBody) {
  return createHmac('sha256', secret).update(`${timestamp}.`).update(rawBody).digest('hex');
}

/**
 * @param {string} secret your destination's signing secret (`whsec_…`)
 * @param {Record<string, string | string[] | undefined> | Headers} headers the request headers
 * @param {Buffer | string} rawBody the exact bytes received
 * @param {{ toleranceSeconds?: number, now?: Date }} [options]
 * @returns {{ ok: true, timestamp: number } | { ok: false, status: 400 | 401, reason: string }}
 */
export function verifyWebhook(secret, headers, rawBody, options = {}) {
  const tolerance = options.toleranceSeconds ?? 300;
  const timestampText = header(headers, 'x-timestamp');
  if (!timestampText || !/^[0-9]{1,12}$/.test(timestampText)) return { ok: false, status: 400, reason: 'missing or malformed x-timestamp' };
  const timestamp = Number(timestampText);
  const now = Math.floor((options.now ?? new Date()).getTime() / 1000);
  const expected = signWebhook(secret, timestampText, rawBody);
  // During a secret rotation PVS signs with both secrets; either matching yours is enough.
  const signed = sameHex(expected, header(headers, 'x-signature')) || sameHex(expected, header(headers, 'x-signature-previous'));
  if (!signed) return { ok: false, status: 401, reason: 'signature does not match' };
  if (Math.abs(now - timestamp) > tolerance) return { ok: false, status: 400, reason: 'timestamp outside the tolerance' };
  return { ok: true, timestamp };
}
