// The monitoring module's wiring: subscriptions, alerts, the screener the two jobs share, and the jobs.
import type { Clock } from '../../platform/clock.ts';
import { createSealer, deriveKey } from '../../platform/crypto.ts';
import type { Database } from '../../platform/db/database.ts';
import type { JobDefinition } from '../../platform/jobs/job.ts';
import type { JobQueue } from '../../platform/jobs/queue.ts';
import type { Logger } from '../../platform/logger.ts';
import type { Outbox } from '../../platform/outbox.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import type { ScreeningService } from '../screening/screening.service.ts';
import { createAlertService } from './alerts.service.ts';
import { monitoringJobs } from './monitoring.jobs.ts';
import { createRescreenService } from './rescreen.service.ts';
import { createScreener } from './screener.ts';
import { createSubscriptionService } from './subscriptions.service.ts';

export interface MonitoringModuleDeps {
  db: Database;
  clock: Clock;
  outbox: Outbox;
  queue: JobQueue;
  logger: Logger;
  screening: ScreeningService;
  secretKey: string;
  isEligible(tenant: Tenant): Promise<boolean>;
  /** Contacts per re-screen batch. */
  batchSize?: number;
}

export function createMonitoringModule(deps: MonitoringModuleDeps) {
  const datesOfBirth = createSealer(deriveKey(deps.secretKey, 'monitoring-dates-of-birth'));
  const screener = createScreener({
    clock: deps.clock,
    outbox: deps.outbox,
    screening: deps.screening,
    openDateOfBirth: (sealed) => datesOfBirth.open(sealed),
    subjectKey: deriveKey(deps.secretKey, 'monitoring-subjects'),
  });
  const subscriptions = createSubscriptionService({
    ...deps,
    sealDateOfBirth: (value) => datesOfBirth.seal(value),
    openDateOfBirth: (sealed) => datesOfBirth.open(sealed),
  });
  const alerts = createAlertService(deps);
  const rescreens = createRescreenService({ ...deps, logger: deps.logger.child({ module: 'monitoring' }), screener, batchSize: deps.batchSize ?? 500 });
  const jobs: JobDefinition[] = monitoringJobs({ rescreens });
  return { subscriptions, alerts, rescreens, jobs };
}

export type MonitoringModule = ReturnType<typeof createMonitoringModule>;
