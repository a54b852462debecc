// One HTTP delivery: POST the exact body with its signature headers over a keep-alive connection.
// A 2xx within the deadline is success; any other status, a redirect (never followed), a timeout or
// a connection failure is a failure, classified for the attempt record.
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import type { Agent } from 'undici';
import { lazy } from '../../platform/lazy.ts';
import { isInternalAddress, type Environment } from './url-policy.ts';

export type ErrorClass = 'NONE' | 'HTTP_STATUS' | 'REDIRECT' | 'TIMEOUT' | 'CONNECTION_REFUSED' | 'CONNECTION_ERROR' | 'ADDRESS_REFUSED';

export interface DeliveryResult {
  ok: boolean;
  statusCode: number | null;
  errorClass: ErrorClass;
  durationMs: number;
  /** At most 1 KB of the answer, for the partner's debugging; never more is kept. */
  excerpt: string | null;
  retryAfter?: string;
}

export interface Deliverer {
  deliver(target: { url: string; body: string; headers: Record<string, string> }): Promise<DeliveryResult>;
  close(): Promise<void>;
}

const excerptBytes = 1024;
// Read (and discard) up to this much of an answer so the connection can be reused; more, and the
// connection is dropped instead.
const drainLimitBytes = 64 * 1024;

class AddressRefusedError extends Error {
  override name = 'AddressRefusedError';
}

/** Resolves like dns.lookup but refuses internal addresses: the address checked is the one connected to. */
const publicOnlyLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
    if (error) return callback(error, '', 0);
    if (addresses.length === 0 || addresses.some((a) => isInternalAddress(a.address))) {
      return callback(new AddressRefusedError(`${hostname} resolves to an internal address`) as NodeJS.ErrnoException, '', 0);
    }
    if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
    callback(null, addresses[0]!.address, addresses[0]!.family);
  });
};

function classify(error: unknown, timedOut: boolean): ErrorClass {
  if (timedOut) return 'TIMEOUT';
  let e = error as { code?: string; name?: string; cause?: unknown } | undefined;
  for (let depth = 0; e && depth < 4; depth++) {
    if (e.name === 'AddressRefusedError') return 'ADDRESS_REFUSED';
    if (e.code === 'ECONNREFUSED') return 'CONNECTION_REFUSED';
    if (e.code === 'UND_ERR_HEADERS_TIMEOUT' || e.code === 'UND_ERR_BODY_TIMEOUT' || e.code === 'UND_ERR_CONNECT_TIMEOUT') return 'TIMEOUT';
    e = e.cause as typeof e;
  }
  return 'CONNECTION_ERROR';
}

// undici is loaded at the first delivery: its 112 modules cost a process a fifth of a second of CPU, and
// most processes that build the service (the CLI's commands, a worker without destinations) never deliver.
const loadUndici = lazy(() => import('undici'));

export function createDeliverer(options: { environment: Environment; timeoutMs?: number; connectionsPerOrigin?: number }): Deliverer {
  const timeoutMs = options.timeoutMs ?? 5_000;
  let agent: Agent | undefined;
  let closed = false;
  const connection = lazy(async () => {
    const undici = await loadUndici();
    // As a closed agent does: a delivery that was still loading undici when the deliverer closed fails.
    if (closed) throw new Error('the deliverer is closed');
    agent = new undici.Agent({
      keepAliveTimeout: 30_000,
      connections: options.connectionsPerOrigin ?? 16,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      connect: { timeout: timeoutMs, ...(options.environment === 'production' ? { lookup: publicOnlyLookup } : {}) },
    });
    return { request: undici.request, agent };
  });

  return {
    async deliver({ url, body, headers }) {
      const started = performance.now();
      // Node does not call the lookup for a literal IP, so a literal internal address is refused here.
      if (options.environment === 'production') {
        const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
        if (isIP(host) && isInternalAddress(host)) {
          return { ok: false, statusCode: null, errorClass: 'ADDRESS_REFUSED', durationMs: 0, excerpt: null };
        }
      }
      const signal = AbortSignal.timeout(timeoutMs);
      try {
        const { request, agent } = await connection();
        const response = await request(url, { method: 'POST', body, headers, dispatcher: agent, signal });
        let excerpt = '';
        let read = 0;
        for await (const chunk of response.body) {
          if (excerpt.length < excerptBytes) excerpt += Buffer.from(chunk).toString('utf8', 0, excerptBytes - excerpt.length);
          read += chunk.length;
          if (read > drainLimitBytes) {
            response.body.destroy();
            break;
          }
        }
        const status = response.statusCode;
        const retryAfter = response.headers['retry-after'];
        return {
          ok: status >= 200 && status < 300,
          statusCode: status,
          errorClass: status >= 200 && status < 300 ? 'NONE' : status >= 300 && status < 400 ? 'REDIRECT' : 'HTTP_STATUS',
          durationMs: Math.round(performance.now() - started),
          excerpt: excerpt.slice(0, excerptBytes) || null,
          ...(typeof retryAfter === 'string' ? { retryAfter } : {}),
        };
      } catch (error) {
        return {
          ok: false,
          statusCode: null,
          errorClass: classify(error, signal.aborted),
          durationMs: Math.round(performance.now() - started),
          excerpt: null,
        };
      }
    },
    async close() {
      closed = true;
      await agent?.close();
    },
  };
}
