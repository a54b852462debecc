// /v1/channel-partners/me and /v1/api-clients: who the credentials are, and rotating them.
import { path, type Api } from '../api.ts';
import type { AnswerOf, BodyOf, ItemOf, PageOf, QueryOf, RequestOptions } from '../types.ts';

export function createChannelPartners(api: Api) {
  return {
    me: (options?: RequestOptions) => api.request<AnswerOf<'getCurrentPartner'>>({ method: 'GET', path: '/v1/channel-partners/me', options }),
  };
}

export function createApiClients(api: Api) {
  return {
    /** A new client; its `clientSecret` is answered this once (a replay answers without it). */
    create: (body: BodyOf<'createApiClient'>, options?: RequestOptions) =>
      api.request<AnswerOf<'createApiClient'>>({ method: 'POST', path: '/v1/api-clients', json: body, idempotent: true, options }),
    retrieve: (id: string, options?: RequestOptions) => api.request<AnswerOf<'getApiClient'>>({ method: 'GET', path: path`/v1/api-clients/${id}`, options }),
    list: (query: QueryOf<'listApiClients'> = {}, options?: RequestOptions) =>
      api.list<ItemOf<'listApiClients'>, PageOf<'listApiClients'>>('/v1/api-clients', query, options),
    revoke: (id: string, options?: RequestOptions) => api.request<AnswerOf<'revokeApiClient'>>({ method: 'DELETE', path: path`/v1/api-clients/${id}`, options }),
  };
}
