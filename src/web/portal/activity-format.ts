// What the portal's activity pages (lookups, verifications, deed analyses, payments, contacts) share:
// the list query they take, the status filter, and how money, business numbers and statuses read.
import { Type, type Static } from '@sinclair/typebox';
import { pageParams } from '../../platform/http/pagination.ts';
import { html, type Html } from '../html.ts';
import { filters, idText, select } from '../ui.ts';

/**
 * A list page's query: the API's `limit` and `from`, and an optional status. An empty status is the
 * filter's "any status" choice. Unknown parameters are ignored (an address may carry tracking noise).
 */
export function listQuery<S extends string>(statuses: readonly S[]) {
  return Type.Object({
    ...pageParams,
    status: Type.Optional(Type.Union([Type.Literal(''), ...statuses.map((s) => Type.Literal(s))])),
  });
}

export type ListQuery<S extends string> = Static<ReturnType<typeof listQuery<S>>>;

/** The page and status a list query asks for; '' (any status) becomes undefined. */
export function pageOf<S extends string>(query: { limit: number; from: number; status?: S | '' }): { limit: number; from: number; status?: S } {
  return { limit: query.limit, from: query.from, ...(query.status ? { status: query.status } : {}) };
}

/** A detail page's parameter: an id as the API takes it. */
export const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });

/** The status filter of a list: a GET form, so the filtered list is a link like any other. */
export function statusFilter(options: { action: string; statuses: readonly string[]; value?: string; label?: string; limit: number }): Html {
  return filters({
    action: options.action,
    body: html`${select({
      name: 'status',
      label: options.label ?? 'Status',
      value: options.value ?? '',
      blank: 'Any status',
      choices: options.statuses.map((s) => ({ value: s, label: words(s) })),
    })}${options.limit !== 20 ? html`<input type="hidden" name="limit" value="${options.limit}">` : ''}`,
  });
}

/** `MANUAL_REVIEW` → `Manual review`. */
export function words(value: string): string {
  const text = value.replace(/_/g, ' ').toLowerCase();
  return text.charAt(0).toUpperCase() + text.slice(1);
}

const aud = new Intl.NumberFormat('en-AU', { style: 'currency', currency: 'AUD', minimumFractionDigits: 2 });

/** Integer cents as Australian dollars: 125000 → `$1,250.00`. */
export function money(cents: number): string {
  return aud.format(cents / 100);
}

/** An ABN as it is printed: `32 111 111 114`. */
export function abnText(abn: string | null): string | null {
  return abn && abn.length === 11 ? `${abn.slice(0, 2)} ${abn.slice(2, 5)} ${abn.slice(5, 8)} ${abn.slice(8)}` : abn;
}

/** An ACN as it is printed: `111 111 114`. */
export function acnText(acn: string | null): string | null {
  return acn && acn.length === 9 ? `${acn.slice(0, 3)} ${acn.slice(3, 6)} ${acn.slice(6)}` : acn;
}

/**
 * A badge whose tone the page chooses (ui.badge knows some statuses, not every value a page shows),
 * written as ui.badge writes one: `READY_TO_SEND` → `READY TO SEND`.
 */
export function toneBadge(value: string, tone: 'good' | 'warn' | 'bad' | 'wait' | 'neutral'): Html {
  return html`<span class="badge badge-${tone}">${value.replace(/_/g, ' ')}</span>`;
}

const completenessTones = { HIGH: 'good', PARTIAL: 'warn', UNKNOWN: 'neutral' } as const;

/** An ownership result's completeness (CONTRACT §5) as a badge. */
export function completenessBadge(completeness: 'HIGH' | 'PARTIAL' | 'UNKNOWN' | null): Html {
  if (!completeness) return html`<span class="muted">—</span>`;
  return toneBadge(completeness, completenessTones[completeness]);
}

/** Who pays for a piece of work: the partner's account, or a contact's card (a link to the contact). */
export function billedTo(contactId: string | null): Html {
  return contactId ? html`Contact ${idText(contactId, `/portal/contacts/${contactId}`)}` : html`Your account`;
}

/** An id that may be absent. */
export function optionalId(id: string | null, href?: string): Html {
  return id ? idText(id, href) : html`<span class="muted">—</span>`;
}

/** A list's caption: what it lists and which of them, kept short (on a phone it sits in a narrow box). */
export function captionOf(noun: string, page: { from: number }, shown: number, status?: string): string {
  const filtered = status ? ` (${words(status).toLowerCase()})` : '';
  if (shown === 0) return `${noun}${filtered}`;
  return `${noun}${filtered} ${page.from + 1}–${page.from + shown}`;
}

const roleLabels: Record<string, string> = {
  UBO: 'Beneficial owner',
  INDIVIDUAL_OWNER: 'Owner',
  AUTHORISED_REP: 'Authorised representative',
  PROTECTOR_GUARDIAN: 'Protector or guardian',
  OTHER_CONTROLLER: 'Other controller',
};

/** A party's or person's role in words: `UBO` → `Beneficial owner`. */
export function roleText(role: string): string {
  return roleLabels[role] ?? words(role);
}
