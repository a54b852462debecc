// What the delivery history shows: the list of notifications with its filters, and one notification with
// its attempts, its payload (or why it is no longer held) and the button that sends it again.
import { categories, eventCatalogue } from '../../modules/webhooks/events/index.ts';
import type { WebhookNotification, WebhookNotificationDetail } from '../../modules/webhooks/webhooks.schemas.ts';
import { html, type Html } from '../html.ts';
import { badge, details, filters, idText, notice, pageHeader, pager, postForm, section, select, table, when } from '../ui.ts';
import { breakableUrl, categoryLabels } from './destination-views.ts';

export const deliveryStatuses = ['PENDING', 'DELIVERED', 'FAILED'] as const;

export interface DeliveryFilters {
  type?: string;
  status?: string;
  category?: string;
}

/** Where a notification went: the destination's URL, or its id once it has been removed. */
export type DestinationNames = Map<string, string>;

function destinationCell(names: DestinationNames, id: string): Html {
  const url = names.get(id);
  return url ? html`<a class="mono" href="/portal/destinations/${id}">${breakableUrl(url)}</a>` : html`${idText(id)} <span class="muted">(removed)</span>`;
}

/** A dotted name that may wrap at its dots only (`verification.individual.manual_review`), not mid-word. */
function dotted(name: string): Html {
  return html`${name.split('.').map((part, i) => (i === 0 ? part : html`.<wbr>${part}`))}`;
}

function eventType(n: WebhookNotification): Html {
  return html`<span class="mono">${dotted(n.type)}</span>${n.payload?.test === true ? html` <span class="badge badge-neutral">TEST</span>` : ''}`;
}

export function deliveryListPage(options: {
  page: { data: WebhookNotification[]; limit: number; from: number; nextFrom: number | null };
  filters: DeliveryFilters;
  destinations: DestinationNames;
}): Html {
  const { page, filters: f } = options;
  const filtered = Boolean(f.type || f.status || f.category);
  return html`${pageHeader('Deliveries', {
    lead: 'Every webhook notification PVS has made for your destinations, newest first: one per event and destination, with each attempt to deliver it. Open one to see its attempts or send it again.',
  })}
${filters({
  action: '/portal/deliveries',
  body: html`${select({ name: 'type', label: 'Event type', blank: 'Any type', value: f.type, choices: eventCatalogue.map((d) => ({ value: d.type, label: d.type })) })}
${select({ name: 'status', label: 'Status', blank: 'Any status', value: f.status, choices: deliveryStatuses.map((s) => ({ value: s, label: s.charAt(0) + s.slice(1).toLowerCase() })) })}
${select({ name: 'category', label: 'Category', blank: 'Any category', value: f.category, choices: categories.map((c) => ({ value: c, label: categoryLabels[c] })) })}`,
})}
${table({
  caption: filtered ? 'Notifications matching the filter' : 'Notifications',
  empty: filtered ? 'No notification matches the filter.' : 'No notifications yet. Send a test event from a destination’s page to see one here.',
  rows: page.data,
  columns: [
    { label: 'Event', cell: (n) => html`${eventType(n)}<br>${idText(n.id, `/portal/deliveries/${n.id}`)}` },
    { label: 'Status', cell: (n) => badge(n.status) },
    {
      label: 'Attempts',
      cell: (n) => html`${n.webhookAttempts}${n.lastResponseStatus !== null ? html`<br><span class="muted">last answer ${n.lastResponseStatus}</span>` : ''}`,
    },
    { label: 'Destination', cell: (n) => destinationCell(options.destinations, n.destinationId) },
    { label: 'Created', cell: (n) => when(n.createdAt) },
  ],
})}
${pager({ path: '/portal/deliveries', query: { ...f, limit: page.limit === 20 ? undefined : page.limit }, page, shown: page.data.length })}`;
}

/** A time to the second: attempts are 30 seconds apart at first, which `when` (to the minute) would hide. */
function whenExact(iso: string): Html {
  return html`<time datetime="${iso}">${iso.slice(0, 19).replace('T', ' ')} UTC</time>`;
}

const errorWords: Record<string, string> = {
  NONE: 'None',
  HTTP_STATUS: 'Answer was not 2xx',
  REDIRECT: 'Redirect (not followed)',
  TIMEOUT: 'No answer within 5 seconds',
  CONNECTION_REFUSED: 'Connection refused',
  CONNECTION_ERROR: 'Connection failed',
  ADDRESS_REFUSED: 'Address refused (private network)',
};

/** Why a payload is not shown: deed results are never shown; every other payload is kept 33 hours. */
function payloadSection(n: WebhookNotificationDetail): Html {
  if (n.category === 'DEED_ANALYSIS') {
    return section(
      'Payload',
      html`<p><strong>Not shown, and it cannot be sent again.</strong> Deed analysis results are held encrypted only until they are delivered, then deleted; PVS never shows them.</p>`,
    );
  }
  if (!n.payload) {
    return section(
      'Payload',
      html`<p><strong>The payload has expired.</strong> PVS keeps a payload for 33 hours after its event, for retries; this one is gone, so the notification can no longer be sent again.</p>`,
    );
  }
  return section('Payload', html`<p>The body sent, as JSON (each attempt is signed afresh).</p><pre class="excerpt" tabindex="0"><code>${JSON.stringify(n.payload, null, 2)}</code></pre>`);
}

export function deliveryPage(options: {
  notification: WebhookNotificationDetail;
  destinations: DestinationNames;
  csrf: string;
  message?: Html;
  retried?: WebhookNotification[];
}): Html {
  const n = options.notification;
  const canRetry = n.payload !== null && n.category !== 'DEED_ANALYSIS';
  return html`${pageHeader('Notification', {
    back: { href: '/portal/deliveries', label: 'Deliveries' },
    lead: html`A <span class="mono">${n.type}</span> event for one destination, and every attempt to deliver it.`,
  })}
${options.message ?? ''}
${
  options.retried?.length
    ? notice(
        'success',
        html`<p>Queued again as ${options.retried.length === 1 ? 'a new notification' : `${options.retried.length} new notifications`}, with attempts of ${options.retried.length === 1 ? 'its' : 'their'} own:</p>
<ul>${options.retried.map((r) => html`<li>${idText(r.id, `/portal/deliveries/${r.id}`)} to ${destinationCell(options.destinations, r.destinationId)}: ${badge(r.status)}</li>`)}</ul>`,
      )
    : ''
}
${section(
  'Delivery',
  html`${details(
    // Only what applies: no "last answer" before the first attempt, no "delivered" until it is.
    (
      [
        ['Status', badge(n.status)],
        ['Event type', eventType(n)],
        ['Category', categoryLabels[n.category]],
        ['Destination', destinationCell(options.destinations, n.destinationId)],
        ['Attempts', n.webhookAttempts],
        ['Last answer', n.lastResponseStatus],
        ['Last attempt', n.lastAttemptAt && whenExact(n.lastAttemptAt)],
        ['Next attempt', n.status === 'PENDING' && n.nextAttemptAt ? whenExact(n.nextAttemptAt) : null],
        ['Delivered', n.deliveredAt && whenExact(n.deliveredAt)],
        ['Created', when(n.createdAt)],
        ['Notification id', idText(n.id)],
        ['Event id', idText(n.eventId)],
        ['Sent again from', n.retryOf && idText(n.retryOf, `/portal/deliveries/${n.retryOf}`)],
      ] as Array<[string, unknown]>
    ).filter(([, value]) => value !== null && value !== undefined),
  )}
${
  canRetry
    ? html`<h3>Send it again</h3><p>Makes a new notification of the same event (same eventId) for every enabled destination subscribed to its category now, with attempts of its own.</p>
${postForm({ action: `/portal/deliveries/${n.id}/retry`, csrf: options.csrf, submit: 'Retry now' })}`
    : ''
}`,
)}
${section(
  'Attempts',
  table({
    caption: 'Delivery attempts, first to last',
    captionHidden: true,
    empty: n.status === 'PENDING' ? 'No attempt yet: the first is due now.' : 'No attempt was made.',
    rows: n.attempts,
    columns: [
      { label: 'Attempt', numeric: true, cell: (a) => a.attempt },
      { label: 'Time', cell: (a) => whenExact(a.startedAt) },
      { label: 'Status code', numeric: true, cell: (a) => a.statusCode ?? html`<span class="muted">—</span>` },
      { label: 'Duration', numeric: true, cell: (a) => `${a.durationMs} ms` },
      { label: 'Error', cell: (a) => (a.errorClass === 'NONE' ? html`<span class="muted">—</span>` : (errorWords[a.errorClass] ?? a.errorClass)) },
      { label: 'Response excerpt', cell: (a) => (a.responseExcerpt ? html`<pre class="excerpt">${a.responseExcerpt}</pre>` : html`<span class="muted">—</span>`) },
    ],
  }),
)}
${payloadSection(n)}`;
}
