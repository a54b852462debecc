// The second factor after the password, and the step-up: one of the account's passkeys, or a code from
// the authenticator app or one of the recovery codes, in one field. After the password it completes the
// sign-in (a new session token, so the one that knew only the password is worth nothing); for a step-up
// it refreshes the session's second factor before a page with evidence. Either way the reader goes on to
// the page they asked for.
import type { FastifyReply } from 'fastify';
import { AppError } from '../platform/errors.ts';
import type { HttpApp } from '../platform/http/types.ts';
import { html } from './html.ts';
import { formOf, sendPage, viewerOf, type AreaConfig, type Viewer } from './pages.ts';
import { passkeyScripts, passkeySignInForm } from './passkey-forms.ts';
import { safeNext, setSessionCookie } from './sign-in.ts';
import { stepPath } from './sign-in-steps.ts';
import { throttledFor, throttledMessage, tryAgainIn } from './sign-in-throttle.ts';
import { errorSummary, field, notice, type FieldError } from './ui.ts';

const wrongCode = 'The code is wrong. Enter the 6 digits your authenticator app shows now, or one of your recovery codes.';
const wrongPasskey = 'That passkey could not be checked: it is not one set up for this account, or it took too long. Try again, or enter a code.';
const replayedCode = 'That code has been used already. Wait for your app to show the next one (a new code every 30 seconds), then enter it.';

/** Where the console sends a reader before a page with evidence when their second factor is stale. */
/** Runs a second-factor check; while the account is locked (RATE_LIMITED) answers how long to wait instead. */
async function unlessLocked<T>(check: () => Promise<T>): Promise<T | { lockedFor: number }> {
  try {
    return await check();
  } catch (error) {
    if (!(error instanceof AppError) || error.code !== 'RATE_LIMITED') throw error;
    return { lockedFor: error.retryAfter ?? 60 };
  }
}

export function stepUpPath(area: string, next: string): string {
  return `/${area}/second-factor?stepUp=1&next=${encodeURIComponent(next)}`;
}

export function registerSecondFactor(app: HttpApp, config: AreaConfig): void {
  const { area, sessions } = config;

  /** The code form saying the account is locked, with Retry-After: `what` is what locked it. */
  function renderLocked(reply: FastifyReply, options: { next?: string; stepUp: boolean }, what: string, seconds: number) {
    reply.header('retry-after', String(seconds));
    return renderCodeForm(reply, { ...options, status: 429, message: `${what}: this account is locked. Try again in ${tryAgainIn(seconds)}.` });
  }

  async function renderCodeForm(reply: FastifyReply, options: { next?: string; stepUp: boolean; status?: number; errors?: FieldError[]; message?: string }) {
    const viewer = viewerOf(reply.request);
    const signingIn = viewer.pendingStep === 'second-factor';
    const account = await config.accounts.current(viewer.accountId);
    const hasApp = Boolean(account?.totp_enrolled_at);
    const passkeyForm = await passkeySignInForm(config, viewer, { next: options.next, stepUp: options.stepUp, label: signingIn ? 'Sign in with your passkey' : 'Continue with your passkey' });
    const title = !signingIn ? 'Confirm it’s you' : passkeyForm ? 'Use your passkey' : 'Enter your code';
    const what = passkeyForm ? (hasApp ? 'your passkey, or the code your authenticator app shows now' : 'your passkey') : 'the code your authenticator app shows now';
    const lead = signingIn
      ? passkeyForm
        ? html`Use the passkey you set up for PVS (your device’s fingerprint, face or screen lock, or your security key) to sign in as <strong>${viewer.email}</strong>.`
        : html`Open the authenticator app you set up for PVS and enter the 6-digit code it shows for <strong>${viewer.email}</strong>.`
      : html`The page you asked for shows identity documents or screening evidence. Use ${what}${
          config.stepUpMinutes ? html`: it is asked again when your last code is more than ${config.stepUpMinutes} minutes old` : ''
        }.`;
    const codeForm = html`<form method="post" action="/${area}/second-factor" class="form" novalidate>
<input type="hidden" name="_csrf" value="${viewer.session.csrfToken}">
<input type="hidden" name="next" value="${safeNext(area, options.next)}">
${options.stepUp ? html`<input type="hidden" name="stepUp" value="1">` : ''}
${field({
  name: 'code',
  label: 'Code',
  required: true,
  autocomplete: 'one-time-code',
  size: 'short',
  hint: hasApp ? 'Lost your phone? Enter one of the recovery codes you saved instead.' : 'Cannot use your passkey? Enter one of the recovery codes you saved.',
  errors: options.errors,
})}
<button type="submit" class="button ${passkeyForm ? 'button-secondary' : 'button-primary'} button-wide">${signingIn ? 'Sign in' : 'Continue'}${passkeyForm ? ' with the code' : ''}</button>
</form>`;
    const body = html`<div class="auth-card">
<h1>${title}</h1>
${options.message ? notice('error', options.message) : ''}
${errorSummary(options.errors ?? [])}
<p>${lead}</p>
${passkeyForm ? html`${passkeyForm}
<h2 class="auth-divider" data-passkey-part hidden>Or enter a code</h2>` : ''}
${codeForm}
</div>`;
    return sendPage(reply, { title, body, status: options.status, scripts: passkeyForm ? passkeyScripts : undefined });
  }

  app.get<{ Querystring: { next?: string; stepUp?: string } }>('/second-factor', { config: { secondFactor: true } }, async (request, reply) => {
    const viewer = viewerOf(request);
    if (viewer.pendingStep === 'enrol') return reply.redirect(stepPath(area, 'enrol'), 303);
    const account = await config.accounts.current(viewer.accountId);
    // Nothing to check: no factor to ask for (a portal user who has none and need not have one).
    if (!account?.second_factor_enrolled_at) return reply.redirect(safeNext(area, request.query.next), 303);
    return renderCodeForm(reply, { next: request.query.next, stepUp: request.query.stepUp === '1' });
  });

  app.post('/second-factor', { config: { secondFactor: true } }, async (request, reply) => {
    const viewer = viewerOf(request);
    const form = formOf(request);
    const stepUp = form.stepUp === '1';
    const wait = throttledFor(config, request);
    if (wait > 0) return renderCodeForm(reply, { next: form.next, stepUp, status: 429, message: throttledMessage(reply, wait) });
    if (!form.code?.trim()) return renderCodeForm(reply, { next: form.next, stepUp, status: 400, errors: [{ name: 'code', message: 'Enter the code your authenticator app shows' }] });

    const checked = await unlessLocked(() => config.factors.verify(viewer.accountId, form.code!));
    if ('lockedFor' in checked) return renderLocked(reply, { next: form.next, stepUp }, 'Too many wrong codes', checked.lockedFor);
    if (!checked.ok) {
      if (checked.reason === 'NOT_ENROLLED') return reply.redirect(safeNext(area, form.next), 303);
      return renderCodeForm(reply, { next: form.next, stepUp, status: 400, errors: [{ name: 'code', message: checked.reason === 'REPLAYED' ? replayedCode : wrongCode }] });
    }

    await completeSecondFactor(reply, viewer, { secondFactor: checked.method });
    if (checked.method === 'RECOVERY_CODE') {
      const account = await config.accounts.current(viewer.accountId);
      if (account) await config.onSignIn?.(account, 'RECOVERY_CODE_USED', { recoveryCodesLeft: checked.recoveryCodesLeft });
      return recoveryCodeUsed(reply, safeNext(area, form.next), checked.recoveryCodesLeft);
    }
    return reply.redirect(safeNext(area, form.next), 303);
  });

  // A passkey's answer (assets/passkeys.js): checked against the challenge this session was given, which
  // it takes (used once); refused like a wrong code, and counted toward the lockout.
  app.post('/second-factor/passkey', { config: { secondFactor: true } }, async (request, reply) => {
    const viewer = viewerOf(request);
    const form = formOf(request);
    const stepUp = form.stepUp === '1';
    const wait = throttledFor(config, request);
    if (wait > 0) return renderCodeForm(reply, { next: form.next, stepUp, status: 429, message: throttledMessage(reply, wait) });
    const challenge = await sessions.takeChallenge(viewer.session, 'AUTHENTICATE');
    const checked = await unlessLocked(() => config.factors.passkeys.verify(viewer.accountId, { response: form.response, challenge }));
    if ('lockedFor' in checked) return renderLocked(reply, { next: form.next, stepUp }, 'Too many failed attempts', checked.lockedFor);
    if (!checked.ok) {
      if (checked.reason === 'NOT_ENROLLED') return reply.redirect(safeNext(area, form.next), 303);
      return renderCodeForm(reply, { next: form.next, stepUp, status: 400, message: wrongPasskey });
    }
    await completeSecondFactor(reply, viewer, { secondFactor: checked.method, passkeyId: checked.passkeyId });
    return reply.redirect(safeNext(area, form.next), 303);
  });

  /**
   * A right second factor, whichever: after the password the sign-in is complete (a new token, so the
   * one issued after the password alone opens nothing); for a step-up the session's factor is now.
   */
  async function completeSecondFactor(reply: FastifyReply, viewer: Viewer, detail: Record<string, unknown>) {
    const account = await config.accounts.current(viewer.accountId);
    if (viewer.pendingStep === 'second-factor') {
      await sessions.revoke(viewer.session);
      const opened = await sessions.open(area, viewer.accountId, { passwordChangeRequired: false });
      await sessions.markSecondFactor(opened.session);
      setSessionCookie(reply, area, opened.token);
      if (account) await config.onSignIn?.(account, 'SIGNED_IN', detail);
    } else {
      await sessions.markSecondFactor(viewer.session);
      if (account) await config.onSignIn?.(account, 'STEPPED_UP', detail);
    }
  }

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
