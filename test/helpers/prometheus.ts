// Prometheus, from Debian's `prometheus` package: promtool for the checks of ops/prometheus/ (test/ops/),
// and a real Prometheus server that scrapes running PVS processes (test/metrics/prometheus.test.ts). Where
// a binary is missing its tests skip, unless CI or REQUIRE_PROMETHEUS is set: then they fail, saying what to
// install.
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from './cli.ts';

function onPath(name: string): string | undefined {
  return (process.env.PATH ?? '')
    .split(path.delimiter)
    .filter(Boolean)
    .map((dir) => path.join(dir, name))
    .find((file) => existsSync(file));
}

export const promtoolPath = process.env.PROMTOOL_PATH ?? onPath('promtool') ?? '/usr/bin/promtool';

export const prometheusPath = process.env.PROMETHEUS_PATH ?? onPath('prometheus') ?? '/usr/bin/prometheus';

const missing = (name: string, file: string, variable: string) => `no ${name} at ${file}: install it with \`apt-get install -y prometheus\` (Debian), or set ${variable}`;
const missingText = missing('promtool', promtoolPath, 'PROMTOOL_PATH');
const missingServerText = missing('prometheus', prometheusPath, 'PROMETHEUS_PATH');

/** Set, and not to 0 or false: `CI=true`, `REQUIRE_PROMETHEUS=1`. */
function isSet(name: string): boolean {
  const value = process.env[name];
  return value !== undefined && value !== '' && value !== '0' && value.toLowerCase() !== 'false';
}

/** Which of CI and REQUIRE_PROMETHEUS is set, if one is: a missing promtool then fails the tests. */
const requiredBy = ['CI', 'REQUIRE_PROMETHEUS'].find(isSet);

/**
 * Why the promtool checks are skipped, or undefined when they run. With CI or REQUIRE_PROMETHEUS set they
 * never skip for a missing promtool: runPromtool then fails with the same message.
 */
export function promtoolSkipReason(): string | undefined {
  if (existsSync(promtoolPath) || requiredBy) return undefined;
  return `${missingText}; set REQUIRE_PROMETHEUS=1 to fail instead of skipping`;
}

export interface PromtoolResult {
  status: number | null;
  /** stdout and stderr together, as promtool prints its findings on either. */
  output: string;
}

export function runPromtool(args: string[], cwd: string): PromtoolResult {
  if (!existsSync(promtoolPath)) throw new Error(`${requiredBy ?? 'REQUIRE_PROMETHEUS'} is set and ${missingText}`);
  const result = spawnSync(promtoolPath, args, { cwd, encoding: 'utf8', timeout: 120_000 });
  if (result.error) throw result.error;
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

// ---------------------------------------------------------------------------------------------
// A Prometheus server of the test's own

/** Why the tests that run a Prometheus server are skipped, or undefined when they run (as promtoolSkipReason). */
export function prometheusSkipReason(): string | undefined {
  if (existsSync(prometheusPath) || requiredBy) return undefined;
  return `${missingServerText}; set REQUIRE_PROMETHEUS=1 to fail instead of skipping`;
}

/** One series of an instant query's answer: its labels and its value. */
export interface PromSample {
  metric: Record<string, string>;
  value: number;
}

export interface PrometheusServer {
  /** Where it answers, e.g. http://127.0.0.1:41234 */
  readonly url: string;
  /**
   * Scrapes these metrics URLs (every one a target of the job), in place of those before, so that a
   * process started later can be added. Prometheus sees the file change at once but passes new targets
   * on to its scrapers every 5 s: wait for `up`, not a fixed time.
   */
  setTargets(targets: PromTarget[]): void;
  /** An instant query at this moment, through the HTTP API (/api/v1/query). */
  query(expr: string): Promise<PromSample[]>;
  /**
   * Polls the query until the predicate holds; answers that reading, or fails after timeoutMs naming the
   * query and the last answer. `value` is the one series' value, undefined when there is none or several.
   */
  waitFor(expr: string, predicate: (value: number | undefined, samples: PromSample[]) => boolean, timeoutMs?: number): Promise<PromSample[]>;
  /** What Prometheus printed (its log, on stderr), for failure messages. */
  output(): string;
  /** SIGTERM, then SIGKILL if it has not ended within a few seconds; removes its directory. */
  stop(): Promise<void>;
}

export interface PromTarget {
  /** A metrics URL, e.g. http://127.0.0.1:9464/metrics (the path is kept). */
  url: string;
  /** Labels the target's series get, e.g. { role: 'api' }. */
  labels?: Record<string, string>;
}

export interface PrometheusOptions {
  targets: PromTarget[];
  /** The scrape job's name: `pvs`, as ops/prometheus/alerts.yml expects. */
  job?: string;
  scrapeIntervalSeconds?: number;
}

/** Every server started and not yet stopped, so that none outlives the test file. */
const running = new Set<PrometheusServer>();
after(async () => {
  await Promise.all([...running].map((server) => server.stop()));
});
const children = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

/** file_sd's format: a group per target, its address and path as Prometheus's relabelling reads them. */
function targetGroups(targets: PromTarget[]) {
  return targets.map(({ url, labels }) => {
    const parsed = new URL(url);
    return { targets: [parsed.host], labels: { __scheme__: parsed.protocol.replace(/:$/, ''), __metrics_path__: parsed.pathname, ...labels } };
  });
}

/**
 * Starts Prometheus in a temporary directory of its own (configuration, target file, TSDB) on a free
 * loopback port, scraping the targets every second, and waits until /-/ready answers. The targets are in a
 * file (file_sd) rather than in prometheus.yml, so that setTargets needs no reload.
 */
export async function startPrometheus(options: PrometheusOptions): Promise<PrometheusServer> {
  if (!existsSync(prometheusPath)) throw new Error(`${requiredBy ?? 'REQUIRE_PROMETHEUS'} is set and ${missingServerText}`);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pvs-prometheus-'));
  const targetsFile = path.join(dir, 'targets.json');
  const writeTargets = (targets: PromTarget[]) => {
    // Written whole and renamed into place: Prometheus never reads half a file.
    writeFileSync(`${targetsFile}.tmp`, JSON.stringify(targetGroups(targets)));
    renameSync(`${targetsFile}.tmp`, targetsFile);
  };
  const interval = options.scrapeIntervalSeconds ?? 1;
  // JSON is YAML.
  const config = {
    global: { scrape_interval: `${interval}s`, scrape_timeout: `${Math.round(interval * 900)}ms`, evaluation_interval: `${interval}s` },
    scrape_configs: [{ job_name: options.job ?? 'pvs', file_sd_configs: [{ files: [targetsFile], refresh_interval: '1s' }] }],
  };
  writeFileSync(path.join(dir, 'prometheus.yml'), JSON.stringify(config, null, 2));
  writeTargets(options.targets);

  let log = '';
  let child: ChildProcess | undefined;
  let url = '';
  let removed = false;
  const remove = () => {
    if (removed) return;
    removed = true;
    rmSync(dir, { recursive: true, force: true });
  };
  const exited = (c: ChildProcess) => c.exitCode !== null || c.signalCode !== null;
  const ended = (c: ChildProcess) => (exited(c) ? Promise.resolve() : new Promise<void>((resolve) => c.once('close', () => resolve())));
  const kill = async (c: ChildProcess) => {
    if (!exited(c)) {
      c.kill('SIGTERM');
      const timer = setTimeout(() => c.kill('SIGKILL'), 5_000);
      await ended(c);
      clearTimeout(timer);
    }
    children.delete(c);
  };

  try {
    // Another process may take the free port before Prometheus binds it: then try another.
    for (let attempt = 1; ; attempt++) {
      const port = await freePort();
      url = `http://127.0.0.1:${port}`;
      log = '';
      const c = spawn(
        prometheusPath,
        [`--config.file=${path.join(dir, 'prometheus.yml')}`, `--storage.tsdb.path=${path.join(dir, 'data')}`, `--web.listen-address=127.0.0.1:${port}`, '--log.level=info'],
        { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] },
      );
      children.add(c);
      child = c;
      const keep = (chunk: string) => (log = (log + chunk).slice(-64_000));
      c.stdout!.setEncoding('utf8').on('data', keep);
      c.stderr!.setEncoding('utf8').on('data', keep);
      const spawnError = new Promise<Error>((resolve) => c.once('error', resolve));
      const deadline = Date.now() + 30_000;
      let ready = false;
      while (!ready && !exited(c) && Date.now() < deadline) {
        const failed = await Promise.race([spawnError, sleep(100).then(() => undefined)]);
        if (failed) throw failed;
        try {
          ready = (await fetch(`${url}/-/ready`, { signal: AbortSignal.timeout(1_000) })).status === 200;
        } catch {
          // Not listening yet.
        }
      }
      if (ready) break;
      if (!exited(c)) {
        await kill(c);
        assert.fail(`prometheus was not ready within 30 s\n${log}`);
      }
      await ended(c);
      children.delete(c);
      if (attempt >= 3 || !/address already in use/.test(log)) assert.fail(`prometheus exited (${c.exitCode ?? c.signalCode}) before it was ready\n${log}`);
    }
  } catch (error) {
    if (child) await kill(child);
    remove();
    throw error;
  }

  const query = async (expr: string): Promise<PromSample[]> => {
    const response = await fetch(`${url}/api/v1/query?${new URLSearchParams({ query: expr })}`, { signal: AbortSignal.timeout(5_000) });
    const body = (await response.json()) as { status: string; error?: string; data?: { resultType: string; result: Array<{ metric: Record<string, string>; value: [number, string] }> } };
    assert.equal(body.status, 'success', `query ${expr}: ${response.status} ${body.error ?? JSON.stringify(body)}`);
    assert.equal(body.data?.resultType, 'vector', `query ${expr}: an instant vector, not ${body.data?.resultType}`);
    return body.data!.result.map((r) => ({ metric: r.metric, value: Number(r.value[1]) }));
  };

  const prometheus = child!;
  const server: PrometheusServer = {
    url,
    setTargets: writeTargets,
    query,
    async waitFor(expr, predicate, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      let last: PromSample[] = [];
      for (;;) {
        if (exited(prometheus)) assert.fail(`prometheus exited while waiting for ${expr}\n${log}`);
        last = await query(expr);
        if (predicate(last.length === 1 ? last[0]!.value : undefined, last)) return last;
        if (Date.now() > deadline) assert.fail(`${expr}: still ${JSON.stringify(last)} after ${timeoutMs} ms`);
        await sleep(250);
      }
    },
    output: () => log,
    async stop() {
      running.delete(server);
      await kill(prometheus);
      remove();
    },
  };
  running.add(server);
  return server;
}
