// /v1/contacts (docs/billing.md): the partner's customers, their saved cards and their monitoring.
import { path, type Api } from '../api.ts';
import type { AnswerOf, BodyOf, ItemOf, PageOf, QueryOf, RequestOptions } from '../types.ts';

export function createContacts(api: Api) {
  return {
    create: (body: BodyOf<'createContact'>, options?: RequestOptions) =>
      api.request<AnswerOf<'createContact'>>({ method: 'POST', path: '/v1/contacts', json: body, idempotent: true, options }),
    retrieve: (id: string, options?: RequestOptions) => api.request<AnswerOf<'getContact'>>({ method: 'GET', path: path`/v1/contacts/${id}`, options }),
    list: (query: QueryOf<'listContacts'> = {}, options?: RequestOptions) => api.list<ItemOf<'listContacts'>, PageOf<'listContacts'>>('/v1/contacts', query, options),
    update: (id: string, body: BodyOf<'updateContact'>, options?: RequestOptions) =>
      api.request<AnswerOf<'updateContact'>>({ method: 'PATCH', path: path`/v1/contacts/${id}`, json: body, options }),
    archive: (id: string, options?: RequestOptions) => api.request<AnswerOf<'archiveContact'>>({ method: 'DELETE', path: path`/v1/contacts/${id}`, options }),
    removeCard: (id: string, options?: RequestOptions) =>
      api.request<AnswerOf<'removeContactCard'>>({ method: 'DELETE', path: path`/v1/contacts/${id}/card`, options }),
    /** A hosted link where the contact saves a card. */
    createCardLink: (id: string, options?: RequestOptions) =>
      api.request<AnswerOf<'createCardLink'>>({ method: 'POST', path: path`/v1/contacts/${id}/card-link`, idempotent: true, options }),
    /** /v1/contacts/{id}/monitoring (docs/monitoring.md). */
    monitoring: {
      retrieve: (contactId: string, options?: RequestOptions) =>
        api.request<AnswerOf<'getContactMonitoring'>>({ method: 'GET', path: path`/v1/contacts/${contactId}/monitoring`, options }),
      update: (contactId: string, body: BodyOf<'putContactMonitoring'>, options?: RequestOptions) =>
        api.request<AnswerOf<'putContactMonitoring'>>({ method: 'PUT', path: path`/v1/contacts/${contactId}/monitoring`, json: body, options }),
    },
  };
}
