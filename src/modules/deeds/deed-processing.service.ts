// The analysis of a started deed, run by the `deeds.analyse` job: read the document from storage, read
// its pages (text layer, OCR, the TFN scan: in a child with a deadline), extract, check the answer, then
// settle: REVIEW_READY with deed-analysis.completed and its charge, or FAILED with deed-analysis.failed,
// in the job's completing transaction. The document is deleted after the settlement commits; a crash in
// between leaves it to the sweep.
//
// Privacy: the pages and the extraction live in this function's memory only. Nothing here logs them; a
// TFN hit deletes the document before anything else happens and says only "TFN_CONTENT_DETECTED".
import { Value } from '@sinclair/typebox/value';
import type { Clock } from '../../platform/clock.ts';
import type { Database, Tx } from '../../platform/db/database.ts';
import type { JobContext } from '../../platform/jobs/job.ts';
import type { Logger } from '../../platform/logger.ts';
import type { Outbox } from '../../platform/outbox.ts';
import { tenantOf } from '../../platform/tenancy.ts';
import type { DeedExtractor } from '../../providers/extractor/extractor.ts';
import type { DocumentStorage } from '../../providers/storage/storage.ts';
import type { ChargeService } from '../billing/charges.service.ts';
import { deedAnalysisCompleted, deedAnalysisFailed } from '../webhooks/events/deeds.events.ts';
import { DeedExtraction, type DeedPage } from '../../providers/extractor/deed-payload.ts';
import type { PdfInspection } from './deeds.service.ts';
import { maxDeedBytes, maxDeedPages } from './deeds.service.ts';
import * as repo from './deeds.repository.ts';
import { quotesFound, withoutDatesOfBirth } from './quotes.ts';

export type PageReading = { ok: true; pages: DeedPage[]; ocrPages: number } | { ok: false; reason: 'NOT_A_PDF' | 'OCR_FAILED' | 'TFN_CONTENT_DETECTED' | 'TIMED_OUT' };

export interface DeedProcessingDeps {
  db: Database;
  clock: Clock;
  outbox: Outbox;
  storage: DocumentStorage;
  extractor: DeedExtractor;
  charges: Pick<ChargeService, 'chargeAccepted'>;
  logger: Logger;
  inspectPdf(bytes: Buffer): Promise<PdfInspection>;
  /** Text layer, OCR and TFN scan, killed at the deadline (TIMED_OUT). */
  readPages(bytes: Buffer): Promise<PageReading>;
  /** How long an analysis may run before the sweep calls its job dead: well past the pipeline's deadline. */
  stuckAfterSeconds: number;
}

type Outcome = { ok: true; extraction: DeedExtraction; ocrPages: number } | { ok: false; reason: repo.FailureReason };

export function createDeedProcessingService(deps: DeedProcessingDeps) {
  const { db, clock, storage, logger } = deps;

  async function purge(row: Pick<repo.DeedRow, 'id' | 'storage_key'>): Promise<void> {
    await storage.delete(row.storage_key);
    await repo.markDocumentPurged(db, row.id, clock.now());
  }

  /** Reads and extracts; never settles. A file replaced after start is checked again as start checks it. */
  async function outcomeOf(row: repo.DeedRow, ctx: JobContext): Promise<Outcome> {
    const bytes = await storage.read(row.storage_key);
    if (!bytes || bytes.length > maxDeedBytes) return { ok: false, reason: 'EXTRACTION_INVALID_OUTPUT' };
    const inspection = await deps.inspectPdf(bytes);
    if (!inspection.ok || inspection.pageCount > maxDeedPages) return { ok: false, reason: 'EXTRACTION_INVALID_OUTPUT' };
    const reading = await deps.readPages(bytes);
    if (!reading.ok) {
      if (reading.reason === 'TFN_CONTENT_DETECTED') await purge(row); // quarantined: deleted before anything else
      return { ok: false, reason: reading.reason === 'NOT_A_PDF' ? 'EXTRACTION_INVALID_OUTPUT' : reading.reason };
    }
    const extracted = await deps.extractor.extract(reading.pages, { signal: ctx.signal });
    if (!extracted.ok) {
      // A remote extractor that does not answer is worth the job's retries; the last one gives up.
      if (extracted.reason === 'UNAVAILABLE' && ctx.attempt < ctx.maxAttempts) throw new Error('The deed extractor is unavailable; the analysis will be tried again');
      return { ok: false, reason: extracted.reason === 'UNAVAILABLE' ? 'ANALYSIS_UNAVAILABLE' : 'EXTRACTION_INVALID_OUTPUT' };
    }
    if (!Value.Check(DeedExtraction, extracted.extraction)) return { ok: false, reason: 'EXTRACTION_INVALID_OUTPUT' };
    // No date of birth leaves in a quote (an SMSF deed prints `born …` beside its member-trustees).
    const extraction = withoutDatesOfBirth(extracted.extraction);
    if (!quotesFound(extraction, reading.pages)) return { ok: false, reason: 'EXTRACTION_INVALID_OUTPUT' };
    return { ok: true, extraction, ocrPages: reading.ocrPages };
  }

  async function settle(tx: Tx, id: string, outcome: Outcome): Promise<boolean> {
    const row = await repo.findDeedById(tx, id, { lock: true });
    // Discarded (or ended by the sweep) while it ran: nothing to send, nothing to charge.
    if (!row || row.status !== 'PROCESSING') return false;
    const now = clock.now();
    const ids = { deedAnalysisId: row.id, verificationRequestId: row.verification_request_id };
    if (outcome.ok) {
      const { extraction } = outcome;
      await repo.markReviewReady(tx, row.id, { partyCount: extraction.parties.length, beneficiaryClassCount: extraction.beneficiaryClasses.length, ocrPageCount: outcome.ocrPages }, now);
      await deps.outbox.emit(tx, deedAnalysisCompleted, { partnerId: row.partner_id, payload: { ...ids, ...extraction } });
      await deps.charges.chargeAccepted(tx, tenantOf(row.partner_id), {
        payer: row.contact_id ? { billedTo: 'CONTACT', contactId: row.contact_id } : { billedTo: 'PARTNER' },
        product: 'DEED_ANALYSIS',
        referenceId: row.id,
      });
    } else {
      await repo.markFailed(tx, row.id, outcome.reason, now);
      await deps.outbox.emit(tx, deedAnalysisFailed, { partnerId: row.partner_id, payload: { ...ids, failureReason: outcome.reason } });
    }
    return true;
  }

  return {
    async analyse(id: string, ctx: JobContext): Promise<void> {
      const row = await repo.findDeedById(db, id);
      // Ended meanwhile (discarded, or failed by the sweep): nothing to do.
      if (!row || row.status !== 'PROCESSING') return;
      const outcome = await outcomeOf(row, ctx);
      const settled = await ctx.complete((tx) => settle(tx, id, outcome));
      await purge(row);
      // Ids and the reason only: never what the deed says.
      logger.info({ deedAnalysisId: id, settled, outcome: outcome.ok ? 'REVIEW_READY' : outcome.reason }, 'deed analysis finished');
    },

    /** Every minute: uploads never started expire, dead analyses fail TIMED_OUT, left documents go. */
    async sweep(): Promise<void> {
      const now = clock.now();
      for (const { id } of await repo.listUnstarted(db, new Date(now.getTime() - 2 * 3600_000), 100)) {
        const ended = await db.transaction(async (tx) => {
          const row = await repo.findDeedById(tx, id, { lock: true });
          if (row?.status !== 'AWAITING_UPLOAD') return false;
          await repo.markEnded(tx, id, 'EXPIRED', now);
          return true;
        });
        if (ended) logger.info({ deedAnalysisId: id }, 'deed upload expired unstarted');
      }
      for (const { id } of await repo.listStuck(db, new Date(now.getTime() - deps.stuckAfterSeconds * 1000), 100)) {
        await db.transaction((tx) => settle(tx, id, { ok: false, reason: 'TIMED_OUT' }));
      }
      for (const row of await repo.listUnpurged(db, 100)) await purge(row);
    },
  };
}

export type DeedProcessingService = ReturnType<typeof createDeedProcessingService>;
