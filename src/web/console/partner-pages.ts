// Partners: the list with the form that adds one (its API client's secret shown once, in that answer
// alone), and one partner's page: monitoring eligibility, commission, disable and enable. Every change
// is written to the audit log in the change's own transaction.
//
// Disabling needs nothing more for API access: the token endpoint refuses a disabled partner's clients,
// and the token check refuses their tokens once its cache (60 s, tokens.service.ts) lets it look again.
// Portal users are refused on their next request (area.ts asks for the partner's standing every time);
// their sessions are also ended here, so that enabling the partner later does not bring them back.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { HttpApp } from '../../platform/http/types.ts';
import { formOf, formValues, sendPage, viewerOf } from '../area.ts';
import { html, type Html } from '../html.ts';
import { details, errorSummary, idText, notice, pageHeader, pager, section, secretOnce, type FieldError } from '../ui.ts';
import type { ConsoleDeps } from './console-deps.ts';
import { idParam, operatorActor, pageQuery } from './console-common.ts';
import { createForm, partnerDetails, partnerPath, partnerTable, portalUserTable, readCommission, settingsForm, signInRuleForm, standingForm, type PartnerForm } from './partner-views.ts';

const PartnerParams = Type.Object({ id: idParam });
const ListQuery = Type.Object(pageQuery);

const doneMessages: Record<string, string> = {
  updated: 'The settings are saved.',
  unchanged: 'Nothing changed: the settings were already so.',
  enabled: 'The partner is enabled: its API clients can get tokens again and its portal users can sign in.',
  'mfa-required': 'Every portal user of this partner must set up a second factor: those without one are asked to at their next page.',
  'mfa-optional': 'A second factor is no longer required: each portal user may set one up from their account page, and those who have one keep it.',
};

export function registerPartnerPages(app: HttpApp, deps: ConsoleDeps): void {
  async function renderList(request: FastifyRequest, reply: FastifyReply, page: { limit: number; from: number }, form: { values: PartnerForm; errors: FieldError[] }) {
    const viewer = viewerOf(request);
    const partners = await deps.partners.list(page);
    const counts = new Map(await Promise.all(partners.data.map(async (p) => [p.id, (await deps.portalUsers.accounts.list({ partnerId: p.id })).length] as const)));
    const body = html`${pageHeader('Partners', { lead: 'The businesses that call PVS’s API and sign in to the portal. Open one to change its monitoring or its commission, or to disable it; add one below.' })}
${errorSummary(form.errors)}
${partnerTable(partners.data, counts)}
${pager({ path: '/console/partners', query: { limit: page.limit === 25 ? undefined : page.limit }, page: partners, shown: partners.data.length })}
${createForm(viewer.session.csrfToken, form.values, form.errors)}`;
    return sendPage(reply, { title: 'Partners', current: 'partners', body, status: form.errors.length ? 400 : 200 });
  }

  app.get('/partners', { schema: { querystring: ListQuery } }, async (request, reply) =>
    renderList(request, reply, request.query, { values: { name: '', monitoring: false, commission: '0' }, errors: [] }),
  );

  app.post('/partners', async (request, reply) => {
    const viewer = viewerOf(request);
    const form = formOf(request);
    const values: PartnerForm = { name: (form.name ?? '').trim(), monitoring: formValues(request, 'monitoring').includes('yes'), commission: form.commission ?? '' };
    const errors: FieldError[] = [];
    if (!values.name) errors.push({ name: 'name', message: 'Enter the partner’s name' });
    else if (values.name.length > 200) errors.push({ name: 'name', message: `Shorten the name to 200 characters; it has ${values.name.length}` });
    const commissionBps = readCommission(values.commission, errors);
    if (errors.length > 0 || commissionBps === undefined) return renderList(request, reply, { limit: 25, from: 0 }, { values, errors });

    const created = await deps.partners.create(
      { name: values.name, monitoring: values.monitoring, commissionBps },
      {
        inTransaction: (tx, partner) =>
          deps.audit.record(
            {
              actor: operatorActor(viewer),
              partnerId: partner.partnerId,
              action: 'partner.created',
              targetId: partner.partnerId,
              // Never the secret: only what identifies and configures the partner.
              detail: { name: partner.name, monitoringEligible: partner.monitoringEligible, commissionBps: partner.commissionBps, clientId: partner.clientId },
            },
            tx,
          ),
      },
    );
    // Answered here and never again: no redirect, so the secret is not in a URL or in another page.
    const body = html`${pageHeader(`${created.name} is added`, { back: { href: '/console/partners', label: 'Partners' }, lead: 'Give the partner its ids and its API client’s secret over a channel you trust.' })}
${notice('success', 'The partner and its first API client are created.')}
${secretOnce({ label: 'Client secret', value: created.clientSecret })}
${section(
  'Its credentials',
  details([
    ['Partner id', html`${idText(created.partnerId, partnerPath(created.partnerId))} <span class="muted">(sent as X-Partner-Id)</span>`],
    ['Client id', idText(created.clientId)],
  ]),
)}`;
    return sendPage(reply, { title: `${created.name} is added`, current: 'partners', body });
  });

  async function renderPartner(request: FastifyRequest, reply: FastifyReply, id: string, state: { status?: number; errors?: FieldError[]; values?: PartnerForm; message?: Html } = {}) {
    const viewer = viewerOf(request);
    const partner = await deps.partners.get(id);
    const users = await deps.portalUsers.accounts.list({ partnerId: id });
    const secondFactorRequired = await deps.portalUsers.requiresSecondFactor(id);
    const values = state.values ?? { name: partner.name, monitoring: partner.monitoringEligible, commission: String(partner.commissionBps) };
    const errors = state.errors ?? [];
    const body = html`${pageHeader(partner.name, { back: { href: '/console/partners', label: 'Partners' }, lead: 'What the partner may do and what it earns. Every change is written to the audit log.' })}
${errorSummary(errors)}
${state.message ?? ''}
<div class="grid">
${section('The partner', partnerDetails(partner))}
${settingsForm(partner, viewer.session.csrfToken, values, errors)}
</div>
${portalUserTable(users)}
${signInRuleForm(partner, viewer.session.csrfToken, secondFactorRequired)}
${standingForm(partner, viewer.session.csrfToken)}`;
    return sendPage(reply, { title: partner.name, current: 'partners', body, status: state.status });
  }

  app.get('/partners/:id', { schema: { params: PartnerParams, querystring: Type.Object({ done: Type.Optional(Type.String({ maxLength: 20 })) }) } }, async (request, reply) => {
    const done = request.query.done;
    const message = done && doneMessages[done] ? notice('success', doneMessages[done]) : done?.startsWith('disabled') ? disabledNotice(done) : undefined;
    return renderPartner(request, reply, request.params.id, { message });
  });

  app.post('/partners/:id', { schema: { params: PartnerParams } }, async (request, reply) => {
    const viewer = viewerOf(request);
    const { id } = request.params;
    const form = formOf(request);
    const values: PartnerForm = { name: '', monitoring: formValues(request, 'monitoring').includes('yes'), commission: form.commission ?? '' };
    const errors: FieldError[] = [];
    const commissionBps = readCommission(values.commission, errors);
    if (commissionBps === undefined) return renderPartner(request, reply, id, { status: 400, errors, values });
    const { changes } = await deps.partners.update(
      id,
      { monitoringEligible: values.monitoring, commissionBps },
      { inTransaction: (tx, changed) => deps.audit.record({ actor: operatorActor(viewer), partnerId: id, action: 'partner.updated', targetId: id, detail: { changes: changed } }, tx) },
    );
    return reply.redirect(`${partnerPath(id)}?done=${Object.keys(changes).length ? 'updated' : 'unchanged'}`, 303);
  });

  app.post('/partners/:id/second-factor', { schema: { params: PartnerParams } }, async (request, reply) => {
    const viewer = viewerOf(request);
    const { id } = request.params;
    await deps.partners.get(id);
    const required = formValues(request, 'required').includes('yes');
    const changed = await deps.db.transaction(async (tx) => {
      const done = await deps.portalUsers.setSecondFactorRequired(tx, id, { required, by: viewer.accountId });
      const action = required ? 'partner.portal_second_factor_required' : 'partner.portal_second_factor_not_required';
      if (done) await deps.audit.record({ actor: operatorActor(viewer), partnerId: id, action, targetId: id }, tx);
      return done;
    });
    return reply.redirect(`${partnerPath(id)}?done=${changed ? `mfa-${required ? 'required' : 'optional'}` : 'unchanged'}`, 303);
  });

  app.post('/partners/:id/disable', { schema: { params: PartnerParams } }, async (request, reply) => {
    const viewer = viewerOf(request);
    const { id } = request.params;
    const users = await deps.portalUsers.accounts.list({ partnerId: id });
    const { changed } = await deps.partners.setDisabled(id, true, {
      inTransaction: (tx) => deps.audit.record({ actor: operatorActor(viewer), partnerId: id, action: 'partner.disabled', targetId: id, detail: { portalUsers: users.length } }, tx),
    });
    // After the commit: the partner's standing already refuses these sessions; ending them makes it last.
    const ended = changed ? await deps.webSessions.revokeAccounts('portal', users.map((u) => u.id)) : 0;
    return reply.redirect(`${partnerPath(id)}?done=disabled-${ended}`, 303);
  });

  app.post('/partners/:id/enable', { schema: { params: PartnerParams } }, async (request, reply) => {
    const viewer = viewerOf(request);
    const { id } = request.params;
    await deps.partners.setDisabled(id, false, {
      inTransaction: (tx) => deps.audit.record({ actor: operatorActor(viewer), partnerId: id, action: 'partner.enabled', targetId: id }, tx),
    });
    return reply.redirect(`${partnerPath(id)}?done=enabled`, 303);
  });
}

function disabledNotice(done: string): Html {
  const ended = Number(done.slice('disabled-'.length)) || 0;
  return notice(
    'success',
    `The partner is disabled. Its API clients get no new tokens, and tokens already issued stop working within a minute. ${
      ended === 1 ? '1 portal session was ended' : `${ended} portal sessions were ended`
    }; its portal users cannot sign in until it is enabled again.`,
  );
}
