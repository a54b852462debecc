// Monitoring alerts across partners: the list (open ones first), one alert with its match as the list
// version held it, and the operator's decision through the same service as the partner's API, which
// sends monitoring.alert.updated. An alert is decided once; a second decision is shown, not applied.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { OperatorAlert } from '../../modules/monitoring/alerts.service.ts';
import { alertStatuses, type AlertStatus } from '../../modules/monitoring/monitoring.schemas.ts';
import { AppError } from '../../platform/errors.ts';
import type { HttpApp } from '../../platform/http/types.ts';
import { formOf, sendPage, viewerOf } from '../area.ts';
import { html, type Html } from '../html.ts';
import { badge, choices, details, errorSummary, filters, idText, notice, pageHeader, pager, postForm, section, select, table, textarea, when, type FieldError } from '../ui.ts';
import type { ConsoleDeps } from './console-deps.ts';
import { cellOf, filterOf, idParam, operatorActor, pageQuery, partnerLink, stepUpFirst } from './console-common.ts';

const screenedAs: Record<string, string> = { ANY: 'a person or a business', BUSINESS: 'a business', PERSON: 'a person' };

const noteLimit = 2000;
const alertPath = (id: string) => `/console/alerts/${id}`;
const decisionLabels = { TRUE_MATCH: 'True match', FALSE_POSITIVE: 'False positive' } as const;
const list = (values: string[]) => (values.length ? values.join(', ') : null);

function matchSummary(alert: OperatorAlert): Html {
  return cellOf(
    alert.entry.name,
    html`<span class="mono muted">${alert.entry.list} · ${alert.entry.entryId}</span>`,
    html`${alert.categories.map((c) => html`${badge(c)} `)}<span class="muted">score ${alert.score.toFixed(2)}</span>`,
  );
}

/** What made the score, in words: `NOT_COMPARED` reads as "not compared". */
const said = (feature: string) => feature.replace(/_/g, ' ').toLowerCase();

export function registerAlertPages(app: HttpApp, deps: ConsoleDeps): void {
  app.get('/alerts', { schema: { querystring: Type.Object({ ...pageQuery, status: filterOf(alertStatuses) }) } }, async (request, reply) => {
    const status = (request.query.status || undefined) as AlertStatus | undefined;
    const page = await deps.monitoringAlerts.listForOperators({ limit: request.query.limit, from: request.query.from, status });
    const names = await deps.partners.namesOf(page.data.map((a) => a.partnerId));
    const body = html`${pageHeader('Monitoring alerts', {
      lead: 'Possible matches of monitored contacts on newly loaded sanctions and PEP lists, from every partner. Open ones come first: open one to compare the contact with the list entry and confirm or dismiss it.',
    })}
${filters({
  action: '/console/alerts',
  body: select({ name: 'status', label: 'Status', value: status ?? '', blank: 'Any (open first)', choices: alertStatuses.map((s) => ({ value: s, label: s[0] + s.slice(1).toLowerCase() })) }),
})}
${table({
  caption: status ? `Monitoring alerts that are ${status.toLowerCase()}, newest first` : 'Monitoring alerts, open first, newest first',
  columns: [
    { label: 'Alert', cell: (a: OperatorAlert) => cellOf(html`<a class="mono" href="${alertPath(a.id)}">${a.id}</a>`) },
    { label: 'Status', cell: (a) => cellOf(badge(a.status)) },
    { label: 'Partner', cell: (a) => cellOf(partnerLink(a.partnerId, names)) },
    { label: 'Contact', cell: (a) => cellOf(a.contact.name, idText(a.contactId)) },
    { label: 'Possible match', cell: (a) => matchSummary(a) },
    { label: 'Raised', cell: (a) => cellOf(when(a.createdAt)) },
  ],
  rows: page.data,
  empty: status ? `No alert is ${status.toLowerCase()}.` : 'No monitoring alert has been raised yet.',
})}
${pager({ path: '/console/alerts', query: { status, limit: request.query.limit === 25 ? undefined : request.query.limit }, page, shown: page.data.length })}`;
    return sendPage(reply, { title: 'Monitoring alerts', current: 'alerts', body });
  });

  async function decisionOf(alert: OperatorAlert): Promise<Html> {
    const decision = alert.decision!;
    const operator = decision.decidedBy === 'OPERATOR' ? await deps.operators.get(decision.decidedById).catch(() => undefined) : undefined;
    const by = decision.decidedBy === 'OPERATOR' ? `${operator?.email ?? decision.decidedById} (operator)` : html`The partner, through the API (client ${idText(decision.decidedById)})`;
    return section(
      'The decision',
      details([
        ['Decision', decisionLabels[decision.decision]],
        ['Status', badge(alert.status)],
        ['By', by],
        ['At', when(decision.decidedAt)],
        ['Note', decision.note],
      ]),
    );
  }

  function decisionForm(alert: OperatorAlert, csrf: string, errors: FieldError[], values: Record<string, string>): Html {
    return section(
      'Your decision',
      postForm({
        action: alertPath(alert.id),
        csrf,
        submit: 'Record decision',
        body: html`${choices({
          name: 'decision',
          legend: 'Is the contact the person or business on the list?',
          type: 'radio',
          choices: [
            { value: 'TRUE_MATCH', label: 'True match', hint: 'The contact is the listed entry: the alert becomes CONFIRMED.' },
            { value: 'FALSE_POSITIVE', label: 'False positive', hint: 'The contact is someone else: the alert becomes DISMISSED.' },
          ],
          checked: values.decision ? [values.decision] : [],
          errors,
        })}
${textarea({ name: 'note', label: 'Note', hint: `What you compared and what you found (at most ${noteLimit} characters). Kept for PVS’s record; not sent to the partner.`, value: values.note, required: true, errors })}`,
      }),
      { id: 'decision' },
    );
  }

  async function renderAlert(
    request: FastifyRequest,
    reply: FastifyReply,
    id: string,
    state: { status?: number; errors?: FieldError[]; values?: Record<string, string>; message?: Html; justDecided?: boolean } = {},
  ) {
    const viewer = viewerOf(request);
    // The match detail is AML evidence: only after a fresh second factor.
    const steppedUp = stepUpFirst(request, reply, deps, alertPath(id));
    if (steppedUp) return steppedUp;
    const alert = await deps.monitoringAlerts.getForOperators(id);
    // After the redirect from this operator's own decision, and only then, the page confirms it.
    if (state.justDecided && alert.decision?.decidedBy === 'OPERATOR' && alert.decision.decidedById === viewer.accountId) {
      state.message = notice('success', 'Your decision is recorded, and the partner has been sent monitoring.alert.updated.');
    }
    const names = await deps.partners.namesOf([alert.partnerId]);
    const f = alert.features;
    const errors = state.errors ?? [];
    const body = html`${pageHeader('Monitoring alert', {
      back: { href: '/console/alerts', label: 'Monitoring alerts' },
      lead:
        alert.status === 'OPEN'
          ? 'A monitored contact may be on a sanctions or PEP list. Compare the contact with the entry, as the list version that matched held it, and decide.'
          : 'A monitored contact was matched with a sanctions or PEP list entry, and the match has been decided: the decision is at the foot of the page.',
    })}
${errorSummary(errors)}
${state.message ?? ''}
<div class="grid">
${section(
  'The contact',
  details([
    ['Alert', idText(alert.id)],
    ['Status', badge(alert.status)],
    ['Partner', html`${partnerLink(alert.partnerId, names)} ${idText(alert.partnerId)}`],
    ['Contact', html`${alert.contact.name}<br>${idText(alert.contactId)}`],
    ['Screened as', alert.contact.screenAs ? screenedAs[alert.contact.screenAs] : null],
    ['Countries', list(alert.contact.countries)],
    ['Raised', when(alert.createdAt)],
  ]),
)}
${section(
  `The list entry, as version ${alert.listVersion} held it`,
  details([
    ['Name', alert.entry.name],
    ['Matched name', alert.matchedName],
    ['Kind', alert.entry.kind],
    ['Aliases', list(alert.entry.aliases)],
    ['Born', list(alert.entry.datesOfBirth)],
    ['Countries', list(alert.entry.countries)],
    ['Categories', html`${alert.categories.map((c) => html`${badge(c)} `)}`],
    ['Source', alert.entry.source],
    ['List and entry', html`<span class="mono">${alert.entry.list} · ${alert.entry.entryId}</span>`],
  ]),
  { id: 'section-entry' },
)}
</div>
${section(
  'What made the score',
  details([
    ['Score', alert.score.toFixed(2)],
    ['Name similarity', f.nameScore.toFixed(2)],
    ['Name words matched', `${f.matchedTokens} matched, ${f.unmatchedTokens} not`],
    ['Matched an alias', f.alias ? 'Yes' : 'No'],
    ['Date of birth', said(f.dateOfBirth)],
    ['Country', said(f.country)],
    ['Identifier', said(f.identifier)],
  ]),
)}
${alert.status === 'OPEN' ? decisionForm(alert, viewer.session.csrfToken, errors, state.values ?? {}) : await decisionOf(alert)}`;
    return sendPage(reply, { title: `Alert ${alert.id}`, current: 'alerts', body, status: state.status });
  }

  const AlertParams = Type.Object({ id: idParam });

  app.get('/alerts/:id', { schema: { params: AlertParams, querystring: Type.Object({ decided: Type.Optional(Type.String({ maxLength: 10 })) }) } }, async (request, reply) => {
    return renderAlert(request, reply, request.params.id, { justDecided: request.query.decided !== undefined });
  });

  app.post('/alerts/:id', { schema: { params: AlertParams } }, async (request, reply) => {
    const viewer = viewerOf(request);
    const { id } = request.params;
    const form = formOf(request);
    const note = (form.note ?? '').trim();
    const errors: FieldError[] = [];
    if (form.decision !== 'TRUE_MATCH' && form.decision !== 'FALSE_POSITIVE') errors.push({ name: 'decision', message: 'Choose True match or False positive' });
    if (!note) errors.push({ name: 'note', message: 'Write why you decided so: what you compared and what you found' });
    else if (note.length > noteLimit) errors.push({ name: 'note', message: `Shorten the note to ${noteLimit} characters; it has ${note.length}` });
    if (errors.length > 0) return renderAlert(request, reply, id, { status: 400, errors, values: form });

    const decision = form.decision as 'TRUE_MATCH' | 'FALSE_POSITIVE';
    try {
      await deps.monitoringAlerts.decideAsOperator(id, { decision, note }, viewer.accountId, {
        // The note is kept with the alert; the audit entry holds ids and the outcome only.
        inTransaction: (tx, alert) =>
          deps.audit.record(
            { actor: operatorActor(viewer), partnerId: alert.partnerId, action: 'monitoring.alert.decided', targetId: id, detail: { decision, status: decision === 'TRUE_MATCH' ? 'CONFIRMED' : 'DISMISSED' } },
            tx,
          ),
      });
    } catch (error) {
      if (error instanceof AppError && error.code === 'INVALID_STATE') {
        const message = notice('error', 'This alert was decided already, so your decision was not recorded. The decision that stands is below.');
        return renderAlert(request, reply, id, { status: 409, message });
      }
      throw error;
    }
    return reply.redirect(`${alertPath(id)}?decided=1`, 303);
  });
}
