// Deed analyses in the portal: the list and one analysis, from the deeds service the /v1 API calls. An
// analysis row holds ids, status, counts and times only: what the deed says (the trust, its parties) is
// sent once by webhook and kept nowhere, so no page can show it.
import type { FastifyRequest } from 'fastify';
import { deedStatuses, type DeedStatus } from '../../modules/deeds/deeds.repository.ts';
import type { HttpApp } from '../../platform/http/types.ts';
import { sendPage, tenantOfViewer } from '../area.ts';
import { html } from '../html.ts';
import { badge, details, idText, notice, pageHeader, pager, section, when, table } from '../ui.ts';
import { billedTo, captionOf, IdParams, type ListQuery, listQuery, optionalId, pageOf, statusFilter, words } from './activity-format.ts';
import type { PortalDeps } from './portal-deps.ts';

/** SPEC's deed failure reasons, with whether trying again helps. */
const failureAdvice: Record<string, string> = {
  OCR_FAILED: 'The scan could not be read. A cleaner copy may work: create a new analysis and upload it.',
  TFN_CONTENT_DETECTED: 'The deed contains a tax file number, so it was quarantined and deleted at once and nothing was extracted. Remove the affected pages and upload it again as a new analysis.',
  EXTRACTION_INVALID_OUTPUT: 'The deed could not be turned into a valid result. Trying again rarely helps.',
  ANALYSIS_UNAVAILABLE: 'The analysis service was unavailable. Try again later with a new analysis.',
  TIMED_OUT: 'The analysis took too long. Try again with a new analysis.',
};

const statusWords: Record<DeedStatus, string> = {
  AWAITING_UPLOAD: 'Waiting for the PDF to be uploaded to its signed URL and the analysis to be started.',
  PROCESSING: 'The deed is being read. The result is sent once, by the deed-analysis.completed or deed-analysis.failed webhook.',
  REVIEW_READY: 'The trust and its parties were sent in the deed-analysis.completed webhook. They are kept nowhere, so they are not shown here.',
  FAILED: 'The analysis failed and was not billed.',
  DISCARDED: 'Discarded: the document was destroyed. Events already delivered were not recalled.',
  EXPIRED: 'Never started within 2 hours of creation: the upload was removed.',
};

export function registerDeedPages(app: HttpApp, deps: PortalDeps): void {
  const query = listQuery(deedStatuses);

  app.get('/deed-analyses', { schema: { querystring: query } }, async (request: FastifyRequest<{ Querystring: ListQuery<DeedStatus> }>, reply) => {
    const tenant = tenantOfViewer(request);
    const asked = pageOf(request.query);
    const page = await deps.deeds.list(tenant, asked);
    type Row = (typeof page.data)[number];
    const body = html`${pageHeader('Deed analyses', {
      lead: 'Trust deeds your systems uploaded for analysis, newest first. The parties a deed names are sent once by webhook and never stored, so only each analysis’s status and counts are here.',
    })}
${statusFilter({ action: '/portal/deed-analyses', statuses: deedStatuses, value: asked.status, limit: asked.limit })}
${table<Row>({
  caption: captionOf('Deed analyses', page, page.data.length, asked.status),
  empty: asked.status || asked.from > 0 ? 'No deed analyses match.' : 'No deed analyses yet. Your systems create them with POST /v1/deed-analyses.',
  rows: page.data,
  columns: [
    { label: 'Analysis', cell: (d) => idText(d.id, `/portal/deed-analyses/${d.id}`) },
    { label: 'Status', cell: (d) => badge(d.status) },
    { label: 'Failure reason', cell: (d) => (d.failureReason ? words(d.failureReason) : html`<span class="muted">—</span>`) },
    { label: 'Parties', numeric: true, cell: (d) => d.partyCount ?? html`<span class="muted">—</span>` },
    { label: 'Pages', numeric: true, cell: (d) => d.pageCount ?? html`<span class="muted">—</span>` },
    { label: 'Created', cell: (d) => when(d.createdAt) },
  ],
})}
${pager({ path: '/portal/deed-analyses', query: { ...request.query }, page, shown: page.data.length })}`;
    return sendPage(reply, { title: 'Deed analyses', current: 'deed-analyses', body });
  });

  app.get('/deed-analyses/:id', { schema: { params: IdParams } }, async (request: FastifyRequest<{ Params: { id: string } }>, reply) => {
    const deed = await deps.deeds.get(tenantOfViewer(request), request.params.id);
    const body = html`${pageHeader('Deed analysis', { back: { href: '/portal/deed-analyses', label: 'Deed analyses' }, lead: statusWords[deed.status] })}
${deed.failureReason ? notice('error', html`<strong>${words(deed.failureReason)}.</strong> ${failureAdvice[deed.failureReason] ?? ''}`) : ''}
${section(
  'Analysis',
  details([
    ['Analysis id', idText(deed.id)],
    ['Status', badge(deed.status)],
    ...(deed.failureReason ? [['Failure reason', html`<span class="mono">${deed.failureReason}</span>`] as [string, unknown]] : []),
    ['Verification request', deed.verificationRequestId ? optionalId(deed.verificationRequestId, `/portal/verifications/${deed.verificationRequestId}`) : html`<span class="muted">None</span>`],
    ['Billed to', billedTo(deed.contactId)],
    ['Pages', deed.pageCount],
    ['Pages read by OCR', deed.ocrPageCount],
    ['Parties sent', deed.partyCount],
    ['Beneficiary classes sent', deed.beneficiaryClassCount],
  ]),
)}
${section(
  'Times',
  details([
    ['Created', when(deed.createdAt)],
    ['Start before', deed.status === 'AWAITING_UPLOAD' ? when(deed.uploadExpiresAt) : null],
    ['Started', when(deed.startedAt)],
    ['Finished', when(deed.finishedAt)],
    ['Document deleted', deed.documentPurgedAt ? when(deed.documentPurgedAt) : html`<span class="muted">Not yet: PVS may still hold the PDF</span>`],
  ]),
)}`;
    return sendPage(reply, { title: `Deed analysis ${deed.id}`, current: 'deed-analyses', body });
  });
}
