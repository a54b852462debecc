// Enrolling a second factor: an authenticator app (TOTP). The secret is shown as a QR code, drawn here
// on the server (qrcode, loaded at the first enrolment), and as text for whoever cannot scan; the person
// confirms with a code the app then shows. Ten recovery codes follow, shown on that answer and never
// again (no redirect: they are in no URL, and sending the form again only finds the factor enrolled).
// Operators enrol before anything else at their first sign-in; a portal user when their partner requires
// it, or whenever they choose to, from their account page.
import type { FastifyReply } from 'fastify';
import { groupedSecret } from '../modules/accounts/totp.ts';
import type { HttpApp } from '../platform/http/types.ts';
import { html } from './html.ts';
import { formOf, sendPage, viewerOf, type AreaConfig } from './pages.ts';
import { safeNext } from './sign-in.ts';
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
    const why =
      area === 'console'
        ? 'Every operator signs in with a second factor: a code from an authenticator app on your phone as well as your password. Set it up now to continue.'
        : required
          ? `${viewer.partnerName ?? 'Your organisation'} requires a second factor of everyone who signs in to its portal: a code from an authenticator app on your phone as well as your password. Set it up now to continue.`
          : 'A second factor protects your sign-in: a code from an authenticator app on your phone as well as your password.';
    const body = html`<div class="auth-card enrol-card">
<h1>Set up your authenticator app</h1>
${options.message ? notice('error', options.message) : ''}
${errorSummary(options.errors ?? [])}
<p>${why} Any authenticator app works (Google Authenticator, Microsoft Authenticator, 1Password, Aegis and others).</p>
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
${required ? '' : html`<p><a href="/${area}/account">Not now</a></p>`}
</div>`;
    return sendPage(reply, { title: 'Set up your authenticator app', body, status: options.status });
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
    const body = html`<div class="auth-card enrol-card">
<h1>Save your recovery codes</h1>
${notice('success', 'Your authenticator app is set up: PVS will ask for a code from it each time you sign in.')}
<p>If you lose the phone with the app, each of these codes signs you in once instead of a code from the app. Keep them somewhere safe, apart from your phone: they are shown only this once, and PVS keeps only what it needs to check them.</p>
<ol class="recovery-codes" id="recovery-codes" aria-label="Recovery codes">${confirmed.recoveryCodes.map((code) => html`
<li><code>${code}</code></li>`)}</ol>
<p><button type="button" class="button button-secondary" data-copy="recovery-codes" hidden>Copy</button></p>
<p><a class="button button-primary button-wide" href="${safeNext(area, form.next)}">I have saved them: continue</a></p>
</div>`;
    return sendPage(reply, { title: 'Save your recovery codes', body });
  });
}
