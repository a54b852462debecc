// PVS's partner API called exactly as a partner's own code calls it: a client-credentials token from
// POST /oauth2/token, then `Authorization: Bearer` and `X-Partner-Id` on every /v1 call. The failures a
// developer can meet (PVS not running, credentials refused, a refusal of PVS's) come back as errors
// whose message says what was wrong and what to do; nothing here prints.
import { ListenError, type PartnerCredentials } from './listen-options.ts';

/** PVS could not be reached at all: not running, wrong address, or not answering. */
export class PvsUnreachableError extends ListenError {
  override name = 'PvsUnreachableError';
  constructor(
    readonly apiUrl: string,
    readonly reason: string,
  ) {
    super(`Cannot reach PVS at ${apiUrl} (${reason}). Is it running? Start it with \`npm start\`, or give its address with --api URL (or PVS_API_URL).`);
  }
}

/** PVS answered, and refused: `status` and `code` (problem+json's, or OAuth's `error`) for callers that handle one. */
export class PvsRefusalError extends ListenError {
  override name = 'PvsRefusalError';
  constructor(
    message: string,
    readonly status: number,
    readonly code: string | undefined,
  ) {
    super(message);
  }
}

export interface PartnerClient {
  request<T>(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, body?: unknown): Promise<T>;
}

const timeoutMs = 10_000;
/** A token is fetched again this long before it expires, so a long session never sends a stale one. */
const tokenMarginMs = 60_000;

export function createPartnerClient(options: { apiUrl: string; credentials: PartnerCredentials; credentialsSource: string }): PartnerClient {
  const { apiUrl, credentials } = options;
  let token: { value: string; until: number } | undefined;

  async function send(path: string, init: RequestInit): Promise<{ status: number; body: Record<string, unknown> | undefined }> {
    let response: Response;
    try {
      response = await fetch(`${apiUrl}${path}`, { ...init, redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) });
    } catch (error) {
      throw new PvsUnreachableError(apiUrl, networkReason(error));
    }
    const text = await response.text();
    let body: Record<string, unknown> | undefined;
    try {
      body = text ? (JSON.parse(text) as Record<string, unknown>) : undefined;
    } catch {
      body = undefined;
    }
    return { status: response.status, body };
  }

  async function accessToken(): Promise<string> {
    if (token && token.until > Date.now()) return token.value;
    const form = new URLSearchParams({ grant_type: 'client_credentials', client_id: credentials.clientId, client_secret: credentials.clientSecret });
    const { status, body } = await send('/oauth2/token', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form });
    if (status === 200 && typeof body?.access_token === 'string') {
      const lifetimeMs = (typeof body.expires_in === 'number' ? body.expires_in : 300) * 1000;
      token = { value: body.access_token, until: Date.now() + Math.max(0, lifetimeMs - tokenMarginMs) };
      return token.value;
    }
    if (status === 401 || body?.error === 'invalid_client') {
      throw new PvsRefusalError(
        `PVS at ${apiUrl} refused the credentials of client ${credentials.clientId} (from ${options.credentialsSource}): ${describe(body, status)}. ` +
          'Check the client id and secret: a secret is shown once, when the partner or client is created.',
        status,
        'invalid_client',
      );
    }
    throw refusal(status, body, 'POST /oauth2/token');
  }

  function refusal(status: number, body: Record<string, unknown> | undefined, call: string): PvsRefusalError {
    const code = typeof body?.code === 'string' ? body.code : typeof body?.error === 'string' ? body.error : undefined;
    if (body === undefined) {
      return new PvsRefusalError(`${apiUrl} answered ${status} with no JSON to ${call}: is that PVS's API address? (give it with --api URL)`, status, code);
    }
    if (code === 'PARTNER_MISMATCH') {
      return new PvsRefusalError(
        `Client ${credentials.clientId} does not belong to partner ${credentials.partnerId} (from ${options.credentialsSource}): pass the partner id the client was created for`,
        status,
        code,
      );
    }
    if (status === 403) return new PvsRefusalError(`Partner ${credentials.partnerId} is not allowed to ${call}: ${describe(body, status)}`, status, code);
    return new PvsRefusalError(`PVS refused ${call} with ${status}${code ? ` ${code}` : ''}: ${describe(body, status)}`, status, code);
  }

  return {
    async request<T>(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, body?: unknown): Promise<T> {
      const call = async () => {
        const headers: Record<string, string> = { authorization: `Bearer ${await accessToken()}`, 'x-partner-id': credentials.partnerId };
        if (body !== undefined) headers['content-type'] = 'application/json';
        return send(path, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
      };
      let answer = await call();
      // A token PVS no longer takes (its signing key rotated, the server restarted on a new DATA_DIR): once more with a new one.
      if (answer.status === 401 && token) {
        token = undefined;
        answer = await call();
      }
      if (answer.status >= 200 && answer.status < 300) return answer.body as T;
      throw refusal(answer.status, answer.body, `${method} ${path}`);
    },
  };
}

function describe(body: Record<string, unknown> | undefined, status: number): string {
  const detail = body?.detail ?? body?.error_description ?? body?.title;
  const field = Array.isArray(body?.errors) ? (body.errors as { pointer?: string; message?: string }[]).map((e) => `${e.pointer ?? ''} ${e.message ?? ''}`.trim()) : [];
  const text = typeof detail === 'string' ? detail : `HTTP ${status}`;
  return field.length ? `${text} (${field.join('; ')})` : text;
}

/** fetch's own failures say "fetch failed"; the cause says what happened. */
export function networkReason(error: unknown): string {
  const e = error as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (e.name === 'TimeoutError') return `no answer within ${timeoutMs / 1000} s`;
  // A system error's code (ECONNREFUSED, ENOTFOUND) says it best; undici's own errors say it in words.
  if (e.cause?.code?.startsWith('E')) return e.cause.code;
  return e.cause?.message ?? e.message ?? String(error);
}
