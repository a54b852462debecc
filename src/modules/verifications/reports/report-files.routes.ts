// Where a report URL leads: no partner token, the URL's signature is the permission (reports.service.ts).
// The PDF is rendered for this response and kept nowhere, not even in a browser's or proxy's cache.
import { Type } from '@sinclair/typebox';
import type { FastifyReply } from 'fastify';
import type { HttpApp } from '../../../platform/http/types.ts';
import { exampleId } from '../../../platform/ids.ts';
import type { ReportService } from './reports.service.ts';

const SignedQuery = Type.Object(
  {
    client: Type.String({ maxLength: 64, description: 'The API client that asked for the URL.', examples: [exampleId('apiClient')] }),
    expires: Type.String({ maxLength: 16, description: 'Unix seconds.', examples: ['1795258500'] }),
    signature: Type.String({ maxLength: 64, examples: ['CqcReZKFUpXSFLxkSDp3fgaQrzkhGv-H0sLa31Z8jec'] }),
  },
  { additionalProperties: false },
);

const Pdf = {
  description: 'The report, rendered now.',
  content: { 'application/pdf': { schema: Type.String({ format: 'binary' }) } },
};

const id = Type.String({ maxLength: 64 });

function sendPdf(reply: FastifyReply, pdf: Buffer, name: string) {
  return reply
    .type('application/pdf')
    .header('cache-control', 'no-store')
    .header('content-disposition', `inline; filename="${name}.pdf"`)
    .send(pdf);
}

export function registerReportFileRoutes(app: HttpApp, deps: { reports: ReportService }): void {
  const tags = ['verifications'];
  const description = 'Open the `url` that POST …/report answered, as it is: no Authorization header. 403 FORBIDDEN when the URL was changed or has expired (15 minutes); 503 when the identity provider cannot be read (try the same URL again).';

  app.get(
    '/reports/v1/verifications/:id/report.pdf',
    { schema: { tags, summary: 'Open an entity report URL', description, operationId: 'openEntityReport', params: Type.Object({ id }), querystring: SignedQuery, response: { 200: Pdf } } },
    async (request, reply) => sendPdf(reply, await deps.reports.entityReport(request.params.id, request.query, request.id), `pvs-entity-report-${request.params.id}`),
  );

  app.get(
    '/reports/v1/verifications/:id/individuals/:individualId/report.pdf',
    {
      schema: { tags, summary: 'Open an individual report URL', description, operationId: 'openIndividualReport', params: Type.Object({ id, individualId: id }), querystring: SignedQuery, response: { 200: Pdf } },
    },
    async (request, reply) =>
      sendPdf(reply, await deps.reports.individualReport(request.params.id, request.params.individualId, request.query, request.id), `pvs-individual-report-${request.params.individualId}`),
  );
}
