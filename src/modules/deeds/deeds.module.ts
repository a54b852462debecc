// The deed-analysis module's wiring: its two services and its jobs, from the platform pieces and the
// providers the composition root chose (storage, extractor) and the page reader.
import type { Clock } from '../../platform/clock.ts';
import type { Database } from '../../platform/db/database.ts';
import { AppError } from '../../platform/errors.ts';
import type { JobDefinition } from '../../platform/jobs/job.ts';
import type { JobQueue } from '../../platform/jobs/queue.ts';
import type { Logger } from '../../platform/logger.ts';
import type { Outbox } from '../../platform/outbox.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import type { DeedExtractor } from '../../providers/extractor/extractor.ts';
import type { DocumentStorage } from '../../providers/storage/storage.ts';
import type { ChargeService } from '../billing/charges.service.ts';
import type { VerificationService } from '../verifications/verifications.service.ts';
import { createDeedProcessingService, type PageReading } from './deed-processing.service.ts';
import { deedJobs } from './deeds.jobs.ts';
import { createDeedService, type PdfInspection } from './deeds.service.ts';

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
  inspectPdf(bytes: Buffer): Promise<PdfInspection>;
  readPages(bytes: Buffer): Promise<PageReading>;
  deadlineSeconds: number;
}

export function createDeedModule(deps: DeedModuleDeps) {
  const ownsVerification = async (tenant: Tenant, id: string) => {
    try {
      await deps.verifications.get(tenant, id);
      return true;
    } catch (error) {
      if (error instanceof AppError && error.code === 'NOT_FOUND') return false;
      throw error;
    }
  };
  const deeds = createDeedService({ ...deps, ownsVerification });
  const processing = createDeedProcessingService({
    ...deps,
    logger: deps.logger.child({ module: 'deeds' }),
    // The job's own deadline kills the reading; the sweep waits twice as long plus the job's retries.
    stuckAfterSeconds: deps.deadlineSeconds * 2 + 600,
  });
  const jobs: JobDefinition[] = deedJobs({ processing });
  return { deeds, processing, jobs };
}
