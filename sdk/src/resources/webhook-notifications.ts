// /v1/webhook-notifications (docs/webhooks.md, Delivery history): what was sent where, and re-sends.
import { path, type Api } from '../api.ts';
import type { AnswerOf, BodyOf, ItemOf, PageOf, QueryOf, RequestOptions } from '../types.ts';

export function createWebhookNotifications(api: Api) {
  return {
    retrieve: (id: string, options?: RequestOptions) =>
      api.request<AnswerOf<'getWebhookNotification'>>({ method: 'GET', path: path`/v1/webhook-notifications/${id}`, options }),
    list: (query: QueryOf<'listWebhookNotifications'> = {}, options?: RequestOptions) =>
      api.list<ItemOf<'listWebhookNotifications'>, PageOf<'listWebhookNotifications'>>('/v1/webhook-notifications', query, options),
    /** Sends the event again, as new notifications to the destinations subscribed now. */
    retry: (id: string, options?: RequestOptions) =>
      api.request<AnswerOf<'retryWebhookNotification'>>({ method: 'POST', path: path`/v1/webhook-notifications/${id}/retry`, options }),
    /** A signed sample event (`"test": true`), e.g. `{ type: 'verification', variant: 'individual_passed' }`. */
    sendTest: (body: NonNullable<BodyOf<'sendTestWebhook'>>, options?: RequestOptions) =>
      api.request<AnswerOf<'sendTestWebhook'>>({ method: 'POST', path: '/v1/webhook-notifications/test', json: body, options }),
    /** A notification of one payment's events. */
    retrieveForPayment: (paymentId: string, notificationId: string, options?: RequestOptions) =>
      api.request<AnswerOf<'getPaymentWebhookNotification'>>({
        method: 'GET',
        path: path`/v1/channel-payments/${paymentId}/webhook-notifications/${notificationId}`,
        options,
      }),
  };
}
