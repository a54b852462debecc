// /v1/webhook-destinations (docs/webhooks.md, Destinations). The secret is answered only by create and
// rotateSecret: keep it then, PVS never shows it again.
import { path, type Api } from '../api.ts';
import type { AnswerOf, BodyOf, ItemOf, PageOf, QueryOf, RequestOptions } from '../types.ts';

export function createWebhookDestinations(api: Api) {
  return {
    create: (body: BodyOf<'createWebhookDestination'>, options?: RequestOptions) =>
      api.request<AnswerOf<'createWebhookDestination'>>({ method: 'POST', path: '/v1/webhook-destinations', json: body, idempotent: true, options }),
    retrieve: (id: string, options?: RequestOptions) =>
      api.request<AnswerOf<'getWebhookDestination'>>({ method: 'GET', path: path`/v1/webhook-destinations/${id}`, options }),
    list: (query: QueryOf<'listWebhookDestinations'> = {}, options?: RequestOptions) =>
      api.list<ItemOf<'listWebhookDestinations'>, PageOf<'listWebhookDestinations'>>('/v1/webhook-destinations', query, options),
    update: (id: string, body: BodyOf<'updateWebhookDestination'>, options?: RequestOptions) =>
      api.request<AnswerOf<'updateWebhookDestination'>>({ method: 'PATCH', path: path`/v1/webhook-destinations/${id}`, json: body, options }),
    delete: (id: string, options?: RequestOptions) =>
      api.request<AnswerOf<'deleteWebhookDestination'>>({ method: 'DELETE', path: path`/v1/webhook-destinations/${id}`, options }),
    rotateSecret: (id: string, options?: RequestOptions) =>
      api.request<AnswerOf<'rotateWebhookSecret'>>({ method: 'POST', path: path`/v1/webhook-destinations/${id}/rotate-secret`, options }),
  };
}
