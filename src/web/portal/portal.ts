// The partner portal at /portal: a partner's staff sign in and see their own partner's data only. Every
// page takes the tenant from the session (tenantOfViewer), never from the URL, so another partner's id
// in an address answers 404 like an id that does not exist.
import type { HttpApp } from '../../platform/http/types.ts';
import { tenantOf } from '../../platform/tenancy.ts';
import { webArea } from '../area.ts';
import type { NavItem } from '../shell.ts';
import { registerAccountPage } from './account-page.ts';
import { registerApiClientPages } from './api-client-pages.ts';
import { registerDashboardPage } from './dashboard-page.ts';
import { registerDeliveryPages } from './delivery-pages.ts';
import type { PortalDeps } from './portal-deps.ts';
import { registerDestinationPages } from './destination-pages.ts';
import { registerActivityPages } from './activity-pages.ts';
import { registerVerificationPages } from './verification-pages.ts';

export const portalNav: NavItem[] = [
  { key: 'dashboard', label: 'Overview', href: '/portal' },
  { key: 'api-clients', label: 'API clients', href: '/portal/api-clients' },
  { key: 'destinations', label: 'Webhook destinations', href: '/portal/destinations' },
  { key: 'deliveries', label: 'Deliveries', href: '/portal/deliveries' },
  { key: 'lookups', label: 'Business lookups', href: '/portal/lookups' },
  { key: 'verifications', label: 'Verifications', href: '/portal/verifications' },
  { key: 'deed-analyses', label: 'Deed analyses', href: '/portal/deed-analyses' },
  { key: 'payments', label: 'Payments', href: '/portal/payments' },
  { key: 'contacts', label: 'Contacts', href: '/portal/contacts' },
  { key: 'account', label: 'Your account', href: '/portal/account' },
];

export type { PortalDeps };

export function portalArea(deps: PortalDeps) {
  return webArea(
    {
      area: 'portal',
      title: 'Partner portal',
      sessions: deps.webSessions,
      accounts: deps.portalUsers.accounts,
      nav: portalNav,
      async describe(account) {
        const tenant = tenantOf(account.partner_id!);
        const standing = await deps.partners.standing(tenant);
        return standing && !standing.disabled ? { tenant, partnerName: standing.name } : undefined;
      },
      factors: deps.portalUserFactors,
      // The partner decides (a console setting); a portal user may enrol anyway, from their account page.
      requiresSecondFactor: (account) => deps.portalUsers.requiresSecondFactor(account.partner_id!),
      signInLimiter: deps.signInLimiter,
      async onSignIn(account, event, detail) {
        await deps.audit.record({ actor: { kind: 'PORTAL_USER', id: account.id, email: account.email }, partnerId: account.partner_id, action: `session.${event.toLowerCase()}`, detail });
      },
    },
    (app: HttpApp) => {
      registerDashboardPage(app, deps);
      registerApiClientPages(app, deps);
      registerDestinationPages(app, deps);
      registerDeliveryPages(app, deps);
      registerActivityPages(app, deps);
      registerVerificationPages(app, deps);
      registerAccountPage(app, deps);
    },
  );
}
