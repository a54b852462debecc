// What the console's pages use (console.ts registers them): the services behind the /ops/v1 API, the
// operators' accounts, second factors and sessions, and the audit log. Apart from console.ts so a page can name it.
import type { AuditService } from '../../modules/audit/audit.service.ts';
import type { OperatorService } from '../../modules/operators/operators.service.ts';
import type { Services } from '../../services.ts';
import type { SessionService } from '../session/sessions.service.ts';

export type ConsoleDeps = Pick<
  Services,
  'verifications' | 'verificationChecks' | 'evidence' | 'monitoringAlerts' | 'partners' | 'portalUsers' | 'db' | 'clock' | 'settings' | 'operatorFactors' | 'signInLimiter'
> & { config: Pick<Services['config'], 'MFA_STEP_UP_MINUTES'> } & { operators: OperatorService; webSessions: SessionService; audit: AuditService };
