// /v1/deed-analyses (docs/deeds.md): create, upload the PDF to the signed URL, start.
import { path, type Api } from '../api.ts';
import { errorFromAnswer } from '../errors.ts';
import type { Fetch } from '../transport.ts';
import type { AnswerOf, BodyOf, ItemOf, PageOf, QueryOf, RequestOptions } from '../types.ts';

export type DeedUpload = AnswerOf<'createDeedAnalysis'>['upload'];

export function createDeedAnalyses(api: Api, fetch: Fetch) {
  return {
    // PVS does not deduplicate this create (it takes no Idempotency-Key), so it is never retried after
    // an attempt that may have reached PVS; an unused analysis costs nothing and can be discarded.
    create: (body: BodyOf<'createDeedAnalysis'> = {}, options?: RequestOptions) =>
      api.request<AnswerOf<'createDeedAnalysis'>>({ method: 'POST', path: '/v1/deed-analyses', json: body, options }),
    retrieve: (id: string, options?: RequestOptions) => api.request<AnswerOf<'getDeedAnalysis'>>({ method: 'GET', path: path`/v1/deed-analyses/${id}`, options }),
    list: (query: QueryOf<'listDeedAnalyses'> = {}, options?: RequestOptions) =>
      api.list<ItemOf<'listDeedAnalyses'>, PageOf<'listDeedAnalyses'>>('/v1/deed-analyses', query, options),
    /** Starts the analysis of the uploaded PDF; the result arrives once, by `deed-analysis.completed`. */
    start: (id: string, options?: RequestOptions) =>
      api.request<AnswerOf<'startDeedAnalysis'>>({ method: 'POST', path: path`/v1/deed-analyses/${id}/start`, options }),
    discard: (id: string, options?: RequestOptions) =>
      api.request<AnswerOf<'discardDeedAnalysis'>>({ method: 'DELETE', path: path`/v1/deed-analyses/${id}`, options }),
    /**
     * PUTs the PDF to the signed `upload.url` with exactly `upload.headers`: the signature covers them,
     * and storage refuses anything added or missing. No token goes with it: the URL is the permission.
     */
    async uploadPdf(upload: DeedUpload, bytes: Uint8Array): Promise<void> {
      const response = await fetch(upload.url, { method: 'PUT', headers: { ...(upload.headers as Record<string, string>) }, body: bytes });
      const text = await response.text();
      if (!response.ok) {
        let body: unknown = text;
        try {
          body = JSON.parse(text);
        } catch {
          // Storage other than PVS's own may answer XML or nothing; keep the text.
        }
        throw errorFromAnswer(response.status, body, { requestId: response.headers.get('x-request-id') ?? undefined });
      }
    },
  };
}
