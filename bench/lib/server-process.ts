// The real service in a child process (server-process-child.ts), for a scenario that measures the
// server's own memory: in the bench process it would share its heap and RSS with the bench (and, with
// BENCH_LOADGEN=inprocess, with autocannon). Each start gets a fresh process and database, so one
// configuration's high-water mark does not carry over into the next.
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Backend } from './types.ts';

export interface ServerStart {
  backend: Backend;
  /** Where openBenchDatabase creates the PostgreSQL database (unused on PGlite). */
  adminUrl: string;
  /** Settings for this server on top of the bench's (silent logs, rate limit out of the way). */
  env: Record<string, string>;
}

/** What the server process saw between window-start and window-stop. */
export interface WindowFigures {
  rssStartBytes: number;
  /** The larger of the 50-ms samples and the kernel's VmHWM (reset at the window's start). */
  peakRssBytes: number;
  peakRssSampledBytes: number;
  vmHwmBytes: number | null;
  heapUsedStartBytes: number;
  peakHeapUsedBytes: number;
  /** User + system CPU time of the server's process. */
  cpuUs: number;
  /** Answers sent, by status. */
  statuses: Record<string, number>;
  /** 503 answers by their Retry-After: `1` from load shedding, `5` from a database pool wait that timed out, `(none)` never. */
  unavailableByRetryAfter: Record<string, number>;
  /** How late a 10-ms timer ran over the window (less the 10 ms), ms. */
  eventLoopDelayMs: { mean: number; p99: number; max: number };
  /** Most requests open at once (received, not yet answered), at the HTTP layer. */
  peakOpenRequests: number;
  /** 200s, from the request's arrival in the server to its answer's last byte written, ms: the time spent in the process. */
  servedInServerMs: { p50: number; p99: number; max: number };
}

export type ServerCommand = { type: 'window-start'; id: number } | { type: 'window-stop'; id: number };

export type ServerMessage =
  | { type: 'ready'; origin: string; headers: { authorization: string; 'x-partner-id': string }; pid: number }
  | { type: 'failed'; error: string }
  | { type: 'ack'; id: number }
  | { type: 'window'; id: number; figures: WindowFigures }
  | { type: 'error'; id: number; error: string };

export interface ServerProcess {
  origin: string;
  /** Authorization and X-Partner-Id of a partner with three contacts. */
  headers: { authorization: string; 'x-partner-id': string };
  pid: number;
  /** Starts measuring: memory peaks, CPU time and answers from now on. */
  startWindow(): Promise<void>;
  stopWindow(): Promise<WindowFigures>;
  close(): Promise<void>;
}

const childEntry = fileURLToPath(new URL('./server-process-child.ts', import.meta.url));

export async function startServerProcess(options: ServerStart): Promise<ServerProcess> {
  // Explicit execArgv: the child must not inherit --cpu-prof or --inspect meant for the bench process.
  const child: ChildProcess = fork(childEntry, [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'], serialization: 'advanced' });
  const waiting = new Map<number, { resolve: (m: ServerMessage) => void; reject: (e: Error) => void }>();
  let nextId = 0;
  let exited = false;
  const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const failAll = (error: Error) => {
    for (const w of waiting.values()) w.reject(error);
    waiting.clear();
  };
  const ready = new Promise<Extract<ServerMessage, { type: 'ready' }>>((resolve, reject) => {
    child.on('message', (message: ServerMessage) => {
      if (message.type === 'ready') return resolve(message);
      if (message.type === 'failed') return reject(new Error(`server process: ${message.error}`));
      const w = waiting.get(message.id);
      if (!w) return;
      waiting.delete(message.id);
      if (message.type === 'error') w.reject(new Error(`server process: ${message.error}`));
      else w.resolve(message);
    });
    child.once('exit', (code, signal) => reject(new Error(`server process exited before listening (${signal ?? code})`)));
  });
  child.on('error', failAll);
  child.on('exit', (code, signal) => {
    exited = true;
    failAll(new Error(`server process exited (${signal ?? code})`));
  });
  const ask = (type: ServerCommand['type']): Promise<ServerMessage> => {
    if (exited) return Promise.reject(new Error('server process has exited'));
    const id = nextId++;
    return new Promise((resolve, reject) => {
      waiting.set(id, { resolve, reject });
      child.send({ type, id } satisfies ServerCommand);
    });
  };
  const close = async () => {
    if (exited) return;
    child.disconnect();
    await gone;
  };

  child.send({ type: 'start', options });
  let started: Extract<ServerMessage, { type: 'ready' }>;
  try {
    started = await ready;
  } catch (error) {
    await close();
    throw error;
  }
  return {
    origin: started.origin,
    headers: started.headers,
    pid: started.pid,
    async startWindow() {
      await ask('window-start');
    },
    async stopWindow() {
      return ((await ask('window-stop')) as Extract<ServerMessage, { type: 'window' }>).figures;
    },
    close,
  };
}
