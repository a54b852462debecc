// The portal's start page: what needs the partner's attention (failing webhook destinations, people
// waiting for manual review, contacts that cannot be billed), then what their systems did lately. A new
// partner, with nothing yet, is told what to do first instead.
import type { HttpApp } from '../../platform/http/types.ts';
import { sendPage, tenantOfViewer, viewerOf } from '../area.ts';
import { html, type Html } from '../html.ts';
import { idText, notice, pageHeader, section, when } from '../ui.ts';
import { roleText } from './activity-format.ts';
import { billingBadge } from './contact-pages.ts';
import { activityDays, failedDeliveryDays, gatherOverview, type Overview } from './dashboard-attention.ts';
import type { PortalDeps } from './portal-deps.ts';

/** One figure with what it counts, the whole card a link to where the items are. */
function stat(options: { value: number | string; label: string; href: string; attention?: boolean; detail?: string }): Html {
  return html`<div class="stat${options.attention ? ' stat-attention' : ''}"><a href="${options.href}">
<div class="stat-value">${options.value}</div>
<p class="stat-label">${options.label}</p>
${options.detail ? html`<p class="stat-label">${options.detail}</p>` : ''}
</a></div>`;
}

const gettingStarted = html`<section class="panel" aria-labelledby="getting-started">
<h2 id="getting-started">Get started</h2>
<p>Nothing has happened on this account yet. Three steps connect your systems to PVS:</p>
<ol>
<li><a href="/portal/api-clients">Get your API client’s credentials.</a> Your systems exchange the client id and secret for an access token (POST /oauth2/token). Rotate the secret there if you no longer have it.</li>
<li><a href="/portal/destinations">Add a webhook destination.</a> Results arrive by signed webhooks: lookups’ owners, verification outcomes, deed analyses and payments.</li>
<li><a href="/docs">Make your first call.</a> In the sandbox, POST /v1/business-lookups with the ABN 32 111 111 114 returns a company with one owner.</li>
</ol>
</section>`;

function attentionStats(overview: Overview): Html {
  const { failingDestinations, failedDeliveries, manualReview, blockedContacts } = overview;
  return html`<h2 id="attention">Needs attention</h2>
<div class="grid">
${stat({ value: failingDestinations.length, label: 'Failing webhook destinations', href: failingDestinations.length ? '#failing-destinations' : '/portal/destinations', attention: failingDestinations.length > 0 })}
${stat({
  value: `${failedDeliveries.count}${failedDeliveries.more ? '+' : ''}`,
  label: `Deliveries failed for good in the last ${failedDeliveryDays} days`,
  href: '/portal/deliveries?status=FAILED',
  attention: failedDeliveries.count > 0,
})}
${stat({ value: manualReview.total, label: 'People waiting for manual review', href: manualReview.total ? '#manual-review' : '/portal/verifications', attention: manualReview.total > 0 })}
${stat({ value: blockedContacts.total, label: 'Contacts blocked from billing', href: '/portal/contacts?status=BLOCKED', attention: blockedContacts.total > 0 })}
</div>`;
}

function activityStats(overview: Overview): Html {
  const { lookups, verifications, deeds } = overview.activity;
  return html`<h2>Last ${activityDays} days</h2>
<div class="grid">
${stat({ value: lookups.total, label: 'Business lookups', href: '/portal/lookups', detail: lookups.total ? `${lookups.pending} pending, ${lookups.failed} failed` : undefined })}
${stat({
  value: verifications.total,
  label: 'Verification requests',
  href: '/portal/verifications',
  detail: verifications.total ? `${verifications.sent} with links sent, ${verifications.completed} completed` : undefined,
})}
${stat({ value: deeds.total, label: 'Deed analyses', href: '/portal/deed-analyses', detail: deeds.total ? `${deeds.ready} ready, ${deeds.failed} failed` : undefined })}
</div>`;
}

function attentionLists(overview: Overview): Html {
  const { failingDestinations, manualReview, blockedContacts } = overview;
  const more = (shown: number, total: number, what: string) => (total > shown ? html`<p class="hint">${shown} of ${total} ${what} shown.</p>` : '');
  return html`${
    overview.destinationCount === 0
      ? notice('error', html`<strong>No webhook destination.</strong> The results your systems ask for are not delivered anywhere. <a href="/portal/destinations">Add a destination</a>.`)
      : ''
  }
${
  failingDestinations.length > 0
    ? section(
        'Failing webhook destinations',
        html`<p>Their latest delivery did not succeed. Check that the endpoint answers 2xx within 5 seconds and verifies signatures with the current secret, then <a href="/portal/deliveries?status=FAILED">retry failed deliveries</a>.</p>
<ul>${failingDestinations.map(
          (d) =>
            html`<li><a class="mono" href="/portal/destinations/${d.id}">${d.url}</a>: ${d.lastResponseStatus === null ? 'no response' : `HTTP ${d.lastResponseStatus}`} at ${when(d.lastAttemptAt)}; ${
              d.status === 'FAILED' ? 'no retry left' : html`next retry at ${when(d.nextAttemptAt)}`
            }.</li>`,
        )}</ul>`,
        { id: 'failing-destinations' },
      )
    : ''
}
${
  manualReview.total > 0
    ? section(
        'Waiting for manual review',
        html`<p>A PVS operator is reviewing these people’s evidence, the longest waiting first. Their outcome arrives by the verification.individual.passed or .failed webhook.</p>
<ul>${manualReview.data.map(
          (p) =>
            html`<li>${roleText(p.role)} ${idText(p.id)}${p.externalId ? html` (your id ${p.externalId})` : ''} of request ${idText(p.verificationRequestId, `/portal/verifications/${p.verificationRequestId}`)}, since ${when(p.since)}.</li>`,
        )}</ul>${more(manualReview.data.length, manualReview.total, 'people')}`,
        { id: 'manual-review' },
      )
    : ''
}
${
  blockedContacts.total > 0
    ? section(
        'Contacts blocked from billing',
        html`<p>Checks billed to these contacts are refused until a declined billing run is paid or a new card is saved, or until you unblock them.</p>
<ul>${blockedContacts.data.map(
          (c) => html`<li><a href="/portal/contacts/${c.id}">${c.name}</a> ${billingBadge(c)} ${c.billingBlocked ? 'Blocked by you.' : 'A billing run was declined.'}</li>`,
        )}</ul>${more(blockedContacts.data.length, blockedContacts.total, 'contacts')}`,
        { id: 'blocked-contacts' },
      )
    : ''
}`;
}

export function registerDashboardPage(app: HttpApp, deps: PortalDeps): void {
  app.get('/', async (request, reply) => {
    const viewer = viewerOf(request);
    const overview = await gatherOverview(deps, tenantOfViewer(request));
    const { activity } = overview;
    const nothingYet =
      overview.destinationCount === 0 && activity.lookups.total + activity.verifications.total + activity.deeds.total === 0 && overview.manualReview.total + overview.blockedContacts.total === 0;
    const calm =
      overview.destinationCount > 0 && overview.failingDestinations.length + overview.failedDeliveries.count + overview.manualReview.total + overview.blockedContacts.total === 0;
    const body = html`${pageHeader('Overview', { lead: `What needs attention at ${viewer.partnerName ?? 'your account'}, and what your systems did lately.` })}
${
  nothingYet
    ? gettingStarted
    : html`${calm ? notice('success', 'Nothing needs your attention: webhooks are being delivered, no one is waiting for review and every contact can be billed.') : ''}
${attentionStats(overview)}
${attentionLists(overview)}`
}
${activityStats(overview)}`;
    return sendPage(reply, { title: 'Overview', current: 'dashboard', body });
  });
}
