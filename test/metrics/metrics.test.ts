// Prometheus metrics (docs/operations.md, "Metrics"): the names, types and labels of the contract, what
// requests, jobs and provider calls add to them (through app.inject and the worker), a label set that
// stays bounded whatever paths are requested, gauges read from the database at scrape time with one
// cached reading, and the listener of its own (METRICS_ADDRESS).
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { instrumentProvider } from '../../src/platform/metrics/instrument-provider.ts';
import { createMetrics, readingTtlMs, type Readings } from '../../src/platform/metrics/metrics.ts';
import { startMetricsServer } from '../../src/platform/metrics/metrics-server.ts';
import { databaseReadings } from '../../src/platform/metrics/readings.ts';
import { runDueJobs } from '../helpers/billing.ts';
import { createTestContext, testSecretKey, type TestContext, type TestPartner } from '../helpers/context.ts';
import { postLookup } from '../helpers/lookups.ts';

/** One sample of the text format: the metric, its labels, its value. */
interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

function samples(text: string): Sample[] {
  return text
    .split('\n')
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => {
      const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line)!;
      const labels = Object.fromEntries([...(m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((l) => [l[1]!, l[2]!]));
      return { name: m[1]!, labels, value: Number(m[3]) };
    });
}

const valueOf = (all: Sample[], name: string, labels: Record<string, string> = {}) =>
  all.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v)).reduce((sum, s) => sum + s.value, 0);

// The contract (ops/ and the docs rely on it): each name, its type, and its labels.
const contract: Array<[string, string, string[]]> = [
  ['pvs_http_requests_total', 'counter', ['method', 'route', 'status']],
  ['pvs_http_request_duration_seconds', 'histogram', ['method', 'route']],
  ['pvs_jobs_ready', 'gauge', ['kind']],
  ['pvs_jobs_oldest_ready_age_seconds', 'gauge', ['kind']],
  ['pvs_jobs_finished_total', 'counter', ['kind', 'outcome']],
  ['pvs_job_duration_seconds', 'histogram', ['kind']],
  ['pvs_webhook_deliveries_total', 'counter', ['outcome']],
  ['pvs_webhook_delivery_lag_seconds', 'histogram', []],
  ['pvs_webhook_notifications_pending', 'gauge', []],
  ['pvs_provider_request_duration_seconds', 'histogram', ['provider', 'operation', 'outcome']],
  ['pvs_database_up', 'gauge', []],
  ['pvs_db_pool_connections', 'gauge', ['state']],
  ['pvs_rate_limited_total', 'counter', []],
  ['pvs_screening_list_version', 'gauge', []],
  ['pvs_build_info', 'gauge', ['version', 'node']],
];

describe('the metric contract', () => {
  it('has every name with its type and labels, and nothing else named pvs_', async () => {
    const metrics = createMetrics({ version: '9.9.9' });
    const described = await metrics.registry.getMetricsAsJSON();
    const actual = described.map((m) => [m.name, m.type, ((m as { labelNames?: string[] }).labelNames ?? []).slice().sort()]);
    for (const [name, type, labels] of contract) {
      const found = actual.find(([n]) => n === name);
      assert.ok(found, `${name} exists`);
      assert.equal(found[1], type, `${name} is a ${type}`);
      // prom-client keeps label names on the metric's configuration.
      const metric = metrics.registry.getSingleMetric(name) as unknown as { labelNames: string[] };
      assert.deepEqual([...metric.labelNames].sort(), [...labels].sort(), `${name}'s labels`);
    }
    assert.deepEqual(actual.map(([n]) => n).filter((n) => String(n).startsWith('pvs_')).sort(), contract.map(([n]) => n).sort());
    const text = await metrics.registry.metrics();
    assert.equal(valueOf(samples(text), 'pvs_build_info', { version: '9.9.9', node: process.versions.node }), 1);
  });

  it('adds process and Node.js metrics only when asked (a process that serves /metrics)', async () => {
    const metrics = createMetrics({ version: '1' });
    assert.ok(!(await metrics.registry.metrics()).includes('process_cpu_seconds_total'), 'no process metrics by default');
    metrics.collectProcessMetrics();
    metrics.collectProcessMetrics();
    const text = await metrics.registry.metrics();
    assert.ok(text.includes('process_cpu_seconds_total') && text.includes('nodejs_eventloop_lag_seconds'), 'process and Node.js metrics once asked');
  });
});

describe('what the service counts', () => {
  let t: TestContext;
  let partner: TestPartner;
  before(async () => {
    t = await createTestContext();
    partner = await t.f.partner();
  });
  after(() => t.close());
  const scrape = async () => samples(await t.services.metrics.registry.metrics());

  it('counts each answer by method, route template and status, and times it', async () => {
    const before = await scrape();
    const got = await t.app.inject({ method: 'GET', url: '/health' });
    assert.equal(got.statusCode, 200);
    const lookup = await postLookup(t, partner, { abn: '32 111 111 114' });
    assert.equal(lookup.statusCode, 202, lookup.body);
    const id = lookup.json<{ lookupRequestId: string }>().lookupRequestId;
    assert.equal((await t.app.inject({ method: 'GET', url: `/v1/business-lookups/${id}`, headers: partner.headers })).statusCode, 200);
    assert.equal((await t.app.inject({ method: 'GET', url: `/v1/business-lookups/${id}` })).statusCode, 401);
    assert.equal((await t.app.inject({ method: 'GET', url: `/nothing/here/${id}` })).statusCode, 404);
    const now = await scrape();
    const added = (labels: Record<string, string>) => valueOf(now, 'pvs_http_requests_total', labels) - valueOf(before, 'pvs_http_requests_total', labels);
    assert.equal(added({ method: 'GET', route: '/health', status: '200' }), 1);
    assert.equal(added({ method: 'POST', route: '/v1/business-lookups', status: '202' }), 1);
    assert.equal(added({ method: 'GET', route: '/v1/business-lookups/:id', status: '200' }), 1);
    assert.equal(added({ method: 'GET', route: '/v1/business-lookups/:id', status: '401' }), 1);
    assert.equal(added({ method: 'GET', route: 'unmatched', status: '404' }), 1);
    assert.equal(valueOf(now, 'pvs_http_request_duration_seconds_count', { method: 'GET', route: '/v1/business-lookups/:id' }) - valueOf(before, 'pvs_http_request_duration_seconds_count', { method: 'GET', route: '/v1/business-lookups/:id' }), 2);
    // No label anywhere holds the lookup's id.
    assert.ok(!now.some((s) => Object.values(s.labels).some((v) => v.includes(id))), 'no label holds the id');
  });

  it('keeps the label set bounded whatever is requested: ids, tokens, traversal, odd methods', async () => {
    const routesBefore = new Set((await scrape()).filter((s) => s.name === 'pvs_http_requests_total').map((s) => `${s.labels.method} ${s.labels.route}`));
    const hostile: string[] = [];
    for (let i = 0; i < 60; i++) {
      const junk = randomBytes(12).toString('hex');
      hostile.push(junk);
      const url = [
        `/v1/business-lookups/lkp_${junk}`,
        `/hosted/verify/${junk}`,
        `/${junk}`,
        `/v1/${junk}/../${junk}?q=${junk}`,
        `/reports/v1/verifications/ver_${junk}/report.pdf?signature=${junk}`,
        `/docs/guides/${junk}`,
      ][i % 6]!;
      await t.app.inject({ method: (['GET', 'POST', 'DELETE', 'PATCH'] as const)[i % 4], url, headers: partner.headers, payload: i % 4 === 1 ? {} : undefined });
    }
    const now = (await scrape()).filter((s) => s.name.startsWith('pvs_'));
    const routes = new Set(now.filter((s) => s.name === 'pvs_http_requests_total').map((s) => `${s.labels.method} ${s.labels.route}`));
    // Sixty distinct paths added at most a handful of series: route templates and `unmatched`.
    assert.ok(routes.size - routesBefore.size <= 12, `${routes.size - routesBefore.size} new series: ${[...routes].filter((r) => !routesBefore.has(r)).join(', ')}`);
    for (const sample of now) for (const value of Object.values(sample.labels)) assert.ok(!hostile.some((junk) => value.includes(junk)), `${sample.name} carries ${value}`);
    for (const route of routes) assert.match(route, /^(GET|HEAD|POST|PUT|PATCH|DELETE|OPTIONS|OTHER) (unmatched|\/[\w/:*.-]*)$/);
  });

  it('counts job outcomes and times them, and shows jobs waiting by kind, read when scraped', async () => {
    const res = await postLookup(t, partner, { abn: '54 222 222 228' });
    assert.equal(res.statusCode, 202);
    // The reading is cached for a few seconds: a scrape right after another would show the old queue.
    t.services.metrics.readFrom(readingsOf(t));
    let now = await scrape();
    assert.ok(valueOf(now, 'pvs_jobs_ready', { kind: 'lookups.process' }) >= 1, 'the lookup waits');
    const kinds = new Set(now.filter((s) => s.name === 'pvs_jobs_ready').map((s) => s.labels.kind));
    assert.deepEqual([...kinds].sort(), [...new Set(t.services.jobDefinitions.map((d) => d.kind))].sort(), 'every kind is shown, 0 when none waits');
    const finishedBefore = valueOf(now, 'pvs_jobs_finished_total', { kind: 'lookups.process', outcome: 'succeeded' });
    await runDueJobs(t);
    t.services.metrics.readFrom(readingsOf(t));
    now = await scrape();
    assert.equal(valueOf(now, 'pvs_jobs_ready', { kind: 'lookups.process' }), 0);
    assert.equal(valueOf(now, 'pvs_jobs_oldest_ready_age_seconds', { kind: 'lookups.process' }), 0);
    assert.ok(valueOf(now, 'pvs_jobs_finished_total', { kind: 'lookups.process', outcome: 'succeeded' }) > finishedBefore);
    assert.ok(valueOf(now, 'pvs_job_duration_seconds_count', { kind: 'lookups.process' }) > 0);
    // The registers were called, and timed, by provider and operation.
    assert.ok(now.some((s) => s.name === 'pvs_provider_request_duration_seconds_count' && s.labels.provider === 'registers.abn' && s.labels.operation === 'findByAbn' && s.labels.outcome === 'ok' && s.value > 0), 'the registers were timed');
    assert.equal(valueOf(now, 'pvs_database_up'), 1);
    assert.ok(valueOf(now, 'pvs_screening_list_version') >= 0);
  });

  it('counts 429 RATE_LIMITED answers', async () => {
    const limited = await createTestContext({ env: { RATE_LIMIT_PER_SECOND: '1', RATE_LIMIT_BURST: '1' } });
    try {
      const p = await limited.f.partner();
      for (let i = 0; i < 4; i++) await limited.app.inject({ method: 'GET', url: '/v1/channel-partners/me', headers: p.headers });
      assert.ok(valueOf(samples(await limited.services.metrics.registry.metrics()), 'pvs_rate_limited_total') >= 1);
    } finally {
      await limited.close();
    }
  });
});

/**
 * The service's reading of its database, as services.ts wires it; given again to readFrom, which drops the
 * cached reading, so that the next scrape shows the database as it is now.
 */
function readingsOf(t: TestContext): () => Promise<Readings> {
  const { db, clock, jobDefinitions, notifications, screening } = t.services;
  return databaseReadings({ db, clock, jobKinds: jobDefinitions.map((d) => d.kind), pendingNotifications: notifications.countPending, screeningListVersion: screening.listVersion });
}

describe('gauges read from the database', () => {
  it('read once for every gauge and every scrape within the cache time; nothing read while nobody scrapes', async () => {
    let now = 1_000_000;
    let reads = 0;
    const metrics = createMetrics({ version: '1', now: () => now });
    const reading: Readings = { jobs: [{ kind: 'a.job', ready: 3, oldestAgeSeconds: 42 }], notificationsPending: 7, screeningListVersion: 2, pool: { idle: 1, busy: 2, waiting: 0 } };
    metrics.readFrom(async () => {
      reads++;
      return reading;
    });
    assert.equal(reads, 0, 'nothing read before a scrape');
    const first = samples(await metrics.registry.metrics());
    await metrics.registry.metrics();
    assert.equal(reads, 1, 'one reading for two scrapes and six gauges');
    assert.equal(valueOf(first, 'pvs_jobs_ready', { kind: 'a.job' }), 3);
    assert.equal(valueOf(first, 'pvs_jobs_oldest_ready_age_seconds', { kind: 'a.job' }), 42);
    assert.equal(valueOf(first, 'pvs_webhook_notifications_pending'), 7);
    assert.equal(valueOf(first, 'pvs_screening_list_version'), 2);
    assert.equal(valueOf(first, 'pvs_db_pool_connections', { state: 'busy' }), 2);
    assert.equal(valueOf(first, 'pvs_database_up'), 1);
    now += readingTtlMs;
    await metrics.registry.metrics();
    assert.equal(reads, 2, 'read again once the cache time has passed');
  });

  it('show the database down when the reading fails: no job series; the last list version and pending count kept', async () => {
    let now = 0;
    let up = true;
    const metrics = createMetrics({ version: '1', now: () => now });
    metrics.readFrom(async () => {
      if (!up) throw new Error('connection refused');
      return { jobs: [{ kind: 'a.job', ready: 1, oldestAgeSeconds: 5 }], notificationsPending: 4, screeningListVersion: 3, pool: null };
    });
    await metrics.registry.metrics();
    up = false;
    now += readingTtlMs;
    const all = samples(await metrics.registry.metrics());
    assert.equal(valueOf(all, 'pvs_database_up'), 0);
    assert.ok(!all.some((s) => s.name === 'pvs_jobs_ready' || s.name === 'pvs_jobs_oldest_ready_age_seconds'), 'no job series without a reading');
    // Not 0: a list version of 0 would say that no list is loaded, which is not what is known.
    assert.equal(valueOf(all, 'pvs_screening_list_version'), 3);
    assert.equal(valueOf(all, 'pvs_webhook_notifications_pending'), 4);
  });
});

describe('provider calls', () => {
  it('are timed by provider, operation and outcome: ok, error (thrown or answered), timeout', async () => {
    const metrics = createMetrics({ version: '1' });
    const provider = instrumentProvider(
      'registers',
      {
        name: 'sandbox',
        found: async () => ({ ok: true }),
        missing: async () => ({ ok: false, reason: 'NOT_FOUND' }),
        down: async () => ({ ok: false, reason: 'UNAVAILABLE' }),
        outage: async () => ({ ok: false, kind: 'unavailable', message: 'Onfido answered 503' }),
        pending: async () => ({ ok: false, kind: 'pending', retryInSeconds: 30, message: 'checks running' }),
        broken: async () => {
          throw new Error('boom');
        },
        slow: async () => {
          throw Object.assign(new Error('The operation was aborted due to timeout'), { name: 'TimeoutError' });
        },
        plain: () => 42,
      },
      metrics,
    );
    assert.equal(provider.name, 'sandbox');
    assert.equal(provider.plain(), 42);
    await provider.found();
    await provider.missing();
    await provider.down();
    await provider.outage();
    await provider.pending();
    await assert.rejects(provider.broken(), /boom/);
    await assert.rejects(provider.slow(), /timeout/);
    const all = samples(await metrics.registry.metrics());
    const count = (operation: string, outcome: string) => valueOf(all, 'pvs_provider_request_duration_seconds_count', { provider: 'registers', operation, outcome });
    assert.deepEqual(
      [count('found', 'ok'), count('missing', 'ok'), count('down', 'error'), count('outage', 'error'), count('pending', 'ok'), count('broken', 'error'), count('slow', 'timeout'), count('plain', 'ok')],
      [1, 1, 1, 1, 1, 1, 1, 0],
    );
  });
});

describe('the metrics listener (METRICS_ADDRESS)', () => {
  it('answers GET /metrics in the text format, and nothing else', async () => {
    const metrics = createMetrics({ version: '1' });
    const server = await startMetricsServer(metrics, { host: '127.0.0.1', port: 0 }, () => {});
    try {
      const got = await fetch(server.url);
      assert.equal(got.status, 200);
      assert.match(got.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
      assert.match(await got.text(), /^# HELP pvs_/m);
      assert.equal((await fetch(server.url.replace('/metrics', '/'))).status, 404);
      assert.equal((await fetch(server.url.replace('/metrics', '/v1/channel-partners/me'))).status, 404);
      assert.equal((await fetch(server.url, { method: 'POST' })).status, 405);
    } finally {
      await server.close();
    }
  });

  it('refuses an address in use, naming the variable', async () => {
    const metrics = createMetrics({ version: '1' });
    const first = await startMetricsServer(metrics, { host: '127.0.0.1', port: 0 }, () => {});
    try {
      const port = Number(new URL(first.url).port);
      await assert.rejects(startMetricsServer(metrics, { host: '127.0.0.1', port }, () => {}), (error) => error instanceof ConfigError && /^METRICS_ADDRESS: 127\.0\.0\.1:\d+ cannot be listened on \(EADDRINUSE\)/.test(error.message));
    } finally {
      await first.close();
    }
  });

  it('is validated at start: host:port, [ipv6]:port or off; never the API’s port', () => {
    const load = (METRICS_ADDRESS: string, extra: Record<string, string> = {}) => loadConfig({ SECRET_KEY: testSecretKey, METRICS_ADDRESS, ...extra });
    assert.equal(loadConfig({ SECRET_KEY: testSecretKey }).METRICS_ADDRESS, '127.0.0.1:9464');
    for (const ok of ['off', '0.0.0.0:9464', 'localhost:9100', '[::1]:9464', '127.0.0.1:0']) assert.equal(load(ok).METRICS_ADDRESS, ok);
    for (const bad of ['9464', 'on', '127.0.0.1:', '127.0.0.1:99999', 'http://127.0.0.1:9464', '127.0.0.1:9464/metrics']) assert.throws(() => load(bad), /METRICS_ADDRESS/, bad);
    assert.throws(() => load('127.0.0.1:3000', { PORT: '3000' }), /METRICS_ADDRESS: port 3000 is the API's/);
  });
});
