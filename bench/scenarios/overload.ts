// Overload: a burst far beyond what one process can serve is shed (503 with Retry-After) rather than
// queued, so the requests it does serve stay fast and its memory stays bounded.
//
// The real service runs in a child process of its own (bench/lib/server-process.ts), so that its memory
// is its own: peak RSS (50-ms samples and the kernel's VmHWM) and heap used. Each phase gets a fresh
// process and database, the same warm-up (capacityConnections for BENCH_WARMUP_SECONDS), then
// BENCH_SECONDS of GET /v1/contacts (a partner with three contacts; the rate limit out of the way):
// (a) at capacity: capacityConnections connections, MAX_IN_FLIGHT_REQUESTS at its default;
// (b) a burst: burstConnections connections offering offeredFactor × what (a) served per second, each
//     connection its share at the start of every second (so bursts of burstConnections at once); every
//     503 must carry Retry-After;
// (c) the same burst with shedding off (a limit no burst reaches);
// (d), (e): burstConnections connections that send again as soon as they have an answer, as clients
//     that ignore Retry-After would, with and without shedding: the worst case.
// /health is asked every 100 ms throughout and must answer 200.
import { settingDocs } from '../../src/config.ts';
import { startLoadGenerator, summarize, type Figures, type LoadGeneratorHandle } from '../lib/load.ts';
import { scenarioResult } from '../lib/report.ts';
import { startServerProcess, type WindowFigures } from '../lib/server-process.ts';
import { defineScenario, type BenchRequest, type MeasureContext } from '../lib/types.ts';
import { round1, round3 } from '../lib/measure.ts';

const capacityConnections = 32;
const burstConnections = 2000;
/** (b) and (c) offer this many times what (a) served per second. */
const offeredFactor = 4;
const defaultLimit = Number(settingDocs.find((s) => s.name === 'MAX_IN_FLIGHT_REQUESTS')!.default);
/** A limit no burst here reaches: shedding off. */
const noLimit = 1_000_000_000;

const mib = (bytes: number) => round1(bytes / 2 ** 20);
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

interface Probes {
  health: { count: number; notOk: number; p50Ms: number; maxMs: number };
  /** 503s to GET /v1/contacts seen by the prober, and how many were the right problem with Retry-After. */
  shedSeen: number;
  shedWellFormed: number;
  /** The first sampled 503 that was not the expected problem, for the report. */
  malformed?: string;
}

/** Asks /health (and GET /v1/contacts, to read a 503's body) every 100 ms until `stop` resolves. */
async function probe(origin: string, request: BenchRequest, stop: Promise<void>): Promise<Probes> {
  let stopped = false;
  void stop.then(() => (stopped = true));
  const healthMs: number[] = [];
  let notOk = 0;
  let shedSeen = 0;
  let shedWellFormed = 0;
  let malformed: string | undefined;
  while (!stopped) {
    const started = performance.now();
    const health = await fetch(new URL('/health', origin)).catch(() => undefined);
    healthMs.push(performance.now() - started);
    if (health?.status !== 200) notOk += 1;
    await health?.arrayBuffer().catch(() => {});
    const api = await fetch(new URL(request.path, origin), { headers: request.headers }).catch(() => undefined);
    const text = (await api?.text().catch(() => '')) ?? '';
    if (api?.status === 503) {
      shedSeen += 1;
      const code = (() => {
        try {
          return (JSON.parse(text) as { code?: string }).code;
        } catch {
          return undefined;
        }
      })();
      if (code === 'SERVICE_UNAVAILABLE' && api.headers.get('content-type')?.startsWith('application/problem+json') && ['1', '5'].includes(api.headers.get('retry-after') ?? '')) shedWellFormed += 1;
      else malformed ??= `${JSON.stringify(Object.fromEntries(api.headers))} ${text.slice(0, 300)}`;
    }
    await sleep(100);
  }
  healthMs.sort((x, y) => x - y);
  return {
    health: { count: healthMs.length, notOk, p50Ms: round3(healthMs[Math.floor(healthMs.length / 2)] ?? Number.NaN), maxMs: round3(healthMs.at(-1) ?? Number.NaN) },
    shedSeen,
    shedWellFormed,
    malformed,
  };
}

interface Phase {
  label: string;
  limit: number;
  connections: number;
  /** Requests per second offered over all connections; undefined: each sends again as soon as answered. */
  rate: number | undefined;
  load: Figures;
  server: WindowFigures;
  probes: Probes;
}

async function runPhase(ctx: MeasureContext, load: LoadGeneratorHandle, label: string, limit: number, connections: number, rate?: number): Promise<Phase> {
  const { settings } = ctx;
  ctx.progress(`${label}: starting a server process (MAX_IN_FLIGHT_REQUESTS=${limit})…`);
  const server = await startServerProcess({ backend: ctx.backend, adminUrl: settings.adminUrl, env: { MAX_IN_FLIGHT_REQUESTS: String(limit) } });
  try {
    const request: BenchRequest = { path: '/v1/contacts', headers: server.headers, expectStatus: 200 };
    const first = await fetch(new URL(request.path, server.origin), { headers: request.headers });
    const page = (await first.json()) as { data?: unknown[] };
    if (first.status !== 200 || page.data?.length !== 3) throw new Error(`${label}: GET /v1/contacts answered ${first.status} ${JSON.stringify(page).slice(0, 200)}`);
    if (settings.warmupSeconds > 0) {
      await load.run({ origin: server.origin, request, connections: capacityConnections, seconds: settings.warmupSeconds, discard: true });
    }
    ctx.progress(`${label}: ${connections} connections${rate ? `, ${rate} req/s offered` : ''} for ${settings.seconds} s…`);
    await server.startWindow();
    let stop!: () => void;
    const probing = probe(server.origin, request, new Promise<void>((resolve) => (stop = resolve)));
    const raw = await ctx.profile(label, () => load.run({ origin: server.origin, request, connections, seconds: settings.seconds, overallRate: rate }));
    stop();
    const figures = await server.stopWindow();
    const probes = await probing;
    const loadFigures = summarize([{ ...raw, serverCpuUs: figures.cpuUs }]);
    return { label, limit, connections, rate, load: loadFigures, server: figures, probes };
  } finally {
    await server.close();
  }
}

/**
 * The figures without what a burst is expected to cause: 503s, and clients that could not connect again
 * within autocannon's 10 s after a 503 closed their connection (the kernel's accept queue was full; they
 * are in the notes). Any other status is a problem.
 */
function withoutShed(f: Figures): Figures {
  const { 503: _shed, ...rest } = f.unexpectedStatus;
  return { ...f, unexpectedStatus: rest, errors: 0, timeouts: 0 };
}

type Summary = ReturnType<typeof phaseSummary>;

function phaseSummary(p: Phase) {
  const answers = p.load.requests + Object.values(p.load.unexpectedStatus).reduce((n, c) => n + c, 0);
  const shed = p.server.unavailableByRetryAfter['1'] ?? 0;
  const poolTimeouts = p.server.unavailableByRetryAfter['5'] ?? 0;
  return {
    connections: p.connections,
    offeredPerSecond: p.rate ?? null,
    maxInFlightRequests: p.limit,
    servedPerSecond: p.load.rps,
    served: p.load.requests,
    answers,
    shed,
    shedPercent: round1((shed / Math.max(1, answers)) * 100),
    poolTimeouts,
    p50Ms: p.load.latencyMs.p50,
    p99Ms: p.load.latencyMs.p99,
    inServerP50Ms: p.server.servedInServerMs.p50,
    inServerP99Ms: p.server.servedInServerMs.p99,
    maxMs: p.load.latencyMs.max,
    errors: p.load.errors,
    timeouts: p.load.timeouts,
    cpuUsPerServed: p.load.serverCpuUsPerRequest,
    rssStartMiB: mib(p.server.rssStartBytes),
    peakRssMiB: mib(p.server.peakRssBytes),
    vmHwmMiB: p.server.vmHwmBytes === null ? null : mib(p.server.vmHwmBytes),
    heapUsedStartMiB: mib(p.server.heapUsedStartBytes),
    peakHeapUsedMiB: mib(p.server.peakHeapUsedBytes),
    peakOpenRequests: p.server.peakOpenRequests,
    eventLoopDelayMs: p.server.eventLoopDelayMs,
    serverStatuses: p.server.statuses,
    unavailableByRetryAfter: p.server.unavailableByRetryAfter,
    health: p.probes.health,
  };
}

const description = `GET /v1/contacts: a burst of ${burstConnections} connections offering ${offeredFactor}× capacity, shed past MAX_IN_FLIGHT_REQUESTS=${defaultLimit}, vs ${capacityConnections} connections at capacity`;

export default defineScenario({
  kind: 'measured',
  name: 'overload',
  description,
  // PostgreSQL only: on PGlite a request's queries run on the JavaScript thread within one turn of the
  // event loop, so the process never holds more than one of these requests at once (the burst waits in
  // the kernel's socket buffers, not in memory) and nothing is ever shed. Measured, no goal: the
  // figures that matter (memory, shed share, served/s under a burst) are in the notes and details.
  backends: ['postgres'],
  goals: {},
  async measure(ctx) {
    const load = startLoadGenerator(ctx.settings.loadGenerator);
    try {
      const capacity = await runPhase(ctx, load, '(a) at capacity', defaultLimit, capacityConnections);
      // A whole number of requests per connection and second, at least one each.
      const offered = Math.max(1, Math.ceil((offeredFactor * capacity.load.rps) / burstConnections)) * burstConnections;
      const burst = await runPhase(ctx, load, '(b) burst', defaultLimit, burstConnections, offered);
      const burstOff = await runPhase(ctx, load, '(c) burst, shedding off', noLimit, burstConnections, offered);
      const storm = await runPhase(ctx, load, '(d) retrying at once', defaultLimit, burstConnections);
      const stormOff = await runPhase(ctx, load, '(e) retrying at once, shedding off', noLimit, burstConnections);
      const phases = [capacity, burst, burstOff, storm, stormOff];

      const result = scenarioResult(description, capacity.load, withoutShed(burst.load), ctx.goal);
      for (const p of phases) {
        if (p.probes.health.notOk) result.problems.push(`${p.label}: /health answered other than 200 ${p.probes.health.notOk} times of ${p.probes.health.count}`);
        const bare = p.server.unavailableByRetryAfter['(none)'];
        if (bare) result.problems.push(`${p.label}: ${bare} answers 503 without Retry-After`);
        if (p.probes.malformed) result.problems.push(`${p.label}: ${p.probes.shedSeen - p.probes.shedWellFormed} of ${p.probes.shedSeen} sampled 503s not a SERVICE_UNAVAILABLE problem with Retry-After, e.g. ${p.probes.malformed}`);
        if (p.limit === noLimit && p.server.unavailableByRetryAfter['1']) result.problems.push(`${p.label}: requests were shed`);
      }
      if (!burst.load.unexpectedStatus['503']) result.problems.push('(b) burst: nothing was shed; the burst did not reach the limit');
      // 503s from the database pool (a wait over its timeout) are figures, not problems: that is the
      // service's other refusal under load. (b)'s other statuses are problems already.

      const [a, b, c, d, e] = phases.map(phaseSummary) as [Summary, Summary, Summary, Summary, Summary];
      const ratio = (x: number | null, y: number | null) => (x && y ? round3(x / y) : null);
      const ratiosOf = (x: Summary, y: Summary) => ({
        servedPerSecond: ratio(x.servedPerSecond, y.servedPerSecond),
        p99: ratio(x.p99Ms, y.p99Ms),
        inServerP99: ratio(x.inServerP99Ms, y.inServerP99Ms),
        peakRss: ratio(x.peakRssMiB, y.peakRssMiB),
        peakHeapUsed: ratio(x.peakHeapUsedMiB, y.peakHeapUsedMiB),
      });
      const ratios = { burstOverCapacity: ratiosOf(b, a), burstSheddingOffOverOn: ratiosOf(c, b), retryingOverCapacity: ratiosOf(d, a), retryingSheddingOffOverOn: ratiosOf(e, d) };
      const say = (r: ReturnType<typeof ratiosOf>) => `served/s ${r.servedPerSecond}×, p99 ${r.p99}× (in the server ${r.inServerP99}×), peak RSS ${r.peakRss}×, peak heap used ${r.peakHeapUsed}×`;
      const line = (s: Summary, label: string) =>
        `${label}: ${s.servedPerSecond} served/s, ${s.shedPercent} % shed, ${s.poolTimeouts} pool timeouts, p50 ${s.p50Ms} ms, p99 ${s.p99Ms} ms (in the server ${s.inServerP50Ms} / ${s.inServerP99Ms} ms); RSS ${s.rssStartMiB} → peak ${s.peakRssMiB} MiB, heap used ${s.heapUsedStartMiB} → peak ${s.peakHeapUsedMiB} MiB; at most ${s.peakOpenRequests} requests open; event-loop delay mean ${s.eventLoopDelayMs.mean} ms, p99 ${s.eventLoopDelayMs.p99} ms; ${s.errors} errors, ${s.timeouts} timeouts; /health p50 ${s.health.p50Ms} ms, max ${s.health.maxMs} ms`;
      return {
        ...result,
        labels: { throughput: 'served/s', p50: 'p50 ms', p99: 'p99 ms', cpu: 'CPU µs/served' },
        notes: [
          `server in a process of its own; latencies are the 200s'; (b) and (c) offer ${offered} req/s (${offered / burstConnections} per connection each second), (d) and (e) send again at once after every answer.`,
          line(a, `(a) ${capacityConnections} connections, at capacity`),
          line(b, `(b) ${burstConnections} connections, ${offered} req/s offered`),
          line(c, '(c) the same, shedding off'),
          line(d, `(d) ${burstConnections} connections retrying at once`),
          line(e, '(e) the same, shedding off'),
          `(b)/(a) ${say(ratios.burstOverCapacity)}`,
          `(c)/(b) ${say(ratios.burstSheddingOffOverOn)}`,
          `(d)/(a) ${say(ratios.retryingOverCapacity)}`,
          `(e)/(d) ${say(ratios.retryingSheddingOffOverOn)}`,
          `503s without Retry-After: ${phases.reduce((n, p) => n + (p.server.unavailableByRetryAfter['(none)'] ?? 0), 0)} (of ${phases.reduce((n, p) => n + (p.server.statuses['503'] ?? 0), 0)}); sampled 503 bodies that were SERVICE_UNAVAILABLE problems with Retry-After: 1 or 5: ${phases.reduce((n, p) => n + p.probes.shedWellFormed, 0)} of ${phases.reduce((n, p) => n + p.probes.shedSeen, 0)}.`,
        ],
        details: { offeredPerSecond: offered, atCapacity: a, burst: b, burstSheddingOff: c, retryingAtOnce: d, retryingAtOnceSheddingOff: e, ratios },
      };
    } finally {
      await load.close();
    }
  },
});
