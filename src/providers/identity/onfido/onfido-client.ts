// Onfido's official client (@onfido/api), loaded at the first call that needs it (platform/lazy.ts: the
// SDK and axios cost about 150 ms to load, which `pvs --help` should not pay), and every call bounded in
// time. A call answers a value: what Onfido sent, or what its failure means (onfido-errors.ts). A client
// that cannot be loaded is answered as Onfido's own outage is.
import type * as OnfidoSdk from '@onfido/api';
import { describeLoadError, lazy } from '../../../platform/lazy.ts';
import { failureOf, type OnfidoFailure } from './onfido-errors.ts';

export type OnfidoRegion = 'eu' | 'us' | 'ca';

export interface OnfidoClientOptions {
  apiToken: string;
  region: OnfidoRegion;
  /** Another address for the API, ending in its version (`…/v3.6`); the region's own by default. */
  apiUrl?: string;
  /** For each call, connection to last byte; an upload gets three times as long. */
  timeoutMs?: number;
}

/** What a request is given: the time it may take, enforced twice (idle socket, and the whole call). */
export interface CallOptions {
  timeout: number;
  signal: AbortSignal;
}

export type CallResult<T> = { ok: true; value: T } | OnfidoFailure;

export interface OnfidoClient {
  call<T>(operation: string, request: (api: OnfidoSdk.DefaultApi, options: CallOptions, sdk: typeof OnfidoSdk) => Promise<{ data: T }>, kind?: 'upload'): Promise<CallResult<T>>;
  /** The SDK itself, for the webhook verifier; throws when it cannot be loaded. */
  sdk(): Promise<typeof OnfidoSdk>;
}

const defaultTimeoutMs = 20_000;

/** For a download: the body as bytes (by default axios would decode it as UTF-8 text). */
export const asBytes = { responseType: 'arraybuffer' } as const;

/** A download's bytes: the SDK wraps a non-JSON answer in a FileTransfer. */
export function bytesOf(data: unknown): Buffer {
  return Buffer.isBuffer(data) ? data : Buffer.from((data as { buffer: Buffer }).buffer);
}

const loadSdk = lazy(() => import('@onfido/api'));

export function createOnfidoClient(options: OnfidoClientOptions): OnfidoClient {
  if (!options.apiToken) throw new Error('Onfido identity: no API token was configured (ONFIDO_API_TOKEN).');
  const timeoutMs = options.timeoutMs ?? defaultTimeoutMs;
  let api: OnfidoSdk.DefaultApi | undefined;

  async function connected(): Promise<{ sdk: typeof OnfidoSdk; api: OnfidoSdk.DefaultApi }> {
    const sdk = await loadSdk();
    api ??= new sdk.DefaultApi(
      new sdk.Configuration({
        apiToken: options.apiToken,
        region: sdk.Region[options.region.toUpperCase() as keyof typeof sdk.Region],
        ...(options.apiUrl ? { basePath: options.apiUrl.replace(/\/+$/, '') } : {}),
        baseOptions: { timeout: timeoutMs },
      }),
    );
    return { sdk, api };
  }

  return {
    sdk: loadSdk,

    async call(operation, request, kind) {
      let client: Awaited<ReturnType<typeof connected>>;
      try {
        client = await connected();
      } catch (error) {
        return { ok: false, kind: 'unavailable', message: `Onfido ${operation}: the Onfido client could not be loaded (${describeLoadError(error)})` };
      }
      const timeout = kind === 'upload' ? 3 * timeoutMs : timeoutMs;
      try {
        const response = await request(client.api, { timeout, signal: AbortSignal.timeout(timeout) }, client.sdk);
        return { ok: true, value: response.data };
      } catch (error) {
        return failureOf(operation, error);
      }
    },
  };
}
