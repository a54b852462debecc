// What the composition root (services.ts) answers: every service by name, for app.ts, the web areas, the
// admin commands, the CLI and the tests. Apart from services.ts so that file stays the wiring alone.
import type { KeyRing } from './platform/keys/key-ring.ts';
import type { Config } from './config.ts';
import type { ApiClientService } from './modules/partners/api-clients.service.ts';
import type { AlertService } from './modules/monitoring/alerts.service.ts';
import type { AuditService } from './modules/audit/audit.service.ts';
import type { BillingRunService } from './modules/billing/billing-runs.service.ts';
import type { CardLinkService } from './modules/billing/card-links.service.ts';
import type { ChargeService } from './modules/billing/charges.service.ts';
import type { ContactService } from './modules/billing/contacts.service.ts';
import type { DeedProcessingService } from './modules/deeds/deed-processing.service.ts';
import type { DeedService } from './modules/deeds/deeds.service.ts';
import type { DestinationService } from './modules/webhooks/destinations.service.ts';
import type { Dispatcher, DispatcherOptions } from './modules/webhooks/dispatcher.ts';
import type { EvidenceService } from './modules/verifications/evidence.service.ts';
import type { LookupService } from './modules/lookups/lookups.service.ts';
import type { NotificationService } from './modules/webhooks/notifications.service.ts';
import type { OperatorService } from './modules/operators/operators.service.ts';
import type { PartnerService } from './modules/partners/partners.service.ts';
import type { PaymentLinkService } from './modules/payments/payment-links.service.ts';
import type { PaymentService } from './modules/payments/payments.service.ts';
import type { PortalUserService } from './modules/accounts/portal-users.service.ts';
import type { SecondFactors } from './modules/accounts/second-factors.ts';
import type { ReportService } from './modules/verifications/reports/reports.service.ts';
import type { RescreenService } from './modules/monitoring/rescreen.service.ts';
import type { RuntimeSettings } from './modules/settings/runtime-settings.ts';
import type { ScreeningService } from './modules/screening/screening.service.ts';
import type { SigningKeys } from './modules/auth/signing-keys.ts';
import type { SubscriptionService } from './modules/monitoring/subscriptions.service.ts';
import type { TokenService } from './modules/auth/tokens.service.ts';
import type { VerificationCheckService } from './modules/verifications/verification-checks.service.ts';
import type { VerificationService } from './modules/verifications/verifications.service.ts';
import type { VerificationSessionService } from './modules/verifications/verification-sessions.service.ts';
import type { Clock } from './platform/clock.ts';
import type { Database } from './platform/db/database.ts';
import type { Idempotency } from './platform/http/idempotency.ts';
import type { JobDefinition } from './platform/jobs/job.ts';
import type { JobQueue } from './platform/jobs/queue.ts';
import type { Worker } from './platform/jobs/worker.ts';
import type { Logger } from './platform/logger.ts';
import type { Metrics } from './platform/metrics/metrics.ts';
import type { ModuleRoutes } from './platform/module.ts';
import type { Outbox } from './platform/outbox.ts';
import type { RateLimiter } from './platform/rate-limit.ts';
import type { PaymentGateway } from './providers/gateway/gateway.ts';
import type { IdentityProvider } from './providers/identity/identity-provider.ts';
import type { Registers } from './providers/register/index.ts';
import type { DocumentStorage } from './providers/storage/storage.ts';
import type { SessionService } from './web/session/sessions.service.ts';

/** The modules that have routes; app.ts registers them in the order the API's document lists them. */
export type RoutedModule =
  | 'system'
  | 'auth'
  | 'partners'
  | 'operators'
  | 'webhooks'
  | 'billing'
  | 'lookups'
  | 'payments'
  | 'verifications'
  | 'settings'
  | 'deeds'
  | 'monitoring';

export interface Services {
  config: Config;
  db: Database;
  clock: Clock;
  logger: Logger;
  /** What this process counts (Prometheus: served by `pvs serve` on METRICS_ADDRESS; platform/metrics). */
  metrics: Metrics;
  queue: JobQueue;
  jobDefinitions: readonly JobDefinition[];
  outbox: Outbox;
  keys: SigningKeys;
  tokens: TokenService;
  partners: PartnerService;
  apiClients: ApiClientService;
  /** PVS's own operators: accounts, sign-in at /ops/v1/token and /console, and who an ops token stands for. */
  operators: OperatorService;
  /** Partners' staff who sign in to /portal. */
  portalUsers: PortalUserService;
  /** Operators' and portal users' second factors (an authenticator app, recovery codes). */
  operatorFactors: SecondFactors;
  portalUserFactors: SecondFactors;
  /** The portal's and the console's sessions. */
  /** SECRET_KEY and PREVIOUS_SECRET_KEYS (platform/keys): what seals, opens, digests and signs. */
  keyRing: KeyRing;
  webSessions: SessionService;
  /** What people did in the portal and the console. */
  audit: AuditService;
  destinations: DestinationService;
  notifications: NotificationService;
  gateway: PaymentGateway;
  contacts: ContactService;
  cardLinks: CardLinkService;
  /** The billing gate and charges, for every paid capability. */
  charges: ChargeService;
  billingRuns: BillingRunService;
  /** Sanctions and PEP lists, and the matcher every capability screens people and businesses with. */
  screening: ScreeningService;
  /** The business registers lookups read (sandbox or live). */
  registers: Registers;
  /** Keeps the details, documents and selfies of people being verified, and runs their checks. */
  identity: IdentityProvider;
  lookups: LookupService;
  /** ATO payments: the partner's API, and the hosted payment link that takes the card. */
  payments: PaymentService;
  paymentLinks: PaymentLinkService;
  /** Identity verification requests, their individuals and links. */
  verifications: VerificationService;
  /** A verification link's exchange for the person's session, and what the session may do. */
  verificationSessions: VerificationSessionService;
  /** The checks of submitted attempts, their outcomes, and operators' decisions. */
  verificationChecks: VerificationCheckService;
  /** The evidence endpoints and their audit trail. */
  evidence: EvidenceService;
  /** The entity and individual PDF reports, behind signed URLs. */
  reports: ReportService;
  /** Where uploaded deeds wait for their analysis (local disk or S3). */
  storage: DocumentStorage;
  /** Deed analyses as partners drive them, and the analysis job with its sweep. */
  deeds: DeedService;
  deedProcessing: DeedProcessingService;
  /** Contacts watched for new sanctions and PEP matches: subscriptions, alerts and the re-screen jobs. */
  monitoringSubscriptions: SubscriptionService;
  monitoringAlerts: AlertService;
  monitoringRescreens: RescreenService;
  /** Settings operators change while PVS runs (the evidence kill switch). */
  settings: RuntimeSettings;
  idempotency: Idempotency;
  /** Per partner on /v1. */
  apiLimiter: RateLimiter;
  /** Per client and per IP on /oauth2/token. */
  tokenLimiter: RateLimiter;
  /** Per client address on the portal's and the console's sign-in forms (web/sign-in-throttle.ts). */
  signInLimiter: RateLimiter;
  /** Each module's routes, for app.ts to register. */
  routes: Readonly<Record<RoutedModule, ModuleRoutes>>;
  migrate(): Promise<{ applied: string[] }>;
  isReady(): Promise<boolean>;
  createWorker(): Worker;
  /** The webhook dispatcher of a worker process (`flushDelayMs`: see DispatcherOptions). */
  createDispatcher(options?: Pick<DispatcherOptions, 'flushDelayMs'>): Dispatcher;
  close(): Promise<void>;
}
