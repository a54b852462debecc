// Business lookups in the portal: the list and one lookup, from the lookups service the /v1 API calls.
// Neither page reads the registers or the ownership view: that view spends the lookup's daily read
// budget and reads the owners' dates of birth and addresses live, which a page view must not do. What
// is shown is what the lookup stored: its counts, completeness and the register parties by name (as
// GET /v1/business-lookups/{id} answers them).
import type { FastifyRequest } from 'fastify';
import { lookupStatuses } from '../../modules/lookups/lookups.schemas.ts';
import type { HttpApp } from '../../platform/http/types.ts';
import { sendPage, tenantOfViewer } from '../area.ts';
import { html } from '../html.ts';
import { badge, details, idText, pageHeader, pager, section, when, table } from '../ui.ts';
import { abnText, acnText, billedTo, captionOf, completenessBadge, IdParams, type ListQuery, listQuery, pageOf, roleText, statusFilter, words } from './activity-format.ts';
import type { PortalDeps } from './portal-deps.ts';
import { requestBadge } from './verification-detail.ts';

type LookupStatus = (typeof lookupStatuses)[number];

const failureWords: Record<string, string> = {
  NOT_FOUND: 'The number is not on the business register.',
  IDENTIFIER_MISMATCH: 'The ABN and the ACN given name different businesses.',
  REGISTER_UNAVAILABLE: 'The register did not answer, even after retries. Run a new lookup later; this one was not billed.',
};

const scopeWords = {
  FULL: 'register facts, officers and beneficial owners',
  ASIC_ONLY: 'register facts and officers, no ownership',
  UBO_ONLY: 'beneficial owners only',
} as const;

const completenessWords = {
  HIGH: 'Every owner was traced through a live ownership read: no blocked entities, unlinked owners or truncation.',
  PARTIAL: 'Some ownership could not be traced (a trust or other blocked entity, an owner that could not be linked, or a chain deeper than the limit).',
  UNKNOWN: 'The ownership could not be determined: the source was unavailable, not asked for (ASIC_ONLY), or there is no ownership graph.',
} as const;

/** `ABN 32 111 111 114` and/or `ACN 111 111 114`, each kept on one line (no-break spaces). */
function numbersOf(lookup: { abn: string | null; acn: string | null }) {
  const unbroken = (text: string) => text.replace(/ /g, '\u00a0');
  return html`${lookup.abn ? unbroken(`ABN ${abnText(lookup.abn)}`) : ''}${lookup.abn && lookup.acn ? html`<br>` : ''}${lookup.acn ? unbroken(`ACN ${acnText(lookup.acn)}`) : ''}`;
}

/** `1 owner, 2 directors` and the distinct parties under it. */
function partiesText(counts: { beneficialOwners: number; directors: number; total: number }) {
  const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
  return html`${plural(counts.beneficialOwners, 'owner', 'owners')}, ${plural(counts.directors, 'director', 'directors')}<br><span class="muted">${plural(counts.total, 'party', 'parties')} in all</span>`;
}

export function registerLookupPages(app: HttpApp, deps: PortalDeps): void {
  const query = listQuery(lookupStatuses);

  app.get('/lookups', { schema: { querystring: query } }, async (request: FastifyRequest<{ Querystring: ListQuery<LookupStatus> }>, reply) => {
    const tenant = tenantOfViewer(request);
    const asked = pageOf(request.query);
    const page = await deps.lookups.listWithCompleteness(tenant, asked);
    type Row = (typeof page.data)[number];
    const body = html`${pageHeader('Business lookups', {
      lead: 'Every ABN or ACN lookup your systems made through the API, newest first. Open one to see its register parties and how complete its ownership is.',
    })}
${statusFilter({ action: '/portal/lookups', statuses: lookupStatuses, value: asked.status, limit: asked.limit })}
${table<Row>({
  caption: captionOf('Business lookups', page, page.data.length, asked.status),
  empty: asked.status || asked.from > 0 ? 'No lookups match.' : 'No business lookups yet. Your systems create them with POST /v1/business-lookups.',
  rows: page.data,
  columns: [
    {
      label: 'Business',
      cell: (l) => html`<a href="/portal/lookups/${l.lookupRequestId}">${l.entity?.name ?? numbersOf(l)}</a>${l.entity ? html`<br><span class="muted">${numbersOf(l)}</span>` : ''}<br>${idText(l.lookupRequestId)}`,
    },
    { label: 'Status', cell: (l) => html`${badge(l.status)}<br><span class="muted">${l.failureReason ? words(l.failureReason) : `${words(l.scope)} scope`}</span>` },
    { label: 'Completeness', cell: (l) => completenessBadge(l.completeness) },
    { label: 'Parties', cell: (l) => (l.partyCounts ? partiesText(l.partyCounts) : html`<span class="muted">—</span>`) },
    { label: 'Created', cell: (l) => when(l.createdAt) },
  ],
})}
${pager({ path: '/portal/lookups', query: { ...request.query }, page, shown: page.data.length })}`;
    return sendPage(reply, { title: 'Business lookups', current: 'lookups', body });
  });

  app.get('/lookups/:id', { schema: { params: IdParams } }, async (request: FastifyRequest<{ Params: { id: string } }>, reply) => {
    const tenant = tenantOfViewer(request);
    const { id } = request.params;
    // get answers 404 (NOT_FOUND) for another partner's lookup, before anything else is read.
    const lookup = await deps.lookups.get(tenant, id);
    const [structure, verifications] = await Promise.all([
      deps.lookups.storedStructureOf(tenant, id),
      deps.verifications.list(tenant, { limit: 20, from: 0, lookupRequestId: id, newestFirst: true }),
    ]);
    type Party = (typeof lookup.individuals)[number];
    type Bound = (typeof verifications.data)[number];
    const lead =
      lookup.status === 'PENDING'
        ? 'The registers are being read. The result arrives in the business-lookup.completed webhook, and here.'
        : lookup.status === 'FAILED'
          ? (failureWords[lookup.failureReason ?? ''] ?? 'The lookup failed.')
          : `${lookup.entity?.name ?? 'The business'}: ${lookup.partyCounts?.total ?? 0} register ${lookup.partyCounts?.total === 1 ? 'party' : 'parties'} found.`;
    const body = html`${pageHeader('Business lookup', { back: { href: '/portal/lookups', label: 'Business lookups' }, lead })}
${section(
  'Lookup',
  details([
    ['Lookup id', idText(lookup.lookupRequestId)],
    ['Status', badge(lookup.status)],
    ...(lookup.failureReason ? [['Failure reason', html`${words(lookup.failureReason)} <span class="muted">(${lookup.failureReason})</span>`] as [string, unknown]] : []),
    ['Scope', html`${words(lookup.scope)} <span class="muted">(${scopeWords[lookup.scope]})</span>`],
    ['ABN', abnText(lookup.abn)],
    ['ACN', acnText(lookup.acn)],
    ['Entity name', lookup.entity?.name],
    ['Entity type', lookup.entity ? words(lookup.entity.type) : null],
    ['Billed to', billedTo(lookup.contactId)],
    ['Created', when(lookup.createdAt)],
    ['Completed', when(lookup.completedAt)],
  ]),
)}
${
  structure
    ? section(
        'Ownership',
        html`<p>${completenessBadge(structure.completeness)} ${completenessWords[structure.completeness]}</p>
${details([
  ['Reason', words(structure.reason)],
  ['Ownership source', words(structure.ownershipSource)],
  ['Blocked entities', structure.blockedNodes],
  ['Unlinked owners', structure.unlinkedOwners],
  ['Truncated at the depth limit', structure.truncated ? 'Yes' : 'No'],
  ['Structure as of', when(structure.structureAsOf)],
])}
<p class="hint">Owners’ dates of birth, addresses and screening are read live by <span class="mono">GET /v1/business-lookups/${lookup.lookupRequestId}/ownership</span>. This page does not read them, so it spends none of the lookup’s daily reads.</p>`,
      )
    : ''
}
${
  lookup.partyCounts
    ? section(
        'Party counts',
        details([
          ['Beneficial owners', lookup.partyCounts.beneficialOwners],
          ['Directors', lookup.partyCounts.directors],
          ['Officers', html`${lookup.partyCounts.officers} <span class="muted">(directors, secretaries and other officers)</span>`],
          ['Distinct parties', lookup.partyCounts.total],
        ]),
      )
    : ''
}
${
  lookup.status === 'COMPLETED'
    ? html`${table<Party>({
  caption: 'Register parties',
  empty: 'The registers named no parties for this business.',
  rows: lookup.individuals,
  columns: [
    { label: 'Name', cell: (p) => p.name },
    { label: 'Role', cell: (p) => roleText(p.role) },
    { label: 'Holding', numeric: true, cell: (p) => (p.ownershipPercent === null ? html`<span class="muted">—</span>` : `${p.ownershipPercent}%`) },
    { label: 'Idv entity', cell: (p) => idText(p.idvEntityId) },
  ],
})}${lookup.individuals.length > 0 ? html`<p class="hint">One row per person and role, as the registers name them. A verification bound to this lookup verifies each person once.</p>` : ''}`
    : ''
}
${table<Bound>({
  caption: 'Verifications of this lookup',
  empty: 'No verification request is bound to this lookup.',
  rows: verifications.data,
  columns: [
    { label: 'Request', cell: (v) => idText(v.id, `/portal/verifications/${v.id}`) },
    { label: 'Status', cell: (v) => requestBadge(v.status) },
    { label: 'People', numeric: true, cell: (v) => v.individuals.length },
    { label: 'Created', cell: (v) => when(v.createdAt) },
  ],
})}`;
    return sendPage(reply, { title: `Business lookup ${lookup.lookupRequestId}`, current: 'lookups', body });
  });
}
