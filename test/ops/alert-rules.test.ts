// The operator's monitoring in ops/: the alert rules load (`promtool check rules`) and pass their unit
// tests (`promtool test rules`), the example Prometheus configuration loads (`promtool check config`), and
// the dashboard's queries parse. Every alert carries what on-call needs (a severity, a summary, a
// description), has a test case that makes it fire and a row in ops/README.md's runbook; and every metric
// the rules and the dashboard read is one PVS exposes (the metric contract, restated below), one of
// prom-client's default metrics, or Prometheus's own `up`: a query of a name outside them fails here
// instead of being an alert that can never fire.
// test-pass: postgres
import { backend } from '../helpers/database.ts';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { promtoolSkipReason, runPromtool } from '../helpers/prometheus.ts';

// Nothing here touches a database: run once, in the PostgreSQL pass.
const pgliteSkip = backend === 'pglite' && 'PostgreSQL pass only: the monitoring files do not depend on the database back-end';
const promtoolSkip = pgliteSkip || promtoolSkipReason();

const root = fileURLToPath(new URL('../../', import.meta.url));
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');

/** What the service exposes: name and type (a histogram is read through its _bucket, _sum and _count series). */
const contract: Record<string, 'counter' | 'gauge' | 'histogram'> = {
  pvs_http_requests_total: 'counter',
  pvs_http_request_duration_seconds: 'histogram',
  pvs_jobs_ready: 'gauge',
  pvs_jobs_oldest_ready_age_seconds: 'gauge',
  pvs_jobs_finished_total: 'counter',
  pvs_job_duration_seconds: 'histogram',
  pvs_webhook_deliveries_total: 'counter',
  pvs_webhook_delivery_lag_seconds: 'histogram',
  pvs_webhook_notifications_pending: 'gauge',
  pvs_provider_request_duration_seconds: 'histogram',
  pvs_database_up: 'gauge',
  pvs_db_pool_connections: 'gauge',
  pvs_rate_limited_total: 'counter',
  pvs_screening_list_version: 'gauge',
  pvs_build_info: 'gauge',
};

/** prom-client 15's collectDefaultMetrics(), with its one histogram. */
const promClientDefaults: Record<string, 'counter' | 'gauge' | 'histogram'> = {
  ...Object.fromEntries(
    [
      'process_cpu_user_seconds_total', 'process_cpu_system_seconds_total', 'process_cpu_seconds_total', 'process_start_time_seconds',
      'process_resident_memory_bytes', 'process_virtual_memory_bytes', 'process_heap_bytes', 'process_open_fds', 'process_max_fds',
      'nodejs_eventloop_lag_seconds', 'nodejs_eventloop_lag_min_seconds', 'nodejs_eventloop_lag_max_seconds', 'nodejs_eventloop_lag_mean_seconds',
      'nodejs_eventloop_lag_stddev_seconds', 'nodejs_eventloop_lag_p50_seconds', 'nodejs_eventloop_lag_p90_seconds', 'nodejs_eventloop_lag_p99_seconds',
      'nodejs_active_resources', 'nodejs_active_resources_total', 'nodejs_active_handles', 'nodejs_active_handles_total',
      'nodejs_active_requests', 'nodejs_active_requests_total', 'nodejs_heap_size_total_bytes', 'nodejs_heap_size_used_bytes',
      'nodejs_external_memory_bytes', 'nodejs_heap_space_size_total_bytes', 'nodejs_heap_space_size_used_bytes',
      'nodejs_heap_space_size_available_bytes', 'nodejs_version_info',
    ].map((name) => [name, 'gauge' as const]),
  ),
  nodejs_gc_duration_seconds: 'histogram',
};

/** The names a query may read: a histogram's three series, never its bare name (no series has it). */
const known = new Set(
  ['up', ...Object.entries({ ...contract, ...promClientDefaults })].flatMap((entry) => {
    if (typeof entry === 'string') return [entry];
    const [name, type] = entry;
    return type === 'histogram' ? [`${name}_bucket`, `${name}_sum`, `${name}_count`] : [name];
  }),
);

const keywords = new Set(['by', 'without', 'on', 'ignoring', 'group_left', 'group_right', 'bool', 'and', 'or', 'unless', 'offset', 'atan2', 'inf', 'nan']);

/**
 * The metric names a PromQL expression reads: identifiers outside strings, label matchers, ranges and
 * grouping lists that are neither keywords nor functions (followed by a parenthesis). Grafana variables
 * ($job, $__rate_interval) are never names.
 */
function metricNames(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`[^`]*`/g, '""')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ');
  const names = [...bare.matchAll(/(?<![\w:.$])[a-zA-Z_:][\w:]*(?![\w:])(?!\s*\()/g)].map(([name]) => name).filter((name) => !keywords.has(name.toLowerCase()));
  return [...new Set(names)];
}

interface Rule {
  alert?: string;
  record?: string;
  expr: string;
  for?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}
const rules = (parse(read('ops/prometheus/alerts.yml')) as { groups: { name: string; rules: Rule[] }[] }).groups.flatMap((group) => group.rules);
const alerts = rules.filter((rule): rule is Rule & { alert: string } => typeof rule.alert === 'string');
const recorded = new Set(rules.flatMap((rule) => (rule.record ? [rule.record] : [])));

interface RuleTest {
  name?: string;
  alert_rule_test?: { alertname: string; eval_time: string; exp_alerts?: unknown[] }[];
}
const ruleTests = (parse(read('ops/prometheus/alerts.test.yml')) as { rule_files: string[]; tests: RuleTest[] });

interface Dashboard {
  schemaVersion: number;
  panels: Panel[];
  templating: { list: { name: string; type: string; query?: string | { query: string }; datasource?: unknown }[] };
}
interface Panel {
  title: string;
  type: string;
  datasource?: { type?: string; uid?: string };
  targets?: { expr: string; datasource?: { type?: string; uid?: string } }[];
  panels?: Panel[];
}
const dashboard = JSON.parse(read('ops/grafana/pvs-dashboard.json')) as Dashboard;
const dashboardPanels = dashboard.panels.flatMap((panel) => [panel, ...(panel.panels ?? [])]);
const dashboardExprs = dashboardPanels.flatMap((panel) => (panel.targets ?? []).map((target) => ({ panel: panel.title, expr: target.expr })));
/** The dashboard's variables' queries: `label_values(selector, label)` reads the selector's metric. */
const variableSelectors = dashboard.templating.list.flatMap((variable) => {
  const query = typeof variable.query === 'object' ? variable.query.query : variable.query;
  const selector = variable.type === 'query' && query ? /^label_values\((.*),\s*\w+\)$/.exec(query)?.[1] : undefined;
  return selector ? [{ panel: `variable ${variable.name}`, expr: selector }] : [];
});

/** An expression of the dashboard as Prometheus would get it from Grafana. */
const asPrometheusSees = (expr: string) =>
  expr
    .replace(/\$__rate_interval|\$__interval|\$__range/g, '5m')
    .replace(/\$job\b/g, 'pvs')
    .replace(/\$instance\b/g, '.*');

describe('ops/prometheus through promtool', { skip: promtoolSkip }, () => {
  const promtool = (...args: string[]) => {
    const result = runPromtool(args, root);
    assert.equal(result.status, 0, `promtool ${args.join(' ')} exited ${result.status}:\n${result.output}`);
  };

  it('the alert rules load', () => promtool('check', 'rules', 'ops/prometheus/alerts.yml'));

  it('the alert rules pass their unit tests', () => promtool('test', 'rules', 'ops/prometheus/alerts.test.yml'));

  it('the example configuration loads, with the rules', () => promtool('check', 'config', 'ops/prometheus/prometheus.yml'));

  it("every query of the dashboard is valid PromQL once Grafana's variables are filled in", () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'pvs-dashboard-'));
    try {
      const file = path.join(dir, 'dashboard-queries.yml');
      const records = dashboardExprs.map(({ expr }, i) => ({ record: `pvs_dashboard:query_${i}`, expr: asPrometheusSees(expr) }));
      // JSON is YAML: no escaping to get wrong.
      writeFileSync(file, JSON.stringify({ groups: [{ name: 'dashboard', rules: records }] }, null, 2));
      promtool('check', 'rules', file);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the alert rules and the dashboard', { skip: pgliteSkip }, () => {
  it('finds the metric names in a query, and nothing else', () => {
    assert.deepEqual(
      metricNames('sum by (job, le) (rate(pvs_x_bucket{job="pvs", route!~"/a|/b"}[$__rate_interval])) > on (kind) group_left () 1/60 and up offset 5m unless bool x:y'),
      ['pvs_x_bucket', 'up', 'x:y'],
    );
    assert.deepEqual(metricNames('histogram_quantile(0.95, sum(rate(a_bucket[5m])) by (le)) * 1e3'), ['a_bucket']);
  });

  it('has the alerts on-call needs', () => {
    const names = alerts.map((alert) => alert.alert);
    for (const expected of ['PvsProcessDown', 'PvsApiErrors', 'PvsDatabaseDown', 'PvsJobsWaiting', 'PvsJobsFailed', 'PvsWebhooksExhausted', 'PvsWebhookDeliveryLagging', 'PvsWebhooksPendingGrowing', 'PvsProviderFailing', 'PvsNoScreeningList', 'PvsDatabasePoolExhausted']) {
      assert.ok(names.includes(expected), `no alert ${expected} in ops/prometheus/alerts.yml`);
    }
    assert.equal(new Set(names).size, names.length, 'two alerts share a name');
  });

  it('every alert has a severity, a summary and a description', () => {
    const lacking = alerts.flatMap((alert) => [
      ...(['critical', 'warning'].includes(alert.labels?.severity ?? '') ? [] : [`${alert.alert}: severity is ${alert.labels?.severity ?? 'missing'} (critical or warning)`]),
      ...['summary', 'description'].filter((key) => !alert.annotations?.[key]?.trim()).map((key) => `${alert.alert}: no ${key} annotation`),
    ]);
    assert.deepEqual(lacking, []);
  });

  it('every alert has a test case that makes it fire, and every test names an alert that exists', () => {
    assert.deepEqual(ruleTests.rule_files, ['alerts.yml']);
    const cases = ruleTests.tests.flatMap((test) => test.alert_rule_test ?? []);
    const firing = new Set(cases.filter((c) => (c.exp_alerts ?? []).length > 0).map((c) => c.alertname));
    assert.deepEqual(alerts.map((alert) => alert.alert).filter((name) => !firing.has(name)), [], 'alerts with no firing test case in ops/prometheus/alerts.test.yml');
    const names = new Set(alerts.map((alert) => alert.alert));
    assert.deepEqual([...new Set(cases.map((c) => c.alertname))].filter((name) => !names.has(name)), [], 'test cases for alerts alerts.yml does not have');
  });

  it("every alert is in ops/README.md's runbook", () => {
    const readme = read('ops/README.md');
    assert.deepEqual(alerts.map((alert) => alert.alert).filter((name) => !readme.includes(`| \`${name}\``)), []);
  });

  it('the alert rules read only metrics PVS exposes (or their own recording rules)', () => {
    const unknown = rules.flatMap((rule) => metricNames(rule.expr).filter((name) => !known.has(name) && !recorded.has(name)).map((name) => `${rule.alert ?? rule.record}: ${name}`));
    assert.deepEqual(unknown, []);
  });

  it('the dashboard reads only metrics PVS exposes', () => {
    assert.ok(dashboardExprs.length > 20, 'the dashboard has no queries');
    const unknown = [...dashboardExprs, ...variableSelectors].flatMap(({ panel, expr }) => metricNames(expr).filter((name) => !known.has(name)).map((name) => `${panel}: ${name}`));
    assert.deepEqual(unknown, []);
  });

  it("the dashboard names no data source of a particular Grafana: every query goes to the ${datasource} variable's", () => {
    assert.ok(dashboard.schemaVersion >= 36, `schemaVersion ${dashboard.schemaVersion}`);
    assert.ok(dashboard.templating.list.some((variable) => variable.name === 'datasource' && variable.type === 'datasource'));
    const fixed = dashboardPanels.flatMap((panel) =>
      [panel.datasource, ...(panel.targets ?? []).map((target) => target.datasource)]
        .filter((source) => source !== undefined && panel.type !== 'row' && source.uid !== '${datasource}')
        .map((source) => `${panel.title}: ${JSON.stringify(source)}`),
    );
    assert.deepEqual(fixed, []);
  });

  it('the dashboard shows what an operator looks at when an alert fires', () => {
    const queried = new Set(dashboardExprs.flatMap(({ expr }) => metricNames(expr)));
    const shown = (name: string) => queried.has(name) || queried.has(`${name}_bucket`) || queried.has(`${name}_count`);
    assert.deepEqual([...Object.keys(contract), 'up', 'process_cpu_seconds_total', 'process_resident_memory_bytes', 'nodejs_eventloop_lag_p99_seconds'].filter((name) => !shown(name)), []);
  });
});
