// The composition root: the one place that chooses implementations from configuration and wires them.
// Nothing else decides between PGlite and PostgreSQL, sandbox and real providers, Redis or not.
import { availableParallelism } from 'node:os';
import path from 'node:path';
import type { Config } from './config.ts';
import { loadSigningKeys, type SigningKeys } from './modules/auth/signing-keys.ts';
import { createTokenService, type TokenService } from './modules/auth/tokens.service.ts';
import * as partnersRepo from './modules/partners/partners.repository.ts';
import { createApiClientService, type ApiClientService } from './modules/partners/api-clients.service.ts';
import { createPartnerService, type PartnerService } from './modules/partners/partners.service.ts';
import { createOperatorTokens } from './modules/operators/operator-tokens.ts';
import { createOperatorService, type OperatorService } from './modules/operators/operators.service.ts';
import { createPortalUserService, type PortalUserService } from './modules/accounts/portal-users.service.ts';
import { createAuditService, type AuditService } from './modules/audit/audit.service.ts';
import { createSessionService, type SessionService } from './web/session/sessions.service.ts';
import { systemClock, type Clock } from './platform/clock.ts';
import { guardDatabase } from './platform/db/availability.ts';
import type { Database } from './platform/db/database.ts';
import { tryLockDataDir, type DataDirLock } from './platform/db/lock-file.ts';
import { isMigrated, migrate } from './platform/db/migrate.ts';
import { openPglite } from './platform/db/pglite.ts';
import { openPostgres } from './platform/db/postgres.ts';
import { createIdempotency, type Idempotency } from './platform/http/idempotency.ts';
import type { JobDefinition } from './platform/jobs/job.ts';
import { createJobQueue, type JobQueue } from './platform/jobs/queue.ts';
import { createWorker, type Worker } from './platform/jobs/worker.ts';
import { createLogger, type Logger } from './platform/logger.ts';
import { maintenanceJobs } from './platform/maintenance.jobs.ts';
import { createOutbox, type Outbox } from './platform/outbox.ts';
import { createSealer, deriveKey } from './platform/crypto.ts';
import { tenantOf, type Tenant } from './platform/tenancy.ts';
import { createDeliverer } from './modules/webhooks/delivery.ts';
import { createDestinationService, type DestinationService } from './modules/webhooks/destinations.service.ts';
import { createDispatcher, type Dispatcher } from './modules/webhooks/dispatcher.ts';
import { eventCatalogue } from './modules/webhooks/events/index.ts';
import { webhookFanOut } from './modules/webhooks/fan-out.ts';
import { createNotificationService, type NotificationService } from './modules/webhooks/notifications.service.ts';
import { webhookJobs } from './modules/webhooks/webhooks.jobs.ts';
import { createDatabaseRateLimitStore, createRateLimiter, watchRateLimitStore, type RateLimiter, type RateLimitStore } from './platform/rate-limit.ts';
import { createRedisRateLimitStore } from './platform/redis-rate-limit-store.ts';
import { billingJobs, billingJobSpecs } from './modules/billing/billing.jobs.ts';
import { createBillingRunService, type BillingRunService } from './modules/billing/billing-runs.service.ts';
import { createCardLinkService, type CardLinkService } from './modules/billing/card-links.service.ts';
import { createChargeService, type ChargeService } from './modules/billing/charges.service.ts';
import { createContactService, type ContactService } from './modules/billing/contacts.service.ts';
import { priceListFrom } from './modules/billing/prices.ts';
import { createScreeningService, type ScreeningService } from './modules/screening/screening.service.ts';
import { lookupJobs, processLookupJob } from './modules/lookups/lookups.jobs.ts';
import { createLookupService, type LookupService } from './modules/lookups/lookups.service.ts';
import { createRegisters, type Registers } from './providers/register/index.ts';
import type { PaymentGateway } from './providers/gateway/gateway.ts';
import { createGateway } from './providers/gateway/index.ts';
import type { IdentityProvider } from './providers/identity/identity-provider.ts';
import { createIdentityProvider } from './providers/identity/index.ts';
import * as contactsRepo from './modules/billing/contacts.repository.ts';
import { createPaymentLinkService, type PaymentLinkService } from './modules/payments/payment-links.service.ts';
import { paymentJobs, paymentJobSpecs } from './modules/payments/payments.jobs.ts';
import { createPaymentService, paymentCodec, type PaymentService } from './modules/payments/payments.service.ts';
import { createVerificationService, type VerificationService } from './modules/verifications/verifications.service.ts';
import { createVerificationSessionService, type VerificationSessionService } from './modules/verifications/verification-sessions.service.ts';
import { createVerificationCheckService, type VerificationCheckService } from './modules/verifications/verification-checks.service.ts';
import { verificationCheckJob, verificationJobs } from './modules/verifications/verifications.jobs.ts';
import { createEvidenceService, type EvidenceService } from './modules/verifications/evidence.service.ts';
import { createMrzEvidence } from './modules/verifications/mrz/mrz-evidence.ts';
import { createReportService, type ReportService } from './modules/verifications/reports/reports.service.ts';
import { createDeedModule } from './modules/deeds/deeds.module.ts';
import { analyseDeedJob, sweepDeedsJob } from './modules/deeds/deeds.jobs.ts';
import type { DeedService } from './modules/deeds/deeds.service.ts';
import type { DeedProcessingService } from './modules/deeds/deed-processing.service.ts';
import { inspectPdf } from './modules/deeds/pipeline/inspect.ts';
import { readDeedPages } from './modules/deeds/pipeline/read-pages.ts';
import { createExtractor } from './providers/extractor/index.ts';
import { createStorage } from './providers/storage/index.ts';
import type { DocumentStorage } from './providers/storage/storage.ts';
import { createRuntimeSettings, type RuntimeSettings } from './modules/settings/runtime-settings.ts';
import { createMonitoringModule } from './modules/monitoring/monitoring.module.ts';
import { rescreenJob, rescreenJobKey, screenContactJob } from './modules/monitoring/monitoring.jobs.ts';
import type { SubscriptionService } from './modules/monitoring/subscriptions.service.ts';
import type { AlertService } from './modules/monitoring/alerts.service.ts';
import type { RescreenService } from './modules/monitoring/rescreen.service.ts';
import { createUrlSigner } from './platform/signed-urls.ts';

export interface Services {
  config: Config;
  db: Database;
  clock: Clock;
  logger: Logger;
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
  /** The portal's and the console's sessions. */
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
  migrate(): Promise<{ applied: string[] }>;
  isReady(): Promise<boolean>;
  createWorker(): Worker;
  /** The webhook dispatcher of a worker process. */
  createDispatcher(): Dispatcher;
  close(): Promise<void>;
}

export class DataDirBusyError extends Error {
  constructor(readonly holderPid: number) {
    super(`Another PVS process (pid ${holderPid}) holds the embedded database`);
  }
}

/** Opens the configured database: PostgreSQL when DATABASE_URL is set, else PGlite in DATA_DIR (locked). */
export async function openDatabase(config: Config): Promise<{ db: Database; lock?: DataDirLock }> {
  if (config.DATABASE_URL) {
    const timeouts = { queryTimeoutMs: config.DATABASE_QUERY_TIMEOUT_SECONDS * 1000, connectionTimeoutMs: config.DATABASE_CONNECT_TIMEOUT_SECONDS * 1000 };
    return { db: openPostgres(config.DATABASE_URL, timeouts) };
  }
  const locked = tryLockDataDir(config.DATA_DIR);
  if (!locked.ok) throw new DataDirBusyError(locked.holderPid);
  try {
    return { db: await openPglite({ dataDir: path.join(config.DATA_DIR, 'pglite') }), lock: locked.lock };
  } catch (error) {
    locked.lock.release();
    throw error;
  }
}

export interface ServiceOverrides {
  /** An already open database (tests open one per file from a migrated template). */
  db?: Database;
  clock?: Clock;
  logger?: Logger;
  /** [0, 1): the jitter of webhook retries (tests fix it to assert the schedule exactly). */
  random?: () => number;
  /** Wraps the configured gateway (crash tests stop a worker right after the gateway answered). */
  wrapGateway?: (gateway: PaymentGateway) => PaymentGateway;
  /** Wraps the configured registers (tests make a source fail or stall at a chosen call). */
  wrapRegisters?: (registers: Registers) => Registers;
}

export async function createServices(config: Config, overrides: ServiceOverrides = {}): Promise<Services> {
  const clock = overrides.clock ?? systemClock;
  const logger = overrides.logger ?? createLogger({ level: config.LOG_LEVEL });
  const opened = overrides.db ? { db: overrides.db } : await openDatabase(config);
  // Every call goes through the availability guard: while the database is unreachable calls fail at once
  // (503), /ready says so, and the worker and dispatcher wait for it (db/availability.ts).
  const db = guardDatabase(opened.db, { logger: logger.child({ module: 'db' }) });
  const closers: Array<() => Promise<void> | void> = [];

  try {
    await migrate(db);

    const platformJobs: JobDefinition[] = [...maintenanceJobs({ db, clock }), ...webhookJobs({ db, clock })];
    // The queue knows every kind up front; handlers that call services are bound once those exist.
    const queue = createJobQueue({ clock, definitions: [...platformJobs, ...billingJobSpecs, processLookupJob, ...paymentJobSpecs, verificationCheckJob, analyseDeedJob, sweepDeedsJob, screenContactJob, rescreenJob] });

    // Each kind of sealed value has its own key, derived from SECRET_KEY.
    const payloadSealer = createSealer(deriveKey(config.SECRET_KEY, 'event-payloads'));
    const webhookSecrets = createSealer(deriveKey(config.SECRET_KEY, 'webhook-secrets'));
    // New notifications wake this process's dispatchers at once; others find them at their next poll.
    const dispatchers = new Set<Dispatcher>();
    const wakeDispatchers = () => dispatchers.forEach((d) => d.nudge());
    const outbox = createOutbox({
      clock,
      queue,
      catalogue: eventCatalogue,
      sealer: payloadSealer,
      listeners: [webhookFanOut({ clock, onCreated: wakeDispatchers })],
    });
    const deliverer = createDeliverer({ environment: config.ENVIRONMENT });
    closers.push(() => deliverer.close());

    const configured = createGateway(config, { db, clock });
    const gateway = overrides.wrapGateway ? overrides.wrapGateway(configured) : configured;
    const prices = priceListFrom(config);
    const billingRuns = createBillingRunService({
      db,
      clock,
      gateway,
      outbox,
      queue,
      logger: logger.child({ module: 'billing' }),
      sweepAfterSeconds: config.BILLING_SWEEP_AFTER_HOURS * 3600,
    });
    const partners = createPartnerService({ db, clock, environment: config.ENVIRONMENT });
    const charges = createChargeService({ db, clock, prices, outbox, queue, runWindowSeconds: config.BILLING_RUN_WINDOW_SECONDS });
    const screening = createScreeningService({
      db,
      clock,
      logger: logger.child({ module: 'screening' }),
      threshold: config.SCREENING_MATCH_THRESHOLD,
      refreshSeconds: config.SCREENING_REFRESH_SECONDS,
      // Every new version re-screens the monitored contacts, by a job that exists exactly when the version does.
      onVersionCreated: async (tx, version) => {
        await queue.enqueue(tx, rescreenJob, { version }, { key: rescreenJobKey(version) });
      },
    });
    const isMonitoringEligible = async (tenant: Tenant) => (await partnersRepo.findOwnPartner(db, tenant))?.monitoring_eligible ?? false;
    const monitoring = createMonitoringModule({
      db,
      clock,
      outbox,
      queue,
      logger,
      screening,
      secretKey: config.SECRET_KEY,
      isEligible: isMonitoringEligible,
      batchSize: config.MONITORING_BATCH_SIZE,
    });
    const configuredRegisters = createRegisters(config, { db, clock, logger: logger.child({ module: 'registers' }) });
    const registers = overrides.wrapRegisters ? overrides.wrapRegisters(configuredRegisters) : configuredRegisters;
    const identity = createIdentityProvider(config, { db, clock });
    const lookups = createLookupService({
      db,
      clock,
      logger: logger.child({ module: 'lookups' }),
      registers,
      charges,
      outbox,
      queue,
      screening,
      readBudget: config.LOOKUP_READ_BUDGET,
    });
    const codec = paymentCodec({ tokenKey: deriveKey(config.SECRET_KEY, 'payment-link-tokens'), sealer: createSealer(deriveKey(config.SECRET_KEY, 'payment-prns')) });
    const payments = createPaymentService({
      db,
      clock,
      outbox,
      codec,
      publicBaseUrl: config.PUBLIC_BASE_URL,
      linkLifetimeHours: config.PAYMENT_LINK_HOURS,
      maxAmount: config.PAYMENT_MAX_AMOUNT,
      commissionBps: async (tx, tenant) => (await partnersRepo.findOwnPartner(tx, tenant))?.commission_bps ?? 0,
      isActiveContact: async (tx, tenant, contactId) => {
        const contact = await contactsRepo.findContact(tx, tenant, contactId, { lock: 'share' });
        return contact !== undefined && contact.archived_at === null;
      },
    });
    const paymentLinks = createPaymentLinkService({
      db,
      clock,
      codec,
      gateway,
      outbox,
      queue,
      settleAfterSeconds: 60,
      partnerName: async (partnerId) => (await partners.getOwn(tenantOf(partnerId))).name,
    });
    const verificationLinkKey = deriveKey(config.SECRET_KEY, 'verification-link-tokens');
    const verificationSessions = createVerificationSessionService({
      db,
      clock,
      outbox,
      linkKey: verificationLinkKey,
      sessionKey: deriveKey(config.SECRET_KEY, 'verification-session-tokens'),
      sessionLifetimeHours: 24,
      identity,
      charges,
      queue,
      partnerName: async (partnerId) => (await partners.getOwn(tenantOf(partnerId))).name,
    });
    // One OCR worker per process, started on the first passport it reads; closed with the services.
    const mrz = createMrzEvidence();
    closers.push(() => mrz.close());
    const verificationChecks = createVerificationCheckService({ db, clock, outbox, identity, screening, mrz, logger: logger.child({ module: 'verifications' }) });
    const settings = createRuntimeSettings({ db, clock, config });
    const evidence = createEvidenceService({ db, clock, identity, screening, settings, mrz });
    const reports = createReportService({
      db,
      clock,
      identity,
      lookups,
      partners,
      evidence,
      signer: createUrlSigner({ key: deriveKey(config.SECRET_KEY, 'report-urls'), clock, baseUrl: config.PUBLIC_BASE_URL }),
    });
    const verifications = createVerificationService({
      db,
      clock,
      outbox,
      tokenKey: verificationLinkKey,
      publicBaseUrl: config.PUBLIC_BASE_URL,
      linkLifetimeDays: config.VERIFICATION_LINK_DAYS,
      maxAttempts: config.VERIFICATION_MAX_ATTEMPTS,
      lookups,
    });
    const storage = createStorage(config, { clock });
    const ocrConcurrency = config.DEED_OCR_CONCURRENCY || availableParallelism();
    const deedModule = createDeedModule({
      db,
      clock,
      outbox,
      queue,
      logger,
      charges,
      verifications,
      storage,
      extractor: createExtractor(config),
      inspectPdf,
      readPages: (bytes) => readDeedPages(bytes, { deadlineMs: config.DEED_DEADLINE_SECONDS * 1000, concurrency: ocrConcurrency }),
      deadlineSeconds: config.DEED_DEADLINE_SECONDS,
    });
    const jobDefinitions: JobDefinition[] = [
      ...platformJobs,
      ...deedModule.jobs,
      ...monitoring.jobs,
      ...billingJobs({ runs: billingRuns }),
      ...lookupJobs({ lookups }),
      ...paymentJobs({ links: paymentLinks }),
      ...verificationJobs({ checks: verificationChecks }),
    ];

    const keys = await loadSigningKeys({ db, clock, secretKey: config.SECRET_KEY });
    const tokens = createTokenService({
      clients: { findActiveClient: (id) => partnersRepo.findActiveClient(db, id), isClientActive: (id) => partnersRepo.isClientActive(db, id) },
      keys,
      clock,
      issuer: config.PUBLIC_BASE_URL,
      environment: config.ENVIRONMENT,
    });
    const operators = createOperatorService({
      db,
      clock,
      tokens: createOperatorTokens({ keys, clock, issuer: config.PUBLIC_BASE_URL, environment: config.ENVIRONMENT }),
      logger: logger.child({ module: 'operators' }),
    });

    // One process on PGlite: nothing to share. Several API nodes share counters in Redis or PostgreSQL.
    // A store that stops answering is logged once by watchRateLimitStore; the limiters go on locally.
    let store: RateLimitStore | undefined;
    if (config.REDIS_URL) {
      const redis = createRedisRateLimitStore(config.REDIS_URL);
      closers.push(() => redis.close());
      store = watchRateLimitStore(redis, { name: 'Redis', logger });
    } else if (db.kind === 'postgres') {
      store = watchRateLimitStore(createDatabaseRateLimitStore(db, clock), { name: 'PostgreSQL', logger });
    }
    const apiLimiter = createRateLimiter({ ratePerSecond: config.RATE_LIMIT_PER_SECOND, burst: config.RATE_LIMIT_BURST, clock, store });
    const perMinute = config.TOKEN_RATE_LIMIT_PER_MINUTE;
    const tokenLimiter = createRateLimiter({ ratePerSecond: perMinute / 60, burst: perMinute, clock, store });
    closers.push(() => apiLimiter.close(), () => tokenLimiter.close());

    return {
      config,
      db,
      clock,
      logger,
      queue,
      jobDefinitions,
      outbox,
      keys,
      tokens,
      partners,
      apiClients: createApiClientService({ db, clock }),
      operators,
      portalUsers: createPortalUserService({ db, clock, logger: logger.child({ module: 'portal-users' }), partners }),
      webSessions: createSessionService({
        db,
        clock,
        secretKey: config.SECRET_KEY,
        idleSeconds: config.WEB_SESSION_IDLE_MINUTES * 60,
        absoluteSeconds: config.WEB_SESSION_HOURS * 3600,
      }),
      audit: createAuditService({ db, clock }),
      destinations: createDestinationService({ db, clock, environment: config.ENVIRONMENT, secrets: webhookSecrets }),
      notifications: createNotificationService({
        db,
        clock,
        outbox,
        isMonitoringEligible,
        onCreated: wakeDispatchers,
      }),
      gateway,
      contacts: createContactService({ db, clock, outbox, queue, watchers: monitoring.subscriptions }),
      cardLinks: createCardLinkService({
        db,
        clock,
        tokenKey: deriveKey(config.SECRET_KEY, 'card-link-tokens'),
        publicBaseUrl: config.PUBLIC_BASE_URL,
        lifetimeHours: config.CARD_LINK_HOURS,
        gateway,
        prices,
        outbox,
        queue,
        runs: billingRuns,
        partnerName: async (tenant) => (await partners.getOwn(tenant)).name,
      }),
      charges,
      billingRuns,
      screening,
      registers,
      identity,
      lookups,
      payments,
      paymentLinks,
      verifications,
      verificationSessions,
      verificationChecks,
      evidence,
      reports,
      storage,
      deeds: deedModule.deeds,
      deedProcessing: deedModule.processing,
      monitoringSubscriptions: monitoring.subscriptions,
      monitoringAlerts: monitoring.alerts,
      monitoringRescreens: monitoring.rescreens,
      settings,
      idempotency: createIdempotency({ db, clock }),
      apiLimiter,
      tokenLimiter,
      migrate: () => migrate(db),
      isReady: async () => db.availability.available && (await isMigrated(db)),
      createWorker: () =>
        createWorker({
          db,
          clock,
          queue,
          definitions: jobDefinitions,
          logger: logger.child({ role: 'worker' }),
          leaseSeconds: config.JOB_LEASE_SECONDS,
          pollMilliseconds: config.JOB_POLL_MILLISECONDS,
          availability: db.availability,
        }),
      createDispatcher() {
        const dispatcher = createDispatcher({
          db,
          clock,
          deliverer,
          openSecret: webhookSecrets.open,
          openPayload: payloadSealer.open,
          logger: logger.child({ role: 'webhooks' }),
          random: overrides.random,
          availability: db.availability,
        });
        dispatchers.add(dispatcher);
        return dispatcher;
      },
      async close() {
        for (const close of closers) await close();
        if (!overrides.db) await db.close();
        else db.detach();
        opened.lock?.release();
      },
    };
  } catch (error) {
    for (const close of closers) await close();
    if (!overrides.db) await db.close();
    else db.detach();
    opened.lock?.release();
    throw error;
  }
}
