import { Type } from '@sinclair/typebox';
import type { FastifyReply } from 'fastify';
import { IdempotencyHeaders, type Idempotency } from '../../platform/http/idempotency.ts';
import { Page } from '../../platform/http/pagination.ts';
import type { PartnerApi } from '../../platform/http/partner-api.ts';
import { ConditionalHeaders, CreateLookupBody, Lookup, LookupCreated, LookupListQuery, LookupParams, LookupSummary, Ownership, Registry } from './lookups.schemas.ts';
import type { ViewAnswer } from './lookup-views.ts';
import { lookupRequestOf, type LookupService } from './lookups.service.ts';

const budgetNote =
  'Answers what the lookup read; the registers are not read again (a refresh is a new lookup). Each answer spends one of the lookup’s daily reads (LOOKUP_READ_BUDGET, 50 by default; READ_BUDGET_EXHAUSTED after that). Send the ETag back in If-None-Match: a 304 spends nothing. Cache-Control: private, max-age=300.';

/** 200 with the body, or 304 when the caller's copy still holds; both carry the tag and the caching rule. */
function sendView<T>(reply: FastifyReply, answer: ViewAnswer<T>) {
  reply.header('etag', answer.etag).header('cache-control', answer.cacheable ? 'private, max-age=300' : 'no-store');
  if (answer.body === null) return reply.code(304).send();
  return answer.body;
}

export function registerLookupRoutes(api: PartnerApi, deps: { lookups: LookupService; idempotency: Idempotency }): void {
  const tags = ['business lookups'];
  const { lookups } = deps;

  api.post(
    '/business-lookups',
    {
      schema: {
        tags,
        summary: 'Look up a business by ABN or ACN',
        description:
          'Validates the numbers (check digits), bills the lookup (to your account, or to `contactId`’s saved card: a contact that cannot be billed gets 402/422 and nothing runs), and answers 202 at once. The result arrives by the `business-lookup.completed` or `business-lookup.failed` webhook; a failed lookup is not billed.',
        operationId: 'createBusinessLookup',
        headers: Type.Object(IdempotencyHeaders),
        body: CreateLookupBody,
        response: { 202: LookupCreated },
      },
    },
    async (request, reply) => {
      const lookupRequest = lookupRequestOf(request.body);
      return deps.idempotency.run(request, reply, 202, (tx) => lookups.create(tx, request.tenant, lookupRequest));
    },
  );

  api.get(
    '/business-lookups',
    { schema: { tags, summary: 'List lookups, newest first', operationId: 'listBusinessLookups', querystring: LookupListQuery, response: { 200: Page(LookupSummary) } } },
    async (request) => lookups.list(request.tenant, request.query),
  );

  api.get(
    '/business-lookups/:id',
    {
      schema: {
        tags,
        summary: 'One lookup: status, entity, party counts and individuals',
        description: 'Does not spend read budget. Names are here, never in the webhook.',
        operationId: 'getBusinessLookup',
        params: LookupParams,
        response: { 200: Lookup },
      },
    },
    async (request) => lookups.get(request.tenant, request.params.id),
  );

  // No HEAD: it would spend a read (and, for ownership, read the owners' details live) for no body.
  api.get(
    '/business-lookups/:id/registry',
    {
      exposeHeadRoute: false,
      schema: {
        tags,
        summary: 'The register facts the lookup read',
        description: `${budgetNote} 409 INVALID_STATE until the lookup is COMPLETED.`,
        operationId: 'getBusinessLookupRegistry',
        params: LookupParams,
        headers: ConditionalHeaders,
        response: { 200: Registry, 304: Type.Null({ description: 'Not modified: your copy (by its ETag) is current.' }) },
      },
    },
    async (request, reply) => sendView(reply, await lookups.registry(request.tenant, request.params.id, request.headers['if-none-match'])),
  );

  api.get(
    '/business-lookups/:id/ownership',
    {
      exposeHeadRoute: false,
      schema: {
        tags,
        summary: 'The ownership structure, completeness and beneficial owners',
        description: `${budgetNote} Owners’ dates of birth and addresses are read live for each answer and screened against the current list. 409 INVALID_STATE until the lookup is COMPLETED.`,
        operationId: 'getBusinessLookupOwnership',
        params: LookupParams,
        headers: ConditionalHeaders,
        response: { 200: Ownership, 304: Type.Null({ description: 'Not modified: your copy (by its ETag) is current.' }) },
      },
    },
    async (request, reply) => sendView(reply, await lookups.ownership(request.tenant, request.params.id, request.headers['if-none-match'])),
  );
}
