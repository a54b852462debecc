// /v1/payments (docs/payments.md): ATO payments through hosted payment links.
import { path, type Api } from '../api.ts';
import type { AnswerOf, BodyOf, ItemOf, PageOf, QueryOf, RequestOptions } from '../types.ts';

export function createPayments(api: Api) {
  return {
    create: (body: BodyOf<'createPayment'>, options?: RequestOptions) =>
      api.request<AnswerOf<'createPayment'>>({ method: 'POST', path: '/v1/payments', json: body, idempotent: true, options }),
    retrieve: (id: string, options?: RequestOptions) => api.request<AnswerOf<'getPayment'>>({ method: 'GET', path: path`/v1/payments/${id}`, options }),
    list: (query: QueryOf<'listPayments'> = {}, options?: RequestOptions) => api.list<ItemOf<'listPayments'>, PageOf<'listPayments'>>('/v1/payments', query, options),
    cancel: (id: string, options?: RequestOptions) => api.request<AnswerOf<'cancelPayment'>>({ method: 'POST', path: path`/v1/payments/${id}/cancel`, options }),
    /** A new payment link, replacing the old one. */
    regenerateLink: (id: string, options?: RequestOptions) =>
      api.request<AnswerOf<'regeneratePaymentLink'>>({ method: 'POST', path: path`/v1/payments/${id}/link`, idempotent: true, options }),
  };
}
