// The retry rules on their own, with a fetch that answers what each case needs (no app): which answers
// are retried and which are not, Retry-After as seconds or as an HTTP date, and a timeout.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InternalServerError, TimeoutError } from '../src/errors.ts';
import { parseRetryAfter, retryDelayMs } from '../src/retry.ts';
import { createTransport, type Fetch } from '../src/transport.ts';

function scripted(statuses: number[], headers: Record<string, string> = {}) {
  const seen: number[] = [];
  const fetch: Fetch = async () => {
    const status = statuses[Math.min(seen.length, statuses.length - 1)]!;
    seen.push(status);
    return new Response(status === 200 ? '{"ok":true}' : JSON.stringify({ status, code: 'X' }), { status, headers: { 'content-type': 'application/json', ...headers } });
  };
  return { fetch, seen };
}

describe('Retry-After', () => {
  it('reads delta-seconds and HTTP dates, and ignores what it cannot read', () => {
    const now = Date.parse('2026-03-02T08:00:00Z');
    assert.equal(parseRetryAfter('7', now), 7);
    assert.equal(parseRetryAfter('Mon, 02 Mar 2026 08:00:05 GMT', now), 5);
    assert.equal(parseRetryAfter('Mon, 02 Mar 2026 07:00:00 GMT', now), 0);
    assert.equal(parseRetryAfter('soon', now), undefined);
    assert.equal(parseRetryAfter(null, now), undefined);
  });

  it('the wait doubles with jitter and is never shorter than Retry-After', () => {
    assert.equal(retryDelayMs(0, undefined, () => 0), 250);
    assert.equal(retryDelayMs(0, undefined, () => 1), 500);
    assert.equal(retryDelayMs(2, undefined, () => 1), 2000);
    assert.equal(retryDelayMs(10, undefined, () => 1), 8000);
    assert.equal(retryDelayMs(0, 3, () => 1), 3000);
  });
});

describe('the transport', () => {
  const call = { method: 'GET' as const, path: '/v1/contacts', repeatable: true };

  it('retries a 500 and a 408 until an answer comes, within maxRetries', async () => {
    const { fetch, seen } = scripted([500, 408, 200], { 'retry-after': '0' });
    const transport = createTransport({ baseUrl: 'http://pvs.test', fetch, timeoutMs: 1000, maxRetries: 2 });
    assert.deepEqual((await transport.send(call)).body, { ok: true });
    assert.deepEqual(seen, [500, 408, 200]);
  });

  it('gives up after maxRetries with the last error', async () => {
    const { fetch, seen } = scripted([502], { 'retry-after': '0' });
    const transport = createTransport({ baseUrl: 'http://pvs.test', fetch, timeoutMs: 1000, maxRetries: 1 });
    await assert.rejects(transport.send(call), InternalServerError);
    assert.equal(seen.length, 2);
  });

  it('never retries a 4xx other than 408 and 429', async () => {
    for (const status of [400, 401, 403, 404, 409, 410, 422]) {
      const { fetch, seen } = scripted([status]);
      const transport = createTransport({ baseUrl: 'http://pvs.test', fetch, timeoutMs: 1000, maxRetries: 2 });
      await assert.rejects(transport.send(call));
      assert.equal(seen.length, 1, String(status));
    }
  });

  it('a POST PVS cannot deduplicate is not repeated after a 500, but is after a 503 (nothing was done)', async () => {
    const post = { method: 'POST' as const, path: '/v1/deed-analyses', repeatable: false };
    const failing = scripted([500, 200], { 'retry-after': '0' });
    await assert.rejects(createTransport({ baseUrl: 'http://pvs.test', fetch: failing.fetch, timeoutMs: 1000, maxRetries: 2 }).send(post), InternalServerError);
    assert.equal(failing.seen.length, 1);
    const shed = scripted([503, 200], { 'retry-after': '0' });
    await createTransport({ baseUrl: 'http://pvs.test', fetch: shed.fetch, timeoutMs: 1000, maxRetries: 2 }).send(post);
    assert.deepEqual(shed.seen, [503, 200]);
  });

  it('an answer slower than timeoutMs is a TimeoutError', async () => {
    const never: Fetch = (_url, init) => new Promise((_resolve, reject) => init.signal?.addEventListener('abort', () => reject(new Error('aborted'))));
    const transport = createTransport({ baseUrl: 'http://pvs.test', fetch: never, timeoutMs: 50, maxRetries: 0 });
    await assert.rejects(transport.send(call), TimeoutError);
  });
});
