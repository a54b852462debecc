// The hosted card page: what a partner's customer sees when they open a card link. The card form is the
// shared one (card-form.ts, assets/card-form.js); card-page.js sends PVS the gateway's token to save.
import type { CardPageView, LinkState } from '../../modules/billing/card-links.service.ts';
import { formatCents } from '../../modules/billing/prices.ts';
import { html, page } from '../html.ts';
import { cardFormScripts, renderCardForm } from './card-form.ts';
import { formatLinkExpiry, type LinkNotice } from './link-notice.ts';

const cardLinkNotices: Record<Exclude<LinkState, 'LIVE'>, LinkNotice> = {
  USED: { title: 'This link has already been used', body: 'A card was already saved with this link. If you want to change the card, ask for a new link.', note: 'Nothing was charged. You can close this page.' },
  REPLACED: { title: 'This link has been replaced', body: 'A newer link was sent to you. Please use the most recent link you received.', note: 'Nothing was charged. You can close this page.' },
  EXPIRED: { title: 'This link has expired', body: 'Card links work for a limited time. Ask for a new link to save your card.', note: 'Nothing was charged. You can close this page.' },
  UNKNOWN: { title: 'This link is not valid', body: 'Check that you opened the whole link from your message, or ask for a new one.', note: 'Nothing was charged. You can close this page.' },
};

/** Why a card link shows no form, and its status: 404 for a link that never was, 410 for one that was. */
export function cardLinkNotice(state: Exclude<LinkState, 'LIVE'>): { status: number; notice: LinkNotice } {
  return { status: state === 'UNKNOWN' ? 404 : 410, notice: cardLinkNotices[state] };
}

/** When the card is charged, in the holder's words. */
function runWindowText(seconds: number): string {
  const every = (n: number, unit: string) => `Charges are gathered and taken together, at most once ${n === 1 ? `a ${unit}` : `every ${n} ${unit}s`}.`;
  if (seconds >= 86_400) return every(Math.round(seconds / 86_400), 'day');
  if (seconds >= 3600) return every(Math.round(seconds / 3600), 'hour');
  if (seconds >= 60) return every(Math.round(seconds / 60), 'minute');
  return 'Each check is charged shortly after it is run.';
}

export function renderCardPage(view: Extract<CardPageView, { state: 'LIVE' }>, options: { saveUrl: string; runWindowSeconds: number }): string {
  const body = html`<section class="panel" id="form-panel" aria-labelledby="title">
<p class="partner">${view.partnerName}</p>
<h1 id="title">Save a card for your checks</h1>
<p>${view.partnerName} runs business and identity checks for you. Save a card and they can bill those checks to it. ${runWindowText(options.runWindowSeconds)}</p>
<table class="prices">
<caption>What the card will be charged for</caption>
<thead><tr><th scope="col">Check</th><th scope="col" class="amount">Price (AUD)</th></tr></thead>
<tbody>${view.prices.map((p) => html`<tr><td>${p.label}</td><td class="amount">${formatCents(p.amount)}</td></tr>`)}</tbody>
</table>
${renderCardForm(view.hostedFields, { submitUrl: options.saveUrl, submitLabel: 'Save card' })}
<p class="muted small">Your card details go straight to our payment processor; they are never sent to or kept by this service. This link works once, until ${formatLinkExpiry(view.expiresAt)}.</p>
</section>
<section class="panel" id="saved-panel" aria-labelledby="saved-title" hidden>
<h1 id="saved-title" tabindex="-1">Card saved</h1>
<p>Your <span id="saved-card"></span> is saved. ${view.partnerName} can now bill your checks to it.</p>
<p class="muted">You can close this page.</p>
</section>`;

  return page({ title: `Save a card · ${view.partnerName}`, body, scripts: cardFormScripts(view.hostedFields, 'card-page.js') });
}
