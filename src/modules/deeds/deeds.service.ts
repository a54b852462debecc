// Deed analyses as the partner drives them: create (a signed upload), start (the file validated in
// CONTRACT §7's order), read, list and discard. The analysis itself runs in a job (deed-processing.service.ts).
//
// Invariants:
//   - a row holds ids, status, counts and times; the file's name, its text and what it names never reach it;
//   - start validates the stored object before anything changes: a rejected start leaves AWAITING_UPLOAD,
//     so the partner can upload again against the same id;
//   - discard destroys the document at once, whatever the state; it does not recall events or charges.
import type { Clock } from '../../platform/clock.ts';
import type { Database } from '../../platform/db/database.ts';
import { AppError, notFound, validationError } from '../../platform/errors.ts';
import { toPage } from '../../platform/http/pagination.ts';
import { newId } from '../../platform/ids.ts';
import type { JobQueue } from '../../platform/jobs/queue.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import type { DocumentStorage } from '../../providers/storage/storage.ts';
import type { ChargeService } from '../billing/charges.service.ts';
import { analyseDeedJob } from './deeds.jobs.ts';
import * as repo from './deeds.repository.ts';
import type { CreateDeedBody, DeedAnalysis } from './deeds.schemas.ts';

/** SPEC Limits: 25 MB, in binary units (CONTRACT §7). */
export const maxDeedBytes = 26_214_400;
export const maxDeedPages = 150;
const uploadMinutes = 15;

export type PdfInspection = { ok: true; pageCount: number } | { ok: false; reason: 'NOT_A_PDF' };

export interface DeedServiceDeps {
  db: Database;
  clock: Clock;
  storage: DocumentStorage;
  queue: JobQueue;
  charges: Pick<ChargeService, 'gate'>;
  /** Whether the partner has a verification request of this id. */
  ownsVerification(tenant: Tenant, id: string): Promise<boolean>;
  inspectPdf(bytes: Buffer): Promise<PdfInspection>;
}

export function storageKeyOf(id: string): string {
  return `deeds/${id}.pdf`;
}

export function toDeedAnalysis(row: repo.DeedRow): DeedAnalysis {
  return {
    id: row.id,
    status: row.status,
    verificationRequestId: row.verification_request_id,
    contactId: row.contact_id,
    pageCount: row.page_count,
    ocrPageCount: row.ocr_page_count,
    partyCount: row.party_count,
    beneficiaryClassCount: row.beneficiary_class_count,
    failureReason: row.failure_reason,
    uploadExpiresAt: row.upload_expires_at.toISOString(),
    documentPurgedAt: row.document_purged_at?.toISOString() ?? null,
    createdAt: row.created_at.toISOString(),
    startedAt: row.started_at?.toISOString() ?? null,
    finishedAt: row.finished_at?.toISOString() ?? null,
  };
}

export function createDeedService(deps: DeedServiceDeps) {
  const { db, clock, storage } = deps;

  async function own(tenant: Tenant, id: string): Promise<repo.DeedRow> {
    const row = await repo.findDeed(db, tenant, id);
    if (!row) throw notFound(`Deed analysis ${id}`);
    return row;
  }

  /** The start checks, in CONTRACT §7's order. Reads the object; changes nothing. */
  async function validateUpload(row: repo.DeedRow): Promise<{ byteSize: number; pageCount: number }> {
    const stat = await storage.stat(row.storage_key);
    if (!stat) throw new AppError('UPLOAD_NOT_FOUND', `No file has been uploaded for deed analysis ${row.id}: PUT the PDF to upload.url with upload.headers first (the URL lasts 15 minutes; create a new analysis for a new one)`);
    if (stat.size > maxDeedBytes) throw new AppError('FILE_TOO_LARGE', `The uploaded file is ${stat.size} bytes; a deed may be at most 25 MB (26,214,400 bytes). Upload a smaller file and start again`);
    const bytes = await storage.read(row.storage_key);
    if (!bytes) throw new AppError('UPLOAD_NOT_FOUND', `The file uploaded for deed analysis ${row.id} is no longer there: upload it again`);
    const inspection = await deps.inspectPdf(bytes);
    if (!inspection.ok) throw new AppError('NOT_A_PDF', 'The uploaded file is not a PDF that can be read (it is another kind of file, damaged, or protected by a password). Upload the deed as an unprotected PDF and start again');
    if (inspection.pageCount > maxDeedPages) throw new AppError('TOO_MANY_PAGES', `The PDF has ${inspection.pageCount} pages; a deed may have at most ${maxDeedPages}. Remove the pages that are not the deed and start again`);
    return { byteSize: bytes.length, pageCount: inspection.pageCount };
  }

  return {
    async create(tenant: Tenant, body: CreateDeedBody) {
      await deps.charges.gate(tenant, body.contactId);
      if (body.verificationRequestId && !(await deps.ownsVerification(tenant, body.verificationRequestId))) {
        throw validationError('/verificationRequestId', `You have no verification request ${body.verificationRequestId}`);
      }
      const now = clock.now();
      const id = newId('deedAnalysis', now.getTime());
      const key = storageKeyOf(id);
      await repo.insertDeed(db, {
        id,
        partner_id: tenant.partnerId,
        verification_request_id: body.verificationRequestId ?? null,
        contact_id: body.contactId ?? null,
        storage_key: key,
        // Unstarted uploads expire after 2 hours (CONTRACT §7); the URL itself lasts 15 minutes.
        upload_expires_at: new Date(now.getTime() + 2 * 3600_000),
        created_at: now,
      });
      const upload = await storage.signUpload(key, { analysisId: id, expiresAt: new Date(now.getTime() + uploadMinutes * 60_000) });
      return {
        deedAnalysis: { id, status: 'AWAITING_UPLOAD' as const },
        upload: { url: upload.url, headers: upload.headers, expiresAt: upload.expiresAt.toISOString() },
      };
    },

    async start(tenant: Tenant, id: string) {
      const row = await own(tenant, id);
      if (row.status !== 'AWAITING_UPLOAD') throw new AppError('INVALID_STATE', `Deed analysis ${id} is ${row.status}; only an analysis AWAITING_UPLOAD can be started`);
      if (row.upload_expires_at <= clock.now()) throw new AppError('UPLOAD_NOT_FOUND', `Deed analysis ${id} was not started within 2 hours of its creation; create a new one`);
      const facts = await validateUpload(row);
      await db.transaction(async (tx) => {
        const locked = (await repo.findDeed(tx, tenant, id, { lock: true }))!;
        if (locked.status !== 'AWAITING_UPLOAD') throw new AppError('INVALID_STATE', `Deed analysis ${id} is ${locked.status}; only an analysis AWAITING_UPLOAD can be started`);
        const now = clock.now();
        await repo.markStarted(tx, id, facts, now);
        await deps.queue.enqueue(tx, analyseDeedJob, { deedAnalysisId: id }, { key: `deed-analysis:${id}` });
      });
      return { deedAnalysis: { id, status: 'PROCESSING' as const } };
    },

    async get(tenant: Tenant, id: string): Promise<DeedAnalysis> {
      return toDeedAnalysis(await own(tenant, id));
    },

    async list(tenant: Tenant, query: { limit: number; from: number; status?: repo.DeedStatus }) {
      const page = toPage(await repo.listDeeds(db, tenant, query), query);
      return { ...page, data: page.data.map(toDeedAnalysis) };
    },

    /** How many analyses the partner created since `since`, by status (the portal's overview). */
    async countSince(tenant: Tenant, since: Date): Promise<Partial<Record<repo.DeedStatus, number>>> {
      return Object.fromEntries((await repo.countDeedsSince(db, tenant, since)).map((r) => [r.status, r.n]));
    },

    /** DISCARDED from any state; the document is destroyed now. Delivered events and charges stay. */
    async discard(tenant: Tenant, id: string): Promise<DeedAnalysis> {
      const row = await own(tenant, id);
      if (row.status !== 'DISCARDED') await repo.markEnded(db, id, 'DISCARDED', clock.now());
      await storage.delete(row.storage_key);
      await repo.markDocumentPurged(db, id, clock.now());
      return toDeedAnalysis((await repo.findDeed(db, tenant, id))!);
    },
  };
}

export type DeedService = ReturnType<typeof createDeedService>;
