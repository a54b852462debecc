// The lookups module's wiring: business lookups over the registers the composition root chose, billed
// through the billing gate, screened, processed by their job, and their /v1 routes (see README.md).
import type { Config } from '../../config.ts';
import type { Clock } from '../../platform/clock.ts';
import type { Database } from '../../platform/db/database.ts';
import type { Idempotency } from '../../platform/http/idempotency.ts';
import { defineJob, type JobDefinition } from '../../platform/jobs/job.ts';
import type { JobQueue } from '../../platform/jobs/queue.ts';
import type { Logger } from '../../platform/logger.ts';
import type { Module } from '../../platform/module.ts';
import type { Outbox } from '../../platform/outbox.ts';
import type { Registers } from '../../providers/register/index.ts';
import type { ChargeService } from '../billing/charges.service.ts';
import type { ScreeningService } from '../screening/screening.service.ts';
import { processLookupJob } from './lookups.jobs.ts';
import { registerLookupRoutes } from './lookups.routes.ts';
import { createLookupService, type LookupService } from './lookups.service.ts';

export { lookupJobSpecs } from './lookups.jobs.ts';

export interface LookupModuleDeps {
  db: Database;
  clock: Clock;
  logger: Logger;
  outbox: Outbox;
  queue: JobQueue;
  registers: Registers;
  config: Pick<Config, 'LOOKUP_READ_BUDGET'>;
  idempotency: Idempotency;
  charges: Pick<ChargeService, 'chargeNewWork' | 'voidCharge'>;
  screening: Pick<ScreeningService, 'screenPerson' | 'currentVersion'>;
}

export function createLookupModule(deps: LookupModuleDeps): Module<{ lookups: LookupService }> {
  const lookups = createLookupService({ ...deps, logger: deps.logger.child({ module: 'lookups' }), readBudget: deps.config.LOOKUP_READ_BUDGET });
  const jobs = [defineJob({ ...processLookupJob, concurrency: 4, handler: (payload, ctx) => lookups.process(payload.lookupId, ctx) })] as JobDefinition[];
  return {
    services: { lookups },
    jobs,
    routes: { partner: (api) => registerLookupRoutes(api, { lookups, idempotency: deps.idempotency }) },
  };
}
