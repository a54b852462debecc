// What every resource method goes through: the token and partner headers, the idempotency key of a
// creating POST (one per call, the same on each of its retries), and one retry after a refused token.
import { randomUUID } from 'node:crypto';
import { AuthenticationError } from './errors.ts';
import { PageList, type Page } from './list.ts';
import type { TokenSource } from './token.ts';
import type { Call, Transport } from './transport.ts';
import type { RequestOptions } from './types.ts';
import { version } from './version.ts';

// PVS reads only the headers it documents and ignores the rest (docs/conventions.md), so this one is safe
// to send; it tells PVS's operators which client and version a partner runs.
const userAgent = `pvs-client-node/${version}`;

export interface ApiCall {
  method: Call['method'];
  path: string;
  query?: object;
  json?: unknown;
  /** A creating POST that PVS deduplicates on Idempotency-Key. */
  idempotent?: boolean;
  options?: RequestOptions;
}

/** Encodes each interpolated value as one path segment: `path\`/v1/verifications/${id}\``. */
export function path(strings: TemplateStringsArray, ...values: string[]): string {
  return strings.reduce((out, part, i) => out + part + (i < values.length ? encodeURIComponent(values[i]!) : ''), '');
}

export function createApi(deps: { transport: Transport; tokens: TokenSource; partnerId: string }) {
  async function request<T>(call: ApiCall): Promise<T> {
    const idempotencyKey = call.idempotent ? (call.options?.idempotencyKey ?? randomUUID()) : undefined;
    const send = async (token: string) =>
      deps.transport.send({
        method: call.method,
        path: call.path,
        query: call.query,
        json: call.json,
        options: call.options,
        repeatable: call.method !== 'POST' || idempotencyKey !== undefined,
        headers: {
          authorization: `Bearer ${token}`,
          'x-partner-id': deps.partnerId,
          'user-agent': userAgent,
          ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}),
        },
      });
    const token = await deps.tokens.get();
    try {
      return (await send(token)).body as T;
    } catch (error) {
      if (!(error instanceof AuthenticationError)) throw error;
      // The token may have been revoked or signed with a retired key: one fresh token, one more try.
      deps.tokens.invalidate(token);
      return (await send(await deps.tokens.get())).body as T;
    }
  }

  function list<Item, P extends Page<Item>>(listPath: string, query: { from?: number } & object = {}, options?: RequestOptions): PageList<Item, P> {
    return new PageList<Item, P>((from) => request<P>({ method: 'GET', path: listPath, query: { ...query, from }, options }), query.from);
  }

  return { request, list };
}

export type Api = ReturnType<typeof createApi>;
