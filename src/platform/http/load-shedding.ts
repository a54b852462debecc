// Load shedding: one process works on at most `maxInFlight` requests at once. The next one is answered
// at once, before any hook that reads the database, with 503 SERVICE_UNAVAILABLE and Retry-After, so a
// burst far beyond capacity costs a short answer per request instead of a queue (and its memory) that
// grows with the burst. /health and /ready are never shed: a load balancer must still see the process.
//
// A refused request's connection is closed with the answer. A client that sends again at once must then
// connect again, which the kernel paces (accept queue, TCP handshake) at no cost to this process; on a
// kept-alive connection it would be back within the same turn of the event loop, and a few thousand
// such clients keep the process busy answering 503s instead of finishing the requests it took
// (bench/README.md, `overload`: under 2,000 such clients it served 0.01–0.1× of its capacity with
// keep-alive, 0.4–1× with the connection closed).
//
// Invariant: a request holds its slot while its connection is open or its handler is running, and
// gives it back exactly once. A client that gives up does not end the work it started: a handler still
// running when the connection closes keeps the slot until it settles (otherwise clients that time out
// and retry would pile up handlers beyond the limit), and a handler that starts after the connection
// closed takes a slot back for as long as it runs.
import type { FastifyRequest } from 'fastify';
import { AppError } from '../errors.ts';
import { sendProblem } from './problem.ts';
import type { HttpApp } from './types.ts';

export interface LoadSheddingOptions {
  /** Requests worked on at once; the next is shed. */
  maxInFlight: number;
  /** Route patterns (as registered) that are never shed. */
  exempt?: readonly string[];
  /** Sent as Retry-After on every shed answer. */
  retryAfterSeconds?: number;
  /** How long without a refused request ends a shedding episode in the log (ms). */
  quietMs?: number;
}

export interface LoadShedding {
  /** Requests holding a slot now. */
  inFlight(): number;
}

interface Slot {
  /** Counted in `inFlight`. */
  held: boolean;
  /** The response finished or the connection closed. */
  closed: boolean;
  /** The route handler has started and not yet settled. */
  running: boolean;
}

const kSlot = Symbol('pvs.loadSheddingSlot');
type WithSlot = FastifyRequest & { [kSlot]: Slot | null };

export const defaultExempt = ['/health', '/ready'] as const;

export function installLoadShedding(app: HttpApp, options: LoadSheddingOptions): LoadShedding {
  const { maxInFlight, retryAfterSeconds = 1, quietMs = 1000 } = options;
  const exempt = new Set<string>(options.exempt ?? defaultExempt);
  const refusal = new AppError('SERVICE_UNAVAILABLE', `PVS is at capacity; retry after ${retryAfterSeconds} s`, { retryAfter: retryAfterSeconds });
  const episode = shedLog(app, quietMs);
  let inFlight = 0;

  const take = (slot: Slot) => {
    slot.held = true;
    inFlight += 1;
  };
  const release = (slot: Slot) => {
    if (!slot.held) return;
    slot.held = false;
    inFlight -= 1;
  };

  app.decorateRequest(kSlot, null);

  // Registered before any route, so every handler (partner API, hosted pages, admin, docs) is wrapped.
  app.addHook('onRoute', (route) => {
    const handler = route.handler;
    route.handler = function withSlot(this: unknown, request, reply) {
      const slot = (request as WithSlot)[kSlot];
      if (!slot) return handler.call(this as never, request, reply);
      if (!slot.held) take(slot);
      slot.running = true;
      const settled = () => {
        slot.running = false;
        if (slot.closed) release(slot);
      };
      let result: unknown;
      try {
        result = handler.call(this as never, request, reply);
      } catch (error) {
        settled();
        throw error;
      }
      if (result instanceof Promise) return result.finally(settled);
      settled();
      return result;
    } as typeof handler;
  });

  app.addHook('onRequest', (request, reply, done) => {
    if (exempt.has(request.routeOptions.url ?? '')) return done();
    if (inFlight >= maxInFlight) {
      episode.shed(inFlight);
      reply.header('connection', 'close');
      void sendProblem(reply, refusal);
      return;
    }
    episode.admitted();
    const slot: Slot = { held: false, closed: false, running: false };
    take(slot);
    (request as WithSlot)[kSlot] = slot;
    // 'close' comes exactly once per response: after it is sent, or when the connection goes first.
    reply.raw.once('close', () => {
      slot.closed = true;
      if (!slot.running) release(slot);
    });
    done();
  });

  app.addHook('onClose', (_instance, done) => {
    episode.stop();
    done();
  });

  return { inFlight: () => inFlight };
}

/** One log line when shedding starts and one when a whole window has passed without shedding. */
function shedLog(app: HttpApp, quietMs: number) {
  let active: { since: number; shed: number; admitted: number; shedThisWindow: number; timer: NodeJS.Timeout } | undefined;
  const stop = () => {
    if (!active) return;
    clearInterval(active.timer);
    const { since, shed, admitted } = active;
    active = undefined;
    app.log.warn({ shed, admitted, seconds: Math.round((Date.now() - since) / 100) / 10 }, 'load shedding stopped');
  };
  return {
    shed(inFlight: number) {
      if (!active) {
        app.log.warn({ inFlight }, 'load shedding started: answering 503 to new requests');
        const timer = setInterval(() => {
          if (active && active.shedThisWindow === 0) stop();
          else if (active) active.shedThisWindow = 0;
        }, quietMs).unref();
        active = { since: Date.now(), shed: 0, admitted: 0, shedThisWindow: 0, timer };
      }
      active.shed += 1;
      active.shedThisWindow += 1;
    },
    admitted() {
      if (active) active.admitted += 1;
    },
    stop,
  };
}
