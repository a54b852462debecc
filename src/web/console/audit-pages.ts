// Two trails for operators: who read a person's evidence (a partner's API client or an operator in the
// console), and the audit log of every decision and change people made in the console and the portal.
// Both newest first; neither holds what was read or any secret.
import { Type } from '@sinclair/typebox';
import type { AuditEntry } from '../../modules/audit/audit.service.ts';
import type { HttpApp } from '../../platform/http/types.ts';
import { sendPage } from '../area.ts';
import { html, type Html } from '../html.ts';
import { badge, filters, idText, pageHeader, pager, select, table, when } from '../ui.ts';
import type { ConsoleDeps } from './console-deps.ts';
import { breakable, cellOf, filterOf, pageQuery, partnerLink } from './console-common.ts';

const readerKinds = ['PARTNER', 'OPERATOR'] as const;
const actorKinds = ['OPERATOR', 'PORTAL_USER', 'ADMIN'] as const;
const actorLabels: Record<string, string> = { OPERATOR: 'operator', PORTAL_USER: 'portal user', ADMIN: 'pvs command' };
const kindLabels: Record<string, string> = { DOCUMENT_DETAILS: 'Document details', AML_MATCHES: 'AML matches', ENTITY_REPORT: 'Entity report', INDIVIDUAL_REPORT: 'Individual report' };

interface EvidenceRead {
  id: string;
  partnerId: string;
  apiClientId: string | null;
  operatorId: string | null;
  verificationRequestId: string;
  individualId: string | null;
  kind: string;
  includeScans: boolean | null;
  status: string;
  requestId: string;
  readAt: string;
}

/** Operators' emails by id, for the rows of one page. */
async function operatorEmails(deps: ConsoleDeps, ids: Array<string | null>): Promise<Map<string, string>> {
  const unique = [...new Set(ids.filter((id): id is string => id !== null))];
  const found = await Promise.all(unique.map(async (id) => [id, (await deps.operators.get(id).catch(() => undefined))?.email ?? id] as const));
  return new Map(found);
}

function partnerCell(partnerId: string | null, names: Map<string, string>): Html {
  return cellOf(partnerId ? partnerLink(partnerId, names) : html`<span class="muted">—</span>`);
}

/** An entry's detail as `key: value` lines: ids and changed fields only (audit.service.ts). */
function detailText(detail: Record<string, unknown>): Html {
  const entries = Object.entries(detail);
  if (entries.length === 0) return cellOf(html`<span class="muted">—</span>`);
  return cellOf(...entries.map(([key, value]) => html`<span class="muted">${key}:</span> <span class="mono">${breakable(typeof value === 'string' ? value : JSON.stringify(value))}</span>`));
}

export function registerAuditPages(app: HttpApp, deps: ConsoleDeps): void {
  app.get('/evidence-reads', { schema: { querystring: Type.Object({ ...pageQuery, reader: filterOf(readerKinds) }) } }, async (request, reply) => {
    const reader = (request.query.reader || undefined) as (typeof readerKinds)[number] | undefined;
    const page = await deps.evidence.listReads({ limit: request.query.limit, from: request.query.from, readerKind: reader });
    const rows = page.data as EvidenceRead[];
    const [names, emails] = await Promise.all([deps.partners.namesOf(rows.map((r) => r.partnerId)), operatorEmails(deps, rows.map((r) => r.operatorId))]);
    const body = html`${pageHeader('Evidence reads', {
      lead: 'Every time someone saw a person’s evidence: a partner’s API client reading document details or AML matches, a report being rendered, or an operator opening a review here. What was read is never kept; that it was read is.',
    })}
${filters({
  action: '/console/evidence-reads',
  body: select({ name: 'reader', label: 'Read by', value: reader ?? '', blank: 'Anyone', choices: [{ value: 'PARTNER', label: 'Partners’ API clients' }, { value: 'OPERATOR', label: 'Operators' }] }),
})}
${table({
  caption: 'Evidence reads, newest first',
  columns: [
    { label: 'When', cell: (r: EvidenceRead) => cellOf(when(r.readAt)) },
    {
      label: 'Who',
      cell: (r) =>
        r.operatorId
          ? cellOf(breakable(emails.get(r.operatorId) ?? r.operatorId), html`<span class="muted">operator</span>`)
          : cellOf(idText(r.apiClientId ?? ''), html`<span class="muted">partner’s API client</span>`),
    },
    { label: 'Partner', cell: (r) => partnerCell(r.partnerId, names) },
    {
      label: 'Individual',
      cell: (r) =>
        cellOf(
          r.individualId ? idText(r.individualId, `/console/reviews/${r.verificationRequestId}/${r.individualId}`) : html`<span class="muted">the whole request</span>`,
          html`<span class="muted">of</span> ${idText(r.verificationRequestId)}`,
        ),
    },
    {
      label: 'What',
      cell: (r) =>
        cellOf(
          html`${kindLabels[r.kind] ?? r.kind} ${badge(r.status)}`,
          r.includeScans === false ? html`<span class="muted">without images</span>` : '',
          html`<span class="muted">HTTP request</span> ${idText(r.requestId)}`,
        ),
    },
  ],
  rows,
  empty: reader ? 'Nothing read by these readers yet.' : 'Nobody has read any evidence yet.',
})}
${pager({ path: '/console/evidence-reads', query: { reader, limit: request.query.limit === 25 ? undefined : request.query.limit }, page, shown: rows.length })}`;
    return sendPage(reply, { title: 'Evidence reads', current: 'evidence-reads', body });
  });

  const AuditQuery = Type.Object({ ...pageQuery, actorKind: filterOf(actorKinds), action: Type.Optional(Type.String({ maxLength: 100 })) });

  app.get('/audit', { schema: { querystring: AuditQuery } }, async (request, reply) => {
    const actorKind = request.query.actorKind || undefined;
    const action = request.query.action?.trim() || undefined;
    const [page, actions] = await Promise.all([deps.audit.list({ actorKind, action }, { limit: request.query.limit, from: request.query.from }), deps.audit.actions()]);
    const names = await deps.partners.namesOf(page.data.flatMap((e) => (e.partnerId ? [e.partnerId] : [])));
    const body = html`${pageHeader('Audit log', {
      lead: 'Every decision and change people made in the console and the portal, and their sign-ins: who, what, for which partner, and when. Newest first.',
    })}
${filters({
  action: '/console/audit',
  body: html`${select({ name: 'actorKind', label: 'Who', value: actorKind ?? '', blank: 'Anyone', choices: [{ value: 'OPERATOR', label: 'Operators' }, { value: 'PORTAL_USER', label: 'Portal users' }, { value: 'ADMIN', label: 'The pvs command' }] })}
${select({ name: 'action', label: 'Action', value: action ?? '', blank: 'Any action', choices: actions.map((a) => ({ value: a, label: a })) })}`,
})}
${table({
  caption: 'Audit log, newest first',
  columns: [
    { label: 'When', cell: (e: AuditEntry) => cellOf(when(e.createdAt)) },
    { label: 'Who', cell: (e) => cellOf(breakable(e.actor.email), html`<span class="muted">${actorLabels[e.actor.kind] ?? e.actor.kind}</span>`) },
    { label: 'Action', cell: (e) => cellOf(html`<span class="mono">${breakable(e.action)}</span>`) },
    { label: 'Partner', cell: (e) => partnerCell(e.partnerId, names) },
    { label: 'Target', cell: (e) => cellOf(e.targetId ? idText(e.targetId) : html`<span class="muted">—</span>`) },
    { label: 'Detail', cell: (e) => detailText(e.detail) },
  ],
  rows: page.data,
  empty: actorKind || action ? 'No entry matches these filters.' : 'Nothing has been done yet.',
})}
${pager({ path: '/console/audit', query: { actorKind, action, limit: request.query.limit === 25 ? undefined : request.query.limit }, page, shown: page.data.length })}`;
    return sendPage(reply, { title: 'Audit log', current: 'audit', body });
  });
}
