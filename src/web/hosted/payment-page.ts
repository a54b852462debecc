// The hosted payment page: what a partner's customer sees when they open a payment link. The card form is
// the shared one (card-form.ts, assets/card-form.js); payment-page.js sends PVS the gateway's token to
// pay with and shows the outcome.
import type { PaymentLinkState, PaymentPageView } from '../../modules/payments/payment-links.service.ts';
import { html, page, type Html } from '../html.ts';
import { cardFormScripts, renderCardForm } from './card-form.ts';
import { formatLinkExpiry, type LinkNotice } from './link-notice.ts';

const nothingCharged = 'Nothing was charged. You can close this page.';

const paymentLinkNotices: Record<PaymentLinkState, LinkNotice> = {
  PAID: { title: 'This payment has already been made', body: 'This payment has been paid, so there is nothing more to pay.', note: 'Nothing more will be charged. You can close this page.' },
  CANCELLED: {
    title: 'This payment was cancelled',
    body: 'The business that sent you this link cancelled the payment. If you think you still need to pay, contact them.',
    note: nothingCharged,
  },
  FAILED: {
    title: 'This payment could not be made',
    body: 'A card was declined and the payment is now closed. Contact the business that sent you this link to arrange another way to pay.',
    note: nothingCharged,
  },
  REPLACED: { title: 'This link has been replaced', body: 'A newer payment link was sent to you. Please use the most recent link you received.', note: nothingCharged },
  EXPIRED: { title: 'This link has expired', body: 'Payment links work for a limited time. Ask the business that sent it for a new link.', note: nothingCharged },
  UNKNOWN: { title: 'This link is not valid', body: 'Check that you opened the whole link from your message, or ask the business that sent it for a new one.', note: nothingCharged },
};

/** Why a payment link shows no form, and its status: 404 for a link that never was, 410 for one that was. */
export function paymentLinkNotice(state: PaymentLinkState): { status: number; notice: LinkNotice } {
  return { status: state === 'UNKNOWN' ? 404 : 410, notice: paymentLinkNotices[state] };
}

const aud = new Intl.NumberFormat('en-AU', { style: 'currency', currency: 'AUD' });

/** Cents as the payer reads them: `$1,250.00`. */
export function formatAud(cents: number): string {
  return aud.format(cents / 100);
}

/**
 * The PRN in groups of four for reading it off the screen. The groups are spaced by the stylesheet, not
 * by characters, so what is copied is exactly the digits.
 */
function renderPrn(prn: string): Html {
  return html`<span class="prn">${(prn.match(/\d{1,4}/g) ?? []).map((group) => html`<span>${group}</span>`)}</span>`;
}

export function renderPaymentPage(view: Extract<PaymentPageView, { state: 'LIVE' }>, options: { payUrl: string }): string {
  const amount = formatAud(view.amount);
  const body = html`<section class="panel" id="form-panel" aria-labelledby="title">
<p class="partner">${view.partnerName}</p>
<h1 id="title">Make your ATO payment</h1>
<p>${view.partnerName} has asked you to pay this amount to the Australian Taxation Office.</p>
<dl class="summary">
<div><dt>Amount</dt><dd class="amount">${amount} <span class="hint">AUD</span></dd></div>
<div><dt>Payment reference number (PRN)</dt><dd>${renderPrn(view.prn)}</dd></div>
${view.description ? html`<div><dt>Description</dt><dd>${view.description}</dd></div>` : ''}
</dl>
${view.declinedBefore ? html`<p class="notice" id="declined-before">A card tried earlier for this payment was declined. You can pay with another card.</p>` : ''}
${renderCardForm(view.hostedFields, { submitUrl: options.payUrl, submitLabel: `Pay ${amount}` })}
<p class="muted small">Your card details go straight to our payment processor; they are never sent to or kept by this service. Your card is charged once, for ${amount}. This link works until ${formatLinkExpiry(view.expiresAt)}.</p>
</section>
<section class="panel" id="paid-panel" aria-labelledby="paid-title" hidden>
<h1 id="paid-title" tabindex="-1">Payment made</h1>
<p>You paid <strong>${amount}</strong> for payment reference number ${renderPrn(view.prn)}.</p>
<p class="muted">${view.partnerName} can see that it has been paid. You can close this page.</p>
</section>
<section class="panel" id="failed-panel" aria-labelledby="failed-title" hidden>
<h1 id="failed-title" tabindex="-1">Payment not made</h1>
<p id="failed-reason"></p>
<p>This payment could not be made and is now closed. Contact ${view.partnerName} to arrange another way to pay.</p>
<p class="muted">Your card was not charged. You can close this page.</p>
</section>`;

  return page({ title: `Pay ${amount} · ${view.partnerName}`, body, scripts: cardFormScripts(view.hostedFields, 'payment-page.js') });
}
