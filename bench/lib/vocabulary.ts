// The words every part of the bench speaks: the back-ends, the request a load generator sends, what a
// measurement comes to, and the goals it is held to. A leaf: settings, load, report and the scenario
// types (types.ts) all import it, and it imports none of them.
import type { HTTPMethods } from 'fastify';

export type Backend = 'postgres' | 'pglite';

export const backendLabels: Record<Backend, string> = { postgres: 'PostgreSQL', pglite: 'PGlite' };

/** One HTTP request, sent over and over by the load generator. */
export interface BenchRequest {
  method?: HTTPMethods;
  /** Path and query, e.g. `/v1/channel-partners/me`. */
  path: string;
  headers?: Record<string, string>;
  /** A request body (JSON text); set content-type in headers. */
  body?: string;
  /**
   * Bodies sent in turn instead of `body`, one per request across all connections, going round when
   * the list is spent: a write that should not repeat the same values (e.g. distinct ABNs). The check
   * before the load sends the first.
   */
  bodies?: readonly string[];
  /** The status every response must have (default 200). Any other status makes the run invalid. */
  expectStatus?: number;
}

/** What a measurement of one server comes to (load.ts reduces its samples to this). */
export interface Figures {
  /** Responses with the expected status, per second of measured time. */
  rps: number;
  /** Latency of responses with the expected status, in milliseconds, exact (from every response). */
  latencyMs: { p50: number; p90: number; p99: number; max: number; mean: number };
  /** Responses with the expected status. */
  requests: number;
  seconds: number;
  slices: number;
  /**
   * CPU time of the server's process per response, µs (user + system; the PostgreSQL server's own
   * processes are not included, PGlite is). Much less sensitive to a busy machine than req/s, so
   * the first figure to look at when judging a change. With BENCH_LOADGEN=inprocess it includes
   * autocannon.
   */
  serverCpuUsPerRequest: number | null;
  /** Anything that should not happen: a run with any of these is invalid. */
  unexpectedStatus: Record<string, number>;
  errors: number;
  timeouts: number;
}

/** Thresholds; a missing field is not checked. */
export interface Goal {
  /** Minimum rps(b) / rps(a). */
  minThroughputRatio?: number;
  /** Maximum p99(b) / p99(a). */
  maxP99Ratio?: number;
}
