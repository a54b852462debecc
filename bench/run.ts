// `npm run bench`: for each back-end (PostgreSQL, PGlite) and each scenario in bench/scenarios/,
// measures (a) a bare Fastify route doing the scenario's minimum database work and (b) the real
// route on the real app, against the same database, and reports b/a. See bench/README.md.
import { readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import Fastify, { type FastifyInstance } from 'fastify';
import { openBenchDatabase, type BenchDatabase } from './lib/backends.ts';
import { benchRateLimit, originOf, startRealApp, type RealApp } from './lib/context.ts';
import { startLoadGenerator, summarize, type Figures, type LoadGeneratorHandle, type RawRun } from './lib/load.ts';
import { noProfiler, profilesDir, startProfiler, type Profiler } from './lib/profiler.ts';
import { compareWithBaseline, formatBackend, newResults, saveBaseline, scenarioResult, writeLatest, latestFile, baselineFile, type BackendResult } from './lib/report.ts';
import { readSettings, SettingsError, usage, wantsHelp, type BenchSettings } from './lib/settings.ts';
import { backendLabels, defaultGoals, type Backend, type BenchRequest, type HttpScenario, type MeasuredScenario, type Scenario, type ScenarioRun } from './lib/types.ts';

const scenariosDir = fileURLToPath(new URL('./scenarios/', import.meta.url));

async function loadScenarios(only: string[]): Promise<Scenario[]> {
  const files = readdirSync(scenariosDir)
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))
    .sort();
  const scenarios: Scenario[] = [];
  for (const file of files) {
    const mod = (await import(pathToFileURL(path.join(scenariosDir, file)).href)) as { default?: Scenario };
    const scenario = mod.default;
    const valid = scenario?.name && (scenario.kind === 'measured' ? typeof scenario.measure === 'function' : typeof scenario.setup === 'function');
    if (!scenario || !valid) throw new Error(`bench/scenarios/${file} must export default defineScenario({ … })`);
    if (scenarios.some((s) => s.name === scenario.name)) throw new Error(`Two scenarios are named ${scenario.name}`);
    scenarios.push(scenario);
  }
  const unknown = only.filter((n) => !scenarios.some((s) => s.name === n));
  if (unknown.length) throw new SettingsError(`BENCH_SCENARIOS: unknown ${unknown.join(', ')} (known: ${scenarios.map((s) => s.name).join(', ')})`);
  return only.length ? scenarios.filter((s) => only.includes(s.name)) : scenarios;
}

/** One request before the load: the right status and whatever the scenario checks, or no run. */
async function probe(origin: string, request: BenchRequest, server: 'baseline' | 'real', check?: (server: 'baseline' | 'real', status: number, body: string) => string | undefined) {
  const body = request.body ?? request.bodies?.[0];
  const response = await fetch(new URL(request.path, origin), { method: request.method ?? 'GET', headers: request.headers, body });
  const text = await response.text();
  const expected = request.expectStatus ?? 200;
  if (response.status !== expected) throw new Error(`${server}: ${request.method ?? 'GET'} ${request.path} answered ${response.status}, expected ${expected}: ${text.slice(0, 300)}`);
  const problem = check?.(server, response.status, text);
  if (problem) throw new Error(`${server}: ${problem}`);
}

function progress(text: string) {
  process.stderr.write(`${text}\n`);
}

interface Harness {
  settings: BenchSettings;
  load: LoadGeneratorHandle;
  profiler: Profiler;
}

/** (a) the run's bare route and (b) the real app: probed, warmed up, then measured in interleaved slices. */
async function compareHttp(name: string, backend: Backend, run: ScenarioRun, real: RealApp, harness: Harness): Promise<{ baseline: Figures; real: Figures }> {
  const { settings, load, profiler } = harness;
  let bare: FastifyInstance | undefined;
  try {
    // (a): a plain Fastify instance, nothing registered but this one route.
    bare = Fastify();
    bare.route({ method: run.baseline.method ?? 'GET', url: run.baseline.url, handler: run.baseline.handler });
    await bare.listen({ host: '127.0.0.1', port: 0 });
    const servers = {
      a: { origin: run.baselineOrigin ?? originOf(bare), request: run.baseline.request ?? run.request, runs: [] as RawRun[] },
      b: { origin: real.origin, request: run.request, runs: [] as RawRun[] },
    };
    await probe(servers.a.origin, servers.a.request, 'baseline', run.check);
    await probe(servers.b.origin, servers.b.request, 'real', run.check);

    const label = `${backendLabels[backend]} · ${name}`;
    const sliceSeconds = settings.seconds / settings.slices;
    const common = { connections: settings.connections };
    if (settings.warmupSeconds > 0) {
      progress(`${label}: warm-up ${settings.warmupSeconds} s each…`);
      for (const which of ['a', 'b'] as const) {
        const { origin, request } = servers[which];
        await load.run({ ...common, origin, request, seconds: settings.warmupSeconds, discard: true });
      }
    }
    progress(`${label}: measuring ${settings.seconds} s each in ${settings.slices} slice(s)…`);
    for (let i = 0; i < settings.slices; i++) {
      // a b | b a | a b …: a drift in the machine's background load weighs on both sides alike.
      const order = i % 2 === 0 ? (['a', 'b'] as const) : (['b', 'a'] as const);
      for (const which of order) {
        const server = servers[which];
        const cpu = process.cpuUsage();
        const { origin, request } = server;
        const raw = await profiler.around(`${backend}-${name}-${which}-${i + 1}`, () => load.run({ ...common, origin, request, seconds: sliceSeconds }));
        const used = process.cpuUsage(cpu);
        server.runs.push({ ...raw, serverCpuUs: used.user + used.system });
      }
    }
    const a = summarize(servers.a.runs);
    const b = summarize(servers.b.runs);
    const say = (which: string, f: Figures) =>
      progress(`  ${which}: ${f.rps.toFixed(1)} req/s, p50 ${f.latencyMs.p50} ms, p99 ${f.latencyMs.p99} ms, server CPU ${f.serverCpuUsPerRequest} µs/request`);
    say('(a) baseline', a);
    say('(b) real    ', b);
    return { baseline: a, real: b };
  } finally {
    await bare?.close();
  }
}

async function runScenario(scenario: HttpScenario, backend: Backend, real: RealApp, harness: Harness) {
  const run = await scenario.setup(real.ctx);
  try {
    const { baseline, real: measured } = await compareHttp(scenario.name, backend, run, real, harness);
    const goal = (scenario.goals ?? defaultGoals)[backend];
    return scenarioResult(scenario.description, baseline, measured, goal);
  } finally {
    await run.teardown?.();
  }
}

/** A measured scenario runs its own (a) and (b); the runner gives it the context, settings and profiler. */
async function runMeasured(scenario: MeasuredScenario, backend: Backend, real: RealApp, harness: Harness) {
  const { settings, profiler, load } = harness;
  return scenario.measure({
    ...real.ctx,
    settings,
    compareHttp: (run) => compareHttp(scenario.name, backend, run, real, harness),
    async send(request, options) {
      const cpu = process.cpuUsage();
      const raw = await load.run({ origin: real.origin, request, connections: options.connections ?? settings.connections, seconds: 0, amount: options.count });
      const used = process.cpuUsage(cpu);
      return summarize([{ ...raw, serverCpuUs: used.user + used.system }]);
    },
    goal: (scenario.goals ?? defaultGoals)[backend],
    profile: (name, fn) => profiler.around(`${backend}-${scenario.name}-${name}`, fn),
    progress: (text) => progress(`${backendLabels[backend]} · ${scenario.name}: ${text}`),
  });
}

async function runBackend(backend: Backend, scenarios: Scenario[], harness: Harness, cleanups: Set<() => Promise<void>>): Promise<BackendResult> {
  const { settings } = harness;
  const result: BackendResult = { where: '(not opened)', scenarios: {} };
  let database: BenchDatabase | undefined;
  let real: RealApp | undefined;
  let disposing: Promise<void> | undefined;
  const dispose = () =>
    (disposing ??= (async () => {
      await real?.close().catch(() => {});
      await database?.dispose();
    })());
  cleanups.add(dispose);
  try {
    progress(`${backendLabels[backend]}: preparing the database…`);
    database = await openBenchDatabase(backend, settings.adminUrl);
    result.where = database.where;
    real = await startRealApp(backend, database);
    for (const scenario of scenarios) {
      if (scenario.backends && !scenario.backends.includes(backend)) continue;
      try {
        result.scenarios[scenario.name] =
          scenario.kind === 'measured' ? await runMeasured(scenario, backend, real, harness) : await runScenario(scenario, backend, real, harness);
      } catch (error) {
        result.error = `${result.error ? `${result.error}; ` : ''}${scenario.name}: ${(error as Error).message}`;
      }
    }
  } catch (error) {
    result.error = (error as Error).message;
  } finally {
    cleanups.delete(dispose);
    await dispose().catch((error: unknown) => {
      result.error = `${result.error ? `${result.error}; ` : ''}cleanup: ${(error as Error).message}`;
    });
  }
  return result;
}

async function main(): Promise<number> {
  if (wantsHelp()) {
    console.log(usage);
    return 0;
  }
  const settings = readSettings();
  const scenarios = await loadScenarios(settings.scenarios);

  // Ctrl-C must not leave a pvs_bench_* database behind.
  const cleanups = new Set<() => Promise<void>>();
  let interrupted = false;
  process.once('SIGINT', () => {
    interrupted = true;
    progress('interrupted: cleaning up…');
    void Promise.allSettled([...cleanups].map((c) => c())).finally(() => process.exit(130));
  });
  // After Ctrl-C nothing is reported or written: the handler above exits once the cleanups are done.
  const halt = () => new Promise<number>(() => {});

  const results = newResults(settings, benchRateLimit);
  const [load1] = results.loadAverageBefore;
  if (load1 !== undefined && load1 > results.machine.cpus * 0.5) {
    progress(`Note: the 1-minute load average is ${load1} on ${results.machine.cpus} cores; other work is running and the figures will be noisy.`);
  }
  const load = startLoadGenerator(settings.loadGenerator);
  const profiler = settings.profile ? await startProfiler() : noProfiler;
  const harness: Harness = { settings, load, profiler };
  cleanups.add(() => load.close());
  let invalid = false;
  let missed = false;
  for (const backend of settings.backends) {
    const result = await runBackend(backend, scenarios, harness, cleanups);
    if (interrupted) return halt();
    results.backends[backend] = result;
    console.log(`\n${formatBackend(backend, result, settings)}\n`);
    if (result.error) invalid = true;
    for (const s of Object.values(result.scenarios)) {
      if (s.problems.length) invalid = true;
      if (s.verdict.throughput === 'MISS' || s.verdict.p99 === 'MISS') missed = true;
    }
  }

  await load.close();
  await profiler.close();
  results.loadAverageAfter = os.loadavg().map((n) => Math.round(n * 100) / 100);

  writeLatest(results);
  if (settings.profile) console.log(`CPU profiles: ${path.relative(process.cwd(), profilesDir)}/ (profiled figures are slower than unprofiled ones)`);
  console.log(`Results: ${path.relative(process.cwd(), latestFile)}`);
  const comparison = compareWithBaseline(results);
  if (comparison) console.log(`\n${comparison}\n`);
  if (settings.saveBaseline) {
    if (invalid) {
      console.log('Not saving the baseline: this run had errors.');
    } else {
      saveBaseline();
      console.log(`Saved as the baseline: ${path.relative(process.cwd(), baselineFile)}`);
    }
  }
  if (invalid) return 1;
  return settings.strict && missed ? 1 : 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(error instanceof SettingsError ? error.message : error);
    process.exitCode = 2;
  },
);
