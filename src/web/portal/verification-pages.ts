// Verification requests in the portal: the list, one request (verification-detail.ts), and minting a
// person's link. A link is minted by the same service call as POST /v1/verifications/{id}/links and is
// shown in that POST's own answer only: PVS keeps only its digest, so no later page can show it, and the
// audit entry names the person, never the link.
import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { requestStatuses, type RequestStatus, type Verification } from '../../modules/verifications/verifications.schemas.ts';
import { AppError, notFound } from '../../platform/errors.ts';
import type { HttpApp } from '../../platform/http/types.ts';
import { sendPage, tenantOfViewer, viewerOf } from '../area.ts';
import { html } from '../html.ts';
import { idText, pageHeader, pager, when, table } from '../ui.ts';
import { captionOf, IdParams, type ListQuery, listQuery, pageOf, statusFilter, words } from './activity-format.ts';
import type { PortalDeps } from './portal-deps.ts';
import { canMintFor, modeWords, requestBadge, riskBadge, sendVerificationPage } from './verification-detail.ts';

const LinkParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }), individualId: Type.String({ minLength: 1, maxLength: 64 }) });

/** `3 people` and, under it, `1 passed, 2 pending`. */
function peopleSummary(verification: Verification) {
  const count = verification.individuals.length;
  if (count === 0) return html`<span class="muted">No one yet</span>`;
  const byStatus = new Map<string, number>();
  for (const i of verification.individuals) byStatus.set(i.status, (byStatus.get(i.status) ?? 0) + 1);
  const parts = [...byStatus].map(([status, n]) => `${n} ${words(status).toLowerCase()}`);
  return html`${count} ${count === 1 ? 'person' : 'people'}<br><span class="muted">${parts.join(', ')}</span>`;
}

export function registerVerificationPages(app: HttpApp, deps: PortalDeps): void {
  const query = listQuery(requestStatuses);

  app.get('/verifications', { schema: { querystring: query } }, async (request: FastifyRequest<{ Querystring: ListQuery<RequestStatus> }>, reply) => {
    const tenant = tenantOfViewer(request);
    const asked = pageOf(request.query);
    const page = await deps.verifications.list(tenant, { ...asked, newestFirst: true });
    const body = html`${pageHeader('Verifications', {
      lead: 'Identity verification requests your systems created, newest first. Open one to see each person’s outcome and to send them their link.',
    })}
${statusFilter({ action: '/portal/verifications', statuses: requestStatuses, value: asked.status, limit: asked.limit })}
${table<Verification>({
  caption: captionOf('Verification requests', page, page.data.length, asked.status),
  empty: asked.status || asked.from > 0 ? 'No verification requests match.' : 'No verification requests yet. Your systems create them with POST /v1/verifications.',
  rows: page.data,
  columns: [
    {
      label: 'Request',
      cell: (v) => html`${idText(v.id, `/portal/verifications/${v.id}`)}${v.entityName ? html`<br>${v.entityName}` : ''}<br><span class="muted">${modeWords[v.mode]}</span>`,
    },
    { label: 'Status', cell: (v) => requestBadge(v.status) },
    { label: 'People', cell: (v) => peopleSummary(v) },
    { label: 'Risk', cell: (v) => riskBadge(v.riskLevel) },
    { label: 'Created', cell: (v) => when(v.createdAt) },
  ],
})}
${pager({ path: '/portal/verifications', query: { ...request.query }, page, shown: page.data.length })}`;
    return sendPage(reply, { title: 'Verifications', current: 'verifications', body });
  });

  app.get('/verifications/:id', { schema: { params: IdParams } }, async (request: FastifyRequest<{ Params: { id: string } }>, reply) =>
    sendVerificationPage(deps, reply, tenantOfViewer(request), request.params.id),
  );

  app.post(
    '/verifications/:id/individuals/:individualId/link',
    { schema: { params: LinkParams } },
    async (request: FastifyRequest<{ Params: { id: string; individualId: string } }>, reply) => {
      const viewer = viewerOf(request);
      const tenant = tenantOfViewer(request);
      const { id, individualId } = request.params;
      const verification = await deps.verifications.get(tenant, id);
      const individual = verification.individuals.find((i) => i.id === individualId);
      if (!individual) throw notFound(`Individual ${individualId} of verification request ${id}`);
      if (!canMintFor(verification, individual)) {
        const why = verification.status === 'UBO_REVIEW' ? 'its list of people must be confirmed first' : `they are ${words(individual.status).toLowerCase()}`;
        return sendVerificationPage(deps, reply, tenant, id, { status: 409, error: `No link was minted for ${individualId}: ${why}.` });
      }
      let minted;
      try {
        minted = await deps.verifications.mintLinks(tenant, id, [individualId]);
      } catch (error) {
        // The request changed since the page was shown (completed, or sent back to review): say so on it.
        if (error instanceof AppError && error.status === 409) return sendVerificationPage(deps, reply, tenant, id, { status: 409, error: error.message });
        throw error;
      }
      const link = minted.individuals[0]!;
      await deps.audit.record({
        actor: { kind: 'PORTAL_USER', id: viewer.accountId, email: viewer.email },
        partnerId: tenant.partnerId,
        action: 'verification.link_created',
        targetId: individualId,
        detail: { verificationRequestId: id, expiresAt: link.expiresAt },
      });
      return sendVerificationPage(deps, reply, tenant, id, { minted: { individualId, verificationUrl: link.verificationUrl, expiresAt: link.expiresAt } });
    },
  );
}
