// /v1/charges (docs/billing.md): what was billed to contacts' cards.
import { path, type Api } from '../api.ts';
import type { AnswerOf, ItemOf, PageOf, QueryOf, RequestOptions } from '../types.ts';

export function createCharges(api: Api) {
  return {
    retrieve: (id: string, options?: RequestOptions) => api.request<AnswerOf<'getCharge'>>({ method: 'GET', path: path`/v1/charges/${id}`, options }),
    list: (query: QueryOf<'listCharges'> = {}, options?: RequestOptions) => api.list<ItemOf<'listCharges'>, PageOf<'listCharges'>>('/v1/charges', query, options),
  };
}
