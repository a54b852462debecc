// Ratios, verdicts, the printed tables, results/latest.json and the comparison with results/baseline.json.
import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchSettings } from './settings.ts';
import { backendLabels, type Backend, type Figures, type Goal } from './vocabulary.ts';

export const resultsDir = fileURLToPath(new URL('../results/', import.meta.url));
export const latestFile = path.join(resultsDir, 'latest.json');
export const baselineFile = path.join(resultsDir, 'baseline.json');

export type Verdict = 'PASS' | 'MISS' | null;

export interface Ratios {
  /** rps(b) / rps(a) */
  throughput: number;
  /** p50(b) / p50(a) */
  p50: number;
  /** p99(b) / p99(a) */
  p99: number;
  /** Server CPU per request, b / a (null when not measured). */
  cpuPerRequest: number | null;
}

export interface ScenarioResult {
  description: string;
  baseline: Figures;
  real: Figures;
  ratios: Ratios;
  goal: Goal | null;
  verdict: { throughput: Verdict; p99: Verdict };
  /** Errors, timeouts or unexpected statuses; a result with problems is not to be trusted. */
  problems: string[];
  /**
   * Column headings when the figures are not HTTP requests (a measured scenario, e.g. notifications/s
   * and commit-to-delivery delays); such a scenario is printed in a table of its own.
   */
  labels?: FigureLabels;
  /** Lines printed under the scenario's table (what the figures mean, side figures). */
  notes?: string[];
  /** Anything else the scenario measured, kept in latest.json as it is. */
  details?: Record<string, unknown>;
}

export interface FigureLabels {
  throughput: string;
  p50: string;
  p99: string;
  cpu: string;
}

const httpLabels: FigureLabels = { throughput: 'req/s', p50: 'p50 ms', p99: 'p99 ms', cpu: 'CPU µs/req' };

export interface BackendResult {
  where: string;
  scenarios: Record<string, ScenarioResult>;
  /** Set when the back-end could not be set up or a scenario failed outright. */
  error?: string;
}

export interface Results {
  version: 1;
  date: string;
  node: string;
  machine: { platform: string; release: string; arch: string; cpus: number; cpuModel: string; memoryGiB: number };
  settings: {
    seconds: number;
    warmupSeconds: number;
    connections: number;
    slices: number;
    loadGenerator: string;
    profiled: boolean;
    rateLimitPerSecond: number;
    rateLimitBurst: number;
  };
  /** 1, 5 and 15-minute load averages: a busy machine makes every figure, ratios included, noisier. */
  loadAverageBefore: number[];
  loadAverageAfter?: number[];
  backends: Partial<Record<Backend, BackendResult>>;
}

const round3 = (n: number) => Math.round(n * 1000) / 1000;

export function newResults(settings: BenchSettings, rateLimit: number): Results {
  const cpus = os.cpus();
  return {
    version: 1,
    date: new Date().toISOString(),
    node: process.version,
    machine: {
      platform: os.platform(),
      release: os.release(),
      arch: os.arch(),
      cpus: os.availableParallelism?.() ?? cpus.length,
      cpuModel: cpus[0]?.model.trim() ?? 'unknown',
      memoryGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    },
    settings: {
      seconds: settings.seconds,
      warmupSeconds: settings.warmupSeconds,
      connections: settings.connections,
      slices: settings.slices,
      loadGenerator: settings.loadGenerator,
      profiled: settings.profile,
      rateLimitPerSecond: rateLimit,
      rateLimitBurst: rateLimit,
    },
    loadAverageBefore: os.loadavg().map((n) => Math.round(n * 100) / 100),
    backends: {},
  };
}

function problemsOf(label: string, f: Figures): string[] {
  const out: string[] = [];
  if (f.errors) out.push(`${label}: ${f.errors} connection errors`);
  if (f.timeouts) out.push(`${label}: ${f.timeouts} timeouts`);
  for (const [status, n] of Object.entries(f.unexpectedStatus)) out.push(`${label}: ${n} responses with status ${status}`);
  if (f.requests === 0) out.push(`${label}: no successful responses`);
  return out;
}

export function scenarioResult(description: string, baseline: Figures, real: Figures, goal: Goal | undefined): ScenarioResult {
  const ratios: Ratios = {
    throughput: round3(real.rps / baseline.rps),
    p50: round3(real.latencyMs.p50 / baseline.latencyMs.p50),
    p99: round3(real.latencyMs.p99 / baseline.latencyMs.p99),
    cpuPerRequest: real.serverCpuUsPerRequest && baseline.serverCpuUsPerRequest ? round3(real.serverCpuUsPerRequest / baseline.serverCpuUsPerRequest) : null,
  };
  const verdict = {
    throughput: goal?.minThroughputRatio === undefined ? null : ratios.throughput >= goal.minThroughputRatio ? 'PASS' : 'MISS',
    p99: goal?.maxP99Ratio === undefined ? null : ratios.p99 <= goal.maxP99Ratio ? 'PASS' : 'MISS',
  } satisfies ScenarioResult['verdict'];
  return { description, baseline, real, ratios, goal: goal ?? null, verdict, problems: [...problemsOf('(a)', baseline), ...problemsOf('(b)', real)] };
}

function table(rows: string[][], rightAligned: Set<number>): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  return rows.map((r) => r.map((cell, i) => (rightAligned.has(i) ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!))).join('  ').trimEnd()).join('\n');
}

const fmtRps = (n: number) => n.toFixed(1);
const fmtMs = (n: number) => n.toFixed(3);

function verdictText(verdict: Verdict, goal: string): string {
  return verdict ? `${verdict} (goal ${goal})` : '(no goal)';
}

export function formatBackend(backend: Backend, result: BackendResult, settings: BenchSettings): string {
  const lines = [
    `${backendLabels[backend]}: ${result.where}`,
    `${settings.connections} connections, ${settings.seconds} s per server in ${settings.slices} interleaved slice(s) after ${settings.warmupSeconds} s warm-up, load generator ${settings.loadGenerator === 'child' ? 'in a child process' : 'in this process'}${settings.profile ? ', PROFILED' : ''}`,
  ];
  const entries = Object.entries(result.scenarios);
  // HTTP scenarios share one table; a scenario with labels of its own gets its own table.
  const http = entries.filter(([, s]) => !s.labels);
  if (http.length) lines.push('', scenarioTable(http, httpLabels));
  for (const entry of entries.filter(([, s]) => s.labels)) {
    lines.push('', scenarioTable([entry], entry[1].labels!));
    for (const note of entry[1].notes ?? []) lines.push(`  ${note}`);
  }
  if (result.error) lines.push('', `ERROR: ${result.error}`);
  return lines.join('\n');
}

function scenarioTable(entries: Array<[string, ScenarioResult]>, labels: FigureLabels): string {
  const rows: string[][] = [['scenario', 'server', labels.throughput, labels.p50, labels.p99, labels.cpu, 'verdict']];
  const cpu = (n: number | null) => (n === null ? '-' : n.toFixed(1));
  for (const [name, s] of entries) {
    rows.push([name, '(a) baseline', fmtRps(s.baseline.rps), fmtMs(s.baseline.latencyMs.p50), fmtMs(s.baseline.latencyMs.p99), cpu(s.baseline.serverCpuUsPerRequest), '']);
    rows.push(['', '(b) real', fmtRps(s.real.rps), fmtMs(s.real.latencyMs.p50), fmtMs(s.real.latencyMs.p99), cpu(s.real.serverCpuUsPerRequest), '']);
    rows.push([
      '',
      'b/a',
      `${s.ratios.throughput.toFixed(3)}×`,
      `${s.ratios.p50.toFixed(3)}×`,
      `${s.ratios.p99.toFixed(3)}×`,
      s.ratios.cpuPerRequest === null ? '-' : `${s.ratios.cpuPerRequest.toFixed(3)}×`,
      `throughput ${verdictText(s.verdict.throughput, `≥ ${s.goal?.minThroughputRatio}`)}, p99 ${verdictText(s.verdict.p99, `≤ ${s.goal?.maxP99Ratio}×`)}`,
    ]);
    for (const p of s.problems) rows.push(['', 'INVALID', '', '', '', '', p]);
  }
  return table(rows, new Set([2, 3, 4, 5]));
}

export function writeLatest(results: Results): void {
  mkdirSync(resultsDir, { recursive: true });
  const temporary = path.join(resultsDir, `latest.${process.pid}.tmp.json`);
  writeFileSync(temporary, `${JSON.stringify(results, null, 2)}\n`);
  renameSync(temporary, latestFile);
}

export function saveBaseline(): void {
  copyFileSync(latestFile, baselineFile);
}

function signed(n: number): string {
  return `${n >= 0 ? '+' : '−'}${Math.abs(n).toFixed(3)}`;
}

/** Ratio by ratio against baseline.json (absolute figures are not compared: machines differ). */
export function compareWithBaseline(results: Results): string | undefined {
  if (!existsSync(baselineFile)) return undefined;
  let baseline: Results;
  try {
    baseline = JSON.parse(readFileSync(baselineFile, 'utf8')) as Results;
  } catch (error) {
    return `Could not read ${baselineFile}: ${(error as Error).message}`;
  }
  const rows: string[][] = [['back-end', 'scenario', 'throughput b/a', 'change', 'p99 b/a', 'change', 'CPU/req b/a', 'change']];
  const cpu = (r: Ratios | undefined) => (r?.cpuPerRequest == null ? '-' : r.cpuPerRequest.toFixed(3));
  for (const [backend, current] of Object.entries(results.backends) as Array<[Backend, BackendResult]>) {
    for (const [name, s] of Object.entries(current.scenarios)) {
      const before = baseline.backends?.[backend]?.scenarios?.[name];
      if (!before) {
        rows.push([backendLabels[backend], name, `${s.ratios.throughput.toFixed(3)}`, '(new)', `${s.ratios.p99.toFixed(3)}`, '(new)', cpu(s.ratios), '(new)']);
        continue;
      }
      rows.push([
        backendLabels[backend],
        name,
        `${before.ratios.throughput.toFixed(3)} → ${s.ratios.throughput.toFixed(3)}`,
        signed(s.ratios.throughput - before.ratios.throughput),
        `${before.ratios.p99.toFixed(3)} → ${s.ratios.p99.toFixed(3)}`,
        signed(s.ratios.p99 - before.ratios.p99),
        `${cpu(before.ratios)} → ${cpu(s.ratios)}`,
        s.ratios.cpuPerRequest != null && before.ratios.cpuPerRequest != null ? signed(s.ratios.cpuPerRequest - before.ratios.cpuPerRequest) : '-',
      ]);
    }
  }
  if (rows.length === 1) return undefined;
  const m = baseline.machine;
  return [
    `Against bench/results/baseline.json (${baseline.date}, node ${baseline.node}, ${m?.cpus} × ${m?.cpuModel}); higher throughput b/a, lower p99 and CPU b/a are better:`,
    '',
    table(rows, new Set([3, 5, 7])),
  ].join('\n');
}
