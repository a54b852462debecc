import { Page } from '../../platform/http/pagination.ts';
import type { PartnerApi } from '../../platform/http/partner-api.ts';
import type { ChargeService } from './charges.service.ts';
import { Charge, ChargeListQuery, ChargeParams } from './billing.schemas.ts';

export function registerChargeRoutes(api: PartnerApi, deps: { charges: ChargeService }): void {
  const tags = ['charges'];

  api.get(
    '/charges',
    {
      schema: {
        tags,
        summary: 'Charges, newest first, for reconciliation',
        description: 'Every check billed to your account or to a contact; filter by contactId.',
        operationId: 'listCharges',
        querystring: ChargeListQuery,
        response: { 200: Page(Charge) },
      },
    },
    async (request) => deps.charges.list(request.tenant, request.query),
  );

  api.get(
    '/charges/:id',
    { schema: { tags, summary: 'One charge', operationId: 'getCharge', params: ChargeParams, response: { 200: Charge } } },
    async (request) => deps.charges.get(request.tenant, request.params.id),
  );
}
