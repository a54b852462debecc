// The signed-in operator's own account: who they are, and their second factors. Every operator enrolled
// one at their first sign-in (area.ts); here they add or remove passkeys. Removing the last factor, or
// the authenticator app, is an administrator's reset (`pvs operator reset-mfa`), never a page's.
import type { FastifyRequest } from 'fastify';
import type { HttpApp } from '../../platform/http/types.ts';
import { passkeysPart } from '../account-passkeys.ts';
import { sendPage, viewerOf } from '../area.ts';
import { html } from '../html.ts';
import { passkeyScripts } from '../passkey-forms.ts';
import { details, pageHeader, section, when } from '../ui.ts';
import type { ConsoleDeps } from './console-deps.ts';

export function registerAccountPage(app: HttpApp, deps: ConsoleDeps): void {
  app.get('/account', async (request: FastifyRequest<{ Querystring: { passkey?: string } }>, reply) => {
    const viewer = viewerOf(request);
    const account = (await deps.operators.accounts.current(viewer.accountId))!;
    const left = await deps.operatorFactors.recoveryCodesLeft(account.id);
    const factor = html`${details([
      ['Authenticator app', account.totp_enrolled_at ? html`Set up on ${when(account.totp_enrolled_at)}` : 'Not set up'],
      ['Recovery codes', `${left} recovery code${left === 1 ? '' : 's'} left`],
    ])}
<p class="hint">To move to a new phone, or if you have lost your factors and your recovery codes, ask a PVS administrator to reset your second factor; you then set one up again at your next sign-in.</p>`;
    const body = html`${pageHeader('Your account', { lead: 'How you sign in to the console.' })}
<div class="grid">
${section('You', details([
  ['Email', account.email],
  ['Password changed', when(account.password_changed_at)],
]))}
${section('Second factor', factor)}
</div>
${section('Passkeys', await passkeysPart({ area: 'console', factors: deps.operatorFactors, sessions: deps.webSessions }, request))}`;
    return sendPage(reply, { title: 'Your account', current: 'account', body, scripts: passkeyScripts });
  });
}
