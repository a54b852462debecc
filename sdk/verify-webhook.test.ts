// The published verification helper, imported the way a partner imports it. SPEC: HMAC-SHA256 over
// `timestamp + "." + rawBody`, lowercase hex, constant-time comparison; 401 for a bad signature, 400
// for a timestamp more than 300 s from now; CONTRACT 10: x-signature-previous during a rotation.
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { describe, it } from 'node:test';
// sdk/ is the @pvs/client package, so files here resolve package names from its scope: the helper is
// imported as that package exports it. The root package's `pvs/verify-webhook` export is imported by
// test/helpers/receiver.ts and checked by sdk/test/package.test.ts.
import { signWebhook, verifyWebhook } from '@pvs/client/verify-webhook';

const secret = 'whsec_0123456789abcdefghijklmnopqrstuvwxyzABCDEF';
const now = new Date('2026-03-02T08:00:00.000Z');
const nowSeconds = Math.floor(now.getTime() / 1000);
// Non-ASCII on purpose: the signature is over bytes, and a Buffer and its UTF-8 string must agree.
const rawBody = '{"type":"payment.succeeded","eventId":"evt_01JD0000000000000000000000","id":"pay_1","metadata":{"note":"Zoë – café"},"occurredAt":"2026-03-02T08:00:00.000Z"}';

function headersFor(body: string | Buffer, options: { timestamp?: number | string; key?: string; previousKey?: string } = {}): IncomingHttpHeaders {
  const timestamp = String(options.timestamp ?? nowSeconds);
  return {
    'content-type': 'application/json',
    'x-timestamp': timestamp,
    'x-signature': signWebhook(options.key ?? secret, timestamp, body),
    ...(options.previousKey ? { 'x-signature-previous': signWebhook(options.previousKey, timestamp, body) } : {}),
  };
}

const verify = (headers: Parameters<typeof verifyWebhook>[1], body: string | Buffer = rawBody, options: { toleranceSeconds?: number; now?: Date } = {}) =>
  verifyWebhook(secret, headers, body, { now, ...options });

describe('signWebhook', () => {
  it('is HMAC-SHA256(secret, timestamp + "." + rawBody) in lowercase hex', () => {
    const expected = createHmac('sha256', secret).update(`${nowSeconds}.${rawBody}`, 'utf8').digest('hex');
    assert.equal(signWebhook(secret, nowSeconds, rawBody), expected);
    assert.equal(signWebhook(secret, String(nowSeconds), Buffer.from(rawBody, 'utf8')), expected);
    assert.match(expected, /^[0-9a-f]{64}$/);
  });

  it('matches a vector computed independently (Python hmac), the one docs/webhooks.md quotes', () => {
    assert.equal(
      signWebhook('whsec_test', '1700000000', '{"type":"payment.created","name":"Zoë"}'),
      'e84a169ebeffcc65619d1864928e50f87245503b13cae021123740b3834b402d',
    );
  });
});

describe('verifyWebhook', () => {
  it('accepts a correct signature and answers the timestamp', () => {
    assert.deepEqual(verify(headersFor(rawBody)), { ok: true, timestamp: nowSeconds });
  });

  it('rejects a signature made with another secret: 401', () => {
    const result = verify(headersFor(rawBody, { key: 'whsec_someone_else' }));
    assert.equal(result.ok, false);
    assert.equal(!result.ok && result.status, 401);
  });

  it('rejects a missing, truncated, non-hex or upper-case signature: 401', () => {
    const good = headersFor(rawBody);
    const signature = good['x-signature'] as string;
    for (const bad of [undefined, '', signature.slice(0, 63), `${signature}00`, 'z'.repeat(64), signature.toUpperCase(), `sha256=${signature}`]) {
      const result = verify({ ...good, 'x-signature': bad });
      assert.deepEqual(result.ok ? 'ok' : result.status, 401, `signature ${String(bad)}`);
    }
  });

  it('rejects a tampered body: 401', () => {
    const headers = headersFor(rawBody);
    const tampered = rawBody.replace('pay_1', 'pay_2');
    const result = verify(headers, tampered);
    assert.equal(!result.ok && result.status, 401);
    // One byte appended (a trailing newline a framework might add) is tampering too.
    assert.equal(verify(headers, `${rawBody}\n`).ok, false);
  });

  it('rejects a body that was parsed and serialised again, even when it means the same: 401', () => {
    const headers = headersFor(rawBody);
    const reserialised = JSON.stringify(JSON.parse(rawBody), null, 2);
    assert.deepEqual(JSON.parse(reserialised), JSON.parse(rawBody));
    assert.equal(((r) => !r.ok && r.status)(verify(headers, reserialised)), 401);
    // A receiver's JSON library that escapes non-ASCII (as Python's json.dumps does) changes the bytes too.
    const escaped = rawBody.replace('ë', '\\u00eb');
    assert.deepEqual(JSON.parse(escaped), JSON.parse(rawBody));
    assert.equal(((r) => !r.ok && r.status)(verify(headers, escaped)), 401);
    const spaced = rawBody.replace('"id":', '"id": ');
    assert.equal(verify(headers, spaced).ok, false);
  });

  it('rejects a timestamp beyond the 300 s tolerance, stale or in the future: 400', () => {
    for (const timestamp of [nowSeconds - 301, nowSeconds + 301, nowSeconds - 3600, nowSeconds + 86_400, 0]) {
      const result = verify(headersFor(rawBody, { timestamp }));
      assert.deepEqual(result.ok ? 'ok' : result.status, 400, `timestamp ${timestamp - nowSeconds} s from now`);
    }
  });

  it('accepts a timestamp up to 300 s away, either side', () => {
    for (const timestamp of [nowSeconds - 300, nowSeconds + 300, nowSeconds - 1]) {
      assert.deepEqual(verify(headersFor(rawBody, { timestamp })), { ok: true, timestamp });
    }
  });

  it('honours a different tolerance when asked', () => {
    const headers = headersFor(rawBody, { timestamp: nowSeconds - 60 });
    assert.equal(verify(headers, rawBody, { toleranceSeconds: 30 }).ok, false);
    assert.equal(verify(headers, rawBody, { toleranceSeconds: 60 }).ok, true);
  });

  it('uses the current time when no `now` is given', () => {
    const timestamp = Math.floor(Date.now() / 1000);
    assert.equal(verifyWebhook(secret, headersFor(rawBody, { timestamp }), rawBody).ok, true);
    const stale = verifyWebhook(secret, headersFor(rawBody, { timestamp: timestamp - 600 }), rawBody);
    assert.equal(!stale.ok && stale.status, 400);
  });

  it('rejects a missing or malformed timestamp: 400', () => {
    const { 'x-timestamp': _omitted, ...withoutTimestamp } = headersFor(rawBody);
    assert.equal(((r) => !r.ok && r.status)(verify(withoutTimestamp)), 400);
    for (const timestamp of ['', 'abc', '1.5', '-1', ' 1772438400', '2026-03-02T08:00:00Z', '1e9', '0x10', '1234567890123']) {
      // Signed with that very text, so only the timestamp's form can be the reason.
      const headers = { ...headersFor(rawBody, { timestamp }), 'x-timestamp': timestamp };
      const result = verify(headers);
      assert.deepEqual(result.ok ? 'ok' : result.status, 400, `timestamp ${JSON.stringify(timestamp)}`);
    }
  });

  it('a timestamp is not reusable with another body or another time: the timestamp is signed', () => {
    const headers = headersFor(rawBody);
    const moved = { ...headers, 'x-timestamp': String(nowSeconds + 1) };
    assert.equal(((r) => !r.ok && r.status)(verify(moved)), 401);
  });

  describe('during a secret rotation', () => {
    const oldSecret = 'whsec_the_previous_secret_0123456789abcdefghij';

    it('accepts x-signature-previous when that is the one matching your secret', () => {
      // PVS signs with the new secret in x-signature and the old in x-signature-previous; this receiver
      // still holds the old secret.
      const headers = headersFor(rawBody, { key: 'whsec_the_new_secret', previousKey: secret });
      assert.deepEqual(verify(headers), { ok: true, timestamp: nowSeconds });
    });

    it('accepts x-signature when that is the one matching, with x-signature-previous present', () => {
      assert.deepEqual(verify(headersFor(rawBody, { previousKey: oldSecret })), { ok: true, timestamp: nowSeconds });
    });

    it('rejects when neither matches: 401', () => {
      const result = verify(headersFor(rawBody, { key: 'whsec_a', previousKey: 'whsec_b' }));
      assert.equal(!result.ok && result.status, 401);
    });

    it('rejects x-signature-previous over a tampered body: 401', () => {
      const headers = headersFor(rawBody, { key: 'whsec_the_new_secret', previousKey: secret });
      assert.equal(((r) => !r.ok && r.status)(verify(headers, rawBody.replace('pay_1', 'pay_9'))), 401);
    });
  });

  describe('headers and bodies as frameworks give them', () => {
    it('a Node headers object (lower-case names), with a repeated header given as an array', () => {
      const headers: IncomingHttpHeaders = headersFor(rawBody);
      assert.equal(verify(headers).ok, true);
      const repeated: IncomingHttpHeaders = { ...headers, 'x-signature': [headers['x-signature'] as string, 'f'.repeat(64)] as unknown as string };
      assert.equal(verify(repeated).ok, true);
    });

    it('a plain object built by hand with capitalised names', () => {
      const plain = headersFor(rawBody);
      const capitalised = { 'X-Timestamp': plain['x-timestamp'] as string, 'X-Signature': plain['x-signature'] as string };
      assert.deepEqual(verify(capitalised), { ok: true, timestamp: nowSeconds });
      assert.equal(((r) => !r.ok && r.status)(verify({ ...capitalised, 'X-Signature': 'a'.repeat(64) })), 401);
    });

    it('a WHATWG Headers object, whatever the case of the names', () => {
      const plain = headersFor(rawBody);
      const headers = new Headers({ 'X-Timestamp': plain['x-timestamp'] as string, 'X-Signature': plain['x-signature'] as string });
      assert.deepEqual(verify(headers), { ok: true, timestamp: nowSeconds });
      const bad = new Headers({ 'X-Timestamp': plain['x-timestamp'] as string, 'X-Signature': 'a'.repeat(64) });
      assert.equal(((r) => !r.ok && r.status)(verify(bad)), 401);
      const stale = headersFor(rawBody, { timestamp: nowSeconds - 1000 });
      assert.equal(((r) => !r.ok && r.status)(verify(new Headers(stale as Record<string, string>))), 400);
      assert.equal(((r) => !r.ok && r.status)(verify(new Headers({ 'X-Signature': plain['x-signature'] as string }))), 400);
    });

    it('a Buffer body and a string body, signed either way', () => {
      const buffer = Buffer.from(rawBody, 'utf8');
      assert.equal(verify(headersFor(rawBody), buffer).ok, true);
      assert.equal(verify(headersFor(buffer), rawBody).ok, true);
      assert.equal(verify(headersFor(buffer), buffer).ok, true);
      // The bytes count: the same text in another encoding is another body.
      assert.equal(((r) => !r.ok && r.status)(verify(headersFor(rawBody), Buffer.from(rawBody, 'latin1'))), 401);
    });
  });
});
