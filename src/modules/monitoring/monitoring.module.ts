// The monitoring module's wiring: subscriptions, alerts, the screener the two jobs share, the jobs, and the
// /v1 routes. Screening calls back into it (rescreenOnNewVersion) when a list version is made.
import type { Config } from '../../config.ts';
import type { Clock } from '../../platform/clock.ts';
import type { KeyRing } from '../../platform/keys/key-ring.ts';
import type { Database, Tx } from '../../platform/db/database.ts';
import { defineJob, type JobDefinition } from '../../platform/jobs/job.ts';
import type { JobQueue } from '../../platform/jobs/queue.ts';
import type { Logger } from '../../platform/logger.ts';
import type { Module } from '../../platform/module.ts';
import type { Outbox } from '../../platform/outbox.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import type { ScreeningService } from '../screening/screening.service.ts';
import { createAlertService, type AlertService } from './alerts.service.ts';
import { rescreenJob, rescreenJobKey, screenContactJob } from './monitoring.jobs.ts';
import { registerMonitoringRoutes } from './monitoring.routes.ts';
import { createRescreenService, type RescreenService } from './rescreen.service.ts';
import { createScreener } from './screener.ts';
import { createSubscriptionService, type SubscriptionService } from './subscriptions.service.ts';

export { monitoringJobSpecs } from './monitoring.jobs.ts';

export interface MonitoringModuleDeps {
  db: Database;
  clock: Clock;
  outbox: Outbox;
  queue: JobQueue;
  logger: Logger;
  screening: Pick<ScreeningService, 'freshIndex' | 'changesSince' | 'searchIn'>;
  /** MONITORING_BATCH_SIZE: contacts per re-screen batch. */
  config: Pick<Config, 'MONITORING_BATCH_SIZE'>;
  /** Seals contacts' dates of birth (platform/keys). */
  keyRing: Pick<KeyRing, 'sealer' | 'macKeys'>;
  /** Whether the partner may use monitoring (the partners module). */
  isEligible(tenant: Tenant): Promise<boolean>;
}

export interface MonitoringServices {
  monitoringSubscriptions: SubscriptionService;
  monitoringAlerts: AlertService;
  monitoringRescreens: RescreenService;
}

/**
 * Screening's hook: every new list version re-screens the monitored contacts, by a job that exists exactly
 * when the version does (enqueued in the version's transaction, keyed by it).
 */
export function rescreenOnNewVersion(queue: Pick<JobQueue, 'enqueue'>) {
  return async (tx: Tx, version: number): Promise<void> => {
    await queue.enqueue(tx, rescreenJob, { version }, { key: rescreenJobKey(version) });
  };
}

export function createMonitoringModule(deps: MonitoringModuleDeps): Module<MonitoringServices> {
  const { config } = deps;
  const datesOfBirth = deps.keyRing.sealer('monitoring-dates-of-birth');
  const screener = createScreener({
    clock: deps.clock,
    outbox: deps.outbox,
    screening: deps.screening,
    openDateOfBirth: (sealed) => datesOfBirth.open(sealed),
    // After SECRET_KEY is rotated every contact's hash differs, so each is screened against the whole
    // list once more at its next re-screen: more screening, never less.
    subjectKey: deps.keyRing.macKeys('monitoring-subjects').current,
  });
  const subscriptions = createSubscriptionService({
    ...deps,
    sealDateOfBirth: (value) => datesOfBirth.seal(value),
    openDateOfBirth: (sealed) => datesOfBirth.open(sealed),
  });
  const alerts = createAlertService(deps);
  const rescreens = createRescreenService({ ...deps, logger: deps.logger.child({ module: 'monitoring' }), screener, batchSize: config.MONITORING_BATCH_SIZE });

  const jobs = [
    defineJob({ ...screenContactJob, concurrency: 2, handler: (payload, ctx) => rescreens.screenContact(payload.contactId, ctx) }),
    // One version at a time per process: a re-screen already keeps a core busy.
    defineJob({ ...rescreenJob, concurrency: 1, handler: (payload, ctx) => rescreens.rescreen(payload.version, ctx) }),
  ] as JobDefinition[];

  return {
    services: { monitoringSubscriptions: subscriptions, monitoringAlerts: alerts, monitoringRescreens: rescreens },
    jobs,
    routes: { partner: (api) => registerMonitoringRoutes(api, { subscriptions, alerts }) },
  };
}
