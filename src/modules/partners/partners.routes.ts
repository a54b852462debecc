import type { PartnerApi } from '../../platform/http/partner-api.ts';
import type { PartnerService } from './partners.service.ts';
import { Partner } from './partners.schemas.ts';

export function registerPartnerRoutes(api: PartnerApi, deps: { partners: PartnerService }): void {
  api.get(
    '/channel-partners/me',
    {
      schema: {
        tags: ['partners'],
        summary: 'The partner these credentials resolve to',
        operationId: 'getCurrentPartner',
        response: { 200: Partner },
      },
    },
    async (request) => deps.partners.getOwn(request.tenant),
  );
}
