// The partners pages' pieces: the list, the forms (create, settings, portal sign-in, disable and enable) and the form
// reading with its errors. Routes: partner-pages.ts.
import type { AccountRow } from '../../modules/accounts/accounts.repository.ts';
import type { OperatorPartner } from '../../modules/partners/partners.schemas.ts';
import { commissionBpsRange } from '../../modules/partners/partners.schemas.ts';
import { html, type Html } from '../html.ts';
import { badge, choices, details, field, idText, postForm, section, table, when, type FieldError } from '../ui.ts';
import { cellOf } from './console-common.ts';

export const partnerPath = (id: string) => `/console/partners/${id}`;

/** 150 bps as "150 bps (1.5 %)". */
export function commissionText(bps: number): string {
  return `${bps} bps (${(bps / 100).toLocaleString('en-AU', { maximumFractionDigits: 2 })} %)`;
}

const standing = (p: OperatorPartner) => badge(p.disabledAt ? 'DISABLED' : 'ACTIVE');

export function partnerTable(partners: OperatorPartner[], portalUsers: Map<string, number>): Html {
  return table({
    caption: 'Partners, newest first',
    columns: [
      { label: 'Partner', cell: (p: OperatorPartner) => cellOf(html`<a href="${partnerPath(p.id)}">${p.name}</a>`, idText(p.id)) },
      { label: 'Environment', cell: (p) => cellOf(p.environment) },
      { label: 'Monitoring', cell: (p) => cellOf(p.monitoringEligible ? 'Eligible' : 'Not eligible') },
      { label: 'Commission', cell: (p) => cellOf(commissionText(p.commissionBps)), numeric: true },
      { label: 'Status', cell: (p) => cellOf(standing(p)) },
      { label: 'Portal users', cell: (p) => cellOf(portalUsers.get(p.id) ?? 0), numeric: true },
      { label: 'Created', cell: (p) => cellOf(when(p.createdAt)) },
    ],
    rows: partners,
    empty: 'There are no partners yet. Add the first one above.',
  });
}

export interface PartnerForm {
  name: string;
  monitoring: boolean;
  commission: string;
}

/** The commission field's value as basis points, or the problem with it, said for the person typing it. */
export function readCommission(value: string, errors: FieldError[]): number | undefined {
  const text = value.trim();
  const { minimum, maximum } = commissionBpsRange;
  if (text === '') errors.push({ name: 'commission', message: `Enter the commission in basis points, from ${minimum} to ${maximum} (0 for none)` });
  else if (!/^\d+$/.test(text)) errors.push({ name: 'commission', message: 'Enter the commission as a whole number of basis points, such as 150 for 1.5 %' });
  else if (Number(text) > maximum) errors.push({ name: 'commission', message: `The commission can be at most ${maximum} basis points (100 %)` });
  else return Number(text);
  return undefined;
}

function commissionField(value: string, errors: FieldError[]): Html {
  return field({
    name: 'commission',
    label: 'Commission on ATO payments, in basis points',
    hint: `${commissionBpsRange.minimum} to ${commissionBpsRange.maximum}: 100 basis points are 1 % of each payment's amount.`,
    value,
    required: true,
    inputmode: 'numeric',
    size: 'short',
    errors,
  });
}

function monitoringChoice(checked: boolean): Html {
  return choices({
    name: 'monitoring',
    legend: 'Monitoring',
    type: 'checkbox',
    choices: [{ value: 'yes', label: 'Eligible for monitoring', hint: 'It may watch its contacts against sanctions and PEP lists and receive monitoring events.' }],
    checked: checked ? ['yes'] : [],
  });
}

export function createForm(csrf: string, values: PartnerForm, errors: FieldError[]): Html {
  return section(
    'Add a partner',
    postForm({
      action: '/console/partners',
      csrf,
      submit: 'Add partner',
      body: html`${field({ name: 'name', label: 'Name', hint: 'The business name, as its staff and PVS’s operators will see it.', value: values.name, required: true, errors, autocomplete: 'organization' })}
${monitoringChoice(values.monitoring)}
${commissionField(values.commission, errors)}`,
    }),
    { id: 'add-partner' },
  );
}

export function settingsForm(partner: OperatorPartner, csrf: string, values: PartnerForm, errors: FieldError[]): Html {
  return section(
    'Settings',
    postForm({ action: partnerPath(partner.id), csrf, submit: 'Save settings', body: html`${monitoringChoice(values.monitoring)}${commissionField(values.commission, errors)}` }),
  );
}

export function standingForm(partner: OperatorPartner, csrf: string): Html {
  if (partner.disabledAt) {
    return section(
      'Disabled',
      html`<p>Disabled ${when(partner.disabledAt)}. Its API clients get no tokens and its portal users cannot sign in. Enabling lets both back in; nothing was deleted.</p>
${postForm({ action: `${partnerPath(partner.id)}/enable`, csrf, submit: 'Enable partner', kind: 'secondary' })}`,
      { id: 'standing' },
    );
  }
  return section(
    'Disable',
    html`<p>Disabling stops the partner at once: its API clients get no new tokens, tokens already issued stop working within a minute, and its portal users are signed out. Nothing is deleted, and it can be enabled again.</p>
${postForm({ action: `${partnerPath(partner.id)}/disable`, csrf, submit: 'Disable partner', kind: 'danger', confirm: `Disable ${partner.name}? Its API calls and portal sign-ins stop at once.` })}`,
    { id: 'standing' },
  );
}

/** The partner's rule for its portal users' sign-in: a second factor required of all, or left to each. */
export function signInRuleForm(partner: OperatorPartner, csrf: string, required: boolean): Html {
  return section(
    'Portal sign-in',
    postForm({
      action: `${partnerPath(partner.id)}/second-factor`,
      csrf,
      submit: 'Save sign-in rule',
      kind: 'secondary',
      body: choices({
        name: 'required',
        legend: 'Second factor',
        type: 'checkbox',
        hint: 'A code from an authenticator app after the password. Without the rule each portal user may set one up from their account page.',
        choices: [{ value: 'yes', label: 'Require a second factor of every portal user', hint: 'Those without one must set it up at their next page, before anything else.' }],
        checked: required ? ['yes'] : [],
      }),
    }),
    { id: 'portal-sign-in' },
  );
}

export function partnerDetails(partner: OperatorPartner): Html {
  return details([
    ['Status', standing(partner)],
    ['Partner id', idText(partner.id)],
    ['Environment', partner.environment],
    ['Monitoring', partner.monitoringEligible ? 'Eligible' : 'Not eligible'],
    ['Commission', commissionText(partner.commissionBps)],
    ['Created', when(partner.createdAt)],
  ]);
}

export function portalUserTable(users: AccountRow[]): Html {
  if (users.length === 0) return section('Portal users', html`<p>No portal users yet. Make one on the server with <code>pvs portal-user create</code>.</p>`);
  return table({
    caption: 'Portal users',
    columns: [
      { label: 'Email', cell: (u: AccountRow) => cellOf(u.email) },
      {
        label: 'Status',
        cell: (u) => cellOf(u.disabled_at ? badge('DISABLED') : badge('ACTIVE'), u.must_change_password && !u.disabled_at ? html`<span class="muted">one-time password not replaced yet</span>` : ''),
      },
      { label: 'Second factor', cell: (u) => cellOf(u.second_factor_enrolled_at ? html`Set up ${when(u.second_factor_enrolled_at)}` : html`<span class="muted">None</span>`) },
      { label: 'Last signed in', cell: (u) => cellOf(when(u.last_login_at)) },
      { label: 'Created', cell: (u) => cellOf(when(u.created_at)) },
    ],
    rows: users,
    empty: '',
  });
}
