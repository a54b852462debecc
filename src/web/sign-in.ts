// Signing in and out of a web area, and replacing the one-time password at the first sign-in. The sign-in
// form is protected from cross-site posting before any session exists by a random cookie and a token
// derived from it; once signed in, the session's own token protects every form (area.ts). The second
// factor that follows the password is second-factor.ts's; its enrolment, enrol-second-factor.ts's.
import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { newPasswordProblem } from '../modules/accounts/password-accounts.ts';
import { newPasswordMinLength } from '../modules/accounts/passwords.ts';
import { AppError } from '../platform/errors.ts';
import type { HttpApp } from '../platform/http/types.ts';
import { cookieOf, formOf, sendPage, sessionCookie, type AreaConfig } from './pages.ts';
import { html } from './html.ts';
import { sameToken } from './session/sessions.service.ts';
import { errorPage } from './error-page.ts';
import { throttledFor, throttledMessage } from './sign-in-throttle.ts';
import { errorSummary, field, notice, type FieldError } from './ui.ts';

const signInCookie = 'pvs_signin';

/** Where to go after signing in: only a page of this area, never another site (`//evil.example`). */
export function safeNext(area: string, next: unknown): string {
  if (typeof next !== 'string' || next.length > 500) return `/${area}`;
  const inArea = next === `/${area}` || next.startsWith(`/${area}/`) || next.startsWith(`/${area}?`);
  if (!inArea || next.includes('//') || next.includes('/.') || next.includes('\\') || next.startsWith(`/${area}/login`) || next.startsWith(`/${area}/logout`)) return `/${area}`;
  return next;
}

const cookieAttributes = (area: string) => `Path=/${area}; HttpOnly; Secure; SameSite=Lax`;

/** Puts the session's token in its cookie (and drops the sign-in form's cookie). */
export function setSessionCookie(reply: FastifyReply, area: string, token: string): void {
  reply.header('set-cookie', [`${sessionCookie(area as AreaConfig['area'])}=${token}; ${cookieAttributes(area)}`, `${signInCookie}=; ${cookieAttributes(`${area}/login`)}; Max-Age=0`]);
}

export function registerSignIn(app: HttpApp, config: AreaConfig): void {
  const { area, sessions, accounts } = config;

  function renderSignIn(reply: FastifyReply, options: { status?: number; email?: string; next?: string; errors?: FieldError[]; message?: string; signedOut?: boolean }) {
    const nonce = randomBytes(24).toString('base64url');
    reply.header('set-cookie', `${signInCookie}=${nonce}; ${cookieAttributes(`${area}/login`)}`);
    const body = html`<div class="auth-card">
<h1>Sign in to the ${config.title.toLowerCase()}</h1>
${options.signedOut ? notice('success', 'You have signed out.') : ''}
${options.message ? notice('error', options.message) : ''}
${errorSummary(options.errors ?? [])}
<form method="post" action="/${area}/login" class="form" novalidate>
<input type="hidden" name="_csrf" value="${sessions.signInCsrf(nonce)}">
<input type="hidden" name="next" value="${safeNext(area, options.next)}">
${field({ name: 'email', label: 'Email address', type: 'email', value: options.email, required: true, autocomplete: 'username', errors: options.errors })}
${field({ name: 'password', label: 'Password', type: 'password', required: true, autocomplete: 'current-password', errors: options.errors })}
<button type="submit" class="button button-primary button-wide">Sign in</button>
</form>
</div>`;
    return sendPage(reply, { title: 'Sign in', body, status: options.status });
  }

  const setSession = (reply: FastifyReply, token: string) => setSessionCookie(reply, area, token);

  app.get('/login', { config: { signedOut: true } }, async (request: FastifyRequest<{ Querystring: { next?: string; signedOut?: string } }>, reply) =>
    renderSignIn(reply, { next: request.query.next, signedOut: request.query.signedOut === '1' }),
  );

  app.post('/login', { config: { signedOut: true } }, async (request, reply) => {
    const form = formOf(request);
    const wait = throttledFor(config, request);
    if (wait > 0) return renderSignIn(reply, { status: 429, email: form.email, next: form.next, message: throttledMessage(reply, wait) });
    const nonce = cookieOf(request, signInCookie);
    if (!nonce || !sameToken((request.body as Record<string, unknown> | undefined)?._csrf as string | undefined, sessions.signInCsrfAccepted(nonce))) {
      return renderSignIn(reply, { status: 403, email: form.email, next: form.next, message: 'The sign-in form had expired. It has been reloaded: sign in again.' });
    }
    const errors: FieldError[] = [];
    if (!form.email?.trim()) errors.push({ name: 'email', message: 'Enter your email address' });
    if (!form.password) errors.push({ name: 'password', message: 'Enter your password' });
    if (errors.length > 0) return renderSignIn(reply, { status: 400, email: form.email, next: form.next, errors });

    let verified;
    try {
      verified = await accounts.verify({ email: form.email!, password: form.password! }, { allowOneTime: true });
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      if (error.code === 'RATE_LIMITED') {
        const minutes = Math.max(1, Math.ceil((error.retryAfter ?? 60) / 60));
        reply.header('retry-after', String(error.retryAfter ?? 60));
        return renderSignIn(reply, { status: 429, email: form.email, next: form.next, message: `Too many failed sign-ins: this account is locked. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.` });
      }
      return renderSignIn(reply, { status: 401, email: form.email, next: form.next, message: error.message === 'Unknown email or wrong password' ? 'The email address or the password is wrong.' : error.message });
    }
    if (!(await config.describe(verified.row))) {
      return renderSignIn(reply, { status: 403, email: form.email, next: form.next, message: 'This account cannot sign in: its partner is disabled.' });
    }
    const opened = await sessions.open(area, verified.row.id, { passwordChangeRequired: verified.mustChangePassword });
    // With a second factor the sign-in is recorded once the code is right too (second-factor.ts).
    if (!verified.row.second_factor_enrolled_at) await config.onSignIn?.(verified.row, 'SIGNED_IN');
    setSession(reply, opened.token);
    // The page asked for sends the session to the step it must still take (area.ts), keeping where it was going.
    return reply.redirect(verified.mustChangePassword ? `/${area}/password` : safeNext(area, form.next), 303);
  });

  function renderPasswordForm(reply: FastifyReply, errors: FieldError[] = []) {
    const viewer = reply.request.viewer!;
    const body = html`<div class="auth-card">
<h1>Choose your password</h1>
<p>You signed in with a one-time password. Choose a password of your own to continue: at least ${newPasswordMinLength} characters.</p>
${errorSummary(errors)}
<form method="post" action="/${area}/password" class="form" novalidate>
<input type="hidden" name="_csrf" value="${viewer.session.csrfToken}">
<input type="text" name="username" value="${viewer.email}" autocomplete="username" hidden>
${field({ name: 'newPassword', label: 'New password', type: 'password', required: true, autocomplete: 'new-password', hint: `At least ${newPasswordMinLength} characters.`, errors })}
${field({ name: 'confirmPassword', label: 'New password again', type: 'password', required: true, autocomplete: 'new-password', errors })}
<button type="submit" class="button button-primary button-wide">Save password and continue</button>
</form>
</div>`;
    return sendPage(reply, { title: 'Choose your password', body, status: errors.length > 0 ? 400 : 200 });
  }

  app.get('/password', { config: { passwordChange: true } }, async (request, reply) => {
    if (!request.viewer!.session.passwordChangeRequired) return reply.redirect(`/${area}`, 303);
    return renderPasswordForm(reply);
  });

  app.post('/password', { config: { passwordChange: true } }, async (request, reply) => {
    const viewer = request.viewer!;
    if (!viewer.session.passwordChangeRequired) return reply.redirect(`/${area}`, 303);
    const wait = throttledFor(config, request);
    if (wait > 0) return errorPage(reply, 429, 'Too many attempts', throttledMessage(reply, wait));
    const form = formOf(request);
    const newPassword = form.newPassword ?? '';
    const problem = newPasswordProblem(newPassword);
    const errors: FieldError[] = [];
    if (problem) errors.push({ name: 'newPassword', message: `The new password ${problem}` });
    else if (form.confirmPassword !== newPassword) errors.push({ name: 'confirmPassword', message: 'The two passwords are not the same' });
    if (errors.length === 0) {
      try {
        await accounts.replaceOneTimePassword(viewer.accountId, newPassword);
      } catch (error) {
        if (!(error instanceof AppError) || error.code !== 'VALIDATION_ERROR') throw error;
        errors.push({ name: 'newPassword', message: 'The new password must differ from the one-time password' });
      }
    }
    if (errors.length > 0) return renderPasswordForm(reply, errors);
    // A new session for the new password: the one opened with the one-time password ends here.
    await sessions.revokeAccounts(area, [viewer.accountId]);
    const opened = await sessions.open(area, viewer.accountId, { passwordChangeRequired: false, secondFactorAt: viewer.session.secondFactorAt });
    const account = await accounts.current(viewer.accountId);
    if (account) await config.onSignIn?.(account, 'PASSWORD_REPLACED');
    setSession(reply, opened.token);
    return reply.redirect(`/${area}`, 303);
  });

  app.post('/logout', { config: { passwordChange: true, secondFactor: true } }, async (request, reply) => {
    const viewer = request.viewer!;
    await sessions.revoke(viewer.session);
    const account = await accounts.current(viewer.accountId);
    if (account) await config.onSignIn?.(account, 'SIGNED_OUT');
    reply.header('set-cookie', `${sessionCookie(area)}=; ${cookieAttributes(area)}; Max-Age=0`);
    return reply.redirect(`/${area}/login?signedOut=1`, 303);
  });
}
