import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { fieldProblems, type FieldProblem } from '../../platform/errors.ts';
import { IdempotencyHeaders, type Idempotency } from '../../platform/http/idempotency.ts';
import { Page } from '../../platform/http/pagination.ts';
import type { PartnerApi } from '../../platform/http/partner-api.ts';
import type { ChargeService } from '../billing/charges.service.ts';
import type { VerificationService } from './verifications.service.ts';
import {
  AddIndividualBody,
  CreateVerificationBody,
  Individual,
  LinksBody,
  MintedLinks,
  personalFields,
  StructureConfirmationBody,
  Verification,
  VerificationListQuery,
  VerificationParams,
} from './verifications.schemas.ts';

/**
 * SPEC: a partner never sends a person's name, email or phone; the person gives them on the page. Checked
 * before the schema, anywhere in the body, so the answer says that rather than "not a known field".
 */
async function refusePersonalData(request: FastifyRequest): Promise<void> {
  const problems: FieldProblem[] = [];
  const walk = (value: unknown, pointer: string) => {
    if (Array.isArray(value)) value.forEach((item, i) => walk(item, `${pointer}/${i}`));
    else if (value && typeof value === 'object') {
      for (const [key, inner] of Object.entries(value)) {
        const at = `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
        if ((personalFields as readonly string[]).includes(key)) problems.push({ pointer: at, message: 'is personal data, which PVS does not take from you: the person enters it on their verification page' });
        else walk(inner, at);
      }
    }
  };
  walk(request.body, '');
  if (problems.length) throw fieldProblems(problems);
}

export function registerVerificationRoutes(api: PartnerApi, deps: { verifications: VerificationService; charges: Pick<ChargeService, 'gate'>; idempotency: Idempotency }): void {
  const tags = ['verifications'];
  const { verifications } = deps;

  api.post(
    '/verifications',
    {
      preValidation: refusePersonalData,
      schema: {
        tags,
        summary: 'Create a verification request',
        description:
          'Bound to a COMPLETED FULL or UBO_ONLY lookup (`lookupRequestId`): one individual per party, or per listed `idvEntityId`; READY_TO_SEND. Hand-built: AUSTRAC_CDD is UBO_REVIEW until the structure is confirmed, TPB_POI is DRAFT. Never send names, email or phone (400 at their pointer). Binding errors: ASIC_ONLY 400 at /lookupRequestId, another partner’s or unknown 403 LOOKUP_NOT_OWNED, not COMPLETED 409 LOOKUP_NOT_COMPLETED, a party not on the lookup 400 at /individuals/N/idvEntityId.',
        operationId: 'createVerification',
        headers: Type.Object(IdempotencyHeaders),
        body: CreateVerificationBody,
        response: { 201: Verification },
      },
    },
    async (request, reply) => {
      await deps.charges.gate(request.tenant, request.body.contactId);
      return deps.idempotency.run(request, reply, 201, (tx) => verifications.create(tx, request.tenant, request.body));
    },
  );

  api.get(
    '/verifications',
    { schema: { tags, summary: 'List verification requests, oldest first', operationId: 'listVerifications', querystring: VerificationListQuery, response: { 200: Page(Verification) } } },
    async (request) => verifications.list(request.tenant, request.query),
  );

  api.get(
    '/verifications/:id',
    { schema: { tags, summary: 'One verification request, with every individual’s outcome', operationId: 'getVerification', params: VerificationParams, response: { 200: Verification } } },
    async (request) => verifications.get(request.tenant, request.params.id),
  );

  api.put(
    '/verifications/:id/structure-confirmation',
    {
      schema: {
        tags,
        summary: 'Confirm (or unconfirm) a hand-built structure',
        description: 'UBO_REVIEW → READY_TO_SEND with `confirmed: true`; READY_TO_SEND → UBO_REVIEW with `false`. A COMPLETED request is 409 INVALID_STATE.',
        operationId: 'confirmVerificationStructure',
        params: VerificationParams,
        body: StructureConfirmationBody,
        response: { 200: Verification },
      },
    },
    async (request) => verifications.confirmStructure(request.tenant, request.params.id, request.body.confirmed),
  );

  api.post(
    '/verifications/:id/individuals',
    {
      preValidation: refusePersonalData,
      schema: {
        tags,
        summary: 'Add an individual',
        description: 'By role only, never by name. A hand-built READY_TO_SEND request goes back to UBO_REVIEW. Emits verification.individual.added.',
        operationId: 'addVerificationIndividual',
        headers: Type.Object(IdempotencyHeaders),
        params: VerificationParams,
        body: AddIndividualBody,
        response: { 201: Individual },
      },
    },
    async (request, reply) => deps.idempotency.run(request, reply, 201, (tx) => verifications.addIndividual(tx, request.tenant, request.params.id, request.body)),
  );

  api.post(
    '/verifications/:id/links',
    {
      schema: {
        tags,
        summary: 'Mint single-use verification links',
        description:
          'One fresh link per individual (all that are not finished, or `individualIds`), valid 7 days; each replaces the individual’s earlier link. The URLs are in this response only: never in a webhook or a read. UBO_REVIEW: 409 STRUCTURE_NOT_CONFIRMED; COMPLETED: 409 INVALID_STATE. The request becomes VERIFICATIONS_SENT.',
        operationId: 'mintVerificationLinks',
        params: VerificationParams,
        body: LinksBody,
        response: { 200: MintedLinks },
      },
    },
    async (request) => verifications.mintLinks(request.tenant, request.params.id, request.body.individualIds),
  );
}
