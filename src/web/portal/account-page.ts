// The signed-in portal user's own account: who they are, and their second factors. A portal user may set
// up a passkey or an authenticator app here whenever they choose, and add or remove passkeys once they
// have a factor; when their partner requires one they were asked to before any page opened (area.ts).
// Removing the last factor is an administrator's reset, never a page's.
import type { FastifyRequest } from 'fastify';
import type { HttpApp } from '../../platform/http/types.ts';
import { passkeysPart } from '../account-passkeys.ts';
import { passkeyScripts } from '../passkey-forms.ts';
import { sendPage, viewerOf } from '../area.ts';
import { html } from '../html.ts';
import { details, pageHeader, section, when } from '../ui.ts';
import type { PortalDeps } from './portal-deps.ts';

export function registerAccountPage(app: HttpApp, deps: PortalDeps): void {
  app.get('/account', async (request: FastifyRequest<{ Querystring: { passkey?: string } }>, reply) => {
    const viewer = viewerOf(request);
    const account = (await deps.portalUsers.accounts.current(viewer.accountId))!;
    const required = await deps.portalUsers.requiresSecondFactor(account.partner_id!);
    const enrolled = account.second_factor_enrolled_at;
    const left = enrolled ? await deps.portalUserFactors.recoveryCodesLeft(account.id) : 0;
    const factor = enrolled
      ? html`${details([
          ['Authenticator app', account.totp_enrolled_at ? html`Set up on ${when(account.totp_enrolled_at)}` : 'Not set up'],
          ['Recovery codes', `${left} recovery code${left === 1 ? '' : 's'} left`],
        ])}
<p class="hint">To move to a new phone, or if you have lost yours and your recovery codes, ask PVS to reset your second factor; you then set it up again at your next sign-in.</p>`
      : html`${details([['Second factor', 'Not set up']])}
<p>A second factor protects your sign-in: after your password, PVS asks for a passkey or a code from an authenticator app on your phone.${required ? ` ${viewer.partnerName ?? 'Your organisation'} requires it.` : ''}</p>
<p><a class="button button-primary" href="/portal/second-factor/enrol?next=%2Fportal%2Faccount">Set up a second factor</a></p>`;
    const body = html`${pageHeader('Your account', { lead: 'How you sign in to the portal.' })}
<div class="grid">
${section('You', details([
  ['Email', account.email],
  ['Partner', viewer.partnerName],
  ['Password changed', when(account.password_changed_at)],
]))}
${section('Second factor', factor)}
</div>
${enrolled ? section('Passkeys', await passkeysPart({ area: 'portal', factors: deps.portalUserFactors, sessions: deps.webSessions }, request)) : ''}`;
    return sendPage(reply, { title: 'Your account', current: 'account', body, scripts: enrolled ? passkeyScripts : undefined });
  });
}
