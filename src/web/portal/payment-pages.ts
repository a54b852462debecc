// ATO payments in the portal: the list and one payment, from the payments service the /v1 API calls.
// A payment link is answered only when it is made (create, regenerate): no page can show it again.
import type { FastifyRequest } from 'fastify';
import { paymentStatuses, type PaymentStatus } from '../../modules/payments/payments.schemas.ts';
import type { HttpApp } from '../../platform/http/types.ts';
import { sendPage, tenantOfViewer } from '../area.ts';
import { html } from '../html.ts';
import { badge, details, idText, pageHeader, pager, section, when, table } from '../ui.ts';
import { captionOf, IdParams, type ListQuery, listQuery, money, optionalId, pageOf, statusFilter } from './activity-format.ts';
import type { PortalDeps } from './portal-deps.ts';

const statusWords: Record<PaymentStatus, string> = {
  CREATED: 'Waiting for the payer to pay on the payment page.',
  PROCESSING: 'A card is being charged, or a retryable decline left the payment open for another card.',
  SUCCEEDED: 'Paid.',
  FAILED: 'The card was declined for good: the payment is closed.',
  CANCELLED: 'Cancelled before it was paid.',
};

export function registerPaymentPages(app: HttpApp, deps: PortalDeps): void {
  const query = listQuery(paymentStatuses);

  app.get('/payments', { schema: { querystring: query } }, async (request: FastifyRequest<{ Querystring: ListQuery<PaymentStatus> }>, reply) => {
    const tenant = tenantOfViewer(request);
    const asked = pageOf(request.query);
    const page = await deps.payments.list(tenant, { ...asked, newestFirst: true });
    type Row = (typeof page.data)[number];
    const body = html`${pageHeader('Payments', {
      lead: 'ATO payments your systems created, newest first, with the amount the payer pays and your commission on it.',
    })}
${statusFilter({ action: '/portal/payments', statuses: paymentStatuses, value: asked.status, limit: asked.limit })}
${table<Row>({
  caption: captionOf('Payments', page, page.data.length, asked.status),
  empty: asked.status || asked.from > 0 ? 'No payments match.' : 'No payments yet. Your systems create them with POST /v1/payments.',
  rows: page.data,
  columns: [
    { label: 'Payment', cell: (p) => idText(p.id, `/portal/payments/${p.id}`) },
    { label: 'Status', cell: (p) => badge(p.status) },
    { label: 'Amount', numeric: true, cell: (p) => money(p.amount) },
    { label: 'Commission', numeric: true, cell: (p) => money(p.commissionAmount) },
    { label: 'PRN', cell: (p) => html`<span class="mono">${p.prn}</span>` },
    { label: 'Created', cell: (p) => when(p.createdAt) },
  ],
})}
${pager({ path: '/portal/payments', query: { ...request.query }, page, shown: page.data.length })}`;
    return sendPage(reply, { title: 'Payments', current: 'payments', body });
  });

  app.get('/payments/:id', { schema: { params: IdParams } }, async (request: FastifyRequest<{ Params: { id: string } }>, reply) => {
    const payment = await deps.payments.get(tenantOfViewer(request), request.params.id);
    const metadata = Object.entries(payment.metadata);
    const body = html`${pageHeader(`Payment of ${money(payment.amount)}`, { back: { href: '/portal/payments', label: 'Payments' }, lead: statusWords[payment.status] })}
${section(
  'Payment',
  details([
    ['Payment id', idText(payment.id)],
    ['Status', badge(payment.status)],
    ['Amount', `${money(payment.amount)} ${payment.currency}`],
    ['Your commission', `${money(payment.commissionAmount)} ${payment.currency}`],
    ['PRN', html`<span class="mono">${payment.prn}</span>`],
    ['Description', payment.description],
    ['Contact', optionalId(payment.contactId, payment.contactId ? `/portal/contacts/${payment.contactId}` : undefined)],
    ['Cards tried', payment.attempts],
    ...(payment.failureReason ? [['Failure reason', html`<span class="mono">${payment.failureReason}</span>`] as [string, unknown]] : []),
  ]),
)}
${section(
  'Times',
  html`${details([
    ['Created', when(payment.createdAt)],
    ['Link works until', payment.linkExpiresAt ? when(payment.linkExpiresAt) : null],
    ['Completed', when(payment.completedAt)],
    ['Last changed', when(payment.updatedAt)],
  ])}
<p class="hint">The payment link is shown only when it is created or regenerated through the API (POST /v1/payments/{id}/link); it is never shown again.</p>`,
)}
${
  metadata.length > 0
    ? html`${table<[string, string]>({
        caption: 'Your metadata',
        empty: '',
        rows: metadata,
        columns: [
          { label: 'Key', cell: ([key]) => html`<span class="mono">${key}</span>` },
          { label: 'Value', cell: ([, value]) => value },
        ],
      })}`
    : ''
}`;
    return sendPage(reply, { title: `Payment ${payment.id}`, current: 'payments', body });
  });
}
