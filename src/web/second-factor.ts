// The second factor after the password, and the step-up: a code from the authenticator app, or one of
// the recovery codes, in one field. After the password it completes the sign-in (a new session token, so
// the one that knew only the password is worth nothing); for a step-up it refreshes the session's
// second factor before a page with evidence. Either way the reader goes on to the page they asked for.
import type { FastifyReply } from 'fastify';
import { AppError } from '../platform/errors.ts';
import type { HttpApp } from '../platform/http/types.ts';
import { html } from './html.ts';
import { formOf, sendPage, viewerOf, type AreaConfig } from './pages.ts';
import { safeNext, setSessionCookie } from './sign-in.ts';
import { stepPath } from './sign-in-steps.ts';
import { throttledFor, throttledMessage, tryAgainIn } from './sign-in-throttle.ts';
import { errorSummary, field, notice, type FieldError } from './ui.ts';

const wrongCode = 'The code is wrong. Enter the 6 digits your authenticator app shows now, or one of your recovery codes.';
const replayedCode = 'That code has been used already. Wait for your app to show the next one (a new code every 30 seconds), then enter it.';

/** Where the console sends a reader before a page with evidence when their second factor is stale. */
export function stepUpPath(area: string, next: string): string {
  return `/${area}/second-factor?stepUp=1&next=${encodeURIComponent(next)}`;
}

export function registerSecondFactor(app: HttpApp, config: AreaConfig): void {
  const { area, sessions } = config;

  function renderCodeForm(reply: FastifyReply, options: { next?: string; stepUp: boolean; status?: number; errors?: FieldError[]; message?: string }) {
    const viewer = viewerOf(reply.request);
    const signingIn = viewer.pendingStep === 'second-factor';
    const title = signingIn ? 'Enter your code' : 'Confirm it’s you';
    const lead = signingIn
      ? html`Open the authenticator app you set up for PVS and enter the 6-digit code it shows for <strong>${viewer.email}</strong>.`
      : html`The page you asked for shows identity documents or screening evidence. Enter the code your authenticator app shows now${
          config.stepUpMinutes ? html`: it is asked again when your last code is more than ${config.stepUpMinutes} minutes old` : ''
        }.`;
    const body = html`<div class="auth-card">
<h1>${title}</h1>
${options.message ? notice('error', options.message) : ''}
${errorSummary(options.errors ?? [])}
<p>${lead}</p>
<form method="post" action="/${area}/second-factor" class="form" novalidate>
<input type="hidden" name="_csrf" value="${viewer.session.csrfToken}">
<input type="hidden" name="next" value="${safeNext(area, options.next)}">
${options.stepUp ? html`<input type="hidden" name="stepUp" value="1">` : ''}
${field({
  name: 'code',
  label: 'Code',
  required: true,
  autocomplete: 'one-time-code',
  size: 'short',
  hint: 'Lost your phone? Enter one of the recovery codes you saved instead.',
  errors: options.errors,
})}
<button type="submit" class="button button-primary button-wide">${signingIn ? 'Sign in' : 'Continue'}</button>
</form>
</div>`;
    return sendPage(reply, { title, body, status: options.status });
  }

  app.get<{ Querystring: { next?: string; stepUp?: string } }>('/second-factor', { config: { secondFactor: true } }, async (request, reply) => {
    const viewer = viewerOf(request);
    if (viewer.pendingStep === 'enrol') return reply.redirect(stepPath(area, 'enrol'), 303);
    const account = await config.accounts.current(viewer.accountId);
    // Nothing to check: no factor to ask for (a portal user who has none and need not have one).
    if (!account?.totp_enrolled_at) return reply.redirect(safeNext(area, request.query.next), 303);
    return renderCodeForm(reply, { next: request.query.next, stepUp: request.query.stepUp === '1' });
  });

  app.post('/second-factor', { config: { secondFactor: true } }, async (request, reply) => {
    const viewer = viewerOf(request);
    const form = formOf(request);
    const stepUp = form.stepUp === '1';
    const wait = throttledFor(config, request);
    if (wait > 0) return renderCodeForm(reply, { next: form.next, stepUp, status: 429, message: throttledMessage(reply, wait) });
    if (!form.code?.trim()) return renderCodeForm(reply, { next: form.next, stepUp, status: 400, errors: [{ name: 'code', message: 'Enter the code your authenticator app shows' }] });

    let checked;
    try {
      checked = await config.factors.verify(viewer.accountId, form.code);
    } catch (error) {
      if (!(error instanceof AppError) || error.code !== 'RATE_LIMITED') throw error;
      const seconds = error.retryAfter ?? 60;
      reply.header('retry-after', String(seconds));
      return renderCodeForm(reply, { next: form.next, stepUp, status: 429, message: `Too many wrong codes: this account is locked. Try again in ${tryAgainIn(seconds)}.` });
    }
    if (!checked.ok) {
      if (checked.reason === 'NOT_ENROLLED') return reply.redirect(safeNext(area, form.next), 303);
      return renderCodeForm(reply, { next: form.next, stepUp, status: 400, errors: [{ name: 'code', message: checked.reason === 'REPLAYED' ? replayedCode : wrongCode }] });
    }

    const account = await config.accounts.current(viewer.accountId);
    const detail = { secondFactor: checked.method };
    if (viewer.pendingStep === 'second-factor') {
      // The sign-in is complete: a new token, so the one issued after the password alone opens nothing.
      await sessions.revoke(viewer.session);
      const opened = await sessions.open(area, viewer.accountId, { passwordChangeRequired: false });
      await sessions.markSecondFactor(opened.session);
      setSessionCookie(reply, area, opened.token);
      if (account) await config.onSignIn?.(account, 'SIGNED_IN', detail);
    } else {
      await sessions.markSecondFactor(viewer.session);
      if (account) await config.onSignIn?.(account, 'STEPPED_UP', detail);
    }
    if (checked.method === 'RECOVERY_CODE') {
      if (account) await config.onSignIn?.(account, 'RECOVERY_CODE_USED', { recoveryCodesLeft: checked.recoveryCodesLeft });
      return recoveryCodeUsed(reply, safeNext(area, form.next), checked.recoveryCodesLeft);
    }
    return reply.redirect(safeNext(area, form.next), 303);
  });

  /** After a recovery code: how many are left, and what to do about a lost phone, before going on. */
  function recoveryCodeUsed(reply: FastifyReply, next: string, left: number) {
    const body = html`<div class="auth-card">
<h1>Recovery code accepted</h1>
${notice('info', html`That recovery code is now used up. You have <strong>${left}</strong> left.`)}
<p>If you have lost the phone with your authenticator app, ask ${area === 'console' ? 'a PVS administrator' : 'PVS'} to reset your second factor, and set up a new one at your next sign-in.</p>
<p><a class="button button-primary button-wide" href="${next}">Continue</a></p>
</div>`;
    return sendPage(reply, { title: 'Recovery code accepted', body });
  }
}
