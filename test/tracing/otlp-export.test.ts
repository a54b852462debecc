// `pvs serve` with the standard OTEL_EXPORTER_OTLP_ENDPOINT sends its spans to a collector over OTLP/HTTP,
// as JSON or protobuf (OTEL_EXPORTER_OTLP_PROTOCOL), and says so in its banner; on SIGTERM what is
// buffered is sent before it exits. The collector here is an HTTP server of the test's own. PostgreSQL
// pass only: the export does not depend on the back-end.
// test-pass: postgres
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { accessToken, assertCredentials, me, newSite, serve, sleep } from '../helpers/cli.ts';
import { backend } from '../helpers/database.ts';

const skip = backend === 'pglite' && 'PostgreSQL pass only: the export does not depend on the back-end';

interface Export {
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

describe('traces sent to a collector', { skip }, () => {
  let collector: Server;
  let endpoint: string;
  const exports: Export[] = [];

  before(async () => {
    collector = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        exports.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) });
        res.writeHead(200, { 'content-type': String(req.headers['content-type']) }).end();
      });
    });
    await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
    endpoint = `http://127.0.0.1:${(collector.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((resolve) => collector.close(() => resolve())));

  async function servedAndStopped(env: Record<string, string>) {
    exports.length = 0;
    const site = await newSite({ OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_SERVICE_NAME: 'pvs-under-test', ...env });
    const server = await serve(site);
    assert.match(server.stdout, new RegExp(`^ {2}Traces {3}${endpoint}/v1/traces$`, 'm'));
    const demo = assertCredentials(JSON.parse(readFileSync(path.join(site.dataDir, 'demo-partner.json'), 'utf8')) as Record<string, unknown>);
    await me(site.port, demo);
    assert.ok(await accessToken(site.port, demo));
    assert.deepEqual(await server.terminate(), { code: 0, signal: null }, server.describe());
    // The exporter's last batch is sent during the shutdown; a slow machine may need a moment beyond it.
    for (let i = 0; i < 50 && exports.length === 0; i++) await sleep(100);
    assert.ok(exports.length > 0, `nothing reached the collector\n${server.describe()}`);
    for (const e of exports) assert.equal(e.path, '/v1/traces');
    return { body: Buffer.concat(exports.map((e) => e.body)), secret: demo.clientSecret };
  }

  it('as OTLP JSON: the request spans, named by route, with service.name and only listed attributes', async () => {
    const { body, secret } = await servedAndStopped({ OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' });
    assert.match(String(exports[0]!.headers['content-type']), /application\/json/);
    const batches = exports.map((e) => JSON.parse(e.body.toString('utf8')) as { resourceSpans: Array<{ resource: { attributes: Array<{ key: string; value: { stringValue?: string } }> }; scopeSpans: Array<{ spans: Array<{ name: string; attributes: Array<{ key: string }> }> }> }> });
    const resourceSpans = batches.flatMap((b) => b.resourceSpans);
    const spans = resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans));
    const names = spans.map((s) => s.name);
    assert.ok(names.includes('GET /v1/channel-partners/me') && names.includes('POST /oauth2/token'), names.join(', '));
    const serviceName = resourceSpans[0]!.resource.attributes.find((a) => a.key === 'service.name');
    assert.equal(serviceName?.value.stringValue, 'pvs-under-test');
    const keys = new Set(spans.flatMap((s) => s.attributes.map((a) => a.key)));
    for (const key of keys) assert.ok(/^(http\.|url\.scheme|server\.|network\.protocol|db\.|error\.type|exception\.type|fastify\.|hook\.|pvs\.)/.test(key), `attribute ${key} left the process`);
    assert.ok(!body.toString('utf8').includes(secret), 'no client secret');
    assert.ok(!body.toString('utf8').includes('Bearer'), 'no token');
  });

  it('as OTLP protobuf, the default', async () => {
    const { body } = await servedAndStopped({});
    assert.equal(exports[0]!.headers['content-type'], 'application/x-protobuf');
    // A span's name is a protobuf string field, kept as its UTF-8 bytes.
    assert.ok(body.includes(Buffer.from('GET /v1/channel-partners/me')));
  });
});
