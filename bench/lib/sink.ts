// A webhook sink in a child process (sink-child.ts): a plain node:http server that answers 200 at once
// and records when each x-event-id arrived. In its own process so that it takes neither the bench
// process's event loop nor its CPU figure, as a partner's receiver would not.
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export type SinkCommand = { type: 'expect'; id: number; count: number; secret?: string; verifyEvery?: number } | { type: 'collect'; id: number };

export interface SinkArrivals {
  /** Event ids in order of first arrival, and when each first arrived (hrtime, ms). */
  eventIds: string[];
  arrivalsMs: Float64Array;
  /** Requests for an event id already seen (at least once allows them; a healthy run has none). */
  duplicates: number;
  withoutEventId: number;
  /** Deliveries whose signature the sink checked, and the first failures. */
  verified: number;
  badSignatures: string[];
  /** Body bytes received. */
  bytes: number;
}

export type SinkMessage =
  | { type: 'listening'; port: number }
  | { type: 'ack'; id: number }
  | { type: 'reached'; atMs: number }
  | ({ type: 'collected'; id: number } & SinkArrivals);

export interface Sink {
  url: string;
  /**
   * Forgets earlier arrivals and waits for `count` distinct event ids; checks the signature of one
   * delivery in `verifyEvery` with `secret`. Answers a promise of the (hrtime, ms) moment the last
   * one arrived.
   */
  expect(count: number, options?: { secret?: string; verifyEvery?: number }): Promise<{ reached: Promise<number> }>;
  collect(): Promise<SinkArrivals>;
  close(): Promise<void>;
}

/** The bench's own clock for comparing with the sink's: CLOCK_MONOTONIC in milliseconds. */
export const monotonicMs = () => Number(process.hrtime.bigint()) / 1e6;

const childEntry = fileURLToPath(new URL('./sink-child.ts', import.meta.url));

export async function startSink(): Promise<Sink> {
  // Explicit execArgv: the child must not inherit --cpu-prof or --inspect meant for the bench process.
  const child: ChildProcess = fork(childEntry, [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'], serialization: 'advanced' });
  const waiting = new Map<number, { resolve: (m: SinkMessage) => void; reject: (e: Error) => void }>();
  let reached: { resolve: (atMs: number) => void; reject: (e: Error) => void } | undefined;
  let nextId = 0;
  let exited = false;
  const failAll = (error: Error) => {
    for (const w of waiting.values()) w.reject(error);
    waiting.clear();
    reached?.reject(error);
    reached = undefined;
  };
  let listening!: (port: number) => void;
  const port = new Promise<number>((resolve, reject) => {
    listening = resolve;
    child.once('exit', (code, signal) => reject(new Error(`webhook sink exited before listening (${signal ?? code})`)));
  });
  child.on('message', (message: SinkMessage) => {
    if (message.type === 'listening') return listening(message.port);
    if (message.type === 'reached') {
      reached?.resolve(message.atMs);
      reached = undefined;
      return;
    }
    const w = waiting.get(message.id);
    if (!w) return;
    waiting.delete(message.id);
    w.resolve(message);
  });
  child.on('error', failAll);
  child.on('exit', (code, signal) => {
    exited = true;
    failAll(new Error(`webhook sink exited (${signal ?? code})`));
  });
  const ask = (command: SinkCommand extends infer C ? (C extends SinkCommand ? Omit<C, 'id'> : never) : never): Promise<SinkMessage> => {
    if (exited) return Promise.reject(new Error('webhook sink has exited'));
    const id = nextId++;
    return new Promise((resolve, reject) => {
      waiting.set(id, { resolve, reject });
      child.send({ ...command, id });
    });
  };

  return {
    url: `http://127.0.0.1:${await port}/webhooks`,
    async expect(count, options = {}) {
      reached?.reject(new Error('superseded by a new expect()'));
      const promise = new Promise<number>((resolve, reject) => {
        reached = { resolve, reject };
      });
      promise.catch(() => {});
      await ask({ type: 'expect', count, ...options });
      return { reached: promise };
    },
    async collect() {
      const { type: _type, id: _id, ...arrivals } = (await ask({ type: 'collect' })) as Extract<SinkMessage, { type: 'collected' }>;
      return arrivals;
    },
    async close() {
      if (exited) return;
      const gone = new Promise((resolve) => child.once('exit', resolve));
      child.disconnect();
      await gone;
    },
  };
}
