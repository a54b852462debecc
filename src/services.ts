// The composition root: the one place that chooses implementations from configuration and wires them.
// Nothing else decides between PGlite and PostgreSQL, sandbox and real providers, Redis or not. Each module
// wires itself in its modules/<domain>/<domain>.module.ts; this file lists them in dependency order.
import path from 'node:path';
import type { Config } from './config.ts';
import { createAccountModule } from './modules/accounts/accounts.module.ts';
import { createAuditModule } from './modules/audit/audit.module.ts';
import { authJobSpecs, createAuthModule } from './modules/auth/auth.module.ts';
import { billingJobSpecs, createBillingModule } from './modules/billing/billing.module.ts';
import { createDeedModule, deedJobSpecs } from './modules/deeds/deeds.module.ts';
import { createLookupModule, lookupJobSpecs } from './modules/lookups/lookups.module.ts';
import { createMonitoringModule, monitoringJobSpecs, rescreenOnNewVersion } from './modules/monitoring/monitoring.module.ts';
import { createOperatorModule } from './modules/operators/operators.module.ts';
import { createPartnerModule } from './modules/partners/partners.module.ts';
import { createPaymentModule, paymentJobSpecs } from './modules/payments/payments.module.ts';
import { createScreeningModule } from './modules/screening/screening.module.ts';
import { createSettingsModule } from './modules/settings/settings.module.ts';
import { createSystemModule } from './modules/system/system.module.ts';
import { createVerificationModule, verificationJobSpecs } from './modules/verifications/verifications.module.ts';
import { createWebhookModule, webhookJobSpecs } from './modules/webhooks/webhooks.module.ts';
import { systemClock, type Clock } from './platform/clock.ts';
import { guardDatabase } from './platform/db/availability.ts';
import type { Database } from './platform/db/database.ts';
import { tryLockDataDir, type DataDirLock } from './platform/db/lock-file.ts';
import { migrate } from './platform/db/migrate.ts';
import { createIdempotency } from './platform/http/idempotency.ts';
import type { JobDefinition } from './platform/jobs/job.ts';
import { createJobQueue } from './platform/jobs/queue.ts';
import { createWorker } from './platform/jobs/worker.ts';
import { createLogger, type Logger } from './platform/logger.ts';
import { createMetrics, disabledMetrics } from './platform/metrics/metrics.ts';
import { databaseReadings } from './platform/metrics/readings.ts';
import { traceWhenTracing } from './platform/tracing/traced-database.ts';
import { packageVersion } from './platform/version.ts';
import { maintenanceJobs } from './platform/maintenance.jobs.ts';
import { createDatabaseRateLimitStore, createRateLimiter, watchRateLimitStore, type RateLimitStore } from './platform/rate-limit.ts';
import { createProviders, type ProviderWrappers } from './providers/providers.ts';
import { createKeyRing } from './platform/keys/key-ring.ts';
import { refuseMissingKeys } from './platform/keys/key-usage.ts';
import { enqueueResealIfNeeded, resealJobs } from './platform/keys/reseal.jobs.ts';
import type { Services } from './services.types.ts';
import { webSessionJobs } from './web/session/sessions.jobs.ts';
import { createSessionService } from './web/session/sessions.service.ts';

export type { Services } from './services.types.ts';

export class DataDirBusyError extends Error {
  constructor(readonly holderPid: number) {
    super(`Another PVS process (pid ${holderPid}) holds the embedded database`);
  }
}

/** Opens PostgreSQL when DATABASE_URL is set, else PGlite in DATA_DIR (locked); each driver loaded only when chosen. */
export async function openDatabase(config: Config): Promise<{ db: Database; lock?: DataDirLock }> {
  if (config.DATABASE_URL) {
    const { openPostgres } = await import('./platform/db/postgres.ts');
    const timeouts = { queryTimeoutMs: config.DATABASE_QUERY_TIMEOUT_SECONDS * 1000, connectionTimeoutMs: config.DATABASE_CONNECT_TIMEOUT_SECONDS * 1000 };
    return { db: openPostgres(config.DATABASE_URL, timeouts) };
  }
  const locked = tryLockDataDir(config.DATA_DIR);
  if (!locked.ok) throw new DataDirBusyError(locked.holderPid);
  try {
    const { openPglite } = await import('./platform/db/pglite.ts');
    return { db: await openPglite({ dataDir: path.join(config.DATA_DIR, 'pglite') }), lock: locked.lock };
  } catch (error) {
    locked.lock.release();
    throw error;
  }
}

export interface ServiceOverrides extends ProviderWrappers {
  /** An already open database (tests open one per file from a migrated template). */
  db?: Database;
  clock?: Clock;
  logger?: Logger;
  /** [0, 1): the jitter of webhook retries (tests fix it to assert the schedule exactly). */
  random?: () => number;
}

export async function createServices(config: Config, overrides: ServiceOverrides = {}): Promise<Services> {
  const clock = overrides.clock ?? systemClock;
  const logger = overrides.logger ?? createLogger({ level: config.LOG_LEVEL });
  const metrics = config.METRICS_ADDRESS === 'off' ? disabledMetrics() : createMetrics({ version: packageVersion() });
  const opened = overrides.db ? { db: overrides.db } : await openDatabase(config);
  // Every call goes through the availability guard: while the database is unreachable calls fail at once
  // (503), /ready says so, and the worker and dispatcher wait for it (db/availability.ts). Traced when on.
  const db = guardDatabase(traceWhenTracing(opened.db), { logger: logger.child({ module: 'db' }) });
  const closers: Array<() => Promise<void> | void> = [];
  const close = async () => {
    for (const closer of closers) await closer();
    if (!overrides.db) await db.close();
    else db.detach();
    opened.lock?.release();
  };

  try {
    await migrate(db);

    // Every sealed value is sealed by the key ring (SECRET_KEY, PREVIOUS_SECRET_KEYS; platform/keys). A value
    // under a key no longer configured stops the start here, naming the key.
    const keyRing = createKeyRing(config.SECRET_KEY, config.PREVIOUS_SECRET_KEYS);
    const keyUsage = await refuseMissingKeys(db, keyRing);
    const platformJobs: JobDefinition[] = [...maintenanceJobs({ db, clock }), ...webSessionJobs({ db, clock }), ...resealJobs({ db, keyRing, logger })];
    // The queue knows every kind up front; each module binds the handlers that call its services.
    const queue = createJobQueue({
      clock,
      definitions: [...platformJobs, ...authJobSpecs, ...webhookJobSpecs, ...billingJobSpecs, ...lookupJobSpecs, ...paymentJobSpecs, ...verificationJobSpecs, ...deedJobSpecs, ...monitoringJobSpecs],
    });
    const idempotency = createIdempotency({ db, clock });
    // After a rotation, everything still under a previous key is sealed again in the background.
    await enqueueResealIfNeeded({ db, queue, keyRing, clock }, keyUsage);

    // One process on PGlite: nothing to share. Several API nodes share counters in Redis or PostgreSQL.
    // A store that stops answering is logged once by watchRateLimitStore; the limiters go on locally.
    let store: RateLimitStore | undefined;
    if (config.REDIS_URL) {
      const { createRedisRateLimitStore } = await import('./platform/redis-rate-limit-store.ts');
      const redis = createRedisRateLimitStore(config.REDIS_URL);
      closers.push(() => redis.close());
      store = watchRateLimitStore(redis, { name: 'Redis', logger });
    } else if (db.kind === 'postgres') {
      store = watchRateLimitStore(createDatabaseRateLimitStore(db, clock), { name: 'PostgreSQL', logger });
    }
    const apiLimiter = createRateLimiter({ ratePerSecond: config.RATE_LIMIT_PER_SECOND, burst: config.RATE_LIMIT_BURST, clock, store });
    const perMinute = config.TOKEN_RATE_LIMIT_PER_MINUTE;
    const tokenLimiter = createRateLimiter({ ratePerSecond: perMinute / 60, burst: perMinute, clock, store });
    const signInLimiter = createRateLimiter({ ratePerSecond: config.SIGN_IN_RATE_LIMIT_PER_MINUTE / 60, burst: config.SIGN_IN_RATE_LIMIT_PER_MINUTE, clock, store });
    closers.push(() => apiLimiter.close(), () => tokenLimiter.close(), () => signInLimiter.close());

    const { gateway, registers, identity, storage, extractor } = createProviders(config, { db, clock, logger, metrics, keyRing }, overrides);

    // The modules, in dependency order: each takes the platform pieces and what it needs of those above it.
    const platform = { db, clock, logger, queue, config, idempotency, keyRing };
    const screening = createScreeningModule({ ...platform, onVersionCreated: rescreenOnNewVersion(queue) });
    const partners = createPartnerModule(platform);
    const { partners: partnerService } = partners.services;
    const webhooks = createWebhookModule({ ...platform, isMonitoringEligible: partners.isMonitoringEligible, random: overrides.random, metrics });
    closers.push(() => webhooks.close?.());
    const withOutbox = { ...platform, outbox: webhooks.services.outbox };
    const auth = await createAuthModule({ ...platform, clients: partners.clientCredentials, limiter: tokenLimiter });
    // The operators' second factors are the accounts module's, made below from the operators' accounts.
    const operators = createOperatorModule({ ...platform, keys: auth.services.keys, limiter: tokenLimiter, secondFactors: () => accounts.services.operatorFactors });
    const accounts = createAccountModule({ ...platform, partners: partnerService, operators: operators.services.operators });
    const audit = createAuditModule(platform);
    const settings = createSettingsModule(platform);
    const monitoring = createMonitoringModule({ ...withOutbox, screening: screening.services.screening, isEligible: partners.isMonitoringEligible });
    const billing = createBillingModule({ ...withOutbox, gateway, partners: partnerService, watchers: monitoring.services.monitoringSubscriptions });
    const { charges } = billing.services;
    const lookups = createLookupModule({ ...withOutbox, registers, charges, screening: screening.services.screening });
    const payments = createPaymentModule({ ...withOutbox, gateway, partners: partnerService, commissionBps: partners.commissionBps, isActiveContact: billing.isActiveContact });
    const verifications = createVerificationModule({
      ...withOutbox,
      identity,
      charges,
      screening: screening.services.screening,
      settings: settings.services.settings,
      lookups: lookups.services.lookups,
      partners: partnerService,
    });
    closers.push(() => verifications.close?.());
    const deeds = createDeedModule({ ...withOutbox, charges, verifications: verifications.services.verifications, storage, extractor });
    const system = createSystemModule(platform);

    // The worker claims kinds in this order each round.
    const jobDefinitions = [...platformJobs, ...auth.jobs, ...webhooks.jobs, ...deeds.jobs, ...monitoring.jobs, ...billing.jobs, ...lookups.jobs, ...payments.jobs, ...verifications.jobs];
    const readingSources = { jobKinds: jobDefinitions.map((d) => d.kind), pendingNotifications: webhooks.services.notifications.countPending, screeningListVersion: screening.services.screening.listVersion };
    metrics.readFrom(databaseReadings({ db, clock, ...readingSources }));

    return {
      config,
      db,
      clock,
      logger,
      metrics,
      queue,
      jobDefinitions,
      idempotency,
      apiLimiter,
      tokenLimiter,
      signInLimiter,
      gateway,
      registers,
      identity,
      storage,
      keyRing,
      webSessions: createSessionService({
        db,
        clock,
        csrfKeys: keyRing.macKeys('web-csrf'),
        idleSeconds: config.WEB_SESSION_IDLE_MINUTES * 60,
        absoluteSeconds: config.WEB_SESSION_HOURS * 3600,
      }),
      ...screening.services,
      ...partners.services,
      ...webhooks.services,
      ...auth.services,
      ...operators.services,
      ...accounts.services,
      ...audit.services,
      ...settings.services,
      ...monitoring.services,
      ...billing.services,
      ...lookups.services,
      ...payments.services,
      ...verifications.services,
      ...deeds.services,
      ...system.services,
      routes: {
        system: system.routes,
        auth: auth.routes,
        partners: partners.routes,
        operators: operators.routes,
        webhooks: webhooks.routes,
        billing: billing.routes,
        lookups: lookups.routes,
        payments: payments.routes,
        verifications: verifications.routes,
        settings: settings.routes,
        deeds: deeds.routes,
        monitoring: monitoring.routes,
      },
      migrate: () => migrate(db),
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
          metrics,
        }),
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
