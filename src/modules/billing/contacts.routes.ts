import { Type } from '@sinclair/typebox';
import { IdempotencyHeaders, type Idempotency } from '../../platform/http/idempotency.ts';
import { Page } from '../../platform/http/pagination.ts';
import type { PartnerApi } from '../../platform/http/partner-api.ts';
import type { CardLinkService } from './card-links.service.ts';
import type { ContactService } from './contacts.service.ts';
import { CardLink, Contact, ContactListQuery, ContactParams, CreateContactBody, UpdateContactBody } from './billing.schemas.ts';

export function registerContactRoutes(api: PartnerApi, deps: { contacts: ContactService; cardLinks: CardLinkService; idempotency: Idempotency }): void {
  const tags = ['contacts'];
  const { contacts, cardLinks } = deps;

  api.post(
    '/contacts',
    {
      schema: {
        tags,
        summary: 'Add a contact',
        description: 'A customer of yours who can pay for checks with a saved card. It starts with billingStatus NO_PAYMENT_METHOD; send a card link.',
        operationId: 'createContact',
        headers: Type.Object(IdempotencyHeaders),
        body: CreateContactBody,
        response: { 201: Contact },
      },
    },
    async (request, reply) => deps.idempotency.run(request, reply, 201, (tx) => contacts.create(tx, request.tenant, request.body)),
  );

  api.get(
    '/contacts',
    { schema: { tags, summary: 'List contacts, oldest first', operationId: 'listContacts', querystring: ContactListQuery, response: { 200: Page(Contact) } } },
    async (request) => contacts.list(request.tenant, request.query),
  );

  api.get(
    '/contacts/:id',
    { schema: { tags, summary: 'One contact', operationId: 'getContact', params: ContactParams, response: { 200: Contact } } },
    async (request) => contacts.get(request.tenant, request.params.id),
  );

  api.patch(
    '/contacts/:id',
    {
      schema: {
        tags,
        summary: 'Change a contact, or block or unblock billing to it',
        description: 'billingBlocked true makes checks billed to the contact fail with CONTACT_BILLING_BLOCKED until it is set back to false.',
        operationId: 'updateContact',
        params: ContactParams,
        body: UpdateContactBody,
        response: { 200: Contact },
      },
    },
    async (request) => contacts.update(request.tenant, request.params.id, request.body),
  );

  api.delete(
    '/contacts/:id',
    {
      schema: {
        tags,
        summary: 'Archive a contact',
        description: 'New checks cannot be billed to it (CONTACT_INVALID); billing runs already open are still captured. Kept for reconciliation.',
        operationId: 'archiveContact',
        params: ContactParams,
        response: { 200: Contact },
      },
    },
    async (request) => contacts.archive(request.tenant, request.params.id),
  );

  api.delete(
    '/contacts/:id/card',
    {
      schema: {
        tags,
        summary: 'Remove the saved card',
        description: 'Emits contact.card.removed; the contact is NO_PAYMENT_METHOD until another card is saved. Answers the contact unchanged when it had no card.',
        operationId: 'removeContactCard',
        params: ContactParams,
        response: { 200: Contact },
      },
    },
    async (request) => contacts.removeCard(request.tenant, request.params.id),
  );

  api.post(
    '/contacts/:id/card-link',
    {
      schema: {
        tags,
        summary: 'Mint a single-use card link',
        description:
          'Answers the URL of the hosted card page once (valid 24 hours). Minting again replaces the earlier link, which stops working. An Idempotency-Key replay answers without the URL: PVS never shows a link twice.',
        operationId: 'createCardLink',
        headers: Type.Object(IdempotencyHeaders),
        params: ContactParams,
        response: { 201: CardLink },
      },
    },
    async (request, reply) =>
      deps.idempotency.run(request, reply, 201, (tx) => cardLinks.mint(tx, request.tenant, request.params.id), { stored: ({ url: _url, ...rest }) => rest }),
  );
}
