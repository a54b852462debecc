// The partner's evidence endpoints and report URLs (SPEC rules 1 and 3). Evidence answers carry personal
// information: never cached anywhere on the way (no-store), never logged.
import type { FastifyReply } from 'fastify';
import type { PartnerApi } from '../../platform/http/partner-api.ts';
import type { EvidenceService } from './evidence.service.ts';
import { AmlMatches, DocumentDetails, DocumentDetailsQuery, EvidenceParams, ReportParams, ReportUrl } from './evidence.schemas.ts';
import type { ReportService } from './reports/reports.service.ts';

const noStore = (reply: FastifyReply) => reply.header('cache-control', 'no-store');

export function registerEvidenceRoutes(api: PartnerApi, deps: { evidence: EvidenceService; reports: ReportService }): void {
  const tags = ['verifications'];
  const always200 =
    'Always 200 once the individual is found (another partner’s is 404): `status` OK, NOT_AVAILABLE (not checked yet) or UPSTREAM_UNAVAILABLE (the provider or screening is not answering, or evidence is switched off; retry later). Fetched live on every call and stored nowhere; `Cache-Control: no-store`. Each read is recorded (who, when, which individual; never the content) in an audit trail PVS operators can see.';

  api.get(
    '/verifications/:id/individuals/:individualId/document-details',
    {
      schema: {
        tags,
        summary: 'The identity document evidence of an individual',
        description: `The latest checked attempt: the details the person entered, their document’s fields, PVS’s reading of a passport’s machine-readable zone, the face comparison, the provider’s checks and (with Onfido) the provider’s own results behind them, and (unless includeScans=false) the document images and selfie as base64. ${always200}`,
        operationId: 'getDocumentDetails',
        params: EvidenceParams,
        querystring: DocumentDetailsQuery,
        response: { 200: DocumentDetails },
      },
    },
    async (request, reply) => {
      const reader = { tenant: request.tenant, apiClientId: request.apiClientId, httpRequestId: request.id };
      const answer = await deps.evidence.documentDetails(reader, request.params.id, request.params.individualId, { includeScans: request.query.includeScans ?? true });
      noStore(reply);
      return answer;
    },
  );

  api.get(
    '/verifications/:id/individuals/:individualId/aml-matches',
    {
      schema: {
        tags,
        summary: 'The sanctions and PEP list entries an individual may be',
        description: `The claimed identity screened now against the current list version: each possible match with its list entry (name, aliases, dates of birth, countries, categories, list and source), its score and the features that made it. ${always200}`,
        operationId: 'getAmlMatches',
        params: EvidenceParams,
        response: { 200: AmlMatches },
      },
    },
    async (request, reply) => {
      const reader = { tenant: request.tenant, apiClientId: request.apiClientId, httpRequestId: request.id };
      const answer = await deps.evidence.amlMatches(reader, request.params.id, request.params.individualId);
      noStore(reply);
      return answer;
    },
  );

  api.post(
    '/verifications/:id/report',
    {
      schema: {
        tags,
        summary: 'A URL for the entity report (PDF)',
        description:
          'AUSTRAC_CDD requests only (TPB_POI: 409 INVALID_STATE). The URL is signed and works without a token for 15 minutes; opening it renders the report then (registry identity and ownership for a lookup-bound request, an explicit note for a hand-built one, every individual’s outcome). Nothing is stored.',
        operationId: 'createEntityReport',
        params: ReportParams,
        response: { 200: ReportUrl },
      },
    },
    async (request, reply) => {
      const answer = await deps.reports.issueEntityReport(request.tenant, request.apiClientId, request.params.id);
      noStore(reply);
      return answer;
    },
  );

  api.post(
    '/verifications/:id/individuals/:individualId/report',
    {
      schema: {
        tags,
        summary: 'A URL for an individual’s report (PDF)',
        description:
          'Any mode. The URL is signed and works without a token for 15 minutes; opening it renders the report then: the verified identity, the checks and their results, the AML outcome, the attempts and their times. Nothing is stored.',
        operationId: 'createIndividualReport',
        params: EvidenceParams,
        response: { 200: ReportUrl },
      },
    },
    async (request, reply) => {
      const answer = await deps.reports.issueIndividualReport(request.tenant, request.apiClientId, request.params.id, request.params.individualId);
      noStore(reply);
      return answer;
    },
  );
}
