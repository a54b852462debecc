// The production deliverer re-checks the address at connect time: a destination whose name resolves
// to an internal address (here: localhost) is refused before any byte is sent.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, it } from 'node:test';
import { createDeliverer } from './delivery.ts';

let port: number;
let hits = 0;
let connections = 0;
const server = createServer((_req, res) => {
  hits += 1;
  res.writeHead(200).end('ok');
});
server.on('connection', () => (connections += 1));

before(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
after(() => new Promise<void>((resolve) => server.close(() => resolve())));

const target = (host: string) => ({ url: `http://${host}:${port}/hooks`, body: '{}', headers: { 'content-type': 'application/json' } });

it('in production, refuses a name that resolves to an internal address, sending nothing', async () => {
  const deliverer = createDeliverer({ environment: 'production' });
  try {
    const result = await deliverer.deliver(target('localhost'));
    assert.equal(result.ok, false);
    assert.equal(result.errorClass, 'ADDRESS_REFUSED');
    assert.equal(result.statusCode, null);
    assert.equal(hits, 0);
    assert.equal(connections, 0);
  } finally {
    await deliverer.close();
  }
});

it('in production, refuses a literal internal address (no lookup happens for those)', async () => {
  const deliverer = createDeliverer({ environment: 'production' });
  try {
    for (const host of ['127.0.0.1', '[::1]']) {
      const result = await deliverer.deliver(target(host));
      assert.equal(result.errorClass, 'ADDRESS_REFUSED', host);
    }
    assert.equal(hits, 0);
    assert.equal(connections, 0);
  } finally {
    await deliverer.close();
  }
});

it('in sandbox, delivers to the same address (control), reusing one keep-alive connection', async () => {
  // One connection per origin: the deliveries must share it, which they can only if it is kept alive.
  const deliverer = createDeliverer({ environment: 'sandbox', connectionsPerOrigin: 1 });
  try {
    for (let i = 0; i < 3; i++) {
      const result = await deliverer.deliver(target('localhost'));
      assert.equal(result.ok, true);
      assert.equal(result.errorClass, 'NONE');
    }
    assert.equal(hits, 3);
    assert.equal(connections, 1, 'three deliveries in a row, one connection');
  } finally {
    await deliverer.close();
  }
});
