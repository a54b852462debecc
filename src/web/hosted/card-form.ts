// The card form the hosted pages share (the card page saves a card, the payment page pays with one): its
// markup, the scripts it needs and the Content-Security-Policy that lets it reach the gateway. The form
// never posts the card to PVS: assets/card-form.js hands the details to the gateway's tokenisation, and
// the page's own script sends PVS only the token the gateway answers.
import type { HostedFields } from '../../providers/gateway/gateway.ts';
import { html, type Html } from '../html.ts';

/** The card fields: the gateway's own element with Stripe, plain inputs with the sandbox gateway. */
function renderCardFields(fields: HostedFields): Html {
  if (fields.kind === 'stripe') {
    return html`<div class="field"><label for="card-element">Card</label><div id="card-element" class="stripe-element"></div><p class="field-error" id="card-element-error" hidden></p></div>`;
  }
  return html`<div class="field">
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
}

/**
 * The error summary (announced and focused by the script), the form, and what a browser without
 * JavaScript shows instead. `submitUrl` is where the page's script sends the gateway's token.
 */
export function renderCardForm(fields: HostedFields, options: { submitUrl: string; submitLabel: string }): Html {
  return html`<div id="errors" class="errors" role="alert" tabindex="-1" hidden></div>
<form id="card-form" novalidate data-gateway="${fields.kind}" data-submit-url="${options.submitUrl}"
 data-tokens-url="${fields.kind === 'sandbox' ? fields.tokensUrl : ''}" data-publishable-key="${fields.kind === 'stripe' ? fields.publishableKey : ''}">
<div class="field">
<label for="name">Name on card</label>
<input id="name" name="name" autocomplete="cc-name" maxlength="200">
</div>
${renderCardFields(fields)}
<button type="submit" id="submit">${options.submitLabel}</button>
<p id="status" class="muted" role="status" aria-live="polite"></p>
</form>
<noscript><p class="errors">This page needs JavaScript to pass your card to the payment processor securely.</p></noscript>`;
}

/** What a page with the card form loads, in order: the gateway's script, the shared form, the page's own. */
export function cardFormScripts(fields: HostedFields, pageScript: string): string[] {
  return [...(fields.kind === 'stripe' ? ['https://js.stripe.com/v3/'] : []), '/hosted/assets/card-form.js', `/hosted/assets/${pageScript}`];
}

/** The Content-Security-Policy of a page with the card form: its own script and style, and the gateway it talks to. */
export function cardFormCsp(fields: HostedFields): string {
  const connect = fields.kind === 'sandbox' ? `'self' ${new URL(fields.tokensUrl).origin}` : "'self' https://api.stripe.com";
  const scripts = fields.kind === 'stripe' ? "'self' https://js.stripe.com" : "'self'";
  const frames = fields.kind === 'stripe' ? 'https://js.stripe.com https://hooks.stripe.com' : "'none'";
  return `default-src 'none'; script-src ${scripts}; style-src 'self'; img-src 'self' data:; connect-src ${connect}; frame-src ${frames}; form-action 'none'; base-uri 'none'; frame-ancestors 'none'`;
}
