// What the hosted link pages share around the form: when a link stops working, and the page that says
// why a link shows no form (spent, replaced, expired, unknown; for a payment also paid, cancelled, failed).
import { html, page, type Html } from '../html.ts';

const expiryFormat = new Intl.DateTimeFormat('en-AU', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });

/** When a link stops working, as the pages print it. */
export function formatLinkExpiry(expiresAt: Date): Html {
  return html`<span class="nowrap">${expiryFormat.format(expiresAt)} UTC</span>`;
}

export interface LinkNotice {
  title: string;
  /** What happened, and what the holder can do. */
  body: string;
  /** What it meant for their card. */
  note: string;
}

/** The whole page for a link that shows no form. */
export function renderLinkNotice(notice: LinkNotice): string {
  return page({
    title: notice.title,
    body: html`<section class="panel" aria-labelledby="title">
<h1 id="title">${notice.title}</h1>
<p>${notice.body}</p>
<p class="muted">${notice.note}</p>
</section>`,
  });
}

/** Its Content-Security-Policy: a stylesheet, no script, nothing to reach. */
export const linkNoticeCsp = "default-src 'none'; style-src 'self'; img-src data:; frame-ancestors 'none'";
