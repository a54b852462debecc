// Enrolling a second factor: a passkey, or an authenticator app (TOTP), as the person chooses. The app's
// secret is shown as a QR code, drawn here on the server (qrcode, loaded at the first enrolment), and as
// text for whoever cannot scan; the person confirms with a code the app then shows. A passkey is made by
// the browser (passkey-forms.ts) and checked here. Ten recovery codes follow the first factor, shown on
// that answer and never again (no redirect: they are in no URL, and sending the form again only finds the
// factor enrolled). A passkey added later, from the account page, brings none. Operators enrol before
// anything else at their first sign-in; a portal user when their partner requires it, or whenever they
// choose to, from their account page.
import type { FastifyReply } from 'fastify';
import { groupedSecret } from '../modules/accounts/totp.ts';
import type { HttpApp } from '../platform/http/types.ts';
import { html } from './html.ts';
import { formOf, sendPage, viewerOf, type AreaConfig } from './pages.ts';
import { passkeyRegisterForm, passkeyScripts } from './passkey-forms.ts';
import { safeNext } from './sign-in.ts';
import { stepPath } from './sign-in-steps.ts';
import { throttledFor, throttledMessage } from './sign-in-throttle.ts';
import { errorSummary, field, notice, type FieldError } from './ui.ts';

/** The QR code of the otpauth address, as an SVG image inside the page (the CSP allows data: images). */
async function qrCodeImage(uri: string): Promise<string> {
  const { default: qrcode } = await import('qrcode');
  const svg = await qrcode.toString(uri, { type: 'svg', margin: 2, errorCorrectionLevel: 'M' });
  return `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
}

export function registerEnrolment(app: HttpApp, config: AreaConfig): void {
  const { area } = config;

  async function renderEnrolment(reply: FastifyReply, options: { next?: string; status?: number; errors?: FieldError[]; message?: string }) {
    const viewer = viewerOf(reply.request);
    const enrolment = await config.factors.enrolment({ id: viewer.accountId, email: viewer.email });
    if (!enrolment) return reply.redirect(safeNext(area, options.next), 303);
    const required = viewer.pendingStep === 'enrol';
    const factor = 'a passkey or a code from an authenticator app on your phone, as well as your password';
    const why =
      area === 'console'
        ? `Every operator signs in with a second factor: ${factor}. Set one up now to continue.`
        : required
          ? `${viewer.partnerName ?? 'Your organisation'} requires a second factor of everyone who signs in to its portal: ${factor}. Set one up now to continue.`
          : `A second factor protects your sign-in: ${factor}.`;
    const body = html`<div class="auth-card enrol-card">
<h1>Set up a second factor</h1>
${options.message ? notice('error', options.message) : ''}
${errorSummary(options.errors ?? [])}
<p>${why}</p>
<section class="enrol-choice" aria-labelledby="enrol-passkey" data-passkey-part hidden>
<h2 id="enrol-passkey">With a passkey</h2>
<p>Your device’s fingerprint, face or screen lock, or a security key, confirms it’s you. Nothing to type, and it works only on PVS’s own site.</p>
${await passkeyRegisterForm(config, viewer, { next: options.next ?? `/${area}`, label: 'Set up a passkey' })}
</section>
<section class="enrol-choice" aria-labelledby="enrol-app">
<h2 id="enrol-app">With an authenticator app</h2>
<p>Any authenticator app works (Google Authenticator, Microsoft Authenticator, 1Password, Aegis and others).</p>
<ol class="steps">
<li><p>In the app, add an account and scan this QR code.</p>
<img class="qr-code" src="${await qrCodeImage(enrolment.uri)}" alt="QR code that adds your PVS account to an authenticator app" width="200" height="200"></li>
<li><p>If you cannot scan it, enter this key by hand instead (a time-based key):</p>
<p><code class="setup-key" id="setup-key">${groupedSecret(enrolment.secret)}</code></p></li>
<li><p>Enter the 6-digit code the app now shows, to confirm it works.</p>
<form method="post" action="/${area}/second-factor/enrol" class="form" novalidate>
<input type="hidden" name="_csrf" value="${viewer.session.csrfToken}">
<input type="hidden" name="next" value="${safeNext(area, options.next)}">
${field({ name: 'code', label: 'Code from the app', required: true, autocomplete: 'one-time-code', inputmode: 'numeric', size: 'short', errors: options.errors })}
<button type="submit" class="button button-primary button-wide">Confirm and continue</button>
</form></li>
</ol>
</section>
${required ? '' : html`<p><a href="/${area}/account">Not now</a></p>`}
</div>`;
    return sendPage(reply, { title: 'Set up a second factor', body, status: options.status, scripts: passkeyScripts });
  }

  app.get<{ Querystring: { next?: string } }>('/second-factor/enrol', { config: { secondFactor: true } }, async (request, reply) =>
    renderEnrolment(reply, { next: request.query.next }),
  );

  app.post('/second-factor/enrol', { config: { secondFactor: true } }, async (request, reply) => {
    const viewer = viewerOf(request);
    const form = formOf(request);
    const wait = throttledFor(config, request);
    if (wait > 0) return renderEnrolment(reply, { next: form.next, status: 429, message: throttledMessage(reply, wait) });
    if (!form.code?.trim()) return renderEnrolment(reply, { next: form.next, status: 400, errors: [{ name: 'code', message: 'Enter the 6-digit code the app shows' }] });
    const confirmed = await config.factors.confirm(viewer.accountId, form.code);
    // Enrolled meanwhile (this form sent again, another tab): nothing to show twice.
    if (!confirmed.ok && confirmed.reason === 'ENROLLED') return reply.redirect(safeNext(area, form.next), 303);
    if (!confirmed.ok) {
      return renderEnrolment(reply, {
        next: form.next,
        status: 400,
        errors: [{ name: 'code', message: 'The code is not the one the app shows for this key. Check that you added the key above, then enter the code the app shows now.' }],
      });
    }
    // Whoever confirmed the code has just proved the factor: this session's second factor is now.
    await config.sessions.markSecondFactor(viewer.session);
    const account = await config.accounts.current(viewer.accountId);
    if (account) await config.onSignIn?.(account, 'SECOND_FACTOR_ENROLLED', { secondFactor: 'TOTP', recoveryCodes: confirmed.recoveryCodes.length });
    return recoveryCodesPage(reply, { codes: confirmed.recoveryCodes, next: safeNext(area, form.next), done: 'Your authenticator app is set up: PVS will ask for a code from it each time you sign in.' });
  });

  // A new passkey (passkey-forms.ts): the account's first factor, from the enrolment page, or another
  // one, from the account page. Never for a session still to give its second factor: that would let the
  // password alone add a factor.
  app.post('/second-factor/passkey/register', { config: { secondFactor: true } }, async (request, reply) => {
    const viewer = viewerOf(request);
    const form = formOf(request);
    if (viewer.pendingStep === 'second-factor') return reply.redirect(stepPath(area, 'second-factor'), 303);
    const wait = throttledFor(config, request);
    if (wait > 0) return renderEnrolment(reply, { next: form.next, status: 429, message: throttledMessage(reply, wait) });
    const challenge = await config.sessions.takeChallenge(viewer.session, 'REGISTER');
    const registered = await config.factors.passkeys.register(viewer.accountId, { response: form.response, challenge, name: form.passkeyName });
    const account = await config.accounts.current(viewer.accountId);
    if (!registered.ok) {
      const message =
        registered.reason === 'REGISTERED'
          ? 'That passkey is set up already. Use another device or security key.'
          : 'The passkey could not be set up: it was not made for this page, or it took too long. Try again.';
      // Enrolling: the page again, with why. Adding from the account page: back there, with why.
      if (!account?.second_factor_enrolled_at) return renderEnrolment(reply, { next: form.next, status: 400, message });
      return reply.redirect(`/${area}/account?passkey=${registered.reason === 'REGISTERED' ? 'registered' : 'refused'}`, 303);
    }
    const detail = { secondFactor: 'PASSKEY', passkeyId: registered.passkey.id, name: registered.passkey.name };
    if (!registered.firstFactor) {
      if (account) await config.onSignIn?.(account, 'PASSKEY_ADDED', detail);
      return reply.redirect(`/${area}/account?passkey=added`, 303);
    }
    // Whoever made the passkey has just proved the factor: this session's second factor is now.
    await config.sessions.markSecondFactor(viewer.session);
    if (account) await config.onSignIn?.(account, 'SECOND_FACTOR_ENROLLED', { ...detail, recoveryCodes: registered.recoveryCodes.length });
    return recoveryCodesPage(reply, { codes: registered.recoveryCodes, next: safeNext(area, form.next), done: 'Your passkey is set up: PVS will ask for it each time you sign in.' });
  });
}

/** The recovery codes of a first enrolment, shown on this answer and never again. */
function recoveryCodesPage(reply: FastifyReply, options: { codes: string[]; next: string; done: string }) {
  const body = html`<div class="auth-card enrol-card">
<h1>Save your recovery codes</h1>
${notice('success', options.done)}
<p>If you lose your phone or your passkey, each of these codes signs you in once instead. Keep them somewhere safe, apart from your phone: they are shown only this once, and PVS keeps only what it needs to check them.</p>
<ol class="recovery-codes" id="recovery-codes" aria-label="Recovery codes">${options.codes.map((code) => html`
<li><code>${code}</code></li>`)}</ol>
<p><button type="button" class="button button-secondary" data-copy="recovery-codes" hidden>Copy</button></p>
<p><a class="button button-primary button-wide" href="${options.next}">I have saved them: continue</a></p>
</div>`;
  return sendPage(reply, { title: 'Save your recovery codes', body });
}
