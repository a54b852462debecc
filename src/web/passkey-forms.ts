// The passkey forms of the second-factor, enrolment and account pages. Each form carries the options PVS
// made for it, whose challenge the session keeps (one at a time, used once, for five minutes); the
// pages' script (assets/passkeys.js, with @simplewebauthn/browser's bundle, both served by PVS) asks the
// browser for the passkey and sends its answer in the form. Without a script, or WebAuthn, they stay hidden.
import { passkeyTimeoutSeconds } from '../modules/accounts/passkeys.ts';
import { html, type Html } from './html.ts';
import type { AreaConfig, Viewer } from './pages.ts';
import { safeNext } from './sign-in.ts';
import { field } from './ui.ts';

/** The scripts of a page with a passkey form. */
export const passkeyScripts = ['/web/assets/webauthn.js', '/web/assets/passkeys.js'];

/** Where the browser's answer says what went wrong before anything was sent (assets/passkeys.js). */
const scriptMessage = html`<p class="field-error" role="alert" data-passkey-message></p>`;

/** The button that signs in (or steps up) with one of the account's passkeys; undefined when it has none. */
export async function passkeySignInForm(config: AreaConfig, viewer: Viewer, options: { next?: string; stepUp: boolean; label: string }): Promise<Html | undefined> {
  const request = await config.factors.passkeys.authenticationOptions(viewer.accountId);
  if (!request) return undefined;
  await config.sessions.putChallenge(viewer.session, 'AUTHENTICATE', request.challenge, passkeyTimeoutSeconds);
  return html`<form method="post" action="/${config.area}/second-factor/passkey" class="form passkey-form" data-passkey="authenticate" data-passkey-options="${JSON.stringify(request)}" data-passkey-part hidden>
<input type="hidden" name="_csrf" value="${viewer.session.csrfToken}">
<input type="hidden" name="next" value="${safeNext(config.area, options.next)}">
${options.stepUp ? html`<input type="hidden" name="stepUp" value="1">` : ''}
<input type="hidden" name="response" value="">
${scriptMessage}
<button type="submit" class="button button-primary button-wide">${options.label}</button>
</form>`;
}

/** The form that makes a new passkey for the signed-in account, with a name for it. */
export async function passkeyRegisterForm(config: Pick<AreaConfig, 'area' | 'factors' | 'sessions'>, viewer: Viewer, options: { next: string; label: string }): Promise<Html> {
  const creation = await config.factors.passkeys.registrationOptions({ id: viewer.accountId, email: viewer.email });
  await config.sessions.putChallenge(viewer.session, 'REGISTER', creation.challenge, passkeyTimeoutSeconds);
  return html`<form method="post" action="/${config.area}/second-factor/passkey/register" class="form passkey-form" data-passkey="register" data-passkey-options="${JSON.stringify(creation)}">
<input type="hidden" name="_csrf" value="${viewer.session.csrfToken}">
<input type="hidden" name="next" value="${safeNext(config.area, options.next)}">
<input type="hidden" name="response" value="">
${field({ name: 'passkeyName', label: 'Name of this passkey', hint: 'To tell your passkeys apart, such as “Work laptop” or “Phone”.', autocomplete: 'off' })}
${scriptMessage}
<button type="submit" class="button button-primary button-wide">${options.label}</button>
</form>`;
}
