// The deed-analysis module's wiring: its two services, its jobs and its /v1 routes, from the platform
// pieces, the providers the composition root chose (storage, extractor) and the page reader (pipeline/).
import { availableParallelism } from 'node:os';
import type { Config } from '../../config.ts';
import type { Clock } from '../../platform/clock.ts';
import type { Database } from '../../platform/db/database.ts';
import { AppError } from '../../platform/errors.ts';
import { defineJob, type JobDefinition } from '../../platform/jobs/job.ts';
import type { JobQueue } from '../../platform/jobs/queue.ts';
import type { Logger } from '../../platform/logger.ts';
import type { Module } from '../../platform/module.ts';
import type { Outbox } from '../../platform/outbox.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import type { DeedExtractor } from '../../providers/extractor/extractor.ts';
import type { DocumentStorage } from '../../providers/storage/storage.ts';
import type { ChargeService } from '../billing/charges.service.ts';
import type { VerificationService } from '../verifications/verifications.service.ts';
import { createDeedProcessingService, type DeedProcessingService } from './deed-processing.service.ts';
import { analyseDeedJob, sweepDeedsJob } from './deeds.jobs.ts';
import { registerDeedRoutes } from './deeds.routes.ts';
import { createDeedService, type DeedService } from './deeds.service.ts';
import { inspectPdf } from './pipeline/inspect.ts';
import { readDeedPages } from './pipeline/read-pages.ts';

export { deedJobSpecs } from './deeds.jobs.ts';

export interface DeedModuleDeps {
  db: Database;
  clock: Clock;
  outbox: Outbox;
  queue: JobQueue;
  logger: Logger;
  charges: Pick<ChargeService, 'gate' | 'chargeAccepted'>;
  verifications: Pick<VerificationService, 'get'>;
  storage: DocumentStorage;
  extractor: DeedExtractor;
  /** DEED_OCR_CONCURRENCY: 0 is one page per core. */
  config: Pick<Config, 'DEED_DEADLINE_SECONDS' | 'DEED_OCR_CONCURRENCY'>;
}

export function createDeedModule(deps: DeedModuleDeps): Module<{ deeds: DeedService; deedProcessing: DeedProcessingService }> {
  const deadlineSeconds = deps.config.DEED_DEADLINE_SECONDS;
  const ocrConcurrency = deps.config.DEED_OCR_CONCURRENCY || availableParallelism();
  const ownsVerification = async (tenant: Tenant, id: string) => {
    try {
      await deps.verifications.get(tenant, id);
      return true;
    } catch (error) {
      if (error instanceof AppError && error.code === 'NOT_FOUND') return false;
      throw error;
    }
  };
  const deeds = createDeedService({ ...deps, inspectPdf, ownsVerification });
  const processing = createDeedProcessingService({
    ...deps,
    logger: deps.logger.child({ module: 'deeds' }),
    inspectPdf,
    readPages: (bytes) => readDeedPages(bytes, { deadlineMs: deadlineSeconds * 1000, concurrency: ocrConcurrency }),
    // The job's own deadline kills the reading; the sweep waits twice as long plus the job's retries.
    stuckAfterSeconds: deadlineSeconds * 2 + 600,
  });

  const jobs = [
    // One at a time per process: an analysis already uses every core for OCR.
    defineJob({ ...analyseDeedJob, concurrency: 1, handler: (payload, ctx) => processing.analyse(payload.deedAnalysisId, ctx) }),
    defineJob({ ...sweepDeedsJob, handler: () => processing.sweep() }),
  ] as JobDefinition[];

  return {
    services: { deeds, deedProcessing: processing },
    jobs,
    routes: { partner: (api) => registerDeedRoutes(api, { deeds }) },
  };
}
