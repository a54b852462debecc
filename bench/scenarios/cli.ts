// CLI: what the `pvs` executable costs as a command an operator types, and how fast `pvs serve` is up,
// measured from the outside against `node -e 0` (the least a Node command costs) timed in the same run.
//
// The `pvs` of a project root (BENCH_PVS_ROOT, default this repository) runs as separate child processes,
// `node <root>/bin/pvs.mjs …`, with a clean environment (PATH and HOME only, plus DATA_DIR: a fresh temp
// directory, so the embedded PGlite database; ENVIRONMENT=sandbox; a fixed SECRET_KEY; HOST=127.0.0.1;
// PORT a free loopback port) and that temp directory as the working directory (so no `.env` is read).
// BENCH_CLI_DATABASE_URL (an empty PostgreSQL database) gives them DATABASE_URL instead: the same steps
// on the production database, where the embedded engine's memory is not in the process.
// Wall time is spawn to exit in this process; peak RSS and CPU time come from GNU time
// (bench/lib/cli-process.ts). How bin/pvs.mjs works inside (tsx, compiled code) does not matter here.
//
// In order, on one DATA_DIR:
// 1. `pvs screening search` on the never-migrated DATA_DIR (once): the first-run cost;
// 2. `pvs screening import --format csv` of a generated list (BENCH_SCREENING_ENTRIES + 437 labelled
//    entries; bench/lib/cli-list.ts) (once);
// 3. no server: BENCH_CLI_RUNS rounds of `node -e 0`, `pvs --help`, `pvs screening search` (the order
//    flipping from round to round);
// 4. one `pvs serve` (its start also creates the sandbox demo partner; reported, not in the medians),
//    one search to warm it (reported), then BENCH_CLI_RUNS rounds of `node -e 0`, `pvs partner create`,
//    `pvs screening search` against it (the CLI finds DATA_DIR held and calls the server), then stopped;
// 5. BENCH_CLI_RUNS rounds of `node -e 0` and `pvs serve` from spawn to the first `/ready` 200 (asked every
//    20 ms), VmRSS of the server process BENCH_CLI_IDLE_SECONDS after that (idle RSS), then SIGINT; its
//    peak RSS is GNU time's, over its whole life.
// Searches name a labelled person query (test/screening/labelled-pairs.json), a different one each run.
import { mkdtempSync, readFileSync, existsSync, rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnSync } from 'node:child_process';
import { summarize } from '../lib/load.ts';
import { loadAverage, median, rawRun, round1, round3 } from '../lib/measure.ts';
import { scenarioResult } from '../lib/report.ts';
import { readSettings } from '../lib/settings.ts';
import { defineScenario, type MeasureContext } from '../lib/types.ts';
import { createCliRunner, freePort, groupMembers, hasGnuTime, procMemory, processGroupOf, type ChildRun, type Started } from '../lib/cli-process.ts';
import { spreadQueries, writeCliScreeningList, type CliQuery } from '../lib/cli-list.ts';

const description = 'The pvs executable as separate processes (--help, partner create, screening search, serve to /ready) against `node -e 0`';

/** The issue's goals. Memory in MiB (2^20 bytes), from GNU time's peak RSS (KiB). */
const goals = {
  help: { maxRatio: 6, maxPeakMiB: 80 },
  partnerCreate: { maxSeconds: 0.6, maxPeakMiB: 120 },
  searchServer: { maxSeconds: 0.5 },
  searchLocal: { maxSeconds: 1.5, maxPeakMiB: 250 },
  serve: { maxSeconds: 2, maxIdleMiB: 200 },
} as const;

const repositoryRoot = fileURLToPath(new URL('../../', import.meta.url));
const secretKey = 'bench-cli-secret-key-not-a-secret-0123456789';

function positiveInteger(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name}: expected a whole number > 0, got ${JSON.stringify(raw)}`);
  return value;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const mib = (kib: number | null | undefined) => (kib == null || !Number.isFinite(kib) ? null : round1(kib / 1024));

/** GET http://127.0.0.1:port/path without keep-alive (a pooled connection would outlive the server); the status, or 0. */
function statusOf(port: number, pathname: string, timeoutMs = 1000): Promise<number> {
  return new Promise((resolve) => {
    const request = http.get({ host: '127.0.0.1', port, path: pathname, agent: false, timeout: timeoutMs }, (response) => {
      response.resume();
      response.once('end', () => resolve(response.statusCode ?? 0));
      response.once('error', () => resolve(0));
    });
    request.once('timeout', () => request.destroy());
    request.once('error', () => resolve(0));
  });
}

/** One measured command: every run's figures, and what went wrong. */
interface Series {
  label: string;
  runs: ChildRun[];
}

function newSeries(label: string): Series {
  return { label, runs: [] };
}

interface ServeRun {
  /** Spawn to the first /ready 200, ms. */
  readyMs: number;
  /** VmRSS / VmHWM of the server process BENCH_CLI_IDLE_SECONDS after ready, KiB. */
  idleRssKiB: number | null;
  idleHwmKiB: number | null;
  /** The whole run under GNU time (peak RSS over its life), after SIGINT. */
  run: ChildRun;
  /** Stop: SIGINT to exit, ms. */
  stopMs: number;
}

export default defineScenario({
  kind: 'measured',
  name: 'cli',
  description,
  // Its own processes and database: once per run, on its first back-end, not once per back-end.
  backends: [readSettings().backends[0]!],
  // The table's row is `pvs --help`: its runs/s must be at least 1/6 of `node -e 0`'s (median ≤ 6×);
  // its peak RSS goal (80 MiB) is shown as the ratio to node -e 0's it amounts to. Every goal is in the notes.
  goals: {},
  async measure(ctx) {
    const root = path.resolve(process.env.BENCH_PVS_ROOT || repositoryRoot);
    const executable = path.join(root, 'bin', 'pvs.mjs');
    if (!existsSync(executable)) throw new Error(`BENCH_PVS_ROOT: no bin/pvs.mjs in ${root}`);
    const runs = positiveInteger('BENCH_CLI_RUNS', 10);
    const idleSeconds = positiveInteger('BENCH_CLI_IDLE_SECONDS', 3);
    const entriesWanted = ctx.settings.screeningEntries;
    const useGnuTime = hasGnuTime();
    const loadBefore = loadAverage();
    const commit = spawnSync('git', ['-C', root, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).stdout?.trim() || 'unknown';
    const dirty = spawnSync('git', ['--no-optional-locks', '-C', root, 'status', '--porcelain', '--untracked-files=no'], { encoding: 'utf8' }).stdout?.trim() ? ' (with uncommitted changes)' : '';

    const databaseUrl = process.env.BENCH_CLI_DATABASE_URL || undefined;
    const database = databaseUrl ? 'PostgreSQL (BENCH_CLI_DATABASE_URL)' : 'embedded PGlite';
    const tmp = mkdtempSync(path.join(os.tmpdir(), 'pvs-bench-cli-'));
    const dataDir = path.join(tmp, 'data');
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      ...(process.env.TMPDIR ? { TMPDIR: process.env.TMPDIR } : {}),
      DATA_DIR: dataDir,
      ENVIRONMENT: 'sandbox',
      SECRET_KEY: secretKey,
      HOST: '127.0.0.1',
      PORT: String(await freePort()),
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    };
    const runner = createCliRunner({ node: process.execPath, cwd: tmp, env, scratchDir: tmp, useGnuTime });
    const problems: string[] = [];
    const pvs = (...args: string[]) => [executable, ...args];

    const series = {
      baseline: newSeries('node -e 0 (baseline)'),
      help: newSeries('pvs --help'),
      partnerCreate: newSeries('pvs partner create --json, server running'),
      searchServer: newSeries('pvs screening search --json, server running'),
      searchLocal: newSeries('pvs screening search --json, no server'),
    };
    const serveRuns: ServeRun[] = [];
    const once: Record<string, { run: ChildRun; note: string }> = {};
    const hits = { server: { found: 0, of: 0 }, local: { found: 0, of: 0 } };

    /** Runs one command and checks its exit and output; a failed check is a problem (the run is INVALID). */
    async function measureRun(target: Series | undefined, args: string[], check?: (run: ChildRun) => string | undefined, timeoutMs?: number): Promise<ChildRun> {
      const run = await runner.run(args, timeoutMs);
      const what = args[0] === executable ? `pvs ${args.slice(1).join(' ')}` : `node ${args.join(' ')}`;
      if (run.code !== 0) problems.push(`${what}: exit ${run.code ?? run.signal}: ${`${run.stdout}\n${run.stderr}`.trim().slice(-500)}`);
      else {
        const problem = check?.(run);
        if (problem) problems.push(`${what}: ${problem}`);
      }
      target?.runs.push(run);
      return run;
    }
    const baseline = () => measureRun(series.baseline, ['-e', '0']);
    const json = (run: ChildRun) => {
      try {
        return JSON.parse(run.stdout) as Record<string, unknown>;
      } catch {
        return undefined;
      }
    };
    let listVersion: number | undefined;
    const searchCheck = (query: CliQuery, tally: { found: number; of: number }) => (run: ChildRun) => {
      const out = json(run) as { outcome?: string; listVersion?: number; matches?: Array<{ entryId: string }> } | undefined;
      if (!out?.outcome) return `not a search result: ${run.stdout.slice(0, 300)}`;
      if (out.listVersion !== listVersion) return `answered ${out.outcome} against list version ${out.listVersion}, expected ${listVersion}`;
      if (query.match) {
        tally.of++;
        if (out.matches?.some((m) => m.entryId === query.entryId)) tally.found++;
      }
      return undefined;
    };
    const search = (query: CliQuery) => pvs('screening', 'search', '--name', query.name, '--kind', 'person', '--json');

    /** Starts `pvs serve`, waits for /ready 200, reads its idle RSS; answers what is needed to stop it. */
    async function startServe(label: string): Promise<{ started: Started; readyMs: number; pid: number; idle: { rssKiB: number; hwmKiB: number } | null }> {
      const port = await freePort();
      const started = runner.start(pvs('serve'), { PORT: String(port) });
      const deadline = started.startedAt + 120_000;
      let readyMs: number | undefined;
      while (!started.hasExited() && performance.now() < deadline) {
        if ((await statusOf(port, '/ready')) === 200) {
          readyMs = performance.now() - started.startedAt;
          break;
        }
        await sleep(20);
      }
      if (readyMs === undefined) {
        started.signal('SIGKILL');
        await started.exited;
        throw new Error(`${label}: no /ready 200 within 120 s${started.hasExited() ? ' (the process exited)' : ''}: ${started.output().slice(-2000)}`);
      }
      await sleep(idleSeconds * 1000);
      const pid = serverPid(started);
      if (pid === undefined) throw new Error(`${label}: answered /ready but no server process is found in the group started`);
      return { started, readyMs, pid, idle: procMemory(pid) };
    }
    /**
     * The server's process: the pid in DATA_DIR/server.json (written once it listens) when that process is
     * one of the group started, else the largest process of the group (should the server's files change).
     */
    function serverPid(started: Started): number | undefined {
      try {
        const info = JSON.parse(readFileSync(path.join(dataDir, 'server.json'), 'utf8')) as { pid?: unknown };
        if (typeof info.pid === 'number' && processGroupOf(info.pid) === started.pgid) return info.pid;
      } catch {
        // No server.json: look in the group.
      }
      const members = groupMembers(started.pgid).map((pid) => ({ pid, rss: procMemory(pid)?.rssKiB ?? 0 }));
      if (!useGnuTime && processGroupOf(started.pgid) === started.pgid) members.push({ pid: started.pgid, rss: procMemory(started.pgid)?.rssKiB ?? 0 });
      return members.sort((x, y) => y.rss - x.rss)[0]?.pid;
    }
    async function stopServe(label: string, started: Started): Promise<{ run: ChildRun; stopMs: number }> {
      const at = performance.now();
      started.signal('SIGINT');
      const outcome = await Promise.race([started.exited, sleep(60_000).then(() => 'timeout' as const)]);
      if (outcome === 'timeout') {
        started.signal('SIGKILL');
        problems.push(`${label}: still running 60 s after SIGINT (killed)`);
        return { run: await started.exited, stopMs: performance.now() - at };
      }
      if (outcome.code !== 0) problems.push(`${label}: exit ${outcome.code ?? outcome.signal} after SIGINT: ${outcome.stderr.slice(-500)}`);
      return { run: outcome, stopMs: performance.now() - at };
    }

    try {
      ctx.progress(`pvs at ${root} (${commit}${dirty}); ${runs} runs each; GNU time ${useGnuTime ? 'found' : 'NOT found: no peak RSS or CPU figures (apt-get install time)'}; scratch ${tmp}`);

      const listFile = path.join(tmp, 'list.csv');
      const list = writeCliScreeningList(listFile, entriesWanted);
      const localQueries = spreadQueries(list.queries, runs);
      const serverQueries = spreadQueries(list.queries, runs);
      const warmQuery = spreadQueries(list.queries, 1, Math.floor(list.queries.length / (2 * runs)))[0]!;

      // 1. The first command on a never-migrated DATA_DIR.
      ctx.progress('screening search on a fresh DATA_DIR (migrates it)…');
      once.fresh = {
        run: await measureRun(undefined, search(localQueries[0]!), (run) => (json(run)?.outcome === 'UNAVAILABLE' ? undefined : `expected UNAVAILABLE (no list yet): ${run.stdout.slice(0, 300)}`), 600_000),
        note: `never-migrated database (${database}): opens it, migrates, answers UNAVAILABLE (no list); 1 run`,
      };

      // 2. The list.
      ctx.progress(`screening import of ${list.entries} entries…`);
      once.import = {
        run: await measureRun(
          undefined,
          pvs('screening', 'import', '--format', 'csv', '--json', listFile),
          (run) => {
            const out = json(run) as { entries?: number; version?: number } | undefined;
            if (out?.entries !== list.entries) return `expected ${list.entries} entries: ${run.stdout.slice(0, 300)}`;
            listVersion = out.version;
            return undefined;
          },
          900_000,
        ),
        note: `${list.entries} entries, simple CSV, no server; 1 run`,
      };
      if (listVersion === undefined) throw new Error(`the list import failed: ${problems.at(-1) ?? ''}`);

      // 3. No server.
      ctx.progress(`no server: ${runs} rounds of node -e 0, pvs --help, pvs screening search…`);
      for (let i = 0; i < runs; i++) {
        const steps = [
          baseline,
          () => measureRun(series.help, pvs('--help'), (run) => (/Usage: pvs/.test(run.stdout) ? undefined : `no usage text: ${run.stdout.slice(0, 200)}`)),
          () => measureRun(series.searchLocal, search(localQueries[i]!), searchCheck(localQueries[i]!, hits.local)),
        ];
        for (const step of i % 2 === 0 ? steps : steps.reverse()) await step();
      }

      // 4. One server; the CLI's commands go to it.
      ctx.progress(`pvs serve (first start: creates the demo partner), then ${runs} rounds of node -e 0, partner create, screening search against it…`);
      const first = await startServe('pvs serve (first start)');
      try {
        once.firstSearch = {
          run: await measureRun(undefined, search(warmQuery), searchCheck(warmQuery, { found: 0, of: 0 })),
          note: 'the first search after the server started (it may have to load the index); 1 run, not in the median',
        };
        for (let i = 0; i < runs; i++) {
          const steps = [
            baseline,
            () =>
              measureRun(series.partnerCreate, pvs('partner', 'create', '--name', `Bench CLI ${i + 1}`, '--json'), (run) =>
                typeof json(run)?.partnerId === 'string' ? undefined : `no partnerId: ${run.stdout.slice(0, 300)}`,
              ),
            () => measureRun(series.searchServer, search(serverQueries[i]!), searchCheck(serverQueries[i]!, hits.server)),
          ];
          for (const step of i % 2 === 0 ? steps : steps.reverse()) await step();
        }
      } finally {
        const stopped = await stopServe('pvs serve (first start)', first.started);
        once.firstServe = {
          run: { ...stopped.run, ms: first.readyMs },
          note: `spawn to /ready 200 on the first start (migrated database; creates the sandbox demo partner); idle RSS ${mib(first.idle?.rssKiB) ?? '-'} MiB ${idleSeconds} s after ready; 1 run, not in the median`,
        };
      }

      // 5. Start to ready.
      ctx.progress(`${runs} rounds of node -e 0 and pvs serve to /ready (${idleSeconds} s idle each)…`);
      for (let i = 0; i < runs; i++) {
        const serveStep = async () => {
          const label = `pvs serve (start ${i + 1})`;
          const s = await startServe(label);
          const stopped = await stopServe(label, s.started);
          serveRuns.push({ readyMs: s.readyMs, idleRssKiB: s.idle?.rssKiB ?? null, idleHwmKiB: s.idle?.hwmKiB ?? null, run: stopped.run, stopMs: stopped.stopMs });
        };
        for (const step of i % 2 === 0 ? [baseline, serveStep] : [serveStep, baseline]) await step();
      }
    } finally {
      runner.dispose();
      if (process.env.BENCH_CLI_KEEP === '1') ctx.progress(`kept ${tmp}`);
      else rmSync(tmp, { recursive: true, force: true });
    }

    return report({ ctx, root, database, commit: `${commit}${dirty}`, runs, idleSeconds, useGnuTime, series, serveRuns, once, hits, problems, loadBefore, entries: entriesWanted });
  },
});

interface Row {
  command: string;
  runs: number;
  medianS: number | null;
  minS: number | null;
  maxS: number | null;
  ratio: number | null;
  /** Highest peak RSS over the runs, and the median of the runs' peaks, MiB. */
  peakMiB: number | null;
  medianPeakMiB: number | null;
  idleMiB: number | null;
  cpuS: number | null;
  goal: string;
  verdicts: Array<{ what: string; pass: boolean }>;
}

function report(input: {
  ctx: MeasureContext;
  root: string;
  database: string;
  commit: string;
  runs: number;
  idleSeconds: number;
  useGnuTime: boolean;
  series: Record<'baseline' | 'help' | 'partnerCreate' | 'searchServer' | 'searchLocal', Series>;
  serveRuns: ServeRun[];
  once: Record<string, { run: ChildRun; note: string }>;
  hits: { server: { found: number; of: number }; local: { found: number; of: number } };
  problems: string[];
  loadBefore: number[];
  entries: number;
}) {
  const { series, serveRuns, once, hits, problems, runs, idleSeconds } = input;
  const seconds = (ms: readonly number[]) => (ms.length ? round3(median(ms) / 1000) : null);
  const kib = (xs: ReadonlyArray<number | null>) => xs.filter((x): x is number => x !== null && Number.isFinite(x));
  const baselineMs = median(series.baseline.runs.map((r) => r.ms));

  function row(command: string, ms: number[], childRuns: ChildRun[], goal: string, judge: (r: Row) => Row['verdicts'], idleKiB: Array<number | null> = []): Row {
    const peaks = kib(childRuns.map((r) => r.peakRssKiB));
    const cpu = kib(childRuns.map((r) => r.cpuMs));
    const idle = kib(idleKiB);
    const r: Row = {
      command,
      runs: ms.length,
      medianS: seconds(ms),
      minS: ms.length ? round3(Math.min(...ms) / 1000) : null,
      maxS: ms.length ? round3(Math.max(...ms) / 1000) : null,
      ratio: ms.length ? round1(median(ms) / baselineMs) : null,
      peakMiB: peaks.length ? mib(Math.max(...peaks)) : null,
      medianPeakMiB: peaks.length ? mib(median(peaks)) : null,
      idleMiB: idle.length ? mib(median(idle)) : null,
      cpuS: cpu.length ? round3(median(cpu) / 1000) : null,
      goal,
      verdicts: [],
    };
    r.verdicts = judge(r);
    return r;
  }
  const within = (value: number | null, max: number) => value !== null && value <= max;
  const msOf = (s: Series) => s.runs.map((r) => r.ms);

  const rows: Row[] = [
    row(series.baseline.label, msOf(series.baseline), series.baseline.runs, '', () => []),
    row(series.help.label, msOf(series.help), series.help.runs, `≤ ${goals.help.maxRatio}× node -e 0, ≤ ${goals.help.maxPeakMiB} MiB`, (r) => [
      { what: 'time', pass: within(r.ratio, goals.help.maxRatio) },
      { what: 'RSS', pass: within(r.peakMiB, goals.help.maxPeakMiB) },
    ]),
    row(series.partnerCreate.label, msOf(series.partnerCreate), series.partnerCreate.runs, `≤ ${goals.partnerCreate.maxSeconds} s, ≤ ${goals.partnerCreate.maxPeakMiB} MiB`, (r) => [
      { what: 'time', pass: within(r.medianS, goals.partnerCreate.maxSeconds) },
      { what: 'RSS', pass: within(r.peakMiB, goals.partnerCreate.maxPeakMiB) },
    ]),
    row(series.searchServer.label, msOf(series.searchServer), series.searchServer.runs, `≤ ${goals.searchServer.maxSeconds} s`, (r) => [{ what: 'time', pass: within(r.medianS, goals.searchServer.maxSeconds) }]),
    row(series.searchLocal.label, msOf(series.searchLocal), series.searchLocal.runs, `≤ ${goals.searchLocal.maxSeconds} s, ≤ ${goals.searchLocal.maxPeakMiB} MiB`, (r) => [
      { what: 'time', pass: within(r.medianS, goals.searchLocal.maxSeconds) },
      { what: 'RSS', pass: within(r.peakMiB, goals.searchLocal.maxPeakMiB) },
    ]),
    row(
      'pvs serve, spawn to /ready 200',
      serveRuns.map((s) => s.readyMs),
      serveRuns.map((s) => s.run),
      `≤ ${goals.serve.maxSeconds} s; idle ≤ ${goals.serve.maxIdleMiB} MiB`,
      (r) => [
        { what: 'time', pass: within(r.medianS, goals.serve.maxSeconds) },
        { what: 'idle RSS', pass: within(r.idleMiB, goals.serve.maxIdleMiB) },
      ],
      serveRuns.map((s) => s.idleRssKiB),
    ),
  ];
  const side: Row[] = [
    once.fresh && row('pvs screening search, fresh DATA_DIR', [once.fresh.run.ms], [once.fresh.run], '', () => []),
    once.import && row(`pvs screening import (${input.entries} + 437 entries)`, [once.import.run.ms], [once.import.run], '', () => []),
    once.firstServe && row('pvs serve, first start, to /ready', [once.firstServe.run.ms], [once.firstServe.run], '', () => []),
    once.firstSearch && row('first search, server just started', [once.firstSearch.run.ms], [once.firstSearch.run], '', () => []),
  ].filter((r): r is Row => Boolean(r));

  const dash = (v: number | null, digits = 3) => (v === null ? '-' : v.toFixed(digits));
  const header = ['command', 'runs', 'median s', 'min–max s', '× node -e 0', 'peak RSS MiB', 'idle RSS MiB', 'CPU s', 'goal', 'verdict'];
  const cells = (r: Row) => [
    r.command,
    String(r.runs),
    dash(r.medianS),
    r.runs > 1 ? `${dash(r.minS)}–${dash(r.maxS)}` : '',
    r.ratio === null ? '-' : `${r.ratio.toFixed(1)}×`,
    r.peakMiB === null ? '-' : r.runs > 1 ? `${r.peakMiB.toFixed(1)} (${dash(r.medianPeakMiB, 1)})` : r.peakMiB.toFixed(1),
    dash(r.idleMiB, 1),
    dash(r.cpuS, 2),
    r.goal,
    r.verdicts.map((v) => `${v.what} ${v.pass ? 'PASS' : 'MISS'}`).join(', '),
  ];
  const tableRows = [header, ...rows.map(cells), ...side.map(cells)];
  const widths = header.map((_, i) => Math.max(...tableRows.map((r) => r[i]!.length)));
  const right = new Set([1, 2, 3, 4, 5, 6, 7]);
  const lines = tableRows.map((r) => r.map((c, i) => (right.has(i) ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join('  ').trimEnd());
  const allVerdicts = rows.flatMap((r) => r.verdicts.map((v) => ({ ...v, command: r.command })));
  const missed = allVerdicts.filter((v) => !v.pass);

  // The table's row: (a) node -e 0, (b) pvs --help. runs/s = 1 / median, so b/a is 1 / (× node -e 0);
  // the "p99" column holds the peak RSS in MiB.
  const figures = (s: Series, peakMiB: number | null) => {
    const ms = msOf(s);
    const cpu = kib(s.runs.map((r) => r.cpuMs));
    const f = summarize([rawRun(ms, 0)]);
    f.rps = round1(1000 / median(ms));
    f.latencyMs.p50 = round3(median(ms));
    f.latencyMs.p99 = peakMiB ?? Number.NaN;
    f.serverCpuUsPerRequest = cpu.length === s.runs.length && cpu.length ? Math.round((cpu.reduce((a, b) => a + b, 0) * 1000) / cpu.length) : null;
    return f;
  };
  const a = figures(series.baseline, rows[0]!.peakMiB);
  const b = figures(series.help, rows[1]!.peakMiB);
  const goal = { minThroughputRatio: round3(1 / goals.help.maxRatio), ...(rows[0]!.peakMiB ? { maxP99Ratio: round3(goals.help.maxPeakMiB / rows[0]!.peakMiB) } : {}) };
  const result = scenarioResult(description, a, b, goal);
  result.verdict = {
    throughput: rows[1]!.verdicts[0]!.pass ? 'PASS' : 'MISS',
    p99: rows[0]!.peakMiB === null ? null : rows[1]!.verdicts[1]!.pass ? 'PASS' : 'MISS',
  };
  result.problems.push(...problems);
  const stops = serveRuns.map((s) => s.stopMs);
  const pct = (t: { found: number; of: number }) => `${t.found} of ${t.of}`;

  return {
    ...result,
    labels: { throughput: 'runs/s', p50: 'median ms', p99: 'peak RSS MiB', cpu: 'CPU µs/run' },
    notes: [
      `(a) node -e 0, (b) pvs --help: runs/s = 1 / median, so b/a = 1 / (× node -e 0); the "p99" column is the peak RSS (MiB), its goal ${goals.help.maxPeakMiB} MiB shown as a ratio.`,
      `pvs at ${input.root} (${input.commit}); fresh DATA_DIR, ${input.database}, ENVIRONMENT=sandbox; wall time spawn to exit; peak RSS and CPU from GNU time${input.useGnuTime ? '' : ' (NOT installed: apt-get install time)'}; peak RSS = highest of the runs (median in parentheses).`,
      ...lines,
      `goals: ${allVerdicts.length - missed.length} of ${allVerdicts.length} met${missed.length ? `; missed: ${missed.map((m) => `${m.command} (${m.what})`).join('; ')}` : ''}. --strict sees the table's verdicts (pvs --help) only.`,
      `searches: a different labelled person query each run (test/screening/labelled-pairs.json); the labelled entry found for ${pct(hits.local)} (no server) and ${pct(hits.server)} (server) of those labelled as matches.`,
      `pvs serve: VmRSS of the server process ${idleSeconds} s after ready (idle RSS; median), peak RSS over its life; stop (SIGINT to exit) median ${stops.length ? round3(median(stops) / 1000) : '-'} s.`,
      ...Object.values(input.once).map((o) => `${o.note}.`),
      `Run once, on this back-end (its own processes and database). Load average ${input.loadBefore.join(' ')} → ${loadAverage().join(' ')}.`,
    ],
    details: {
      root: input.root,
      commit: input.commit,
      gnuTime: input.useGnuTime,
      runsPerCommand: runs,
      idleSeconds,
      goals,
      baselineMedianMs: round3(baselineMs),
      rows: [...rows, ...side],
      serve: serveRuns.map((s) => ({ readyMs: round1(s.readyMs), idleRssMiB: mib(s.idleRssKiB), idleHwmMiB: mib(s.idleHwmKiB), peakRssMiB: mib(s.run.peakRssKiB), stopMs: round1(s.stopMs) })),
      runs: Object.fromEntries(
        Object.entries(series).map(([name, s]) => [name, s.runs.map((r) => ({ ms: round1(r.ms), peakRssMiB: mib(r.peakRssKiB), cpuMs: r.cpuMs }))]),
      ),
      hits,
      loadAverageBefore: input.loadBefore,
      loadAverageAfter: loadAverage(),
    },
  };
}
