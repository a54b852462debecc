// Contacts in the portal: the list and one contact, from the billing services the /v1 API calls. What
// matters most about a contact is whether checks can be billed to it now: billable, no card yet, or
// blocked (by the partner, or by a declined billing run until a retry succeeds or a new card is saved).
import type { FastifyRequest } from 'fastify';
import { billingStatuses, type BillingStatus, type Contact } from '../../modules/billing/billing.schemas.ts';
import { productLabels, type Product } from '../../modules/billing/prices.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import type { HttpApp } from '../../platform/http/types.ts';
import { sendPage, tenantOfViewer } from '../area.ts';
import { html, type Html } from '../html.ts';
import { badge, details, idText, notice, pageHeader, pager, section, when, table } from '../ui.ts';
import { captionOf, IdParams, type ListQuery, listQuery, money, pageOf, statusFilter, toneBadge, words } from './activity-format.ts';
import type { PortalDeps } from './portal-deps.ts';

const billingBadges: Record<BillingStatus, Html> = {
  BILLABLE: toneBadge('BILLABLE', 'good'),
  NO_PAYMENT_METHOD: toneBadge('NO CARD', 'warn'),
  BLOCKED: toneBadge('BLOCKED', 'bad'),
};

/** The contact's billing status as a badge; an archived contact says so too. */
export function billingBadge(contact: Pick<Contact, 'billingStatus' | 'archivedAt'>): Html {
  return html`${billingBadges[contact.billingStatus]}${contact.archivedAt ? html` ${toneBadge('ARCHIVED', 'neutral')}` : ''}`;
}

function cardText(card: Contact['card']): Html {
  if (!card) return html`<span class="muted">No card saved</span>`;
  return html`${words(card.brand)} ending ${card.last4}, expires ${String(card.expMonth).padStart(2, '0')}/${card.expYear}`;
}

/** Where a charge's work is shown in the portal, when it has a page of its own. */
function referenceLink(referenceId: string): Html {
  if (referenceId.startsWith('lkp_')) return idText(referenceId, `/portal/lookups/${referenceId}`);
  if (referenceId.startsWith('dda_')) return idText(referenceId, `/portal/deed-analyses/${referenceId}`);
  return idText(referenceId);
}

/** Monitoring alerts are only for partners eligible for monitoring; undefined for the others. */
async function openAlertsByContact(deps: PortalDeps, tenant: Tenant, contactId?: string) {
  if (!(await deps.partners.getOwn(tenant)).monitoringEligible) return undefined;
  return deps.monitoringAlerts.list(tenant, { limit: 100, from: 0, ...(contactId ? { contactId } : { status: 'OPEN' as const }) });
}

export function registerContactPages(app: HttpApp, deps: PortalDeps): void {
  const query = listQuery(billingStatuses);

  app.get('/contacts', { schema: { querystring: query } }, async (request: FastifyRequest<{ Querystring: ListQuery<BillingStatus> }>, reply) => {
    const tenant = tenantOfViewer(request);
    const asked = pageOf(request.query);
    const [page, alerts] = await Promise.all([
      deps.contacts.list(tenant, { limit: asked.limit, from: asked.from, billingStatus: asked.status, newestFirst: true }),
      openAlertsByContact(deps, tenant),
    ]);
    const openAlerts = (id: string) => alerts?.data.filter((a) => a.contactId === id).length ?? 0;
    type Row = (typeof page.data)[number];
    const body = html`${pageHeader('Contacts', {
      lead: 'Your customers who pay for checks with a saved card, newest first. A blocked contact cannot be billed until its card is paid or replaced, or you unblock it.',
    })}
${statusFilter({ action: '/portal/contacts', statuses: billingStatuses, value: asked.status, label: 'Billing status', limit: asked.limit })}
${table<Row>({
  caption: captionOf('Contacts', page, page.data.length, asked.status),
  empty: asked.status || asked.from > 0 ? 'No contacts match.' : 'No contacts yet. Your systems add them with POST /v1/contacts.',
  rows: page.data,
  columns: [
    { label: 'Contact', cell: (c) => idText(c.id, `/portal/contacts/${c.id}`) },
    { label: 'Name', cell: (c) => html`${c.name}${c.externalId ? html`<br><span class="muted">${c.externalId}</span>` : ''}` },
    { label: 'Billing', cell: (c) => billingBadge(c) },
    { label: 'Card', cell: (c) => (c.card ? `${words(c.card.brand)} ${c.card.last4}` : html`<span class="muted">None</span>`) },
    ...(alerts ? [{ label: 'Open alerts', numeric: true, cell: (c: Row) => openAlerts(c.id) }] : []),
    { label: 'Created', cell: (c) => when(c.createdAt) },
  ],
})}
${pager({ path: '/portal/contacts', query: { ...request.query }, page, shown: page.data.length })}`;
    return sendPage(reply, { title: 'Contacts', current: 'contacts', body });
  });

  app.get('/contacts/:id', { schema: { params: IdParams } }, async (request: FastifyRequest<{ Params: { id: string } }>, reply) => {
    const tenant = tenantOfViewer(request);
    // get answers 404 (NOT_FOUND) for another partner's contact, before anything else is read.
    const contact = await deps.contacts.get(tenant, request.params.id);
    const [failedRuns, charges, alerts] = await Promise.all([
      deps.charges.failedRunsOf(tenant, contact.id),
      deps.charges.list(tenant, { contactId: contact.id, limit: 10, from: 0 }),
      openAlertsByContact(deps, tenant, contact.id),
    ]);
    type Run = (typeof failedRuns)[number];
    type Charge = (typeof charges.data)[number];
    type Alert = NonNullable<typeof alerts>['data'][number];
    const why =
      contact.billingStatus === 'BLOCKED'
        ? notice(
            'error',
            contact.billingBlocked
              ? html`<strong>You blocked billing to this contact.</strong> Checks billed to it are refused with CONTACT_BILLING_BLOCKED until you set <span class="mono">billingBlocked</span> back to false (PATCH /v1/contacts/{id}).`
              : html`<strong>A billing run was declined.</strong> Checks billed to this contact are refused until a retry succeeds or the contact saves a new card through a card link.`,
          )
        : contact.billingStatus === 'NO_PAYMENT_METHOD'
          ? notice('info', 'No card is saved yet. Send the contact a card link (POST /v1/contacts/{id}/card-link) before billing checks to them.')
          : '';
    const body = html`${pageHeader(contact.name, { back: { href: '/portal/contacts', label: 'Contacts' }, lead: 'A contact of yours: who pays for the checks billed to it, and whether it can be billed now.' })}
${why}
${section(
  'Contact',
  details([
    ['Contact id', idText(contact.id)],
    ['Name', contact.name],
    ['Email', contact.email],
    ['Your id', contact.externalId],
    ['Billing status', billingBadge(contact)],
    ['Blocked by you', contact.billingBlocked ? 'Yes' : 'No'],
    ['Card', cardText(contact.card)],
    ['Archived', contact.archivedAt ? when(contact.archivedAt) : null],
    ['Created', when(contact.createdAt)],
  ]),
)}
${
  failedRuns.length > 0
    ? html`${table<Run>({
        caption: 'Declined billing runs',
        empty: '',
        rows: failedRuns,
        columns: [
          { label: 'Run', cell: (r) => idText(r.id) },
          { label: 'Amount', numeric: true, cell: (r) => money(r.amount) },
          { label: 'Decline', cell: (r) => html`<span class="mono">${r.failureReason ?? '—'}</span>${r.merchantAdviceCode ? html` <span class="muted">(advice code ${r.merchantAdviceCode})</span>` : ''}` },
          { label: 'Attempts', numeric: true, cell: (r) => r.attempts },
          { label: 'Next retry', cell: (r) => (r.nextRetryAt ? when(r.nextRetryAt) : html`<span class="muted">Not until a new card is saved</span>`) },
        ],
      })}`
    : ''
}
${table<Charge>({
  caption: 'Recent charges',
  empty: 'Nothing has been billed to this contact.',
  rows: charges.data,
  columns: [
    { label: 'Charge', cell: (c) => idText(c.id) },
    { label: 'For', cell: (c) => html`${productLabels[c.product as Product] ?? c.product}<br>${referenceLink(c.referenceId)}` },
    { label: 'Amount', numeric: true, cell: (c) => money(c.amount) },
    { label: 'Status', cell: (c) => badge(c.status) },
    { label: 'Created', cell: (c) => when(c.createdAt) },
  ],
})}
${
  alerts
    ? html`${table<Alert>({
        caption: 'Monitoring alerts',
        empty: 'No monitoring alert has been raised on this contact.',
        rows: alerts.data,
        columns: [
          { label: 'Alert', cell: (a) => idText(a.id) },
          { label: 'Status', cell: (a) => badge(a.status) },
          { label: 'Categories', cell: (a) => a.categories.map(words).join(', ') },
          { label: 'Raised', cell: (a) => when(a.createdAt) },
        ],
      })}`
    : ''
}`;
    return sendPage(reply, { title: `Contact ${contact.id}`, current: 'contacts', body });
  });
}
