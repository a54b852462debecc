// The hosted card page: what a partner's customer sees when they open a card link. The form never posts
// the card to PVS: card-page.js hands the details to the gateway's tokenisation and sends PVS the token.
import type { CardPageView, LinkState } from '../../modules/billing/card-links.service.ts';
import { formatCents } from '../../modules/billing/prices.ts';
import { html, page } from '../html.ts';

const stateText: Record<LinkState, { title: string; body: string }> = {
  USED: { title: 'This link has already been used', body: 'A card was already saved with this link. If you want to change the card, ask for a new link.' },
  REPLACED: { title: 'This link has been replaced', body: 'A newer link was sent to you. Please use the most recent link you received.' },
  EXPIRED: { title: 'This link has expired', body: 'Card links work for a limited time. Ask for a new link to save your card.' },
  UNKNOWN: { title: 'This link is not valid', body: 'Check that you opened the whole link from your message, or ask for a new one.' },
};

export function renderLinkState(state: LinkState): string {
  const text = stateText[state];
  return page({
    title: text.title,
    body: html`<section class="panel" aria-labelledby="title">
<h1 id="title">${text.title}</h1>
<p>${text.body}</p>
<p class="muted">Nothing was charged. You can close this page.</p>
</section>`,
  });
}

/** When the card is charged, in the holder's words. */
function runWindowText(seconds: number): string {
  const every = (n: number, unit: string) => `Charges are gathered and taken together, at most once ${n === 1 ? `a ${unit}` : `every ${n} ${unit}s`}.`;
  if (seconds >= 86_400) return every(Math.round(seconds / 86_400), 'day');
  if (seconds >= 3600) return every(Math.round(seconds / 3600), 'hour');
  if (seconds >= 60) return every(Math.round(seconds / 60), 'minute');
  return 'Each check is charged shortly after it is run.';
}

const expiryFormat = new Intl.DateTimeFormat('en-AU', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });

export function renderCardPage(view: Extract<CardPageView, { state: 'LIVE' }>, options: { saveUrl: string; runWindowSeconds: number }): string {
  const fields = view.hostedFields;
  const stripe = fields.kind === 'stripe';
  const cardFields = stripe
    ? html`<div class="field"><label for="card-element">Card</label><div id="card-element" class="stripe-element"></div><p class="field-error" id="card-element-error" hidden></p></div>`
    : html`<div class="field">
<label for="number">Card number</label>
<input id="number" name="number" inputmode="numeric" autocomplete="cc-number" required maxlength="23" aria-describedby="number-error">
<p class="field-error" id="number-error" hidden></p>
</div>
<div class="row">
<div class="field">
<label for="expiry">Expiry <span class="hint">(MM/YY)</span></label>
<input id="expiry" name="expiry" inputmode="numeric" autocomplete="cc-exp" placeholder="MM/YY" required maxlength="7" aria-describedby="expiry-error">
<p class="field-error" id="expiry-error" hidden></p>
</div>
<div class="field">
<label for="cvc">Security code</label>
<input id="cvc" name="cvc" inputmode="numeric" autocomplete="cc-csc" required maxlength="4" aria-describedby="cvc-error">
<p class="field-error" id="cvc-error" hidden></p>
</div>
</div>`;

  const body = html`<section class="panel" id="form-panel" aria-labelledby="title">
<p class="partner">${view.partnerName}</p>
<h1 id="title">Save a card for your checks</h1>
<p>${view.partnerName} runs business and identity checks for you. Save a card and they can bill those checks to it. ${runWindowText(options.runWindowSeconds)}</p>
<table class="prices">
<caption>What the card will be charged for</caption>
<thead><tr><th scope="col">Check</th><th scope="col" class="amount">Price (AUD)</th></tr></thead>
<tbody>${view.prices.map((p) => html`<tr><td>${p.label}</td><td class="amount">${formatCents(p.amount)}</td></tr>`)}</tbody>
</table>
<div id="errors" class="errors" role="alert" tabindex="-1" hidden></div>
<form id="card-form" novalidate data-gateway="${fields.kind}" data-save-url="${options.saveUrl}"
 data-tokens-url="${fields.kind === 'sandbox' ? fields.tokensUrl : ''}" data-publishable-key="${fields.kind === 'stripe' ? fields.publishableKey : ''}">
<div class="field">
<label for="name">Name on card</label>
<input id="name" name="name" autocomplete="cc-name" maxlength="200">
</div>
${cardFields}
<button type="submit" id="submit">Save card</button>
<p id="status" class="muted" role="status" aria-live="polite"></p>
</form>
<p class="muted small">Your card details go straight to our payment processor; they are never sent to or kept by this service. This link works once, until <span class="nowrap">${expiryFormat.format(view.expiresAt)} UTC</span>.</p>
<noscript><p class="errors">This page needs JavaScript to pass your card to the payment processor securely.</p></noscript>
</section>
<section class="panel" id="saved-panel" aria-labelledby="saved-title" hidden>
<h1 id="saved-title" tabindex="-1">Card saved</h1>
<p>Your <span id="saved-card"></span> is saved. ${view.partnerName} can now bill your checks to it.</p>
<p class="muted">You can close this page.</p>
</section>`;

  return page({
    title: `Save a card · ${view.partnerName}`,
    body,
    scripts: [...(stripe ? ['https://js.stripe.com/v3/'] : []), '/hosted/assets/card-page.js'],
  });
}

/** The page's Content-Security-Policy: its own script and style, and the gateway it talks to. */
export function cardPageCsp(view: Extract<CardPageView, { state: 'LIVE' }>): string {
  const gateway = view.hostedFields;
  const connect = gateway.kind === 'sandbox' ? `'self' ${new URL(gateway.tokensUrl).origin}` : "'self' https://api.stripe.com";
  const scripts = gateway.kind === 'stripe' ? "'self' https://js.stripe.com" : "'self'";
  const frames = gateway.kind === 'stripe' ? 'https://js.stripe.com https://hooks.stripe.com' : "'none'";
  return `default-src 'none'; script-src ${scripts}; style-src 'self'; img-src 'self' data:; connect-src ${connect}; frame-src ${frames}; form-action 'none'; base-uri 'none'; frame-ancestors 'none'`;
}

export const stateStatus: Record<LinkState, number> = { USED: 410, REPLACED: 410, EXPIRED: 410, UNKNOWN: 404 };
