// Signed uploads of the local back-end. The URL carries `upload` (the analysis id), `expires` and
// `signature`: an HMAC-SHA-256 over the method, the key, the analysis id, the expiry and the values of
// the headers the partner must send (Content-Type application/pdf, x-pvs-upload-id = the analysis id).
// So a change to the path, the query or either header is refused, and because the signed id is in the
// URL the refusal can say which header was wrong. Like platform/signed-urls.ts, an expired URL is told
// apart from a forged one only after its signature holds.
import { createHmac } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { Clock } from '../../platform/clock.ts';
import { constantTimeEqual } from '../../platform/crypto.ts';
import { assertAnalysisId, assertStorageKey, isStorageKey, uploadWindowEnd } from './storage-keys.ts';

export const uploadContentType = 'application/pdf';
export const uploadIdHeader = 'x-pvs-upload-id';

const signatureShape = /^[A-Za-z0-9_-]{43}$/;
const expiresShape = /^[0-9]{1,12}$/;
const uploadShape = /^[A-Za-z0-9_-]{1,64}$/;
const queryNames = ['expires', 'signature', 'upload'];

/** Why a PUT is refused: `pointer` names the part of the request that differs from what was signed. */
export type UploadCheck = { ok: true } | { ok: false; pointer: string; detail: string };

export interface UploadAsReceived {
  /** The key as the route read it from the path (not yet trusted). */
  key: string;
  query: Record<string, unknown>;
  headers: IncomingHttpHeaders;
}

/** `keys`: signs with the current; a URL signed with any of them holds (SECRET_KEY rotated: platform/keys). */
export function createUploadSigner(deps: { keys: { current: Buffer; all: readonly Buffer[] }; clock: Clock }) {
  const { clock } = deps;

  function signatureOf(storageKey: string, upload: string, expires: string, key = deps.keys.current): string {
    const signed = ['pvs-upload-v1', 'PUT', storageKey, upload, expires, `content-type:${uploadContentType}`, `${uploadIdHeader}:${upload}`];
    return createHmac('sha256', key).update(signed.join('\n')).digest('base64url');
  }

  return {
    /** The query string for a PUT of `storageKey` by the analysis, and when it stops working. */
    sign(storageKey: string, analysisId: string, expiresAt: Date): { query: string; expiresAt: Date } {
      assertStorageKey(storageKey);
      assertAnalysisId(analysisId);
      const expires = String(uploadWindowEnd(expiresAt, clock.now()));
      const query = new URLSearchParams({ upload: analysisId, expires, signature: signatureOf(storageKey, analysisId, expires) });
      return { query: query.toString(), expiresAt: new Date(Number(expires) * 1000) };
    },

    /** The path and query: signed by PVS, unchanged, and not expired. */
    checkUrl(request: Pick<UploadAsReceived, 'key' | 'query'>): UploadCheck {
      const { query } = request;
      const names = Object.keys(query).sort();
      if (names.join('&') !== queryNames.join('&') || !queryNames.every((name) => typeof query[name] === 'string')) {
        return { ok: false, pointer: 'query:signature', detail: 'The upload URL was changed: its query must be exactly upload, expires and signature, as in upload.url' };
      }
      const { upload, expires, signature } = query as { upload: string; expires: string; signature: string };
      const wellFormed = isStorageKey(request.key) && uploadShape.test(upload) && expiresShape.test(expires) && signatureShape.test(signature);
      if (!wellFormed || !deps.keys.all.some((key) => constantTimeEqual(signatureOf(request.key, upload, expires, key), signature))) {
        return { ok: false, pointer: 'query:signature', detail: 'The upload URL was changed: its signature does not match its path and query. Use upload.url exactly as returned' };
      }
      if (clock.now().getTime() >= Number(expires) * 1000) {
        return { ok: false, pointer: 'query:expires', detail: `The upload URL expired at ${new Date(Number(expires) * 1000).toISOString()} (upload.expiresAt)` };
      }
      return { ok: true };
    },

    /** The signed headers, against a URL `checkUrl` accepted: exactly the values in upload.headers. */
    checkHeaders(request: Pick<UploadAsReceived, 'query' | 'headers'>): UploadCheck {
      const { headers } = request;
      if (headers['content-type'] !== uploadContentType) {
        return { ok: false, pointer: 'header:Content-Type', detail: `Header Content-Type must be exactly ${uploadContentType}, as in upload.headers` };
      }
      const sent = headers[uploadIdHeader];
      if (sent === undefined) {
        return { ok: false, pointer: `header:${uploadIdHeader}`, detail: `Header ${uploadIdHeader} is missing: send every header in upload.headers` };
      }
      if (typeof sent !== 'string' || !constantTimeEqual(sent, String(request.query.upload))) {
        return { ok: false, pointer: `header:${uploadIdHeader}`, detail: `Header ${uploadIdHeader} differs from the value in upload.headers for this URL` };
      }
      return { ok: true };
    },
  };
}

export type UploadSigner = ReturnType<typeof createUploadSigner>;
