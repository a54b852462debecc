// One verification request as the portal shows it: its status, each individual's outcome and link, the
// issues and checks the API reports, and the buttons that mint a person's link. Nothing here is a
// person's name, email or phone: a request never holds them (SPEC), and the page shows only what
// GET /v1/verifications/{id} answers plus when each link was minted and opened.
import type { FastifyReply } from 'fastify';
import type { Individual, Verification } from '../../modules/verifications/verifications.schemas.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { sendPage, viewerOf } from '../area.ts';
import { html, type Html } from '../html.ts';
import { badge, details, idText, notice, pageHeader, secretOnce, section, when, table } from '../ui.ts';
import { billedTo, optionalId, roleText, toneBadge } from './activity-format.ts';
import type { PortalDeps } from './portal-deps.ts';

export const modeWords: Record<Verification['mode'], string> = {
  AUSTRAC_CDD: 'AUSTRAC customer due diligence',
  TPB_POI: 'TPB proof of identity',
};

const statusWords: Record<Verification['status'], string> = {
  DRAFT: 'Ready for links to be sent to each person.',
  UBO_REVIEW: 'The list of people must be confirmed (PUT …/structure-confirmation) before links can be sent.',
  READY_TO_SEND: 'Ready for links to be sent to each person.',
  VERIFICATIONS_SENT: 'Links have been sent; waiting for each person to verify.',
  COMPLETED: 'Every person has a final outcome.',
};

const requestTones = { DRAFT: 'neutral', UBO_REVIEW: 'warn', READY_TO_SEND: 'wait', VERIFICATIONS_SENT: 'wait', COMPLETED: 'good' } as const;
const riskTones = { LOW: 'good', MEDIUM: 'warn', HIGH: 'bad', UNKNOWN: 'neutral' } as const;

/** A request's status: waiting on the partner (review), on the people (ready, sent), or done. */
export function requestBadge(status: Verification['status']): Html {
  return toneBadge(status, requestTones[status]);
}

export function riskBadge(risk: Verification['riskLevel']): Html {
  return toneBadge(risk, riskTones[risk]);
}

/** A person may be sent a (new) link while they have not started or are part way through. */
export function canMintFor(verification: Pick<Verification, 'status'>, individual: Pick<Individual, 'status'>): boolean {
  return verification.status !== 'UBO_REVIEW' && verification.status !== 'COMPLETED' && (individual.status === 'PENDING' || individual.status === 'IN_PROGRESS');
}

// Check results are provider-defined strings: known ones get a tone, anything else reads neutral.
const resultTones: Record<string, 'good' | 'warn' | 'bad'> = { PASS: 'good', REVIEW: 'warn', INCONCLUSIVE: 'warn', FAIL: 'bad' };

type LinkState = { mintedAt: string; expiresAt: string; openedAt: string | null };

function linkText(link: LinkState | undefined, now: Date): Html {
  if (!link) return html`<span class="muted">Not sent</span>`;
  if (link.openedAt) return html`Opened ${when(link.openedAt)}`;
  if (Date.parse(link.expiresAt) <= now.getTime()) return html`Expired ${when(link.expiresAt)}`;
  return html`Minted ${when(link.mintedAt)}<br><span class="muted">works until ${when(link.expiresAt)}</span>`;
}

/** The button that mints one person's link, named for that person (several sit in one table). */
function mintButton(options: { action: string; csrf: string; individualId: string; again: boolean }): Html {
  const label = options.again ? 'Mint a new link' : 'Create a link';
  return html`<form method="post" action="${options.action}" class="inline-form"${
    options.again ? html` data-confirm="The link sent earlier will stop working. Mint a new one?"` : ''
  }>
<input type="hidden" name="_csrf" value="${options.csrf}">
<button type="submit" class="button button-secondary">${label}<span class="visually-hidden"> for ${options.individualId}</span></button>
</form>`;
}

export interface Minted {
  individualId: string;
  verificationUrl: string;
  expiresAt: string;
}

/** The verification page; after a mint, the link shown this once (the POST's own answer, never a GET's). */
export async function sendVerificationPage(
  deps: PortalDeps,
  reply: FastifyReply,
  tenant: Tenant,
  id: string,
  options: { minted?: Minted; error?: string; status?: number } = {},
): Promise<FastifyReply> {
  const verification = await deps.verifications.get(tenant, id);
  const links = await deps.verifications.linkStatesOf(tenant, id);
  const csrf = viewerOf(reply.request).session.csrfToken;
  const now = deps.clock.now();
  const byId = new Map(verification.individuals.map((i, n) => [i.id, n + 1]));
  const checks = verification.individuals.flatMap((i) => i.checkResults.map((c) => ({ ...c, individualId: i.id })));
  type Check = (typeof checks)[number];
  type Issue = Verification['issueList'][number];

  const minted = options.minted
    ? html`${notice('success', html`A new link was minted for person ${byId.get(options.minted.individualId) ?? ''} (${options.minted.individualId}). Any earlier link for them no longer works.`)}
${secretOnce({
  label: `Verification link for person ${byId.get(options.minted.individualId) ?? ''}`,
  value: options.minted.verificationUrl,
  note: `Send it to the person now. It is shown only this once (PVS keeps only a digest of it), opens once, and works until ${new Date(options.minted.expiresAt).toISOString().slice(0, 16).replace('T', ' ')} UTC.`,
})}`
    : '';

  const body = html`${pageHeader(verification.entityName ?? 'Verification request', {
    back: { href: '/portal/verifications', label: 'Verifications' },
    lead: `${modeWords[verification.mode]}. ${statusWords[verification.status]}`,
  })}
${options.error ? notice('error', options.error) : ''}
${minted}
${section(
  'Request',
  details([
    ['Request id', idText(verification.id)],
    ['Status', requestBadge(verification.status)],
    ['Mode', modeWords[verification.mode]],
    ['Business lookup', verification.lookupRequestId ? optionalId(verification.lookupRequestId, `/portal/lookups/${verification.lookupRequestId}`) : html`<span class="muted">None: a hand-built list of people</span>`],
    ['Structure confirmed', verification.structureConfirmed ? 'Yes' : 'No'],
    ['Risk level', riskBadge(verification.riskLevel)],
    ['Billed to', billedTo(verification.contactId)],
    ['Created', when(verification.createdAt)],
    ['Completed', when(verification.completedAt)],
  ]),
)}
${table<Individual>({
  caption: 'People to verify',
  empty: 'No one has been added to this request yet.',
  rows: verification.individuals,
  columns: [
    {
      label: 'Person',
      cell: (i) => html`${byId.get(i.id)}. ${roleText(i.role)}${i.roleDescription ? html` <span class="muted">(${i.roleDescription})</span>` : ''}<br>${idText(i.id)}${
        i.externalId ? html`<br><span class="muted">Your id: ${i.externalId}</span>` : ''
      }`,
    },
    {
      label: 'Status',
      cell: (i) => html`${badge(i.status)}<br><span class="muted">${i.attemptCount} of ${i.maxAttempts} attempts${i.manualOverride ? ', decided by an operator' : ''}</span>`,
    },
    { label: 'Link', cell: (i) => linkText(links.get(i.id), now) },
    {
      label: 'Action',
      cell: (i) =>
        canMintFor(verification, i)
          ? mintButton({ action: `/portal/verifications/${verification.id}/individuals/${i.id}/link`, csrf, individualId: i.id, again: links.has(i.id) })
          : html`<span class="muted">${i.status === 'MANUAL_REVIEW' ? 'Waiting for an operator' : verification.status === 'UBO_REVIEW' ? 'Confirm the structure first' : 'No link needed'}</span>`,
    },
  ],
})}
<p class="hint">Each person gives their name and details on their own verification page; they are never shown here.</p>
${
  verification.issueList.length > 0
    ? html`${table<Issue>({
        caption: 'Issues',
        empty: '',
        rows: verification.issueList,
        columns: [
          { label: 'Person', cell: (i) => (i.individualId ? `${byId.get(i.individualId) ?? ''}. ${i.individualId}` : html`<span class="muted">The request</span>`) },
          { label: 'Code', cell: (i) => html`<span class="mono">${i.code}</span>` },
          { label: 'Message', cell: (i) => i.message },
        ],
      })}`
    : ''
}
${
  checks.length > 0
    ? html`${table<Check>({
        caption: 'Checks of the latest attempt',
        empty: '',
        rows: checks,
        columns: [
          // One person: every check is theirs, and a column of 1s says nothing.
          ...(verification.individuals.length > 1 ? [{ label: 'Person', cell: (c: Check) => `${byId.get(c.individualId)}` }] : []),
          { label: 'Check', cell: (c) => html`${c.name}<br><span class="muted">${c.checkType}</span>` },
          { label: 'Result', cell: (c) => toneBadge(c.result, resultTones[c.result] ?? 'neutral') },
          { label: 'Code', cell: (c) => html`<span class="mono">${c.code}</span>${c.message ? html`<br>${c.message}` : ''}` },
        ],
      })}`
    : ''
}`;
  return sendPage(reply, { title: `Verification ${verification.id}`, current: 'verifications', body, status: options.status });
}
