// The operator's decision on an individual sent to MANUAL_REVIEW (behind the ops guard: an operator
// token, platform/http/ops-api.ts). The console will call the same service.
import { Type } from '@sinclair/typebox';
import type { OpsApi } from '../../platform/http/ops-api.ts';
import type { VerificationCheckService } from './verification-checks.service.ts';

const DecisionBody = Type.Object(
  {
    decision: Type.Union([Type.Literal('PASS'), Type.Literal('FAIL')], { description: 'PASS: the individual is MANUALLY_PASSED; FAIL: FAILED. Both set manualOverride.' }),
    note: Type.String({ minLength: 1, maxLength: 2000, description: 'Why: what the operator compared and found. Kept with the decision; never sent to the partner.' }),
  },
  { additionalProperties: false },
);

const DecisionParams = Type.Object({
  id: Type.String({ maxLength: 64, description: 'The verification request (`ver_…`).' }),
  individualId: Type.String({ maxLength: 64, description: 'The individual (`ind_…`).' }),
});

const DecisionResult = Type.Object(
  {
    individualId: Type.String(),
    status: Type.Union([Type.Literal('MANUALLY_PASSED'), Type.Literal('FAILED')]),
    manualOverride: Type.Literal(true),
    decidedBy: Type.String({ description: 'The operator (`op_…`).' }),
    decidedAt: Type.String({ format: 'date-time' }),
    note: Type.String(),
  },
  { $id: 'VerificationDecision', title: 'VerificationDecision' },
);

export function registerVerificationDecisionRoutes(api: OpsApi, deps: { checks: VerificationCheckService }): void {
  api.post(
    '/verifications/:id/individuals/:individualId/decision',
    {
      schema: {
        tags: ['operators'],
        summary: 'Decide an individual in manual review',
        description:
          'For PVS operators. The individual must be in MANUAL_REVIEW (409 INVALID_STATE otherwise, naming its status). PASS makes it MANUALLY_PASSED and emits verification.individual.passed; FAIL makes it FAILED and emits verification.individual.failed; both with `manualOverride: true`, recorded with the operator, the time and the note. The request completes when this was its last open individual.',
        operationId: 'decideVerificationIndividual',
        params: DecisionParams,
        body: DecisionBody,
        response: { 200: DecisionResult },
      },
    },
    async (request) => deps.checks.decide(request.operator.operatorId, request.params.id, request.params.individualId, request.body),
  );
}
