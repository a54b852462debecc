// /v1/business-lookups (docs/lookups.md).
import { path, type Api } from '../api.ts';
import type { AnswerOf, BodyOf, ItemOf, PageOf, QueryOf, RequestOptions } from '../types.ts';

/** One of `abn` or `acn` is required; with both, they must name the same company. */
export type BusinessLookupCreate = BodyOf<'createBusinessLookup'> & ({ abn: string } | { acn: string });

export function createBusinessLookups(api: Api) {
  return {
    /** Answers 202 at once with `lookupRequestId`; the result arrives by `business-lookup.completed`. */
    create: (body: BusinessLookupCreate, options?: RequestOptions) =>
      api.request<AnswerOf<'createBusinessLookup'>>({ method: 'POST', path: '/v1/business-lookups', json: body, idempotent: true, options }),
    retrieve: (id: string, options?: RequestOptions) => api.request<AnswerOf<'getBusinessLookup'>>({ method: 'GET', path: path`/v1/business-lookups/${id}`, options }),
    list: (query: QueryOf<'listBusinessLookups'> = {}, options?: RequestOptions) =>
      api.list<ItemOf<'listBusinessLookups'>, PageOf<'listBusinessLookups'>>('/v1/business-lookups', query, options),
    registry: (id: string, options?: RequestOptions) =>
      api.request<AnswerOf<'getBusinessLookupRegistry'>>({ method: 'GET', path: path`/v1/business-lookups/${id}/registry`, options }),
    ownership: (id: string, options?: RequestOptions) =>
      api.request<AnswerOf<'getBusinessLookupOwnership'>>({ method: 'GET', path: path`/v1/business-lookups/${id}/ownership`, options }),
  };
}
