// The metrics as an operator's Prometheus sees them: a real Prometheus (Debian's package) scrapes two real
// `pvs serve` processes on one PostgreSQL database, `--role api` and, later, `--role worker`, each on a
// METRICS_ADDRESS of its own, every second; and every figure below is read back through Prometheus's HTTP
// API, never from /metrics, so that what is proved is what dashboards and alert rules (ops/) get: the text
// format parses, the names and labels are those queried, and the figures agree with what the test did.
//   - Requests are counted by route template and status: N calls to one route and M to another are
//     exactly N and M, summed across the targets.
//   - Webhook deliveries are counted by outcome: a receiver answering 500 is an `attempt_failed`, one
//     answering 200 a `delivered`, timed from the event's commit.
//   - The queue is read from the database at scrape time: with no worker running, the oldest lookup job's
//     age rises (two readings seconds apart) and the jobs wait; once a worker starts they run, the age
//     falls back to 0 and the worker counts them succeeded.
//   - Every target is up, the database up in each, the build named and the pool shown; on SIGTERM both
//     stop at once though Prometheus holds connections open to them, and Prometheus sees them down.
// PostgreSQL pass only: two processes on one database need PostgreSQL, and one pass of a real Prometheus is
// enough (parts 1 and 2 do not depend on the back-end). Without the `prometheus` binary it skips, unless CI
// or REQUIRE_PROMETHEUS is set: then it fails, saying what to install.
// test-pass: postgres
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { accessToken, assertCredentials, freePort, newSite, pvs, serve, type Credentials, type Pvs, type Site } from '../helpers/cli.ts';
import { backend } from '../helpers/database.ts';
import { prometheusSkipReason, startPrometheus, type PrometheusServer, type PromTarget } from '../helpers/prometheus.ts';
import { startReceiver, type Receiver } from '../helpers/receiver.ts';

const skip = (backend === 'pglite' && 'PostgreSQL pass only: `--role api` and `--role worker` need PostgreSQL, and one pass of a real Prometheus is enough') || prometheusSkipReason();

const version = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
/** The banner's line `  Metrics  http://127.0.0.1:<port>/metrics`: where the process answers Prometheus. */
const metricsLine = /^ {2}Metrics {2}(http:\/\/\S+\/metrics)$/m;
const metricsUrl = (server: Pvs) => {
  const found = metricsLine.exec(server.stdout);
  assert.ok(found, `no Metrics line in the banner\n${server.describe()}`);
  return found[1]!;
};

// Gauges are read once per 5 s in each process and Prometheus scrapes every second: a figure that changed
// shows within about 6 s. Waits allow far more, for a busy machine, and end as soon as the figure shows.
const settle = 30_000;

describe('the metrics, scraped by a real Prometheus', { skip }, () => {
  const lookupsRoute = '/v1/business-lookups';
  const meRoute = '/v1/channel-partners/me';
  const meCalls = 5;
  const lookupCount = 3;

  let site: Site;
  let api: Pvs;
  let worker: Pvs | undefined;
  let prometheus: PrometheusServer | undefined;
  let demo: Credentials;
  let token: string;
  const targets: PromTarget[] = [];
  const receivers: Receiver[] = [];

  before(async () => {
    // The two processes share the database and SECRET_KEY (the worker signs with the secrets the API stored).
    // Prometheus first, with nothing to scrape yet: a missing binary fails (CI, REQUIRE_PROMETHEUS) before
    // anything else starts. The API's target is added once its banner says where it listens.
    prometheus = await startPrometheus({ targets });
    site = await newSite({ SECRET_KEY: 'metrics-test-secret-key-0123456789abcdef' });
    api = await serve(site, ['--role', 'api']);
    demo = assertCredentials(JSON.parse(readFileSync(path.join(site.dataDir, 'demo-partner.json'), 'utf8')) as Record<string, unknown>);
    token = await accessToken(site.port, demo);
    targets.push({ url: metricsUrl(api), labels: { role: 'api' } });
    prometheus.setTargets(targets);
  });

  // On failure too (and the helpers' own `after` kill whatever is left, and remove the directories).
  after(async () => {
    await prometheus?.stop();
    await Promise.all([api?.terminate(), worker?.terminate(), ...receivers.map((r) => r.close())]);
  });

  /** What Prometheus printed and the processes too, for a failure that is not obvious from the figures. */
  const context = () => `--- prometheus\n${prometheus!.output().slice(-4_000)}\n${api.describe()}${worker ? `\n${worker.describe()}` : ''}`;
  /** A query's one value (a sum, a max), waited for until the predicate holds. */
  const waitFor = async (expr: string, predicate: (value: number) => boolean, timeoutMs = settle): Promise<number> => {
    try {
      const [sample] = await prometheus!.waitFor(expr, (value) => value !== undefined && predicate(value), timeoutMs);
      return sample!.value;
    } catch (error) {
      throw new Error(`${(error as Error).message}\n${context()}`, { cause: error });
    }
  };

  async function call(method: 'GET' | 'POST', url: string, body?: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
    const response = await fetch(`http://127.0.0.1:${site.port}${url}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'x-partner-id': demo.partnerId, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  it('scrapes the API process: up, its database up, its build named', async () => {
    await waitFor('count(up{job="pvs"} == 1)', (n) => n === 1);
    await waitFor('min(pvs_database_up{job="pvs"})', (up) => up === 1);
    const builds = await prometheus!.waitFor('pvs_build_info{job="pvs"}', (_v, samples) => samples.length > 0);
    assert.deepEqual(
      builds.map((b) => [b.metric.version, b.metric.node, b.metric.role, b.value]),
      [[version, process.versions.node, 'api', 1]],
    );
  });

  let firstLookupAt = 0;
  it('counts requests by route template and status: N and M, exactly', async () => {
    for (let i = 0; i < meCalls; i++) {
      const me = await call('GET', meRoute);
      assert.equal(me.status, 200, JSON.stringify(me.body));
    }
    firstLookupAt = Date.now();
    // No worker runs yet: the lookups wait in the queue (next test).
    for (let i = 0; i < lookupCount; i++) {
      const lookup = await call('POST', lookupsRoute, { abn: '32 111 111 114' });
      assert.equal(lookup.status, 202, JSON.stringify(lookup.body));
    }
    // Waited for until at least reached, then exactly: a counter that overshot would be a bug too.
    const me = await waitFor(`sum(pvs_http_requests_total{job="pvs", method="GET", route="${meRoute}", status="200"})`, (n) => n >= meCalls);
    assert.equal(me, meCalls, `${meRoute} counted ${me} times for ${meCalls} calls`);
    const lookups = await waitFor(`sum(pvs_http_requests_total{job="pvs", method="POST", route="${lookupsRoute}", status="202"})`, (n) => n >= lookupCount);
    assert.equal(lookups, lookupCount, `${lookupsRoute} counted ${lookups} times for ${lookupCount} calls`);
    // The route is the template, never the raw path: no series names a lookup's id.
    const routes = await prometheus!.query('count by (route) (pvs_http_requests_total{job="pvs"})');
    assert.deepEqual(routes.map((r) => r.metric.route).filter((route) => !route!.startsWith('/') && route !== 'unmatched'), []);
    assert.ok(!routes.some((r) => /lkp_/.test(r.metric.route!)), JSON.stringify(routes));
  });

  it('shows the waiting lookups, and the oldest one ageing, while no worker runs', async () => {
    const kind = 'kind="lookups.process"';
    const ready = await waitFor(`max(pvs_jobs_ready{job="pvs", ${kind}})`, (n) => n >= lookupCount);
    assert.ok(ready >= lookupCount, `${ready} ready`);
    const first = await waitFor(`max(pvs_jobs_oldest_ready_age_seconds{job="pvs", ${kind}})`, (age) => age > 0);
    const firstAt = Date.now();
    // The next reading of the database (5 s later at most) shows it older.
    const second = await waitFor(`max(pvs_jobs_oldest_ready_age_seconds{job="pvs", ${kind}})`, (age) => age > first);
    const secondAt = Date.now();
    assert.ok(second > first && first > 0, `${first} then ${second}`);
    // The age is the oldest lookup's: no older than the time since the first was posted (1 s for clocks and rounding).
    assert.ok(second <= (secondAt - firstLookupAt) / 1000 + 1, `age ${second} s, ${(secondAt - firstLookupAt) / 1000} s after the first lookup`);
    assert.ok(secondAt - firstAt < settle);
  });

  it('a worker started runs them: the age falls to 0 and the worker counts them succeeded', async () => {
    // A machine of its own in effect: its own data directory, the API's PORT not used (a worker serves no HTTP).
    worker = pvs(site, ['serve', '--role', 'worker'], { DATA_DIR: path.join(site.dir, 'worker-data'), PORT: String(await freePort()) });
    await worker.waitForStdout(/PVS \(worker\) running[\s\S]*\n {2}Metrics {2}http:\/\/\S+\/metrics\n/, 60_000);
    targets.push({ url: metricsUrl(worker), labels: { role: 'worker' } });
    prometheus!.setTargets(targets);
    await waitFor('count(up{job="pvs"} == 1)', (n) => n === 2);

    const kind = 'kind="lookups.process"';
    const succeeded = await waitFor(`sum(pvs_jobs_finished_total{job="pvs", ${kind}, outcome="succeeded"})`, (n) => n >= lookupCount);
    assert.equal(succeeded, lookupCount);
    // Counted where the jobs ran: in the worker, not the API.
    const byRole = await prometheus!.query(`sum by (role) (pvs_jobs_finished_total{job="pvs", ${kind}, outcome="succeeded"})`);
    assert.deepEqual(byRole.map((s) => [s.metric.role, s.value]), [['worker', lookupCount]]);
    // Both processes read the database: each reading, once renewed, shows nothing waiting.
    await waitFor(`max(pvs_jobs_oldest_ready_age_seconds{job="pvs", ${kind}})`, (age) => age === 0);
    await waitFor(`max(pvs_jobs_ready{job="pvs", ${kind}})`, (n) => n === 0);
    assert.equal(await waitFor(`count(pvs_jobs_ready{job="pvs", ${kind}})`, (n) => n === 2), 2, 'both processes show the kind');
  });

  it('counts webhook deliveries by outcome: a 500 is an attempt_failed, a 200 a delivered, timed', async () => {
    // The worker's dispatcher delivers: without it (the test before failed) nothing would, and every wait time out.
    assert.ok(worker?.running, 'the worker started in the test before runs');
    const failing = await startReceiver();
    receivers.push(failing);
    failing.respond((_delivery, res) => res.writeHead(500).end('down'));
    const answering = await startReceiver();
    receivers.push(answering);
    for (const receiver of [failing, answering]) {
      // VERIFICATIONS only: the lookups' business-lookup.completed events went out before, to no destination.
      const created = await call('POST', '/v1/webhook-destinations', { url: receiver.url, categories: ['VERIFICATIONS'] });
      assert.equal(created.status, 201, JSON.stringify(created.body));
    }
    const sent = await call('POST', '/v1/webhook-notifications/test?type=verification&variant=individual_passed');
    assert.equal(sent.status, 202, JSON.stringify(sent.body));

    const failed = await waitFor('sum(pvs_webhook_deliveries_total{job="pvs", outcome="attempt_failed"})', (n) => n >= 1);
    const delivered = await waitFor('sum(pvs_webhook_deliveries_total{job="pvs", outcome="delivered"})', (n) => n >= 1);
    const timed = await waitFor('sum(pvs_webhook_delivery_lag_seconds_count{job="pvs"})', (n) => n >= 1);
    // One event to each destination: the 200 answered once (a delivered notification is not sent again); the
    // 500 once, its retry 30 s away; nothing counted that the receivers did not get.
    assert.equal(answering.received.length, 1);
    assert.equal(delivered, 1);
    assert.equal(timed, 1, 'only the delivery is timed');
    assert.ok(failed >= 1 && failed <= failing.received.length, `${failed} failed attempts counted, ${failing.received.length} received`);
    assert.equal(await prometheus!.query('sum(pvs_webhook_deliveries_total{job="pvs", outcome="exhausted"})').then((r) => r[0]?.value ?? 0), 0);
    // From the event's commit to the 200: well under a minute here.
    const [lag] = await prometheus!.query('sum(pvs_webhook_delivery_lag_seconds_sum{job="pvs"})');
    assert.ok(lag && lag.value >= 0 && lag.value < 60, `lag ${JSON.stringify(lag)}`);
  });

  it('ends with every target up, the database up and its pool shown in each', async () => {
    const up = await prometheus!.query('up{job="pvs"}');
    assert.deepEqual(up.map((s) => [s.metric.role, s.value]).sort(), [['api', 1], ['worker', 1]], context());
    const database = await prometheus!.query('pvs_database_up{job="pvs"}');
    assert.deepEqual(database.map((s) => [s.metric.role, s.value]).sort(), [['api', 1], ['worker', 1]]);
    const builds = await prometheus!.query('count by (version) (pvs_build_info{job="pvs"})');
    assert.deepEqual(builds.map((s) => [s.metric.version, s.value]), [[version, 2]]);
    // On PostgreSQL each process shows its pool, by state.
    const pool = await prometheus!.query('count by (role) (pvs_db_pool_connections{job="pvs", state=~"idle|busy|waiting"})');
    assert.deepEqual(pool.map((s) => [s.metric.role, s.value]).sort(), [['api', 3], ['worker', 3]]);
  });

  it('both stop on SIGTERM while Prometheus holds its connections open, and show down', async () => {
    const started = Date.now();
    const [apiExit, workerExit] = await Promise.all([api.terminate(), worker!.terminate()]);
    assert.deepEqual(apiExit, { code: 0, signal: null }, api.describe());
    assert.deepEqual(workerExit, { code: 0, signal: null }, worker!.describe());
    assert.ok(Date.now() - started < 15_000, `stopped in ${Date.now() - started} ms`);
    // What the alert PvsProcessDown reads.
    await waitFor('count(up{job="pvs"} == 0)', (n) => n === 2);
  });
});
