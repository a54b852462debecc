// The audit trail of evidence reads and report renderings, for PVS operators (behind the ops guard).
import { Type } from '@sinclair/typebox';
import { ListQuery, Page } from '../../platform/http/pagination.ts';
import type { OpsApi } from '../../platform/http/ops-api.ts';
import type { EvidenceService } from './evidence.service.ts';

const EvidenceRead = Type.Object(
  {
    id: Type.String({ description: '`evr_…`' }),
    partnerId: Type.String(),
    apiClientId: Type.Union([Type.String(), Type.Null()], { description: 'The partner’s API client whose token read it, or that asked for the report URL; null when an operator read it.' }),
    operatorId: Type.Union([Type.String(), Type.Null()], { description: 'The PVS operator (`opr_…`) who read it in the console for a manual review; null when the partner read it.' }),
    verificationRequestId: Type.String(),
    individualId: Type.Union([Type.String(), Type.Null()], { description: 'Null for an entity report.' }),
    kind: Type.Union(['DOCUMENT_DETAILS', 'AML_MATCHES', 'ENTITY_REPORT', 'INDIVIDUAL_REPORT'].map((k) => Type.Literal(k))),
    includeScans: Type.Union([Type.Boolean(), Type.Null()], { description: 'document-details only.' }),
    status: Type.Union(['OK', 'NOT_AVAILABLE', 'UPSTREAM_UNAVAILABLE'].map((s) => Type.Literal(s)), { description: 'What the read answered.' }),
    requestId: Type.String({ description: 'The HTTP request’s X-Request-Id.' }),
    readAt: Type.String({ format: 'date-time' }),
  },
  { title: 'EvidenceRead' },
);

const ReadsQuery = ListQuery({
  partnerId: Type.Optional(Type.String({ maxLength: 64 })),
  verificationRequestId: Type.Optional(Type.String({ maxLength: 64 })),
  individualId: Type.Optional(Type.String({ maxLength: 64 })),
});

export function registerEvidenceReadRoutes(api: OpsApi, deps: { evidence: Pick<EvidenceService, 'listReads'> }): void {
  api.get(
    '/evidence-reads',
    {
      schema: {
        tags: ['operators'],
        summary: 'Who read which individual’s evidence, newest first',
        description:
          'Every document-details and aml-matches read and every report rendering: the partner, its API client (or the operator who read it in the console), the individual, what it answered and when. Never the content.',
        operationId: 'listEvidenceReads',
        querystring: ReadsQuery,
        response: { 200: Page(EvidenceRead) },
      },
    },
    async (request) => deps.evidence.listReads(request.query),
  );
}
