// The examples in sdk/examples/ run as a partner would run them, against a started PVS (`pvs serve` on its
// embedded database, the demo partner's credentials from its data directory), importing `@pvs/client` as
// built (the package resolves itself by name from inside sdk/). The integration looks a business up, waits
// for its webhook, and verifies the people with links; each framework's webhook route receives real PVS
// deliveries and refuses a body changed on the way or signed with another secret.
// test-pass: postgres
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { backend } from '../../test/helpers/database.ts';
import { freePort, newSite, type Pvs as Process, serve } from '../../test/helpers/cli.ts';
import { Pvs, signTestPayload } from '../src/index.ts';

// A started PVS and a built client: neither depends on the database back-end, so the PostgreSQL pass only.
const skip = backend === 'pglite' && 'PostgreSQL pass only';
const sdk = fileURLToPath(new URL('..', import.meta.url));
const examples = path.join(sdk, 'examples');

interface Started {
  server: Process;
  baseUrl: string;
  env: Record<string, string>;
  /** The test's own client, to look at what the examples leave behind. */
  pvs: Pvs;
}

let started: Started;

before(async () => {
  if (skip) return;
  const build = spawnSync(process.execPath, [path.join(sdk, 'scripts', 'build.mjs')], { cwd: sdk, encoding: 'utf8' });
  assert.equal(build.status, 0, build.stderr);
  const site = await newSite({}, { database: false });
  const server = await serve(site);
  const demo = JSON.parse(readFileSync(path.join(site.dataDir, 'demo-partner.json'), 'utf8')) as { partnerId: string; clientId: string; clientSecret: string };
  const baseUrl = `http://127.0.0.1:${site.port}`;
  const env = { PATH: process.env.PATH ?? '', PVS_BASE_URL: baseUrl, PVS_CLIENT_ID: demo.clientId, PVS_CLIENT_SECRET: demo.clientSecret, PVS_PARTNER_ID: demo.partnerId };
  started = { server, baseUrl, env, pvs: new Pvs({ baseUrl, clientId: demo.clientId, clientSecret: demo.clientSecret, partnerId: demo.partnerId }) };
});
after(async () => {
  await started?.server.terminate();
});

/** Runs an example with node, as its comment says, and answers its exit code and output. */
function runExample(file: string, args: string[] = []): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(examples, file), ...args], { cwd: sdk, env: started.env });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('sdk/examples/onboard-business.mjs', { skip }, () => {
  it('looks the business up, receives its verified webhook, and mints a link for each person; then removes its destination', async () => {
    const before = (await started.pvs.webhookDestinations.list()).data.length;
    const { code, stdout, stderr } = await runExample('onboard-business.mjs');
    assert.equal(code, 0, `${stdout}\n${stderr}`);
    assert.equal(stderr, '', 'no delivery was refused');
    assert.match(stdout, /^lookup lkp_\w+ for ABN 54 222 222 228: waiting for business-lookup.completed$/m);
    assert.match(stdout, /^lookup completed: WATTLE CREEK LOGISTICS PTY LTD, [1-9]\d* individual\(s\) to verify$/m);
    const linkCount = Number(/^verification ver_\w+: (\d+) link\(s\) to send$/m.exec(stdout)?.[1]);
    assert.ok(linkCount > 0, stdout);
    const links = stdout.match(/^ {2}\S+ http:\/\/\S+$/gm) ?? [];
    assert.equal(links.length, linkCount);
    assert.equal((await started.pvs.webhookDestinations.list()).data.length, before, 'its destination is gone');
  });

  it('stops with a message naming the setting when one is missing', async () => {
    const env = started.env;
    started.env = { ...env, PVS_CLIENT_SECRET: '' };
    try {
      const { code, stderr } = await runExample('onboard-business.mjs');
      assert.notEqual(code, 0);
      assert.match(stderr, /Set PVS_CLIENT_SECRET/);
    } finally {
      started.env = env;
    }
  });
});

async function until<T>(read: () => T | undefined, what: string, timeoutMs = 20_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = read();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The refusals every route must make: a body changed after signing, and a body signed with another secret. */
async function assertRefusals(post: (body: string, headers: Record<string, string>) => Promise<number>, secret: string): Promise<void> {
  const sample = { type: 'verification.individual.passed', eventId: 'evt_test', verificationRequestId: 'vrq_1', individualId: 'ind_1' };
  const signed = signTestPayload(sample, secret);
  assert.equal(await post(signed.body, signed.headers), 200, 'a body signed with the secret');
  assert.equal(await post(signed.body.replace('vrq_1', 'vrq_2'), signed.headers), 401, 'a body changed after signing');
  const other = signTestPayload(sample, 'another secret');
  assert.equal(await post(other.body, other.headers), 401, 'another secret');
  const stale = signTestPayload(sample, secret, { timestamp: Math.floor(Date.now() / 1000) - 3600 });
  assert.equal(await post(stale.body, stale.headers), 400, 'an hour-old timestamp');
}

describe('the raw-body webhook routes of sdk/examples/webhooks/', { skip }, () => {
  for (const framework of ['express', 'fastify'] as const) {
    it(`${framework}: verifies a real delivery beside the app's JSON parser, and refuses a changed body, another secret and a stale timestamp`, async () => {
      // The destination's secret is answered when it is made: the route's address is chosen first.
      const port = await freePort();
      const url = `http://127.0.0.1:${port}/webhooks/pvs`;
      const destination = await started.pvs.webhookDestinations.create({ url, categories: ['VERIFICATIONS'] });
      const events: Array<{ type: string; eventId: string }> = [];
      const { webhookApp } = (await import(path.join(examples, 'webhooks', `${framework}.mjs`))) as {
        webhookApp(options: { secrets: string; onEvent(event: { type: string; eventId: string }): void }): unknown;
      };
      const app = webhookApp({ secrets: destination.secret!, onEvent: (event) => events.push(event) });
      const close = await listen(framework, app, port);
      try {
        await started.pvs.webhookNotifications.sendTest({ type: 'verification', variant: 'individual_passed' });
        const event = await until(() => events[0], `the ${framework} route's event`);
        assert.equal(event.type, 'verification.individual.passed');
        assert.match(event.eventId, /^evt_/);
        await assertRefusals(async (body, headers) => (await fetch(url, { method: 'POST', body, headers })).status, destination.secret!);
        assert.equal(events.length, 2, 'the real delivery and the one signed sample; nothing refused reached onEvent');
      } finally {
        await started.pvs.webhookDestinations.delete(destination.id);
        await close();
      }
    });
  }

  it('next-route: the route handler verifies a real delivery from request.text(), and refuses a changed body, another secret and a stale timestamp', async (t) => {
    // What PVS sent, byte for byte, caught by a plain receiver and handed to the handler as a Web Request.
    const caught: Array<{ body: Buffer; headers: Record<string, string> }> = [];
    const receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        caught.push({ body: Buffer.concat(chunks), headers: Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)])) });
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks/pvs`;
    const destination = await started.pvs.webhookDestinations.create({ url, categories: ['VERIFICATIONS'] });
    try {
      await started.pvs.webhookNotifications.sendTest({ type: 'verification', variant: 'individual_passed' });
      const delivery = await until(() => caught[0], 'the delivery');
      process.env.PVS_WEBHOOK_SECRET = destination.secret!;
      t.after(() => delete process.env.PVS_WEBHOOK_SECRET);
      const logged = t.mock.method(console, 'log', () => undefined);
      const { POST } = (await import(path.join(examples, 'webhooks', 'next-route.mjs'))) as { POST(request: Request): Promise<Response> };
      const post = async (body: string | Buffer, headers: Record<string, string>) => (await POST(new Request(url, { method: 'POST', body, headers }))).status;
      assert.equal(await post(delivery.body, delivery.headers), 200);
      assert.equal(logged.mock.calls[0]?.arguments[0], 'passed', 'the handler saw the event');
      await assertRefusals(post, destination.secret!);
    } finally {
      await started.pvs.webhookDestinations.delete(destination.id);
      await new Promise((resolve) => receiver.close(resolve));
    }
  });
});

async function listen(framework: 'express' | 'fastify', app: unknown, port: number): Promise<() => Promise<void>> {
  if (framework === 'fastify') {
    const fastify = app as { listen(options: { host: string; port: number }): Promise<string>; close(): Promise<void> };
    await fastify.listen({ host: '127.0.0.1', port });
    return () => fastify.close();
  }
  const server: Server = createServer(app as Parameters<typeof createServer>[0] & object);
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return () => new Promise((resolve) => server.close(() => resolve()));
}
