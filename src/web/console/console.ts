// The operator console at /console: PVS's own operators, across partners. Decisions go through the same
// services as the /ops/v1 API, and every decision and change is written to the audit log.
import type { HttpApp } from '../../platform/http/types.ts';
import { webArea } from '../area.ts';
import type { NavItem } from '../shell.ts';
import { registerAccountPage } from './account-page.ts';
import { registerAlertPages } from './alert-pages.ts';
import type { ConsoleDeps } from './console-deps.ts';
import { registerAuditPages } from './audit-pages.ts';
import { registerPartnerPages } from './partner-pages.ts';
import { registerReviewPages } from './review-pages.ts';

export const consoleNav: NavItem[] = [
  { key: 'reviews', label: 'Review queue', href: '/console' },
  { key: 'alerts', label: 'Monitoring alerts', href: '/console/alerts' },
  { key: 'partners', label: 'Partners', href: '/console/partners' },
  { key: 'evidence-reads', label: 'Evidence reads', href: '/console/evidence-reads' },
  { key: 'audit', label: 'Audit log', href: '/console/audit' },
  { key: 'account', label: 'Your account', href: '/console/account' },
];

export type { ConsoleDeps };

export function consoleArea(deps: ConsoleDeps) {
  return webArea(
    {
      area: 'console',
      title: 'Operator console',
      sessions: deps.webSessions,
      accounts: deps.operators.accounts,
      nav: consoleNav,
      describe: async () => ({}),
      factors: deps.operatorFactors,
      // Operators see every partner's people: none signs in without a second factor.
      requiresSecondFactor: async () => true,
      stepUpMinutes: deps.config.MFA_STEP_UP_MINUTES,
      signInLimiter: deps.signInLimiter,
      async onSignIn(account, event, detail) {
        await deps.audit.record({ actor: { kind: 'OPERATOR', id: account.id, email: account.email }, action: `session.${event.toLowerCase()}`, detail });
      },
    },
    (app: HttpApp) => {
      registerReviewPages(app, deps);
      registerAlertPages(app, deps);
      registerPartnerPages(app, deps);
      registerAuditPages(app, deps);
      registerAccountPage(app, deps);
    },
  );
}
