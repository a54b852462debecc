// The part of autocannon 8's programmatic API the bench uses (the package ships no types).
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events';

  /** One request as autocannon builds it; `setupRequest` answers it changed. */
  interface RequestData {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string | Buffer;
  }

  interface RequestSpec extends RequestData {
    /** Called before each send of this request (which is then rebuilt every time). */
    setupRequest?: (request: RequestData, context: Record<string, unknown>) => RequestData;
  }

  interface Options {
    url: string;
    connections?: number;
    duration?: number;
    /** Stop after this many requests (instead of after `duration`). */
    amount?: number;
    /** Milliseconds between samples (default 1000); the end of a run is noticed at a sample. */
    sampleInt?: number;
    /** Sent in turn on each connection, over the defaults above. */
    requests?: RequestSpec[];
    pipelining?: number;
    /** At most this many requests per second over all connections (each gets its share, per second). */
    overallRate?: number;
    timeout?: number;
    method?: string;
    headers?: Record<string, string>;
    body?: string;
  }

  interface Result {
    duration: number;
    errors: number;
    timeouts: number;
    non2xx: number;
    resets: number;
    statusCodeStats: Record<string, { count: number }>;
    requests: { total: number; sent: number; average: number };
    latency: { p50: number; p99: number; average: number; max: number };
  }

  interface Instance extends EventEmitter {
    stop(): void;
  }

  function autocannon(options: Options, callback: (error: Error | null, result: Result) => void): Instance;
  export default autocannon;
  export type { RequestData };
}
