// `pvs listen` as a partner's developer runs it: a real sandbox PVS serving HTTP, the compiled `pvs`
// listening on a port of its own with the partner's client credentials, and test events sent through
// the partner API arriving at it signed. On the embedded database or PostgreSQL (TEST_DATABASE=postgres).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { createServer as createTcpServer } from 'node:net';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { signWebhook, verifyWebhook } from 'pvs/verify-webhook';
import { accessToken, assertCredentials, freePort, newSite, onlyJsonObject, pvs, run, serve, type Credentials, type Pvs, type Site } from './helpers/cli.ts';
import { startTcpProxy } from './helpers/tcp-proxy.ts';

const eventLine = (type: string) => new RegExp(`^\\d\\d:\\d\\d:\\d\\d  ${type.replaceAll('.', '\\.')}  (evt_[0-9A-Za-z]+)  verified(.*)$`, 'm');
const noStackTrace = (text: string) => assert.doesNotMatch(text, /\n\s+at \S+/, 'no stack trace');

describe('pvs listen', () => {
  let site: Site;
  let server: Pvs;
  let demo: Credentials;
  let api: string;

  before(async () => {
    site = await newSite();
    server = await serve(site);
    demo = assertCredentials(JSON.parse(readFileSync(path.join(site.dataDir, 'demo-partner.json'), 'utf8')) as Record<string, unknown>);
    api = `http://127.0.0.1:${site.port}`;
  });
  after(async () => {
    await server.terminate();
  });

  async function call(method: string, url: string, credentials = demo): Promise<{ status: number; body: Record<string, unknown> }> {
    const token = await accessToken(site.port, credentials);
    const response = await fetch(`${api}${url}`, { method, headers: { authorization: `Bearer ${token}`, 'x-partner-id': credentials.partnerId } });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  async function destinations(): Promise<{ id: string; url: string; categories: string[]; enabled: boolean }[]> {
    const { status, body } = await call('GET', '/v1/webhook-destinations?limit=100');
    assert.equal(status, 200);
    return body.data as { id: string; url: string; categories: string[]; enabled: boolean }[];
  }

  async function sendTest(type: string, variant: string): Promise<void> {
    const { status, body } = await call('POST', `/v1/webhook-notifications/test?type=${type}&variant=${variant}`);
    assert.equal(status, 202, JSON.stringify(body));
  }

  /** Starts `pvs listen` with the demo partner's credentials as flags and waits for its start-up lines. */
  async function listen(port: number, args: string[] = []): Promise<{ listener: Pvs; destinationId: string; secret: string }> {
    const credentials = ['--partner', demo.partnerId, '--client-id', demo.clientId, '--client-secret', demo.clientSecret];
    const listener = pvs(site, ['listen', '--api', api, '--port', String(port), ...credentials, ...args]);
    await listener.waitForStdout(/^Signing secret whsec_\S+ {2}Ctrl-C stops .*\n/m);
    const listening = /^Listening for Demo Partner's events at http:\/\/localhost:(\d+)\/webhooks \(destination (whd_[0-9A-Za-z]+), all categories\)$/m.exec(listener.stdout);
    assert.ok(listening, listener.describe());
    assert.equal(Number(listening[1]), port);
    return { listener, destinationId: listening[2]!, secret: /^Signing secret (whsec_\S+)/m.exec(listener.stdout)![1]! };
  }

  async function stop(listener: Pvs, signal: NodeJS.Signals = 'SIGINT'): Promise<void> {
    listener.child.kill(signal);
    const exit = await listener.wait(20_000);
    assert.equal(exit.code, 0, listener.describe());
  }

  it('prints a test event verified, refuses a forged delivery with 401 and a stale one with 400, and SIGINT removes the destination', async () => {
    const port = await freePort();
    const { listener, destinationId, secret } = await listen(port);
    assert.match(listener.stdout, new RegExp(`^Partner Demo Partner \\(${demo.partnerId}, credentials from --partner, --client-id, --client-secret\\) on PVS at ${api} \\(--api\\)$`, 'm'));
    const registered = (await destinations()).find((d) => d.id === destinationId);
    assert.deepEqual(registered && { url: registered.url, categories: registered.categories.length, enabled: registered.enabled }, {
      url: `http://localhost:${port}/webhooks`,
      categories: 6,
      enabled: true,
    });

    await sendTest('verification', 'individual_passed');
    await listener.waitForStdout(eventLine('verification.individual.passed'));
    assert.doesNotMatch(listener.stdout, /^\{/m, 'no payload without --json');

    const body = '{"type":"payment.created","eventId":"evt_forged"}';
    const timestamp = String(Math.floor(Date.now() / 1000));
    const forged = await fetch(`http://127.0.0.1:${port}/webhooks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-timestamp': timestamp, 'x-signature': signWebhook('whsec_not_the_secret', timestamp, body) },
      body,
    });
    assert.equal(forged.status, 401);
    await listener.waitForStdout(/^\d\d:\d\d:\d\d {2}payment\.created {2}evt_forged {2}REFUSED: signature does not match$/m);

    // Signed with the real secret but 10 minutes old: the verifier's timestamp rule, so the secret is the destination's.
    const old = String(Math.floor(Date.now() / 1000) - 600);
    const stale = await fetch(`http://127.0.0.1:${port}/webhooks`, { method: 'POST', headers: { 'x-timestamp': old, 'x-signature': signWebhook(secret, old, body) }, body });
    assert.equal(stale.status, 400);
    await listener.waitForStdout(/^\d\d:\d\d:\d\d {2}payment\.created {2}evt_forged {2}REFUSED: timestamp outside the tolerance$/m);

    const garbage = await fetch(`http://127.0.0.1:${port}/webhooks`, { method: 'POST', body: 'not json' });
    assert.equal(garbage.status, 400);
    await listener.waitForStdout(/^\d\d:\d\d:\d\d {2}\? {2}\? {2}REFUSED: missing or malformed x-timestamp$/m);

    await stop(listener);
    assert.match(listener.stdout, new RegExp(`^Stopped \\(SIGINT\\); destination ${destinationId} removed$`, 'm'));
    assert.deepEqual(await destinations(), []);
  });

  it('--json prints each payload as indented JSON after its line', async () => {
    const port = await freePort();
    const { listener } = await listen(port, ['--json']);
    await sendTest('business-lookup', 'completed');
    await listener.waitForStdout(/^\d\d:\d\d:\d\d {2}business-lookup\.completed {2}evt_\S+ {2}verified\n\{\n[\s\S]*?\n\}\n/m);
    const [, id, json] = /^\d\d:\d\d:\d\d {2}business-lookup\.completed {2}(evt_\S+) {2}verified\n(\{\n[\s\S]*?\n\})\n/m.exec(listener.stdout)!;
    const payload = JSON.parse(json!) as Record<string, unknown>;
    assert.equal(payload.type, 'business-lookup.completed');
    assert.equal(payload.eventId, id);
    assert.equal(payload.test, true);
    assert.match(json!, /^ {2}"type": "business-lookup\.completed",$/m, 'indented');
    await stop(listener, 'SIGTERM');
    assert.match(listener.stdout, /^Stopped \(SIGTERM\); destination whd_\S+ removed$/m);
  });

  it('--keep keeps the destination; the next listen at the same URL reuses it with all categories and a new secret', async () => {
    const port = await freePort();
    const first = await listen(port, ['--keep']);
    assert.match(first.listener.stdout, /Ctrl-C stops and keeps the destination \(--keep\)$/m);
    await stop(first.listener);
    assert.match(first.listener.stdout, new RegExp(`^Stopped \\(SIGINT\\); destination ${first.destinationId} kept \\(--keep\\)`, 'm'));
    assert.deepEqual((await destinations()).map((d) => d.id), [first.destinationId]);

    // Narrowed and paused meanwhile (in the portal, say): the next listen makes it whole again.
    const token = await accessToken(site.port, demo);
    const patched = await fetch(`${api}/v1/webhook-destinations/${first.destinationId}`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${token}`, 'x-partner-id': demo.partnerId, 'content-type': 'application/json' },
      body: JSON.stringify({ categories: ['PAYMENTS'], enabled: false }),
    });
    assert.equal(patched.status, 200);

    const second = await listen(port);
    assert.equal(second.destinationId, first.destinationId);
    assert.notEqual(second.secret, first.secret);
    assert.match(second.listener.stdout, new RegExp(`^Reusing destination ${first.destinationId}, already at http://localhost:${port}/webhooks: subscribed it to all categories, enabled it, rotated its secret`, 'm'));
    const [reused] = await destinations();
    assert.equal(reused?.categories.length, 6);
    assert.equal(reused?.enabled, true);

    await sendTest('verification', 'individual_passed');
    await second.listener.waitForStdout(eventLine('verification.individual.passed'));
    await stop(second.listener);
    assert.deepEqual(await destinations(), []);
  });

  it('--forward-to passes a verified delivery on with the same body and headers, and prints the answer of the app', async () => {
    const forwarded: { headers: IncomingHttpHeaders; body: string }[] = [];
    const app = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (c: Buffer) => chunks.push(c));
      request.on('end', () => {
        forwarded.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
        response.writeHead(202).end();
      });
    });
    await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve));
    try {
      const appPort = (app.address() as { port: number }).port;
      const port = await freePort();
      const { listener, secret } = await listen(port, ['--forward-to', `http://127.0.0.1:${appPort}/hooks`]);
      assert.match(listener.stdout, new RegExp(`^Verified deliveries are forwarded to http://127\\.0\\.0\\.1:${appPort}/hooks$`, 'm'));
      await sendTest('payment', 'succeeded');
      await listener.waitForStdout(/^\d\d:\d\d:\d\d {2}payment\.succeeded {2}evt_\S+ {2}verified {2}forwarded: 202$/m);
      assert.equal(forwarded.length, 1);
      const [delivery] = forwarded;
      assert.ok(verifyWebhook(secret, delivery!.headers, delivery!.body).ok, 'the app verifies it with the printed secret');
      assert.equal(delivery!.headers['user-agent'], 'PVS-Webhooks/1.0');
      assert.match(String(delivery!.headers['x-notification-id']), /^whn_/);

      // A forged delivery is not forwarded.
      const forgedBody = '{"type":"payment.succeeded"}';
      const timestamp = String(Math.floor(Date.now() / 1000));
      await fetch(`http://127.0.0.1:${port}/webhooks`, { method: 'POST', headers: { 'x-timestamp': timestamp, 'x-signature': signWebhook('whsec_x', timestamp, forgedBody) }, body: forgedBody });
      await listener.waitForStdout(/REFUSED: signature does not match$/m);
      assert.equal(forwarded.length, 1);
      await stop(listener);
    } finally {
      await new Promise((resolve) => app.close(resolve));
    }
  });

  it('with no flags, uses the demo partner in DATA_DIR and the PVS serving it', async () => {
    const port = await freePort();
    const listener = pvs(site, ['listen', '--port', String(port)]);
    await listener.waitForStdout(/^Signing secret whsec_\S+/m);
    const file = path.join(site.dataDir, 'demo-partner.json');
    const serverPid = JSON.parse(readFileSync(path.join(site.dataDir, 'server.json'), 'utf8')) as { pid: number };
    assert.ok(
      listener.stdout.includes(`Partner Demo Partner (${demo.partnerId}, credentials from ${file}) on PVS at ${api} (the PVS serving ${site.dataDir}, pid ${serverPid.pid})`),
      listener.describe(),
    );
    await stop(listener);
  });

  it('says what is wrong, without a stack trace: no PVS, refused credentials, another partner, port in use, no credentials', async () => {
    const credentials = ['--partner', demo.partnerId, '--client-id', demo.clientId];
    const nowhere = `http://127.0.0.1:${await freePort()}`;
    const unreachable = await run(site, ['listen', '--api', nowhere, '--port', String(await freePort()), ...credentials, '--client-secret', demo.clientSecret]);
    assert.equal(unreachable.code, 1, unreachable.describe());
    assert.match(unreachable.stderr, new RegExp(`Cannot reach PVS at ${nowhere} \\(ECONNREFUSED\\)\\. Is it running\\? Start it with \`npm start\``));

    const refused = await run(site, ['listen', '--api', api, '--port', String(await freePort()), ...credentials, '--client-secret', 'pvs_secret_wrong']);
    assert.equal(refused.code, 1, refused.describe());
    assert.match(refused.stderr, new RegExp(`refused the credentials of client ${demo.clientId} \\(from --partner, --client-id, --client-secret\\)`));

    const other = onlyJsonObject((await run(site, ['partner', 'create', '--name', 'Other Pty Ltd', '--json'])).stdout);
    const mismatch = await run(site, ['listen', '--api', api, '--port', String(await freePort())], {
      PVS_PARTNER_ID: String(other.partnerId),
      PVS_CLIENT_ID: demo.clientId,
      PVS_CLIENT_SECRET: demo.clientSecret,
    });
    assert.equal(mismatch.code, 1, mismatch.describe());
    assert.match(mismatch.stderr, new RegExp(`Client ${demo.clientId} does not belong to partner ${String(other.partnerId)} \\(from PVS_PARTNER_ID, PVS_CLIENT_ID, PVS_CLIENT_SECRET\\)`));

    const taken = createTcpServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const takenPort = (taken.address() as { port: number }).port;
    try {
      const busy = await run(site, ['listen', '--api', api, '--port', String(takenPort), ...credentials, '--client-secret', demo.clientSecret]);
      assert.equal(busy.code, 1, busy.describe());
      assert.match(busy.stderr, new RegExp(`Port ${takenPort} on 127\\.0\\.0\\.1 is in use .*--port`));
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }

    const empty = await newSite({}, { database: false });
    const none = await run(empty, ['listen']);
    assert.equal(none.code, 1, none.describe());
    assert.match(none.stderr, /No partner credentials to listen with\. Pass --partner ptn_… --client-id cli_… --client-secret …/);
    assert.match(none.stderr, /PVS_PARTNER_ID, PVS_CLIENT_ID and PVS_CLIENT_SECRET/);
    assert.ok(none.stderr.includes(path.join(empty.dataDir, 'demo-partner.json')), none.describe());

    for (const result of [unreachable, refused, mismatch, none]) {
      noStackTrace(result.stderr);
      assert.equal(result.stdout, '');
    }
    assert.deepEqual(await destinations(), [], 'nothing registered by a listen that could not start');
  });

  it('when PVS cannot be reached at the end, says the destination was left and exits non-zero', async (t) => {
    const proxy = await startTcpProxy({ host: '127.0.0.1', port: site.port });
    t.after(() => proxy.close());
    const port = await freePort();
    const credentials = ['--partner', demo.partnerId, '--client-id', demo.clientId, '--client-secret', demo.clientSecret];
    const listener = pvs(site, ['listen', '--api', `http://127.0.0.1:${proxy.port}`, '--port', String(port), ...credentials]);
    await listener.waitForStdout(/^Signing secret whsec_\S+/m);
    const destinationId = /destination (whd_[0-9A-Za-z]+), all categories/.exec(listener.stdout)![1]!;
    await proxy.close();
    listener.child.kill('SIGINT');
    const exit = await listener.wait(20_000);
    assert.equal(exit.code, 1, listener.describe());
    assert.match(listener.stderr, new RegExp(`^Stopped \\(SIGINT\\), but destination ${destinationId} was not removed: PVS at http://127\\.0\\.0\\.1:${proxy.port} cannot be reached \\(ECONNREFUSED\\)`, 'm'));
    noStackTrace(listener.stderr);

    const { status } = await call('DELETE', `/v1/webhook-destinations/${destinationId}`);
    assert.equal(status, 200);
  });
});
