// A clean stop: a request already in flight when the server closes still gets its answer; a request
// arriving after the close began does not start.
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, it } from 'node:test';
import { createTestContext, type TestContext, type TestPartner } from './helpers/context.ts';

let t: TestContext;
let partner: TestPartner;
let release: () => void;
let entered: () => void;
const handlerEntered = new Promise<void>((resolve) => (entered = resolve));
const handlerReleased = new Promise<void>((resolve) => (release = resolve));

before(async () => {
  t = await createTestContext({
    app: {
      extraPartnerRoutes: (api) =>
        api.get('/test/slow', { schema: { hide: true } }, async () => {
          entered();
          await handlerReleased;
          return { finished: true };
        }),
    },
  });
  partner = await t.f.partner();
});
after(() => t.close());

it('lets an in-flight request finish when the server closes', async () => {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  const inFlight = fetch(`${base}/v1/test/slow`, { headers: partner.headers });
  await handlerEntered;

  const closing = t.app.close();
  // Release the handler only once the server already refuses new connections: the in-flight request
  // must have outlived the start of the close.
  let refused = false;
  for (let i = 0; i < 100 && !refused; i++) {
    refused = await fetch(`${base}/health`, { headers: { connection: 'close' } }).then(
      () => false,
      () => true,
    );
    if (!refused) await new Promise((r) => setTimeout(r, 20));
  }
  assert.ok(refused, 'the server stopped accepting connections');
  release();
  const res = await inFlight;
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('connection'), 'close', 'the answer ends its keep-alive connection, so the close need not wait for it to idle out');
  assert.deepEqual(await res.json(), { finished: true });
  await closing;
});
