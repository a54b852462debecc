// Traces: one business lookup, from the partner's POST to the webhook its result sends, is one trace
// across the API, the job and the delivery; statements and outgoing calls are spans in it; nothing
// that leaves (through PrivateSpanExporter) names a person, a token or a secret. The SDK's in-memory
// exporter stands in for the collector.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { tracesEndpoint } from '../../src/platform/tracing/tracing.ts';
import { querySummary } from '../../src/platform/tracing/traced-database.ts';
import { testConfig } from '../helpers/context.ts';
import { runDueJobs } from '../helpers/billing.ts';
import { postLookup } from '../helpers/lookups.ts';
import { webhookHarness } from '../fixtures/webhook-helpers.ts';
import { captureSpans, type SpanCapture } from '../helpers/span-capture.ts';

let capture: SpanCapture;
before(async () => {
  capture = await captureSpans();
});
after(() => capture.stop());

const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;

it('one lookup is one trace: the POST, its job, the statements, the webhook delivery and its HTTP call', async (t) => {
  const h = await webhookHarness(t);
  const partner = await h.ctx.f.partner();
  const receiver = await h.receiver();
  const destination = await h.addDestination(partner, { url: `${receiver.url}/hooks?token=partner-query-secret`, categories: ['BUSINESS_LOOKUPS'] });
  receiver.setSecret(destination.secret);
  capture.reset();

  const created = await postLookup(h.ctx, partner, { abn: '32 111 111 114', scope: 'FULL' });
  assert.equal(created.statusCode, 202, created.body);
  assert.ok((await runDueJobs(h.ctx)) > 0);
  assert.ok((await h.drain()) > 0);
  assert.ok(receiver.received.length > 0);

  const spans = await capture.spans();
  const post = spans.find((s) => s.name === 'POST /v1/business-lookups');
  assert.ok(post, `no request span among ${[...new Set(spans.map((s) => s.name))].join(', ')}`);
  assert.equal(post.attributes['http.route'], '/v1/business-lookups');
  assert.equal(post.attributes['http.response.status_code'], 202);
  const traceId = post.spanContext().traceId;
  const inTrace = spans.filter((s) => s.spanContext().traceId === traceId);
  const byId = new Map(inTrace.map((s) => [s.spanContext().spanId, s]));
  const names = inTrace.map((s) => s.name);

  // The job the POST enqueued continues its trace, as a child of a span of the request.
  const job = inTrace.find((s) => s.name.startsWith('job lookups'));
  assert.ok(job, `no lookup job in the trace: ${names.join(', ')}`);
  assert.equal(job.attributes['pvs.job.outcome'], 'succeeded');
  assert.equal(job.attributes['pvs.job.attempt'], 1);
  const ancestors = (span: ReadableSpan) => {
    const chain: ReadableSpan[] = [];
    for (let p = byId.get(parentOf(span) ?? ''); p; p = byId.get(parentOf(p) ?? '')) chain.push(p);
    return chain;
  };
  assert.ok(ancestors(job).includes(post), 'the job descends from the request');

  // The delivery of the event the job emitted, and the HTTP POST to the receiver inside it.
  const delivery = inTrace.find((s) => s.name === 'webhook delivery');
  assert.ok(delivery, `no delivery in the trace: ${names.join(', ')}`);
  assert.equal(delivery.attributes['pvs.webhook.outcome'], 'delivered');
  assert.equal(delivery.attributes['error.type'], undefined);
  assert.ok(ancestors(delivery).includes(job), 'the delivery descends from the job');
  const call = inTrace.find((s) => parentOf(s) === delivery.spanContext().spanId && s.name === 'POST');
  assert.ok(call, 'the HTTP call of the delivery is its child');
  assert.equal(call.attributes['server.address'], '127.0.0.1');
  assert.equal(call.attributes['http.response.status_code'], 200);

  // Statements, as summaries: keywords and tables.
  const statements = inTrace.filter((s) => s.attributes['db.system.name'] === 'postgresql');
  assert.ok(statements.length > 3);
  assert.ok(statements.some((s) => s.name === 'SELECT business_lookups'), names.join(', '));
  for (const s of statements) assert.match(String(s.attributes['db.query.summary']), /^[A-Z]+( [a-z_0-9]+){0,3}$/);
  // A provider's call is a span too.
  assert.ok(inTrace.some((s) => s.attributes['pvs.provider'] === 'registers.abn'), names.join(', '));

  // Log lines written inside the trace carry its ids.
  const jobLine = h.ctx.logs.find((l) => l.msg === 'job succeeded' && l.kind === 'lookups.process');
  assert.ok(jobLine);
  assert.equal(jobLine.traceId, traceId);
  assert.ok(byId.has(String(jobLine.spanId)));

  // Nothing of the URL beyond its host: not the receiver's path, nor its query's secret.
  const text = await capture.text();
  assert.ok(!text.includes('partner-query-secret'));
  assert.ok(!text.includes('/hooks'));
});

it('a request with no route, or one with a token in its path, is named by its template', async (t) => {
  const h = await webhookHarness(t);
  capture.reset();
  await h.ctx.app.inject({ method: 'GET', url: '/v1/nothing-here/abc?email=someone@example.org' });
  await h.ctx.app.inject({ method: 'GET', url: '/v/lnk_secret-token-value' });
  const spans = await capture.spans();
  const roots = spans.filter((s) => s.attributes['http.request.method'] === 'GET' && 'http.route' in s.attributes && parentOf(s) === undefined);
  assert.ok(roots.some((s) => s.name === 'GET unmatched'), roots.map((s) => s.name).join(', '));
  const text = await capture.text();
  assert.ok(!text.includes('someone@example.org'));
  assert.ok(!text.includes('secret-token-value'));
});

it('a statement is summarised by its keywords and tables, never its literals or parameters', () => {
  assert.deepEqual(querySummary("SELECT id FROM partners p JOIN api_clients c ON c.partner_id = p.id WHERE c.client_id = $1 AND p.name = 'Jane Citizen'"), {
    name: 'SELECT partners api_clients',
    operation: 'SELECT',
  });
  assert.equal(querySummary("INSERT INTO jobs (id) VALUES ('FROM secret_table')").name, 'INSERT jobs');
  assert.equal(querySummary('UPDATE webhook_notifications SET x = 1 -- FROM comments\n').name, 'UPDATE webhook_notifications');
  assert.equal(querySummary('WITH due AS (SELECT id FROM jobs) UPDATE jobs SET status = $1 FROM due').name, 'WITH jobs due');
  assert.equal(querySummary('SELECT 1').name, 'SELECT');
});

it('is off without an endpoint, and configured by the standard variables', () => {
  assert.equal(tracesEndpoint(testConfig()), undefined);
  assert.equal(tracesEndpoint(testConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/' })), 'http://collector:4318/v1/traces');
  assert.equal(tracesEndpoint(testConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://traces.example/in' })), 'https://traces.example/in');
  assert.equal(tracesEndpoint(testConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_SDK_DISABLED: 'true' })), undefined);
  assert.equal(tracesEndpoint(testConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_TRACES_EXPORTER: 'none' })), undefined);
  assert.throws(() => testConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' }), /OTEL_EXPORTER_OTLP_ENDPOINT: invalid value/);
  assert.throws(() => testConfig({ OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' }), /OTEL_EXPORTER_OTLP_PROTOCOL: invalid value/);
  assert.throws(() => testConfig({ OTEL_PROPAGATORS: 'b3' }), /OTEL_PROPAGATORS: invalid value/);
});
