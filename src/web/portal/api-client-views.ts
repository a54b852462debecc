// What the API client pages show: the list with the form that creates one, a client with its actions
// (rotate the secret, revoke), and the answers that show a secret once.
import type { ApiClient, CreatedApiClient } from '../../modules/partners/api-clients.schemas.ts';
import { html, type Html } from '../html.ts';
import { badge, details, errorSummary, field, idText, notice, pageHeader, pager, postForm, secretOnce, section, table, when, type FieldError } from '../ui.ts';

const listLink = { href: '/portal/api-clients', label: 'API clients' };

function status(client: ApiClient): Html {
  return client.revokedAt ? html`${badge('REVOKED')} <span class="muted">since</span> ${when(client.revokedAt)}` : badge('ACTIVE');
}

function onceForm(action: string, csrf: string, formKey: string, body: Html, submit: string, options: { kind?: string; confirm?: string } = {}): Html {
  return html`<form method="post" action="${action}" class="form" novalidate${options.confirm ? html` data-confirm="${options.confirm}"` : ''}>
<input type="hidden" name="_csrf" value="${csrf}"><input type="hidden" name="formKey" value="${formKey}">
${body}
<button type="submit" class="button button-${options.kind ?? 'primary'}">${submit}</button>
</form>`;
}

export function apiClientListPage(options: {
  page: { data: ApiClient[]; limit: number; from: number; nextFrom: number | null };
  csrf: string;
  formKey: string;
  label?: string;
  errors?: FieldError[];
}): Html {
  const { page } = options;
  const errors = options.errors ?? [];
  return html`${pageHeader('API clients', {
    lead: 'The credentials your servers exchange for access tokens at POST /oauth2/token. To change credentials without a gap, create a new client, deploy it, then revoke the old one.',
  })}
${errorSummary(errors)}
${table({
  caption: 'Your API clients',
  empty: 'No API clients yet.',
  rows: page.data,
  columns: [
    { label: 'Client id', cell: (c) => idText(c.id, `/portal/api-clients/${c.id}`) },
    { label: 'Label', cell: (c) => c.label ?? html`<span class="muted">—</span>` },
    { label: 'Created', cell: (c) => when(c.createdAt) },
    { label: 'Status', cell: (c) => status(c) },
  ],
})}
${pager({ path: '/portal/api-clients', query: { limit: page.limit === 20 ? undefined : page.limit }, page, shown: page.data.length })}
${section(
  'Create an API client',
  onceForm(
    '/portal/api-clients',
    options.csrf,
    options.formKey,
    field({ name: 'label', label: 'Label', value: options.label, errors, hint: 'Your name for it, such as where it is deployed. At most 100 characters.' }),
    'Create API client',
  ),
)}`;
}

function clientDetails(client: ApiClient): Html {
  return details([
    ['Client id (client_id)', idText(client.id)],
    ['Label', client.label],
    ['Created', when(client.createdAt)],
    ['Status', status(client)],
  ]);
}

export function apiClientPage(options: { client: ApiClient; csrf: string; formKey: string; message?: Html }): Html {
  const { client, csrf } = options;
  const action = (path: string) => `/portal/api-clients/${client.id}${path}`;
  const name = client.label ? html`“${client.label}”` : 'This client';
  return html`${pageHeader('API client', { back: listLink, lead: html`${name} exchanges its id and secret for access tokens at POST /oauth2/token.` })}
${options.message ?? ''}
${section('Details', clientDetails(client))}
${
  client.revokedAt
    ? notice('info', 'This client is revoked: it obtains no tokens, and its secret cannot be replaced. Create another client if you need one.')
    : html`${section(
        'Client secret',
        html`<p>Rotating makes a new secret and shows it once. The old secret stops obtaining tokens at once; tokens it already obtained keep working until they expire, within an hour.</p>
${onceForm(action('/rotate-secret'), csrf, options.formKey, html``, 'Rotate client secret', { kind: 'secondary', confirm: 'Make a new secret for this client? The current secret stops working at once.' })}`,
      )}
${section(
  'Revoke',
  html`<p>A revoked client obtains no more tokens, and the tokens it holds stop working within 60 seconds. Your last active client cannot be revoked.</p>
${postForm({ action: action('/revoke'), csrf, submit: 'Revoke API client', kind: 'danger', confirm: 'Revoke this API client? Its tokens stop working within a minute.' })}`,
)}`
}`;
}

/** The answer to creating a client or rotating its secret: the secret, once. */
export function apiClientSecretPage(client: CreatedApiClient, kind: 'created' | 'rotated'): Html {
  const title = kind === 'created' ? 'API client created' : 'New client secret';
  return html`${pageHeader(title, { back: listLink, lead: html`Client id <span class="mono">${client.id}</span>${client.label ? html` (${client.label})` : ''}.` })}
${secretOnce({
  label: 'Client secret',
  value: client.clientSecret ?? '',
  note:
    kind === 'created'
      ? 'Copy it now: it is shown only this once, and PVS keeps only a hash of it. Use it with the client id as client_secret at POST /oauth2/token.'
      : 'Copy it now: it is shown only this once, and PVS keeps only a hash of it. The previous secret no longer obtains tokens.',
})}
${section('Details', clientDetails(client))}
<p><a class="button button-secondary" href="/portal/api-clients/${client.id}">Go to the client</a></p>`;
}
