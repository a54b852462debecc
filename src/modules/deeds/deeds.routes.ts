import type { PartnerApi } from '../../platform/http/partner-api.ts';
import { Page } from '../../platform/http/pagination.ts';
import { CreateDeedBody, DeedAnalysis, DeedCreated, DeedListQuery, DeedParams, DeedStarted } from './deeds.schemas.ts';
import type { DeedService } from './deeds.service.ts';

const startCodes =
  '422 with code UPLOAD_NOT_FOUND (nothing uploaded, or not started within 2 hours of creation), FILE_TOO_LARGE (over 25 MB: 26,214,400 bytes), NOT_A_PDF (not a PDF, damaged, or password-protected) or TOO_MANY_PAGES (over 150), checked in that order; the analysis stays AWAITING_UPLOAD, so upload a corrected file to the same URL (while it lasts) and start again.';

export function registerDeedRoutes(api: PartnerApi, deps: { deeds: DeedService }): void {
  const tags = ['deed analyses'];
  const { deeds } = deps;

  api.post(
    '/deed-analyses',
    {
      schema: {
        tags,
        summary: 'Create a deed analysis and get a signed upload',
        description:
          'Answers 201 with `upload.url`, `upload.headers` and `upload.expiresAt` (15 minutes). PUT the deed PDF to the URL as the raw body with exactly those headers (no form, no JSON, no Authorization header); any difference is 403 from storage. Then call start. With `contactId` the completed analysis is billed to that contact’s saved card (a contact that cannot be billed is 402/422 here, and nothing is created).',
        operationId: 'createDeedAnalysis',
        body: CreateDeedBody,
        response: { 201: DeedCreated },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return reply.code(201).send(await deeds.create(request.tenant, request.body));
    },
  );

  api.post(
    '/deed-analyses/:id/start',
    {
      schema: {
        tags,
        summary: 'Start the analysis of the uploaded deed',
        description: `Checks the uploaded file, then answers 202 and analyses it in the background; the result comes once, by the deed-analysis.completed or deed-analysis.failed webhook. ${startCodes} A second start is 409 INVALID_STATE.`,
        operationId: 'startDeedAnalysis',
        params: DeedParams,
        response: { 202: DeedStarted },
      },
    },
    async (request, reply) => reply.code(202).send(await deeds.start(request.tenant, request.params.id)),
  );

  api.get(
    '/deed-analyses',
    { schema: { tags, summary: 'List deed analyses, newest first', operationId: 'listDeedAnalyses', querystring: DeedListQuery, response: { 200: Page(DeedAnalysis) } } },
    async (request) => deeds.list(request.tenant, request.query),
  );

  api.get(
    '/deed-analyses/:id',
    {
      schema: {
        tags,
        summary: 'One deed analysis: status, counts and times',
        description: 'Never what the deed says: the trust and its parties are sent once, by webhook, and kept nowhere.',
        operationId: 'getDeedAnalysis',
        params: DeedParams,
        response: { 200: DeedAnalysis },
      },
    },
    async (request) => deeds.get(request.tenant, request.params.id),
  );

  api.delete(
    '/deed-analyses/:id',
    {
      schema: {
        tags,
        summary: 'Discard a deed analysis and destroy its document',
        description: 'From any state: the analysis becomes DISCARDED and the uploaded PDF is deleted at once. Events already delivered are not recalled and a charge is not reversed. Answers the analysis.',
        operationId: 'discardDeedAnalysis',
        params: DeedParams,
        response: { 200: DeedAnalysis },
      },
    },
    async (request) => deeds.discard(request.tenant, request.params.id),
  );
}
