// Overload (platform/http/load-shedding.ts): past MAX_IN_FLIGHT_REQUESTS a request is answered at once
// with 503 SERVICE_UNAVAILABLE and Retry-After instead of waiting in memory; /health and /ready still
// answer; the slots come back when the work ends, also when clients hang up. Requests are held in
// progress by a route that waits for the test to let it go, so nothing here depends on timing.
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { createTestContext, type TestContext, type TestPartner } from '../helpers/context.ts';

const limit = 2;

/** Requests to /v1/test-hold wait in their handler until `release()`; `count` says how many entered and returned. */
function createHolds() {
  let release!: () => void;
  let gate = new Promise<void>((resolve) => (release = resolve));
  const count = { entered: 0, finished: 0 };
  const waiters: Array<() => void> = [];
  const wake = () => waiters.splice(0).forEach((w) => w());
  return {
    count,
    async handler() {
      count.entered += 1;
      wake();
      await gate;
      count.finished += 1;
      wake();
      return { held: true };
    },
    async until(condition: () => boolean) {
      while (!condition()) await new Promise<void>((resolve) => waiters.push(resolve));
    },
    release() {
      release();
      gate = new Promise<void>((resolve) => (release = resolve));
    },
  };
}

const holds = createHolds();
let t: TestContext;
let partner: TestPartner;

before(async () => {
  t = await createTestContext({
    env: { MAX_IN_FLIGHT_REQUESTS: String(limit) },
    app: {
      extraPartnerRoutes: (api) => {
        api.get('/test-hold', { schema: { hide: true } }, () => holds.handler());
        api.get('/test-fail', { schema: { hide: true } }, async () => {
          throw new Error('a bug');
        });
      },
    },
  });
  partner = await t.f.partner();
});
after(() => t.close());

const get = (url: string, headers: Record<string, string> = partner.headers) => t.app.inject({ method: 'GET', url, headers });

interface Problem {
  code: string;
  status: number;
  detail: string;
  requestId: string;
}

function assertShed(response: Awaited<ReturnType<typeof get>>) {
  assert.equal(response.statusCode, 503, response.body);
  assert.match(String(response.headers['content-type']), /^application\/problem\+json/);
  assert.equal(response.headers['retry-after'], '1');
  assert.equal(response.headers.connection, 'close');
  const body = response.json<Problem>();
  assert.equal(body.code, 'SERVICE_UNAVAILABLE');
  assert.equal(body.status, 503);
  assert.equal(body.detail, 'PVS is at capacity; retry after 1 s');
  assert.equal(response.headers['x-request-id'], body.requestId);
}

/** Waits for a log line; the test fails on its own timeout if it never comes. */
async function logLine(msg: string, after = 0) {
  for (;;) {
    const found = t.logs.slice(after).find((l) => l.msg === msg);
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Every slot is free: exactly `limit` requests are taken at once again, and the next is refused. */
async function assertAllSlotsFree() {
  const before = t.logs.length;
  const entered = holds.count.entered;
  const held = Array.from({ length: limit }, () => get('/v1/test-hold'));
  // A held request answers only once released: an answer before that is a refusal (a slot leaked).
  const answeredEarly = Promise.race(held).then((r) => assert.fail(`a request was answered ${r.statusCode} while ${limit} slots should be free`));
  await Promise.race([holds.until(() => holds.count.entered === entered + limit), answeredEarly]);
  assertShed(await get('/v1/channel-partners/me'));
  holds.release();
  for (const response of await Promise.all(held)) assert.equal(response.statusCode, 200);
  await logLine('load shedding stopped', before);
}

describe('a burst beyond MAX_IN_FLIGHT_REQUESTS', () => {
  it('is refused at once with 503 and Retry-After while the held requests finish; then requests are served again', async () => {
    const logsBefore = t.logs.length;
    const held = [get('/v1/test-hold'), get('/v1/test-hold')];
    await holds.until(() => holds.count.entered === 2);

    for (let i = 0; i < 5; i++) assertShed(await get('/v1/channel-partners/me'));
    // Refused before anything else runs: a request with no credentials is not even authenticated.
    assertShed(await get('/v1/channel-partners/me', {}));
    assertShed(await t.app.inject({ method: 'POST', url: '/v1/contacts', headers: { ...partner.headers, 'content-type': 'application/json' }, payload: { name: 'x' } }));

    // A load balancer still sees the process, and its database.
    assert.equal((await get('/health', {})).statusCode, 200);
    assert.equal((await get('/ready', {})).statusCode, 200);

    holds.release();
    for (const response of await Promise.all(held)) {
      assert.equal(response.statusCode, 200);
      assert.deepEqual(response.json(), { held: true });
    }
    assert.equal((await get('/v1/channel-partners/me')).statusCode, 200);

    // One line when shedding starts and one when it stops, not one per refused request.
    const started = t.logs.slice(logsBefore).filter((l) => l.msg === 'load shedding started: answering 503 to new requests');
    assert.equal(started.length, 1);
    assert.equal(started[0]!.inFlight, limit);
    const stopped = await logLine('load shedding stopped', logsBefore);
    assert.equal(stopped.shed, 7);
    assert.equal(t.logs.slice(logsBefore).filter((l) => l.msg === 'load shedding stopped').length, 1);
  });

  it('gives the slots back when clients hang up, but only once the work they started has ended', async () => {
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = t.app.server.address() as AddressInfo;
    // The server's side of each connection, to know when it has seen the client hang up.
    const serverSide: Array<Promise<void>> = [];
    t.app.server.on('connection', (socket: Socket) => serverSide.push(new Promise((resolve) => socket.once('close', () => resolve()))));
    const { entered, finished } = holds.count;
    const sockets: Socket[] = [];
    const aborted = Array.from(
      { length: limit },
      () =>
        new Promise<void>((resolve) => {
          const request = http.get({ host: '127.0.0.1', port, path: '/v1/test-hold', headers: partner.headers, agent: false });
          request.on('socket', (socket) => sockets.push(socket));
          request.on('error', () => resolve());
          request.on('close', () => resolve());
        }),
    );
    await holds.until(() => holds.count.entered === entered + limit);
    for (const socket of sockets) socket.destroy();
    await Promise.all([...aborted, ...serverSide]);
    await new Promise((resolve) => setImmediate(resolve)); // the responses' 'close' follows their socket's

    // The handlers still run: their slots are still taken.
    assertShed(await get('/v1/channel-partners/me'));

    holds.release();
    await holds.until(() => holds.count.finished === finished + limit);
    await new Promise((resolve) => setImmediate(resolve)); // the handlers' promises settle after they return
    await assertAllSlotsFree();
  });

  it('gives the slots back after errors and refusals', async () => {
    assert.equal((await get('/v1/test-fail')).statusCode, 500);
    assert.equal((await get('/v1/nowhere')).statusCode, 404);
    assert.equal((await t.app.inject({ method: 'POST', url: '/v1/contacts', headers: { ...partner.headers, 'content-type': 'application/json' }, payload: '{"name":' })).statusCode, 400);
    assert.equal((await get('/v1/channel-partners/me', { authorization: 'Bearer nope', 'x-partner-id': partner.partnerId })).statusCode, 401);
    await assertAllSlotsFree();
  });
});
