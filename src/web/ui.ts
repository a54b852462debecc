// The pieces every portal and console page is made of, so that pages look and behave alike: tables with
// captions, pagers, status badges, labelled fields with their errors, the error summary that takes focus,
// one-time secrets. Every value is escaped by `html`. Styles: assets/app.css.
import { html, type Html } from './html.ts';

export interface Column<T> {
  label: string;
  cell: (row: T) => unknown;
  /** Right-aligned, tabular figures. */
  numeric?: boolean;
}

/** A data table; on a phone each row becomes a card with the column labels beside the values. */
export function table<T>(options: { caption: string; columns: Column<T>[]; rows: T[]; empty: string; captionHidden?: boolean }): Html {
  if (options.rows.length === 0) return html`<p class="empty">${options.empty}</p>`;
  return html`<div class="table-wrap"><table class="data">
<caption class="${options.captionHidden ? 'visually-hidden' : ''}">${options.caption}</caption>
<thead><tr>${options.columns.map((c) => html`<th scope="col" class="${c.numeric ? 'num' : ''}">${c.label}</th>`)}</tr></thead>
<tbody>${options.rows.map(
    // The cell's content in one element: on a phone the cell is a two-column grid (label, value), and
    // content of several parts (text and a badge) must stay in the value's column.
    (row) => html`<tr>${options.columns.map((c) => html`<td data-label="${c.label}" class="${c.numeric ? 'num' : ''}"><div>${c.cell(row)}</div></td>`)}</tr>`,
  )}</tbody>
</table></div>`;
}

/** Previous and next links for a `{limit, from, nextFrom}` page, keeping the list's filters. */
export function pager(options: { path: string; query: Record<string, string | number | undefined>; page: { limit: number; from: number; nextFrom: number | null }; shown: number }): Html {
  const { page } = options;
  const link = (from: number) => {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(options.query)) if (value !== undefined && value !== '' && key !== 'from') params.set(key, String(value));
    if (from > 0) params.set('from', String(from));
    const search = params.toString();
    return `${options.path}${search ? `?${search}` : ''}`;
  };
  if (page.from === 0 && page.nextFrom === null) return html``;
  const first = options.shown === 0 ? page.from : page.from + 1;
  return html`<nav class="pager" aria-label="Pages">
<span class="pager-range">${first}–${page.from + options.shown}</span>
${page.from > 0 ? html`<a href="${link(Math.max(0, page.from - page.limit))}" rel="prev">Previous</a>` : ''}
${page.nextFrom !== null ? html`<a href="${link(page.nextFrom)}" rel="next">Next</a>` : ''}
</nav>`;
}

const tones: Record<string, string> = {
  // Settled well
  COMPLETED: 'good', DELIVERED: 'good', PASSED: 'good', SUCCEEDED: 'good', ACTIVE: 'good', ENABLED: 'good', CONFIRMED: 'bad', DISMISSED: 'neutral',
  CARD_ON_FILE: 'good', CLEAR: 'good', OK: 'good', PASS: 'good', MATCH: 'good',
  REVIEW: 'warn', MISMATCH: 'bad', NOT_AVAILABLE: 'neutral', UPSTREAM_UNAVAILABLE: 'bad',
  // Waiting on someone
  PENDING: 'wait', CREATED: 'wait', PROCESSING: 'wait', IN_PROGRESS: 'wait', SUBMITTED: 'wait', MANUAL_REVIEW: 'warn', OPEN: 'warn', UPLOADING: 'wait',
  QUEUED: 'wait', PARTIAL: 'warn', POSSIBLE_MATCH: 'warn', NO_CARD: 'warn',
  // Went wrong
  FAILED: 'bad', CANCELLED: 'neutral', EXPIRED: 'neutral', DISABLED: 'neutral', BLOCKED: 'bad', REJECTED: 'bad', ERROR: 'bad',
};

/** A status as a labelled badge; the word carries the meaning, the colour only repeats it. */
export function badge(status: string): Html {
  return html`<span class="badge badge-${tones[status] ?? 'neutral'}">${status.replace(/_/g, ' ')}</span>`;
}

/** A time as the reader's eyes want it (UTC, to the minute), with the exact instant for machines. */
export function when(value: string | Date | null | undefined): Html {
  if (!value) return html`<span class="muted">—</span>`;
  const iso = typeof value === 'string' ? value : value.toISOString();
  return html`<time datetime="${iso}">${iso.slice(0, 16).replace('T', ' ')} UTC</time>`;
}

/** An id in monospace, optionally a link to its page. */
export function idText(id: string, href?: string): Html {
  return href ? html`<a class="mono" href="${href}">${id}</a>` : html`<span class="mono">${id}</span>`;
}

/** A list of terms and their values: a record's details. */
export function details(pairs: Array<[string, unknown]>): Html {
  return html`<dl class="details">${pairs.map(([term, value]) => html`<div><dt>${term}</dt><dd>${value ?? html`<span class="muted">—</span>`}</dd></div>`)}</dl>`;
}

/** A problem with one field: `name` is the field's name attribute. */
export interface FieldError {
  name: string;
  message: string;
}

/** The errors of a form, announced and focused (app.js moves focus to it), each linking to its field. */
export function errorSummary(errors: FieldError[]): Html {
  if (errors.length === 0) return html``;
  return html`<div class="error-summary" role="alert" tabindex="-1" aria-labelledby="error-summary-title" data-autofocus>
<h2 id="error-summary-title">There is a problem</h2>
<ul>${errors.map((e) => html`<li><a href="#field-${e.name}">${e.message}</a></li>`)}</ul>
</div>`;
}

/** A page-level message after an action: `status` is announced politely, `alert` at once. */
export function notice(kind: 'success' | 'error' | 'info', text: unknown): Html {
  return html`<div class="notice notice-${kind}" role="${kind === 'error' ? 'alert' : 'status'}">${text}</div>`;
}

interface FieldOptions {
  name: string;
  label: string;
  value?: string;
  hint?: string;
  errors?: FieldError[];
  required?: boolean;
  autocomplete?: string;
}

function fieldParts(options: FieldOptions) {
  const error = options.errors?.find((e) => e.name === options.name)?.message;
  const ids = [options.hint ? `hint-${options.name}` : '', error ? `error-${options.name}` : ''].filter(Boolean).join(' ');
  const help = html`${options.hint ? html`<p class="hint" id="hint-${options.name}">${options.hint}</p>` : ''}${
    error ? html`<p class="field-error" id="error-${options.name}"><span class="visually-hidden">Error: </span>${error}</p>` : ''
  }`;
  return { error, describedBy: ids || undefined, help };
}

/** A labelled input with its hint and its error. */
export function field(options: FieldOptions & { type?: 'text' | 'email' | 'password' | 'url' | 'number' | 'search'; inputmode?: string; size?: 'short' | 'long' }): Html {
  const { error, describedBy, help } = fieldParts(options);
  return html`<div class="field${error ? ' field-invalid' : ''}">
<label for="field-${options.name}">${options.label}${options.required ? '' : html` <span class="optional">(optional)</span>`}</label>
${help}
<input id="field-${options.name}" name="${options.name}" type="${options.type ?? 'text'}" class="${options.size ?? ''}" value="${options.value ?? ''}"${
    options.required ? html` required` : ''
  }${options.autocomplete ? html` autocomplete="${options.autocomplete}"` : ''}${options.inputmode ? html` inputmode="${options.inputmode}"` : ''}${
    describedBy ? html` aria-describedby="${describedBy}"` : ''
  }${error ? html` aria-invalid="true"` : ''}>
</div>`;
}

export function textarea(options: FieldOptions & { rows?: number }): Html {
  const { error, describedBy, help } = fieldParts(options);
  return html`<div class="field${error ? ' field-invalid' : ''}">
<label for="field-${options.name}">${options.label}${options.required ? '' : html` <span class="optional">(optional)</span>`}</label>
${help}
<textarea id="field-${options.name}" name="${options.name}" rows="${options.rows ?? 4}"${options.required ? html` required` : ''}${
    describedBy ? html` aria-describedby="${describedBy}"` : ''
  }${error ? html` aria-invalid="true"` : ''}>${options.value ?? ''}</textarea>
</div>`;
}

export function select(options: FieldOptions & { choices: Array<{ value: string; label: string }>; blank?: string }): Html {
  const { error, describedBy, help } = fieldParts(options);
  return html`<div class="field${error ? ' field-invalid' : ''}">
<label for="field-${options.name}">${options.label}</label>
${help}
<select id="field-${options.name}" name="${options.name}"${describedBy ? html` aria-describedby="${describedBy}"` : ''}${error ? html` aria-invalid="true"` : ''}>
${options.blank !== undefined ? html`<option value="">${options.blank}</option>` : ''}
${options.choices.map((c) => html`<option value="${c.value}"${c.value === options.value ? html` selected` : ''}>${c.label}</option>`)}
</select>
</div>`;
}

/** A group of checkboxes or radios under one legend. */
export function choices(options: {
  name: string;
  legend: string;
  type: 'checkbox' | 'radio';
  choices: Array<{ value: string; label: string; hint?: string }>;
  checked: string[];
  hint?: string;
  errors?: FieldError[];
}): Html {
  const error = options.errors?.find((e) => e.name === options.name)?.message;
  return html`<fieldset class="field choices${error ? ' field-invalid' : ''}" id="field-${options.name}" tabindex="-1"${
    error ? html` aria-describedby="error-${options.name}"` : ''
  }>
<legend>${options.legend}</legend>
${options.hint ? html`<p class="hint">${options.hint}</p>` : ''}
${error ? html`<p class="field-error" id="error-${options.name}"><span class="visually-hidden">Error: </span>${error}</p>` : ''}
${options.choices.map(
    (c, i) => html`<div class="choice"><input type="${options.type}" id="field-${options.name}-${i}" name="${options.name}" value="${c.value}"${
      options.checked.includes(c.value) ? html` checked` : ''
    }><label for="field-${options.name}-${i}">${c.label}${c.hint ? html` <span class="hint">${c.hint}</span>` : ''}</label></div>`,
  )}
</fieldset>`;
}

/** A form that posts with the session's CSRF token. `confirm` asks before sending (app.js; without script it sends). */
export function postForm(options: { action: string; csrf: string; body?: Html; submit: string; kind?: 'primary' | 'secondary' | 'danger'; confirm?: string; inline?: boolean }): Html {
  return html`<form method="post" action="${options.action}" class="${options.inline ? 'inline-form' : 'form'}"${options.confirm ? html` data-confirm="${options.confirm}"` : ''}>
<input type="hidden" name="_csrf" value="${options.csrf}">
${options.body ?? ''}
<button type="submit" class="button button-${options.kind ?? 'primary'}">${options.submit}</button>
</form>`;
}

/** A secret shown once: said plainly, selectable, with a copy button when script runs. */
export function secretOnce(options: { label: string; value: string; note?: string }): Html {
  return html`<section class="secret" aria-labelledby="secret-title">
<h2 id="secret-title">${options.label}</h2>
<p>${options.note ?? 'Copy it now: it is shown only this once, and PVS keeps only what it needs to check it.'}</p>
<div class="secret-value"><code id="secret-value">${options.value}</code><button type="button" class="button button-secondary" data-copy="secret-value" hidden>Copy</button></div>
</section>`;
}

/** The heading block of a page, with optional actions beside it. */
export function pageHeader(title: string, options: { lead?: unknown; actions?: Html; back?: { href: string; label: string } } = {}): Html {
  return html`<div class="page-header">
${options.back ? html`<p class="back"><a href="${options.back.href}">← ${options.back.label}</a></p>` : ''}
<div class="page-title"><h1>${title}</h1>${options.actions ? html`<div class="actions">${options.actions}</div>` : ''}</div>
${options.lead ? html`<p class="lead">${options.lead}</p>` : ''}
</div>`;
}

/** A filter bar: a GET form, so a filtered list is a link like any other. */
export function filters(options: { action: string; body: Html }): Html {
  return html`<form method="get" action="${options.action}" class="filters" role="search" aria-label="Filter">
${options.body}
<button type="submit" class="button button-secondary">Filter</button>
</form>`;
}

/** A section of a page with its heading. */
export function section(title: string, body: unknown, options: { id?: string } = {}): Html {
  const id = options.id ?? `section-${title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;
  return html`<section class="panel" aria-labelledby="${id}"><h2 id="${id}">${title}</h2>${body}</section>`;
}
