// Drives one server with autocannon for a fixed time at a fixed concurrency and reduces the run to a
// few figures. By default autocannon runs in a child process (see README: on 2 cores the load
// generator must not share the server's event loop); BENCH_LOADGEN=inprocess runs it here.
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import type { LoadGenerator } from './settings.ts';
import type { BenchRequest } from './types.ts';

export interface LoadOptions {
  /** Base URL of the server, e.g. http://127.0.0.1:40123 */
  origin: string;
  request: BenchRequest;
  connections: number;
  seconds: number;
  warmupSeconds: number;
}

export interface Figures {
  /** Responses with the expected status, per second of the measured window. */
  rps: number;
  /** Latency of responses with the expected status, in milliseconds (exact, from every response). */
  latencyMs: { p50: number; p90: number; p99: number; max: number; mean: number };
  /** Responses with the expected status. */
  requests: number;
  seconds: number;
  /** Anything that should not happen: a run with any of these is invalid. */
  unexpectedStatus: Record<string, number>;
  errors: number;
  timeouts: number;
}

/** Samples in a growable Float64Array: at tens of thousands of requests per second this stays small. */
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
  sorted(): Float64Array {
    return this.data.slice(0, this.length).sort();
  }
}

function percentile(sorted: Float64Array, q: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

const round3 = (n: number) => Math.round(n * 1000) / 1000;

function once(options: LoadOptions, seconds: number, record: boolean): Promise<Figures> {
  const { request } = options;
  const expected = request.expectStatus ?? 200;
  const samples = new Samples();
  let count = 0;
  const unexpectedStatus: Record<string, number> = {};
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const instance = autocannon(
      {
        url: new URL(request.path, options.origin).toString(),
        method: request.method ?? 'GET',
        headers: request.headers,
        body: request.body,
        connections: options.connections,
        duration: seconds,
        pipelining: 1,
        timeout: 10,
      },
      (error, result) => {
        if (error) return reject(error);
        const elapsed = Number(process.hrtime.bigint() - started) / 1e9;
        const sorted = record ? samples.sorted() : new Float64Array();
        let sum = 0;
        for (const v of sorted) sum += v;
        // autocannon's own duration is rounded to 10 ms and its histogram to whole ms; ours is exact.
        const window = Math.min(elapsed, result.duration || elapsed);
        resolve({
          rps: Math.round((count / window) * 10) / 10,
          latencyMs: {
            p50: round3(percentile(sorted, 0.5)),
            p90: round3(percentile(sorted, 0.9)),
            p99: round3(percentile(sorted, 0.99)),
            max: round3(sorted.length ? sorted[sorted.length - 1]! : Number.NaN),
            mean: round3(sorted.length ? sum / sorted.length : Number.NaN),
          },
          requests: count,
          seconds: round3(window),
          unexpectedStatus,
          errors: result.errors,
          timeouts: result.timeouts,
        });
      },
    );
    instance.on('response', (_client: unknown, statusCode: number, _bytes: number, responseTime: number) => {
      if (statusCode === expected) {
        count++;
        if (record) samples.push(responseTime);
      } else {
        unexpectedStatus[statusCode] = (unexpectedStatus[statusCode] ?? 0) + 1;
      }
    });
  });
}

/** Warm-up (discarded), then the measured run, in this process. */
export async function measureHere(options: LoadOptions): Promise<Figures> {
  if (options.warmupSeconds > 0) await once(options, options.warmupSeconds, false);
  return once(options, options.seconds, true);
}

const childEntry = fileURLToPath(new URL('./load-child.ts', import.meta.url));

/** Warm-up and measurement in a fresh child process (the default), or here. */
export function measure(options: LoadOptions, where: LoadGenerator): Promise<Figures> {
  if (where === 'inprocess') return measureHere(options);
  return new Promise((resolve, reject) => {
    // Explicit execArgv: the child must not inherit --cpu-prof or --inspect meant for the server.
    const child = fork(childEntry, [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'], serialization: 'advanced' });
    let answered = false;
    child.once('message', (message: { ok: true; figures: Figures } | { ok: false; error: string }) => {
      answered = true;
      if (message.ok) resolve(message.figures);
      else reject(new Error(`load generator: ${message.error}`));
    });
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      if (!answered) reject(new Error(`load generator exited (${signal ?? code}) without a result`));
    });
    child.send(options);
  });
}
