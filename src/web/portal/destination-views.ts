// What the webhook destination pages show: the list, the form that adds one, a destination with its
// actions (test event, changes, secret, disable, remove), and the answers that show a secret once.
import { categories, categoryDescriptions, type Category } from '../../modules/webhooks/events/index.ts';
import type { DestinationWithSecret, WebhookDestination, WebhookNotification } from '../../modules/webhooks/webhooks.schemas.ts';
import { html, type Html } from '../html.ts';
import { badge, choices, details, errorSummary, field, idText, notice, pageHeader, pager, postForm, secretOnce, section, select, table, when, type FieldError } from '../ui.ts';

export const categoryLabels: Record<Category, string> = {
  PAYMENTS: 'Payments',
  VERIFICATIONS: 'Verifications',
  BUSINESS_LOOKUPS: 'Business lookups',
  CONTACT_BILLING: 'Contact billing',
  DEED_ANALYSIS: 'Deed analysis',
  MONITORING: 'Monitoring',
};

/** A URL that may wrap after its slashes rather than mid-word. */
export function breakableUrl(url: string): Html {
  return html`${url.split('/').map((part, i) => (i === 0 ? part : html`/<wbr>${part}`))}`;
}

export function categoryList(list: readonly string[]): string {
  if (categories.every((c) => list.includes(c))) return 'All categories';
  return list.map((c) => categoryLabels[c as Category] ?? c).join(', ');
}

export interface DestinationFields {
  url: string;
  categories: string[];
  enabled: boolean;
}

export interface TestEventChoice {
  value: string;
  label: string;
  category: Category;
}

/** A form the server checks (novalidate: its errors are the page's, announced, not the browser's bubbles). */
function pageForm(action: string, csrf: string, body: Html, submit: string, options: { formKey?: string; kind?: string; confirm?: string } = {}): Html {
  return html`<form method="post" action="${action}" class="form" novalidate${options.confirm ? html` data-confirm="${options.confirm}"` : ''}>
<input type="hidden" name="_csrf" value="${csrf}">${options.formKey ? html`<input type="hidden" name="formKey" value="${options.formKey}">` : ''}
${body}
<button type="submit" class="button button-${options.kind ?? 'primary'}">${submit}</button>
</form>`;
}

function urlField(value: string, errors: FieldError[]): Html {
  return field({
    name: 'url',
    label: 'Endpoint URL',
    type: 'url',
    value,
    required: true,
    errors,
    hint: 'Where PVS posts the events: an https address that answers 2xx within 5 seconds (in the sandbox, http to localhost works too).',
  });
}

function categoryFields(checked: string[], errors: FieldError[]): Html {
  return choices({
    name: 'categories',
    legend: 'Event categories',
    type: 'checkbox',
    hint: 'Events of the checked categories are sent to this destination.',
    choices: categories.map((c) => ({ value: c, label: categoryLabels[c], hint: categoryDescriptions[c] })),
    checked,
    errors,
  });
}

export function destinationListPage(options: { page: { data: WebhookDestination[]; limit: number; from: number; nextFrom: number | null }; removed?: boolean }): Html {
  const { page } = options;
  return html`${pageHeader('Webhook destinations', {
    lead: 'The addresses PVS sends your events to, each signed with its own secret. Open one to send a test event, change it or rotate its secret.',
    actions: html`<a class="button button-primary" href="/portal/destinations/new">Add a destination</a>`,
  })}
${options.removed ? notice('success', 'The destination was removed. Nothing more is sent to it.') : ''}
${table({
  caption: 'Your webhook destinations',
  empty: 'No destinations yet: add one to receive events.',
  rows: page.data,
  columns: [
    { label: 'Endpoint URL', cell: (d) => html`<a class="mono" href="/portal/destinations/${d.id}">${breakableUrl(d.url)}</a>` },
    { label: 'Categories', cell: (d) => categoryList(d.categories) },
    { label: 'Status', cell: (d) => badge(d.enabled ? 'ENABLED' : 'DISABLED') },
    { label: 'Added', cell: (d) => when(d.createdAt) },
  ],
})}
${pager({ path: '/portal/destinations', query: { limit: page.limit === 20 ? undefined : page.limit }, page, shown: page.data.length })}`;
}

export function newDestinationPage(options: { csrf: string; formKey: string; values: DestinationFields; errors: FieldError[] }): Html {
  return html`${pageHeader('Add a webhook destination', {
    back: { href: '/portal/destinations', label: 'Webhook destinations' },
    lead: 'PVS signs every delivery with a secret made for this destination; it is shown once, on the next page.',
  })}
${errorSummary(options.errors)}
<div class="panel">${pageForm(
    '/portal/destinations',
    options.csrf,
    html`${urlField(options.values.url, options.errors)}${categoryFields(options.values.categories, options.errors)}`,
    'Add destination',
    { formKey: options.formKey },
  )}</div>`;
}

function destinationDetails(d: WebhookDestination): Html {
  return details([
    ['Endpoint URL', html`<span class="mono">${d.url}</span>`],
    ['Destination id', idText(d.id)],
    ['Categories', categoryList(d.categories)],
    ['Status', badge(d.enabled ? 'ENABLED' : 'DISABLED')],
    ['Added', when(d.createdAt)],
    ['Last changed', when(d.updatedAt)],
  ]);
}

/** The answer to adding a destination: the secret, once. */
export function destinationCreatedPage(d: DestinationWithSecret): Html {
  return html`${pageHeader('Destination added', { back: { href: '/portal/destinations', label: 'Webhook destinations' }, lead: 'Events of its categories are sent to it from now on.' })}
${secretOnce({
  label: 'Signing secret',
  value: d.secret ?? '',
  note: 'Copy it into your receiver now: it is shown only this once. Every delivery carries x-signature, an HMAC-SHA256 made with it.',
})}
${section('Details', destinationDetails(d))}
<p><a class="button button-secondary" href="/portal/destinations/${d.id}">Go to the destination and send a test event</a></p>`;
}

/** The answer to rotating a destination's secret: the new secret, once. */
export function secretRotatedPage(d: DestinationWithSecret): Html {
  return html`${pageHeader('New signing secret', { back: { href: `/portal/destinations/${d.id}`, label: 'Back to the destination' }, lead: html`For <span class="mono">${d.url}</span>.` })}
${secretOnce({
  label: 'New signing secret',
  value: d.secret ?? '',
  note: 'Copy it into your receiver now: it is shown only this once. Deliveries are signed with it from now on (x-signature); for the next 24 hours the previous secret also signs each delivery, in x-signature-previous, so your receiver can switch over without missing one.',
})}
<p><a class="button button-secondary" href="/portal/destinations/${d.id}">Back to the destination</a></p>`;
}

/** A form that shows a secret, sent a second time (a reload): nothing was done again. */
export function alreadySentPage(options: { title: string; back: { href: string; label: string }; text: string }): Html {
  return html`${pageHeader(options.title, { back: options.back })}
${notice('info', options.text)}
<p><a class="button button-secondary" href="${options.back.href}">${options.back.label}</a></p>`;
}

export interface DestinationPageOptions {
  destination: WebhookDestination;
  csrf: string;
  /** A fresh key for the rotate form. */
  formKey: string;
  testChoices: TestEventChoice[];
  monitoringEligible: boolean;
  edit?: { values: DestinationFields; errors: FieldError[] };
  testErrors?: FieldError[];
  testEvent?: string;
  message?: Html;
  sent?: { type: string; notifications: WebhookNotification[] };
}

function sentNotice(destination: WebhookDestination, sent: NonNullable<DestinationPageOptions['sent']>): Html {
  if (sent.notifications.length === 0) return html``;
  return notice(
    'success',
    html`<p>Sent a test <span class="mono">${sent.type}</span> event: one notification for each enabled destination subscribed to its category.</p>
<ul>${sent.notifications.map(
      (n) => html`<li>${idText(n.id, `/portal/deliveries/${n.id}`)} to ${n.destinationId === destination.id ? 'this destination' : html`destination ${idText(n.destinationId, `/portal/destinations/${n.destinationId}`)}`}</li>`,
    )}</ul>
<p>Open a notification to follow its delivery.</p>`,
  );
}

export function destinationPage(o: DestinationPageOptions): Html {
  const d = o.destination;
  const errors = [...(o.edit?.errors ?? []), ...(o.testErrors ?? [])];
  const values = o.edit?.values ?? { url: d.url, categories: d.categories, enabled: d.enabled };
  const defaultTest = o.testEvent ?? o.testChoices.find((c) => d.categories.includes(c.category))?.value;
  const action = (path: string) => `/portal/destinations/${d.id}${path}`;
  return html`${pageHeader('Webhook destination', {
    back: { href: '/portal/destinations', label: 'Webhook destinations' },
    lead: html`Events go to <span class="mono">${d.url}</span>.`,
  })}
${errorSummary(errors)}
${o.message ?? ''}
${o.sent ? sentNotice(d, o.sent) : ''}
${section('Details', destinationDetails(d))}
${section(
  'Send a test event',
  html`<p>A signed sample marked <code>"test": true</code> goes to every enabled destination subscribed to the event’s category${d.enabled ? '' : ' (not to this one while it is disabled)'}.${
    o.monitoringEligible ? '' : ' Monitoring events are sent only to partners eligible for monitoring, so they are not listed.'
  }</p>
${pageForm(action('/test'), o.csrf, select({ name: 'event', label: 'Event type', choices: o.testChoices, value: defaultTest, errors: o.testErrors }), 'Send test event')}`,
)}
${section(
  'Change the destination',
  pageForm(
    action(''),
    o.csrf,
    html`${urlField(values.url, o.edit?.errors ?? [])}${categoryFields(values.categories, o.edit?.errors ?? [])}${choices({
      name: 'enabled',
      legend: 'Deliveries',
      type: 'radio',
      choices: [
        { value: 'true', label: 'Enabled: send events to this destination' },
        { value: 'false', label: 'Disabled: send nothing; deliveries already waiting hold for up to 24 hours' },
      ],
      checked: [values.enabled ? 'true' : 'false'],
    })}`,
    'Save changes',
  ),
)}
${section(
  'Signing secret',
  html`<p>Rotating makes a new secret and shows it once. The current one keeps signing too, in x-signature-previous, for 24 hours.</p>
${pageForm(action('/rotate-secret'), o.csrf, html``, 'Rotate signing secret', { formKey: o.formKey, kind: 'secondary', confirm: 'Make a new signing secret for this destination?' })}`,
)}
${section(
  'Disable or remove',
  html`<p>A disabled destination receives nothing until it is enabled again. A removed one is gone for good: deliveries still waiting for it fail.</p>
<div class="actions">${
    d.enabled
      ? postForm({ action: action('/disable'), csrf: o.csrf, submit: 'Disable destination', kind: 'secondary', inline: true })
      : postForm({ action: action('/enable'), csrf: o.csrf, submit: 'Enable destination', kind: 'secondary', inline: true })
  }${postForm({ action: action('/remove'), csrf: o.csrf, submit: 'Remove destination', kind: 'danger', inline: true, confirm: 'Remove this destination? Nothing more will be sent to it.' })}</div>`,
)}`;
}
