import { IdempotencyHeaders, type Idempotency } from '../../platform/http/idempotency.ts';
import { ListQuery, Page } from '../../platform/http/pagination.ts';
import type { PartnerApi } from '../../platform/http/partner-api.ts';
import { Type } from '@sinclair/typebox';
import { ApiClient, ApiClientParams, CreateApiClientBody, CreatedApiClient } from './api-clients.schemas.ts';
import type { ApiClientService } from './api-clients.service.ts';

export function registerApiClientRoutes(api: PartnerApi, deps: { apiClients: ApiClientService; idempotency: Idempotency }): void {
  const tags = ['partners'];

  api.post(
    '/api-clients',
    {
      schema: {
        tags,
        summary: 'Create another API client (to rotate credentials without downtime)',
        description:
          'The secret is in this response only. A replay of the same Idempotency-Key returns the client without its secret, because PVS never keeps it: revoke that client and create another.',
        operationId: 'createApiClient',
        headers: Type.Object(IdempotencyHeaders),
        body: CreateApiClientBody,
        response: { 201: CreatedApiClient },
      },
    },
    async (request, reply) => {
      const prepared = await deps.apiClients.prepare();
      return deps.idempotency.run(request, reply, 201, (tx) => deps.apiClients.create(tx, request.tenant, request.body, prepared), {
        // The stored replay never holds the secret.
        stored: ({ clientSecret: _secret, ...client }) => client,
      });
    },
  );

  api.get(
    '/api-clients',
    { schema: { tags, summary: 'List your API clients', operationId: 'listApiClients', querystring: ListQuery(), response: { 200: Page(ApiClient) } } },
    async (request) => deps.apiClients.list(request.tenant, request.query),
  );

  api.get(
    '/api-clients/:id',
    { schema: { tags, summary: 'One API client', operationId: 'getApiClient', params: ApiClientParams, response: { 200: ApiClient } } },
    async (request) => deps.apiClients.get(request.tenant, request.params.id),
  );

  api.delete(
    '/api-clients/:id',
    {
      schema: {
        tags,
        summary: 'Revoke an API client',
        description: 'Tokens already issued to it stop working within 60 seconds. The last active client cannot be revoked.',
        operationId: 'revokeApiClient',
        params: ApiClientParams,
        response: { 200: ApiClient },
      },
    },
    async (request) => deps.apiClients.revoke(request.tenant, request.params.id),
  );
}
