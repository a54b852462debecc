// Drives one server with autocannon for a fixed time at a fixed concurrency. By default autocannon
// runs in a long-lived child process (see README: on 2 cores the load generator must not share the
// server's event loop); BENCH_LOADGEN=inprocess runs it in this process instead.
//
// A measurement may be cut into slices that the runner interleaves between (a) and (b), so that
// whatever else the machine is doing weighs on both alike; the slices' samples are merged here.
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import autocannon, { type RequestData } from 'autocannon';
import type { LoadGenerator } from './settings.ts';
import type { BenchRequest, Figures } from './vocabulary.ts';

// What a run's samples reduce to (the type is vocabulary.ts's; scenarios import it from here too).
export type { Figures };

export interface LoadOptions {
  /** Base URL of the server, e.g. http://127.0.0.1:40123 */
  origin: string;
  request: BenchRequest;
  connections: number;
  seconds: number;
  /** Send exactly this many requests, then stop (`seconds` is then ignored). */
  amount?: number;
  /** Discard the samples (warm-up). */
  discard?: boolean;
  /** At most this many requests per second over all connections (autocannon's overallRate); default unpaced. */
  overallRate?: number;
}

/** One autocannon run, unreduced. */
export interface RawRun {
  /** Responses with the expected status. */
  count: number;
  /** The measured window in seconds. */
  seconds: number;
  /** Latency of each response with the expected status, ms (empty when discarded). */
  latencies: Float64Array;
  unexpectedStatus: Record<string, number>;
  errors: number;
  timeouts: number;
  /** CPU time (user + system) the server's process spent during the run, µs; set by the runner. */
  serverCpuUs?: number;
}

/** Latencies in a growable Float64Array: tens of thousands per second stay small. */
class Samples {
  private data = new Float64Array(1 << 16);
  length = 0;
  push(v: number) {
    if (this.length === this.data.length) {
      const bigger = new Float64Array(this.data.length * 2);
      bigger.set(this.data);
      this.data = bigger;
    }
    this.data[this.length++] = v;
  }
  toArray(): Float64Array {
    return this.data.slice(0, this.length);
  }
}

/** One autocannon run in this process. */
export function runHere(options: LoadOptions): Promise<RawRun> {
  const { request } = options;
  const expected = request.expectStatus ?? 200;
  const samples = new Samples();
  let count = 0;
  const unexpectedStatus: Record<string, number> = {};
  // Bodies in turn across every connection (a shared counter), so that no two requests in flight carry
  // the same one until the list has gone round; from a random place, so that each slice starts elsewhere.
  const { bodies } = request;
  let nextBody = bodies?.length ? Math.floor(Math.random() * bodies.length) : 0;
  const rotating = bodies?.length ? { requests: [{ setupRequest: (r: RequestData) => ({ ...r, body: bodies[nextBody++ % bodies.length] }) }] } : {};
  const amount = options.amount;
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    let lastResponse = started;
    const instance = autocannon(
      {
        url: new URL(request.path, options.origin).toString(),
        method: request.method ?? 'GET',
        headers: request.headers,
        body: request.body,
        ...rotating,
        connections: amount === undefined ? options.connections : Math.min(options.connections, amount),
        // autocannon notices the end at its next sample tick (every second by default): with `amount`,
        // ticks every 10 ms so that the caller is not kept waiting for nothing.
        ...(amount === undefined ? { duration: options.seconds } : { amount, sampleInt: 10 }),
        pipelining: 1,
        timeout: 10,
        ...(options.overallRate === undefined ? {} : { overallRate: options.overallRate }),
      },
      (error, result) => {
        if (error) return reject(error);
        const elapsed = Number(process.hrtime.bigint() - started) / 1e9;
        resolve({
          count,
          // autocannon's own duration (10-ms precision) starts after its set-up; ours includes it. With
          // `amount`, the run ends at the last response, not at the tick that noticed it.
          seconds: amount === undefined ? Math.min(elapsed, result.duration || elapsed) : Number(lastResponse - started) / 1e9,
          latencies: samples.toArray(),
          unexpectedStatus,
          errors: result.errors,
          timeouts: result.timeouts,
        });
      },
    );
    instance.on('response', (_client: unknown, statusCode: number, _bytes: number, responseTime: number) => {
      lastResponse = process.hrtime.bigint();
      if (statusCode === expected) {
        count++;
        if (!options.discard) samples.push(responseTime);
      } else {
        unexpectedStatus[statusCode] = (unexpectedStatus[statusCode] ?? 0) + 1;
      }
    });
  });
}

const round3 = (n: number) => Math.round(n * 1000) / 1000;

function percentile(sorted: Float64Array, q: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

/** Merges slices into one set of figures: rps over the summed time, percentiles over every sample. */
export function summarize(runs: readonly RawRun[]): Figures {
  const total = runs.reduce((n, r) => n + r.latencies.length, 0);
  const sorted = new Float64Array(total);
  let offset = 0;
  for (const r of runs) {
    sorted.set(r.latencies, offset);
    offset += r.latencies.length;
  }
  sorted.sort();
  let sum = 0;
  for (const v of sorted) sum += v;
  const count = runs.reduce((n, r) => n + r.count, 0);
  const seconds = runs.reduce((n, r) => n + r.seconds, 0);
  const unexpectedStatus: Record<string, number> = {};
  for (const r of runs) for (const [s, n] of Object.entries(r.unexpectedStatus)) unexpectedStatus[s] = (unexpectedStatus[s] ?? 0) + n;
  return {
    rps: Math.round((count / seconds) * 10) / 10,
    latencyMs: {
      p50: round3(percentile(sorted, 0.5)),
      p90: round3(percentile(sorted, 0.9)),
      p99: round3(percentile(sorted, 0.99)),
      max: round3(total ? sorted[total - 1]! : Number.NaN),
      mean: round3(total ? sum / total : Number.NaN),
    },
    requests: count,
    seconds: round3(seconds),
    slices: runs.length,
    serverCpuUsPerRequest: runs.every((r) => r.serverCpuUs !== undefined) && count > 0 ? Math.round((runs.reduce((n, r) => n + r.serverCpuUs!, 0) / count) * 10) / 10 : null,
    unexpectedStatus,
    errors: runs.reduce((n, r) => n + r.errors, 0),
    timeouts: runs.reduce((n, r) => n + r.timeouts, 0),
  };
}

export interface LoadGeneratorHandle {
  run(options: LoadOptions): Promise<RawRun>;
  close(): Promise<void>;
}

const childEntry = fileURLToPath(new URL('./load-child.ts', import.meta.url));

type ChildAnswer = { id: number; ok: true; run: RawRun } | { id: number; ok: false; error: string };

function childGenerator(): LoadGeneratorHandle {
  // Explicit execArgv: the child must not inherit --cpu-prof or --inspect meant for the server.
  const child: ChildProcess = fork(childEntry, [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'], serialization: 'advanced' });
  const waiting = new Map<number, { resolve: (r: RawRun) => void; reject: (e: Error) => void }>();
  let nextId = 0;
  let exited = false;
  const failAll = (error: Error) => {
    for (const w of waiting.values()) w.reject(error);
    waiting.clear();
  };
  child.on('message', (message: ChildAnswer) => {
    const w = waiting.get(message.id);
    if (!w) return;
    waiting.delete(message.id);
    if (message.ok) w.resolve(message.run);
    else w.reject(new Error(`load generator: ${message.error}`));
  });
  child.on('error', failAll);
  child.on('exit', (code, signal) => {
    exited = true;
    failAll(new Error(`load generator exited (${signal ?? code})`));
  });
  return {
    run(options) {
      if (exited) return Promise.reject(new Error('load generator has exited'));
      const id = nextId++;
      return new Promise((resolve, reject) => {
        waiting.set(id, { resolve, reject });
        child.send({ id, options });
      });
    },
    async close() {
      if (exited) return;
      const gone = new Promise((resolve) => child.once('exit', resolve));
      child.disconnect();
      await gone;
    },
  };
}

export function startLoadGenerator(where: LoadGenerator): LoadGeneratorHandle {
  if (where === 'child') return childGenerator();
  return { run: runHere, close: async () => {} };
}
