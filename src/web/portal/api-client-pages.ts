// API clients in the portal: list, create (secret shown once), rotate a client's secret (shown once) and
// revoke, through the service the /v1 API calls, scoped by the viewer's partner.
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ApiClient } from '../../modules/partners/api-clients.schemas.ts';
import { AppError } from '../../platform/errors.ts';
import type { HttpApp } from '../../platform/http/types.ts';
import { formOf, sendPage, tenantOfViewer, viewerOf } from '../area.ts';
import type { Html } from '../html.ts';
import { notice, type FieldError } from '../ui.ts';
import { apiClientListPage, apiClientPage, apiClientSecretPage } from './api-client-views.ts';
import { newFormKey, recordChange, runOnce } from './destination-changes.ts';
import { alreadySentPage } from './destination-views.ts';
import type { PortalDeps } from './portal-deps.ts';

const IdParams = Type.Object({ id: Type.String({ maxLength: 100 }) });
const ListQuery = Type.Object({ limit: Type.Integer({ minimum: 1, maximum: 100, default: 20 }), from: Type.Integer({ minimum: 0, maximum: 1_000_000, default: 0 }) });
const DetailQuery = Type.Object({ done: Type.Optional(Type.String({ maxLength: 20 })) });

const listLink = { href: '/portal/api-clients', label: 'API clients' };

export function registerApiClientPages(app: HttpApp, deps: PortalDeps): void {
  async function showList(request: FastifyRequest, reply: FastifyReply, page: { limit: number; from: number }, form: { label?: string; errors?: FieldError[] } = {}) {
    const list = await deps.apiClients.list(tenantOfViewer(request), page);
    const body = apiClientListPage({ page: list, csrf: viewerOf(request).session.csrfToken, formKey: formOf(request).formKey ?? newFormKey(), ...form });
    return sendPage(reply, { title: 'API clients', current: 'api-clients', body, status: form.errors?.length ? 400 : 200 });
  }

  function showClient(request: FastifyRequest, reply: FastifyReply, client: ApiClient, message?: Html, status?: number) {
    const body = apiClientPage({ client, csrf: viewerOf(request).session.csrfToken, formKey: newFormKey(), message });
    return sendPage(reply, { title: 'API client', current: 'api-clients', body, status });
  }

  app.get('/api-clients', { schema: { querystring: ListQuery } }, async (request, reply) => showList(request, reply, request.query));

  app.post('/api-clients', async (request, reply) => {
    const tenant = tenantOfViewer(request);
    const label = (formOf(request).label ?? '').trim();
    if (label.length > 100) return showList(request, reply, { limit: 20, from: 0 }, { label, errors: [{ name: 'label', message: 'The label must be at most 100 characters' }] });
    // Hashing is slow on purpose: done before the transaction, as the API does.
    const prepared = await deps.apiClients.prepare();
    const outcome = await runOnce(
      deps,
      request,
      async (tx) => {
        const created = await deps.apiClients.create(tx, tenant, label ? { label } : {}, prepared);
        await recordChange(deps, request, { action: 'api_client.created', targetId: created.id, detail: { label: created.label } }, tx);
        return created;
      },
      ({ clientSecret: _secret, ...client }) => client,
    );
    if (!outcome.first) {
      const back = outcome.earlier ? { href: `/portal/api-clients/${outcome.earlier.id}`, label: 'Go to the client' } : listLink;
      const text = 'This form was already sent, and the client was created then. Its secret was shown only that once: if you did not copy it, rotate the client’s secret.';
      return sendPage(reply, { title: 'Already created', current: 'api-clients', body: alreadySentPage({ title: 'Already created', back, text }) });
    }
    return sendPage(reply, { title: 'API client created', current: 'api-clients', body: apiClientSecretPage(outcome.value, 'created') });
  });

  app.get('/api-clients/:id', { schema: { params: IdParams, querystring: DetailQuery } }, async (request, reply) => {
    const client = await deps.apiClients.get(tenantOfViewer(request), request.params.id);
    return showClient(request, reply, client, request.query.done === 'revoked' ? notice('success', 'The API client is revoked.') : undefined);
  });

  app.post('/api-clients/:id/rotate-secret', { schema: { params: IdParams } }, async (request, reply) => {
    const tenant = tenantOfViewer(request);
    const client = await deps.apiClients.get(tenant, request.params.id);
    const prepared = await deps.apiClients.prepare();
    let outcome;
    try {
      outcome = await runOnce(
        deps,
        request,
        async (tx) => {
          const rotated = await deps.apiClients.rotateSecret(tx, tenant, client.id, prepared);
          await recordChange(deps, request, { action: 'api_client.secret_rotated', targetId: client.id }, tx);
          return rotated;
        },
        ({ clientSecret: _secret, ...rest }) => rest,
      );
    } catch (error) {
      if (error instanceof AppError && error.code === 'INVALID_STATE') return showClient(request, reply, client, notice('error', error.message), 409);
      throw error;
    }
    if (!outcome.first) {
      const text = 'This form was already sent, and the secret was rotated then. The new secret was shown only that once: if you did not copy it, rotate again.';
      return sendPage(reply, { title: 'Already rotated', current: 'api-clients', body: alreadySentPage({ title: 'Already rotated', back: { href: `/portal/api-clients/${client.id}`, label: 'Go to the client' }, text }) });
    }
    return sendPage(reply, { title: 'New client secret', current: 'api-clients', body: apiClientSecretPage(outcome.value, 'rotated') });
  });

  app.post('/api-clients/:id/revoke', { schema: { params: IdParams } }, async (request, reply) => {
    const tenant = tenantOfViewer(request);
    let revoked: ApiClient;
    try {
      revoked = await deps.apiClients.revoke(tenant, request.params.id);
    } catch (error) {
      // The last active client: said on the client's page.
      if (!(error instanceof AppError) || error.code !== 'INVALID_STATE') throw error;
      return showClient(request, reply, await deps.apiClients.get(tenant, request.params.id), notice('error', error.message), 409);
    }
    await recordChange(deps, request, { action: 'api_client.revoked', targetId: revoked.id });
    return reply.redirect(`/portal/api-clients/${revoked.id}?done=revoked`, 303);
  });
}
