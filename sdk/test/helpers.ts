// The real PVS app on a database of its own, listening on 127.0.0.1, and an SDK client pointed at it as
// a partner would point one: over HTTP, with the partner's client id and secret.
import type { AddressInfo } from 'node:net';
import { createTestContext, type TestContext, type TestPartner } from '../../test/helpers/context.ts';
import { Pvs, type PvsOptions } from '../src/index.ts';

export interface Served {
  t: TestContext;
  baseUrl: string;
  /** Reaches the app: the app's signed URLs name its PUBLIC_BASE_URL (http://pvs.test in tests), rewritten here to where it listens. */
  fetch: NonNullable<PvsOptions['fetch']>;
  close(): Promise<void>;
}

export async function serve(options: Parameters<typeof createTestContext>[0] = {}): Promise<Served> {
  const t = await createTestContext(options);
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  const baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  const publicBase = t.config.PUBLIC_BASE_URL.replace(/\/$/, '');
  return {
    t,
    baseUrl,
    fetch: (input, init) => globalThis.fetch(input.startsWith(publicBase) ? baseUrl + input.slice(publicBase.length) : input, init),
    close: () => t.close(),
  };
}

export interface Exchange {
  method: string;
  url: string;
  headers: Record<string, string>;
  status: number | 'network error';
}

/**
 * A fetch that records every exchange and lets a test change an answer: `answer` sees the request and
 * either returns a Response of its own, or undefined to pass it to the app.
 */
export function recordingFetch(served: Served, answer: (request: { method: string; url: string; n: number }) => Response | undefined | Promise<Response | undefined> = () => undefined) {
  const exchanges: Exchange[] = [];
  const fetch: NonNullable<PvsOptions['fetch']> = async (input, init) => {
    const method = init.method ?? 'GET';
    const headers = Object.fromEntries(Object.entries((init.headers ?? {}) as Record<string, string>).map(([k, v]) => [k.toLowerCase(), v]));
    const record: Exchange = { method, url: input, headers, status: 'network error' };
    exchanges.push(record);
    const own = await answer({ method, url: input, n: exchanges.length });
    const response = own ?? (await served.fetch(input, init));
    record.status = response.status;
    return response;
  };
  return { fetch, exchanges, count: (method: string, pathname: string) => exchanges.filter((e) => e.method === method && new URL(e.url).pathname === pathname).length };
}

export function clientFor(served: Served, partner: TestPartner, options: Partial<PvsOptions> = {}): Pvs {
  return new Pvs({ clientId: partner.clientId, clientSecret: partner.clientSecret, partnerId: partner.partnerId, baseUrl: served.baseUrl, fetch: served.fetch, ...options });
}

export function problem(status: number, body: Record<string, unknown>, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify({ type: `https://docs.pvs.example/errors/${String(body.code)}`, status, ...body }), {
    status,
    headers: { 'content-type': 'application/problem+json', ...headers },
  });
}
