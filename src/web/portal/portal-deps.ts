// What the portal's pages use (portal.ts registers them). Apart from portal.ts so a page can name it.
import type { AuditService } from '../../modules/audit/audit.service.ts';
import type { PortalUserService } from '../../modules/accounts/portal-users.service.ts';
import type { PartnerService } from '../../modules/partners/partners.service.ts';
import type { Services } from '../../services.ts';
import type { SessionService } from '../session/sessions.service.ts';

/** What the portal's pages use: the partner-facing services, the same ones the /v1 API calls. */
export type PortalDeps = Pick<
  Services,
  | 'apiClients'
  | 'destinations'
  | 'notifications'
  | 'lookups'
  | 'verifications'
  | 'deeds'
  | 'payments'
  | 'contacts'
  | 'charges'
  | 'cardLinks'
  | 'monitoringAlerts'
  | 'db'
  | 'clock'
  | 'idempotency'
  | 'portalUserFactors'
  | 'signInLimiter'
> & { partners: Pick<PartnerService, 'standing' | 'getOwn'>; portalUsers: PortalUserService; webSessions: SessionService; audit: AuditService };
