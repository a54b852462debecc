// The manual-review queue, the console's start page, and one individual's review: the evidence fetched
// live for each view (and each view written to the evidence-read trail), then the operator's decision,
// posted to the same service as the /ops/v1 decision route and written to the audit log with it.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { ReviewedIndividual, ReviewItem } from '../../modules/verifications/review-queue.ts';
import { AppError } from '../../platform/errors.ts';
import type { HttpApp } from '../../platform/http/types.ts';
import { formOf, sendPage, viewerOf } from '../area.ts';
import { html, type Html } from '../html.ts';
import { badge, choices, details, errorSummary, idText, notice, pageHeader, pager, postForm, section, table, textarea, when, type FieldError } from '../ui.ts';
import type { ConsoleDeps } from './console-deps.ts';
import { breakable, cellOf, codeText, idParam, operatorActor, pageQuery, partnerLink, stepUpFirst } from './console-common.ts';
import { amlEvidence, documentEvidence } from './review-evidence.ts';

const ReviewParams = Type.Object({ requestId: idParam, individualId: idParam });
const noteLimit = 2000;
const alreadyDecided = notice('error', 'Your decision was not recorded: this individual is no longer in manual review. What became of them is below.');

const reviewPath = (item: Pick<ReviewItem, 'verificationRequestId' | 'individualId'>) => `/console/reviews/${item.verificationRequestId}/${item.individualId}`;

/** The checks that sent someone to review, by name (their codes and messages are on the review page). */
function reasons(item: ReviewItem): Html {
  return item.reasons.length === 0 ? cellOf(html`<span class="muted">—</span>`) : cellOf(...item.reasons.map((r) => r.name));
}

export function registerReviewPages(app: HttpApp, deps: ConsoleDeps): void {
  app.get('/', { schema: { querystring: Type.Object(pageQuery) } }, async (request, reply) => {
    const page = await deps.verificationChecks.reviewQueue(request.query);
    const names = await deps.partners.namesOf(page.data.map((i) => i.partnerId));
    const body = html`${pageHeader('Review queue', {
      lead: 'People whose identity checks need an operator’s decision, from every partner. Whoever has waited longest comes first: open one to compare the evidence and pass or fail them.',
    })}
<div class="grid"><div class="stat"><p class="stat-value">${page.total}</p><p class="stat-label">waiting for a decision</p></div></div>
${table({
  caption: 'Individuals in manual review, longest waiting first',
  columns: [
    {
      label: 'Individual',
      cell: (i: ReviewItem) => cellOf(html`<a class="mono" href="${reviewPath(i)}">${i.individualId}</a>`, html`<span class="muted">${breakable(i.role)}</span>`),
    },
    { label: 'Request', cell: (i) => cellOf(idText(i.verificationRequestId), html`<span class="muted">${breakable(i.mode)}${i.entityName ? ` · ${i.entityName}` : ''}</span>`) },
    { label: 'Partner', cell: (i) => cellOf(partnerLink(i.partnerId, names)) },
    { label: 'Waiting since', cell: (i) => cellOf(when(i.reviewSince)) },
    { label: 'Why', cell: (i) => reasons(i) },
    { label: 'Risk', cell: (i) => cellOf(i.riskLevel ? badge(i.riskLevel) : '') },
  ],
  rows: page.data,
  empty: 'Nobody is waiting for review. New reviews appear here as people’s checks finish.',
})}
${pager({ path: '/console', query: { limit: request.query.limit === 25 ? undefined : request.query.limit }, page, shown: page.data.length })}`;
    return sendPage(reply, { title: 'Review queue', current: 'reviews', body });
  });

  /** The review page: the individual, then (while in review) the evidence fetched now and the decision form. */
  async function renderReview(
    request: FastifyRequest,
    reply: FastifyReply,
    params: { requestId: string; individualId: string },
    state: { status?: number; errors?: FieldError[]; values?: Record<string, string>; message?: Html; justDecided?: boolean } = {},
  ) {
    const viewer = viewerOf(request);
    const individual = await deps.verificationChecks.reviewed(params.requestId, params.individualId);
    // After the redirect from this operator's own decision, and only then, the page confirms it.
    if (state.justDecided && individual.decision?.decidedBy === viewer.accountId) state.message = notice('success', 'Your decision is recorded, and the partner has been told.');
    const names = await deps.partners.namesOf([individual.partnerId]);
    const inReview = individual.status === 'MANUAL_REVIEW';
    let evidence: Html = html``;
    if (inReview) {
      // Identity documents and list matches: only after a fresh second factor.
      const steppedUp = stepUpFirst(request, reply, deps, reviewPath({ verificationRequestId: params.requestId, individualId: params.individualId }));
      if (steppedUp) return steppedUp;
      // Fetched for this view alone, each read recorded with this operator (evidence.service.ts).
      const reader = { operatorId: viewer.accountId, httpRequestId: request.id };
      const [document, aml, register] = await Promise.all([
        deps.evidence.documentDetails(reader, params.requestId, params.individualId, { includeScans: true }),
        deps.evidence.amlMatches(reader, params.requestId, params.individualId),
        deps.evidence.registerRecord(reader, params.requestId, params.individualId),
      ]);
      const sentForMatch = individual.reasons.some((r) => r.code === 'AML_POSSIBLE_MATCH');
      evidence = html`${documentEvidence(document, register)}${amlEvidence(aml, { sentForMatch })}`;
    }
    const errors = state.errors ?? [];
    const body = html`${pageHeader('Manual review', {
      back: { href: '/console', label: 'Review queue' },
      lead: inReview
        ? 'Compare the document, the selfie, any list matches and the register’s record of the party with what the person entered, then pass or fail them. The evidence is fetched now from the identity provider, the screening engine and the register, never stored, and this view is recorded in the evidence-read trail.'
        : 'This individual is not waiting for review.',
    })}
${errorSummary(errors)}
${state.message ?? ''}
${section('The individual', individualDetails(individual, names))}
${inReview ? html`${evidence}${decisionForm(individual, viewer.session.csrfToken, errors, state.values ?? {})}` : await outcome(individual, !state.message)}`;
    return sendPage(reply, { title: `Manual review of ${individual.individualId}`, current: 'reviews', body, status: state.status });
  }

  function individualDetails(individual: ReviewedIndividual, names: Map<string, string>): Html {
    return details([
      ['Individual', idText(individual.individualId)],
      ['Status', badge(individual.status)],
      ['Partner', html`${partnerLink(individual.partnerId, names)} ${idText(individual.partnerId)}`],
      ['Verification request', html`${idText(individual.verificationRequestId)} <span class="muted">${individual.mode}, ${individual.requestStatus.replace(/_/g, ' ').toLowerCase()}</span>`],
      ['Entity', individual.entityName],
      ['Role', [individual.role, individual.roleDescription].filter(Boolean).join(' · ')],
      ['Partner’s reference', individual.externalId],
      ['Attempts', `${individual.attemptCount} of ${individual.maxAttempts}`],
      ['Risk', individual.riskLevel ? badge(individual.riskLevel) : null],
      ['In review since', individual.status === 'MANUAL_REVIEW' ? when(individual.reviewSince) : null],
      ['Why', individual.reasons.length ? html`<ul>${individual.reasons.map((r) => html`<li>${r.name} (${codeText(r.code)})${r.message ? html`: ${r.message}` : ''}</li>`)}</ul>` : null],
    ]);
  }

  /** Not in review: what became of the individual (said unless the page says it already), and the operator's decision if any. */
  async function outcome(individual: ReviewedIndividual, say: boolean): Promise<Html> {
    const said = say
      ? notice('info', html`There is nothing to decide: this individual is <strong>${individual.status.replace(/_/g, ' ')}</strong>, and only an individual in manual review can be decided.`)
      : html``;
    if (!individual.decision) return said;
    const operator = await deps.operators.get(individual.decision.decidedBy).catch(() => undefined);
    return html`${said}${section(
      'The decision',
      details([
        ['Decision', badge(individual.decision.decision === 'PASS' ? 'PASSED' : 'FAILED')],
        ['By', operator?.email ?? individual.decision.decidedBy],
        ['At', when(individual.decision.decidedAt)],
        ['Note', individual.decision.note],
      ]),
    )}`;
  }

  function decisionForm(individual: ReviewedIndividual, csrf: string, errors: FieldError[], values: Record<string, string>): Html {
    return section(
      'Your decision',
      postForm({
        action: reviewPath(individual),
        csrf,
        submit: 'Record decision',
        body: html`${choices({
          name: 'decision',
          legend: 'Does the evidence show this is the person, and may they pass?',
          type: 'radio',
          choices: [
            { value: 'PASS', label: 'Pass', hint: 'They become MANUALLY_PASSED, and the partner is told they passed on an operator’s decision.' },
            { value: 'FAIL', label: 'Fail', hint: 'They become FAILED, and cannot try again.' },
          ],
          checked: values.decision ? [values.decision] : [],
          errors,
        })}
${textarea({
  name: 'note',
  label: 'Note',
  hint: `What you compared and what you found (at most ${noteLimit} characters). Kept with the decision for PVS’s review record; never sent to the partner.`,
  value: values.note,
  required: true,
  rows: 5,
  errors,
})}`,
      }),
      { id: 'decision' },
    );
  }

  app.get('/reviews/:requestId/:individualId', { schema: { params: ReviewParams, querystring: Type.Object({ decided: Type.Optional(Type.String({ maxLength: 10 })) }) } }, async (request, reply) => {
    return renderReview(request, reply, request.params, { justDecided: request.query.decided !== undefined });
  });

  app.post('/reviews/:requestId/:individualId', { schema: { params: ReviewParams } }, async (request, reply) => {
    const viewer = viewerOf(request);
    const { requestId, individualId } = request.params;
    const form = formOf(request);
    const individual = await deps.verificationChecks.reviewed(requestId, individualId);
    if (individual.status !== 'MANUAL_REVIEW') return renderReview(request, reply, request.params, { status: 409, message: alreadyDecided });

    const note = (form.note ?? '').trim();
    const errors: FieldError[] = [];
    if (form.decision !== 'PASS' && form.decision !== 'FAIL') errors.push({ name: 'decision', message: 'Choose Pass or Fail' });
    if (!note) errors.push({ name: 'note', message: 'Write why you decided so: what you compared and what you found' });
    else if (note.length > noteLimit) errors.push({ name: 'note', message: `Shorten the note to ${noteLimit} characters; it has ${note.length}` });
    if (errors.length > 0) return renderReview(request, reply, request.params, { status: 400, errors, values: form });

    const decision = form.decision as 'PASS' | 'FAIL';
    try {
      await deps.verificationChecks.decide(viewer.accountId, requestId, individualId, { decision, note }, {
        // The note stays with the decision (verification_decisions); the audit entry holds ids and the outcome only.
        inTransaction: (tx, result) =>
          deps.audit.record(
            { actor: operatorActor(viewer), partnerId: result.partnerId, action: 'verification.individual.decided', targetId: individualId, detail: { verificationRequestId: requestId, decision, status: result.status } },
            tx,
          ),
      });
    } catch (error) {
      // Another operator decided it a moment ago: the page now shows their decision.
      if (error instanceof AppError && error.code === 'INVALID_STATE') return renderReview(request, reply, request.params, { status: 409, message: alreadyDecided });
      throw error;
    }
    return reply.redirect(`${reviewPath({ verificationRequestId: requestId, individualId })}?decided=1`, 303);
  });
}
