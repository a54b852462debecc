// The passkeys part of an account page (the portal's and the console's): the account's passkeys, a form
// to add another, and a button to remove each, except the account's last second factor (a reset is an
// administrator's: `pvs operator reset-mfa`). Adding goes through enrol-second-factor.ts's route.
import type { FastifyRequest } from 'fastify';
import type { HttpApp } from '../platform/http/types.ts';
import { html, type Html } from './html.ts';
import { formOf, viewerOf, type AreaConfig } from './pages.ts';
import { passkeyRegisterForm } from './passkey-forms.ts';
import { notice, table, when } from './ui.ts';

const outcomes: Record<string, Html> = {
  added: notice('success', 'Your passkey is set up: you can use it the next time you sign in.'),
  removed: notice('success', 'The passkey was removed: it no longer signs you in.'),
  refused: notice('error', 'The passkey could not be set up: it was not made for this page, or it took too long. Try again.'),
  registered: notice('error', 'That passkey is set up already. Use another device or security key.'),
  last: notice('error', 'That passkey is your only second factor, so it stays. Add another passkey first, or ask for your second factor to be reset.'),
};

/** The account page's passkeys, with the outcome of the last change (`?passkey=`). */
export async function passkeysPart(config: Pick<AreaConfig, 'area' | 'factors' | 'sessions'>, request: FastifyRequest<{ Querystring: { passkey?: string } }>): Promise<Html> {
  const viewer = viewerOf(request);
  const passkeys = await config.factors.passkeys.list(viewer.accountId);
  const outcome = typeof request.query.passkey === 'string' ? outcomes[request.query.passkey] : undefined;
  const list = table({
    caption: 'Your passkeys',
    captionHidden: true,
    empty: 'No passkeys yet.',
    rows: passkeys,
    columns: [
      { label: 'Name', cell: (p) => p.name },
      { label: 'Set up', cell: (p) => when(p.createdAt) },
      { label: 'Last used', cell: (p) => (p.lastUsedAt ? when(p.lastUsedAt) : html`<span class="muted">Not yet</span>`) },
      {
        label: 'Remove',
        // Its own form per passkey; the button names which, for a screen reader going through the buttons.
        cell: (p) => html`<form method="post" action="/${config.area}/second-factor/passkey/remove" class="inline-form" data-confirm="${`Remove the passkey “${p.name}”? It will no longer sign you in.`}">
<input type="hidden" name="_csrf" value="${viewer.session.csrfToken}">
<input type="hidden" name="passkey" value="${p.id}">
<button type="submit" class="button button-secondary">Remove<span class="visually-hidden"> ${p.name}</span></button>
</form>`,
      },
    ],
  });
  return html`${outcome ?? ''}${list}
<div data-passkey-part hidden>
<h3>Add a passkey</h3>
<p>Your device’s fingerprint, face or screen lock, or a security key, instead of a code.</p>
${await passkeyRegisterForm(config, viewer, { next: `/${config.area}/account`, label: 'Add a passkey' })}
</div>`;
}

export function registerPasskeyRemoval(app: HttpApp, config: AreaConfig): void {
  app.post('/second-factor/passkey/remove', async (request, reply) => {
    const viewer = viewerOf(request);
    const removed = await config.factors.passkeys.remove(viewer.accountId, formOf(request).passkey ?? '');
    if (!removed.ok) return reply.redirect(`/${config.area}/account${removed.reason === 'LAST_FACTOR' ? '?passkey=last' : ''}`, 303);
    const account = await config.accounts.current(viewer.accountId);
    if (account) await config.onSignIn?.(account, 'PASSKEY_REMOVED', { passkeyId: removed.passkey.id, name: removed.passkey.name });
    return reply.redirect(`/${config.area}/account?passkey=removed`, 303);
  });
}
