// /v1/verifications (docs/verifications.md): requests, their people, the links they follow, the evidence
// read back and the reports.
import { path, type Api } from '../api.ts';
import type { AnswerOf, BodyOf, ItemOf, PageOf, QueryOf, RequestOptions } from '../types.ts';

export function createVerifications(api: Api) {
  return {
    create: (body: BodyOf<'createVerification'>, options?: RequestOptions) =>
      api.request<AnswerOf<'createVerification'>>({ method: 'POST', path: '/v1/verifications', json: body, idempotent: true, options }),
    retrieve: (id: string, options?: RequestOptions) => api.request<AnswerOf<'getVerification'>>({ method: 'GET', path: path`/v1/verifications/${id}`, options }),
    list: (query: QueryOf<'listVerifications'> = {}, options?: RequestOptions) =>
      api.list<ItemOf<'listVerifications'>, PageOf<'listVerifications'>>('/v1/verifications', query, options),
    addIndividual: (id: string, body: BodyOf<'addVerificationIndividual'>, options?: RequestOptions) =>
      api.request<AnswerOf<'addVerificationIndividual'>>({ method: 'POST', path: path`/v1/verifications/${id}/individuals`, json: body, idempotent: true, options }),
    /** Confirms (or not) the ownership structure of a request in `UBO_REVIEW`. */
    confirmStructure: (id: string, body: BodyOf<'confirmVerificationStructure'>, options?: RequestOptions) =>
      api.request<AnswerOf<'confirmVerificationStructure'>>({ method: 'PUT', path: path`/v1/verifications/${id}/structure-confirmation`, json: body, options }),
    /** Single-use links for everyone (or `individualIds`); minting again replaces the earlier links. */
    mintLinks: (id: string, body: BodyOf<'mintVerificationLinks'> = {}, options?: RequestOptions) =>
      api.request<AnswerOf<'mintVerificationLinks'>>({ method: 'POST', path: path`/v1/verifications/${id}/links`, json: body, options }),
    documentDetails: (id: string, individualId: string, query: QueryOf<'getDocumentDetails'> = {}, options?: RequestOptions) =>
      api.request<AnswerOf<'getDocumentDetails'>>({ method: 'GET', path: path`/v1/verifications/${id}/individuals/${individualId}/document-details`, query, options }),
    amlMatches: (id: string, individualId: string, options?: RequestOptions) =>
      api.request<AnswerOf<'getAmlMatches'>>({ method: 'GET', path: path`/v1/verifications/${id}/individuals/${individualId}/aml-matches`, options }),
    /** A signed URL to the entity report (no token needed, 15 minutes). */
    report: (id: string, options?: RequestOptions) =>
      api.request<AnswerOf<'createEntityReport'>>({ method: 'POST', path: path`/v1/verifications/${id}/report`, options }),
    individualReport: (id: string, individualId: string, options?: RequestOptions) =>
      api.request<AnswerOf<'createIndividualReport'>>({ method: 'POST', path: path`/v1/verifications/${id}/individuals/${individualId}/report`, options }),
  };
}
