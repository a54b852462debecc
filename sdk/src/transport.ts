// One HTTP exchange with PVS, retried when the answer (or its absence) says a retry can succeed. It knows
// nothing of tokens or resources: the client adds the headers, the resources the paths.
import { ConnectionError, errorFromAnswer, TimeoutError, type PvsError } from './errors.ts';
import { isNothingDoneStatus, isRetryableStatus, maxRetryAfterSeconds, parseRetryAfter, retryDelayMs, sleep } from './retry.ts';
import type { RequestOptions } from './types.ts';

export type Fetch = (input: string, init: RequestInit) => Promise<Response>;

export interface TransportConfig {
  baseUrl: string;
  fetch: Fetch;
  timeoutMs: number;
  maxRetries: number;
}

export interface Call {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  query?: object;
  headers?: Record<string, string>;
  json?: unknown;
  form?: URLSearchParams;
  /**
   * Whether doing it twice is harmless: every method but POST, and a POST that carries an
   * Idempotency-Key PVS honours. Anything else is repeated only after an answer that says nothing was
   * done (429, 503), never after a timeout or a lost connection, which may hide a success.
   */
  repeatable: boolean;
  options?: RequestOptions;
}

export interface Answer {
  status: number;
  headers: Headers;
  body: unknown;
}

function urlOf(baseUrl: string, path: string, query: object | undefined): string {
  const url = new URL(path, baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`);
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null) url.searchParams.set(name, String(value));
  }
  return url.toString();
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === '') return undefined;
  if (!/json/i.test(response.headers.get('content-type') ?? '')) return text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export function createTransport(config: TransportConfig) {
  /** One attempt: an answer, or a ConnectionError/TimeoutError when none came. */
  async function attempt(call: Call, timeoutMs: number): Promise<Answer> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new TimeoutError(`No answer from PVS within ${timeoutMs} ms (${call.method} ${call.path})`)), timeoutMs);
    const onCallerAbort = () => controller.abort(call.options?.signal?.reason);
    call.options?.signal?.addEventListener('abort', onCallerAbort, { once: true });
    const headers: Record<string, string> = { accept: 'application/json, application/problem+json', ...call.headers };
    let body: string | undefined;
    if (call.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(call.json);
    } else if (call.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = call.form.toString();
    }
    try {
      const response = await config.fetch(urlOf(config.baseUrl, call.path, call.query), { method: call.method, headers, body, signal: controller.signal });
      return { status: response.status, headers: response.headers, body: await readBody(response) };
    } catch (error) {
      if (call.options?.signal?.aborted) throw call.options.signal.reason;
      if (controller.signal.reason instanceof TimeoutError) throw controller.signal.reason;
      throw new ConnectionError(`Could not reach PVS (${call.method} ${call.path}): ${(error as Error)?.message ?? String(error)}`, { cause: error });
    } finally {
      clearTimeout(timer);
      call.options?.signal?.removeEventListener('abort', onCallerAbort);
    }
  }

  /** The answer of a 2xx; a PvsError subclass for anything else, after the retries it deserves. */
  async function send(call: Call): Promise<Answer> {
    const maxRetries = call.options?.maxRetries ?? config.maxRetries;
    const timeoutMs = call.options?.timeoutMs ?? config.timeoutMs;
    for (let retry = 0; ; retry += 1) {
      let failure: PvsError;
      let mayRepeat: boolean;
      try {
        const answer = await attempt(call, timeoutMs);
        if (answer.status < 300) return answer;
        const retryAfter = parseRetryAfter(answer.headers.get('retry-after'));
        failure = errorFromAnswer(answer.status, answer.body, { requestId: answer.headers.get('x-request-id') ?? undefined, retryAfter });
        mayRepeat =
          isRetryableStatus(answer.status) && (call.repeatable || isNothingDoneStatus(answer.status)) && (retryAfter === undefined || retryAfter <= maxRetryAfterSeconds);
      } catch (error) {
        if (!(error instanceof ConnectionError)) throw error;
        failure = error;
        mayRepeat = call.repeatable;
      }
      if (!mayRepeat || retry >= maxRetries) throw failure;
      await sleep(retryDelayMs(retry, failure.retryAfter), call.options?.signal);
    }
  }

  return { send };
}

export type Transport = ReturnType<typeof createTransport>;
