// An attempt as an Onfido check: made once (found again by its tag after a crash), asked after until it
// completes, then read as PVS checks (onfido-results.ts) with the claimed identity from the applicant;
// and the evidence of the last attempt whose check completed, with Onfido's own results behind those
// checks (onfido-breakdown.ts), from the same reports read live.
import type { Check, CheckBuilder, ReportName } from '@onfido/api';
import type { Clock } from '../../../platform/clock.ts';
import type { Database } from '../../../platform/db/database.ts';
import type { Logger } from '../../../platform/logger.ts';
import type { EvidenceResult, IdentityEvidence, IdentityImage, IdentityUnavailable, VerifyResult } from '../identity-provider.ts';
import { alpha2Of, claimedOf, detailsOf, documentFieldsOf, type ApplicantRead, type DocumentProperties } from './onfido-applicant.ts';
import { providerResultsOf } from './onfido-breakdown.ts';
import { asBytes, bytesOf, type OnfidoClient } from './onfido-client.ts';
import type { OnfidoFailure } from './onfido-errors.ts';
import { findingsOf, type OnfidoReport } from './onfido-results.ts';
import * as store from './onfido-store.ts';

/**
 * Where Identity Enhanced (Onfido's check of name, date of birth and address against credit, electoral
 * and other records) is asked for, by the residential address's country. Australia only: PVS verifies
 * the people behind Australian entities, Onfido covers Australia, and elsewhere its sources vary by
 * country: a report that comes back `unidentified` for lack of sources would send people to manual review
 * for where they live rather than for who they are. (It is also paid per report.)
 */
export const identityRecordCountries: ReadonlySet<string> = new Set(['AU']);

/** Asked for every attempt: the document's authenticity, and the selfie against its photo. */
const alwaysReported: ReportName[] = ['document', 'facial_similarity_photo'];

/** A check still running after this long is given up on: the attempt ends unavailable and the person may submit again. */
export const checkGiveUpMs = 24 * 3600_000;

/** How long to wait before asking after a check again, by its age: often at first, rarely later. */
export function pollDelaySeconds(ageMs: number): number {
  const minutes = ageMs / 60_000;
  return minutes < 5 ? 30 : minutes < 15 ? 120 : minutes < 60 ? 600 : 1800;
}

const attemptTag = (attempt: number) => `pvs-attempt-${attempt}`;

/**
 * A failed read or check as an outage. A 404/410 of something PVS made means Onfido no longer holds it
 * (deleted there): nothing to wait for, so the attempt ends unavailable. A 422 here is a request we got wrong.
 */
function down(operation: string, failure: OnfidoFailure): IdentityUnavailable {
  if (failure.kind === 'unavailable') return failure;
  if (failure.kind === 'gone') return { ok: false, kind: 'unavailable', message: `Onfido ${operation}: Onfido no longer holds it (deleted there?)` };
  throw new Error(`Onfido ${operation}: refused fields ${failure.fields.join(', ') || '(none named)'}`);
}

/** JPEG or PNG by its first bytes, as cleanImage judged it before the upload. */
function imageOf(data: unknown): IdentityImage {
  const bytes = bytesOf(data);
  return { contentType: bytes[0] === 0x89 ? 'image/png' : 'image/jpeg', bytes };
}

export function createOnfidoChecks(deps: { db: Database; clock: Clock; onfido: OnfidoClient; logger?: Pick<Logger, 'info' | 'warn'> }) {
  const { db, clock, onfido } = deps;

  /** The attempt's check: found by its tag if a crash lost PVS's record of it, else made now. */
  async function startCheck(subject: store.OnfidoSubjectRow, attempt: number): Promise<{ row: store.OnfidoCheckRow; check?: Check } | IdentityUnavailable> {
    const document = await store.listDocument(db, subject.ref);
    const front = document.find((d) => d.side === 'front');
    const applicantId = subject.applicant_id;
    if (!applicantId || !front || !subject.live_photo_id) throw new Error(`Onfido identity: subject ${subject.ref} cannot be verified before every step is saved`);
    const back = document.find((d) => d.side === 'back');
    const tag = attemptTag(attempt);

    const listed = await onfido.call('check list', (api, o) => api.listChecks(applicantId, o));
    if (!listed.ok) return down('check list', listed);
    let check = listed.value.checks.find((c) => c.tags?.includes(tag));
    if (check) {
      deps.logger?.info({ subjectRef: subject.ref, attempt, checkId: check.id }, 'Onfido: found the check of an attempt PVS had not recorded; using it');
    } else {
      const applicant = await onfido.call('applicant read', (api, o) => api.findApplicant(applicantId, o));
      if (!applicant.ok) return down('applicant read', applicant);
      const residence = alpha2Of(applicant.value.address?.country ?? applicant.value.location?.country_of_residence);
      const request: CheckBuilder = {
        applicant_id: applicantId,
        report_names: identityRecordCountries.has(residence) ? [...alwaysReported, 'identity_enhanced'] : alwaysReported,
        document_ids: back ? [front.document_id, back.document_id] : [front.document_id],
        tags: [tag, `pvs-subject-${subject.ref}`],
      };
      const created = await onfido.call('check create', (api, o) => api.createCheck(request, o));
      if (!created.ok) return down('check create', created);
      check = created.value;
    }
    const row = await store.insertCheck(db, {
      subject_ref: subject.ref,
      attempt,
      check_id: check.id,
      applicant_id: applicantId,
      document_type: front.document_type,
      front_document_id: front.document_id,
      back_document_id: back?.document_id ?? null,
      live_photo_id: subject.live_photo_id,
      created_at: clock.now(),
    });
    return { row, ...(row.check_id === check.id ? { check } : {}) };
  }

  /** A complete check's findings, Onfido's own results and the claimed identity, read live from Onfido. */
  async function readCompleted(row: store.OnfidoCheckRow) {
    const applicantId = row.applicant_id;
    const [reports, applicant] = await Promise.all([
      onfido.call('report list', (api, o) => api.listReports(row.check_id, o)),
      onfido.call('applicant read', (api, o) => api.findApplicant(applicantId, o)),
    ]);
    if (!reports.ok) return { ok: false, failure: reports, operation: 'report list' } as const;
    if (!applicant.ok) return { ok: false, failure: applicant, operation: 'applicant read' } as const;
    // The SDK's report union is wider than what the mapping reads; onfido-results.ts names what it reads.
    const all = reports.value.reports as unknown as Array<OnfidoReport & { properties?: DocumentProperties }>;
    const documentReport = all.find((r) => r.name === 'document');
    let country = alpha2Of(documentReport?.properties?.issuing_country);
    if (!country) {
      // Not read from the images (an unreadable document): the country it was uploaded as.
      const uploaded = await onfido.call('document read', (api, o) => api.findDocument(row.front_document_id, o));
      if (!uploaded.ok) return { ok: false, failure: uploaded, operation: 'document read' } as const;
      country = alpha2Of(uploaded.value.issuing_country);
    }
    const findings = findingsOf(all, row.document_type);
    return { ok: true, findings, providerResults: providerResultsOf(all), applicant: applicant.value as ApplicantRead, claimed: claimedOf(applicant.value as ApplicantRead, country), documentProperties: documentReport?.properties, country } as const;
  }

  async function answer(subject: store.OnfidoSubjectRow, row: store.OnfidoCheckRow, check: Check): Promise<VerifyResult> {
    const age = clock.now().getTime() - row.created_at.getTime();
    if (check.status === 'withdrawn') {
      deps.logger?.warn({ subjectRef: subject.ref, attempt: row.attempt, checkId: check.id }, 'Onfido: the check was withdrawn at Onfido');
      return { ok: false, kind: 'unavailable', message: `Onfido check ${check.id} was withdrawn at Onfido; it will not complete.` };
    }
    if (check.status !== 'complete') {
      // in_progress, awaiting_applicant, paused (held at Onfido, may resume), reopened: all may still complete.
      if (age >= checkGiveUpMs) return { ok: false, kind: 'unavailable', message: `Onfido check ${check.id} is still ${check.status ?? 'running'} after 24 hours.` };
      return { ok: false, kind: 'pending', retryInSeconds: pollDelaySeconds(age), message: `Onfido check ${check.id} is ${check.status ?? 'running'} (${Math.floor(age / 60_000)} min so far).` };
    }
    const read = await readCompleted(row);
    if (!read.ok) return down(read.operation, read.failure);
    await store.markCompleted(db, subject.ref, row.attempt, clock.now());
    return { ok: true, attempt: row.attempt, ...read.findings, claimed: read.claimed };
  }

  async function download(operation: string, request: Parameters<OnfidoClient['call']>[1]): Promise<IdentityImage | IdentityUnavailable | 'gone'> {
    const result = await onfido.call(operation, request, 'upload');
    if (result.ok) return imageOf(result.value);
    return result.kind === 'gone' ? 'gone' : down(operation, result);
  }

  return {
    async verify(subject: store.OnfidoSubjectRow, attempt: number): Promise<VerifyResult> {
      let row = await store.findCheck(db, subject.ref, attempt);
      let check: Check | undefined;
      if (!row) {
        const started = await startCheck(subject, attempt);
        if ('ok' in started) return started;
        ({ row, check } = started);
      }
      if (!check) {
        const checkId = row.check_id;
        const found = await onfido.call('check read', (api, o) => api.findCheck(checkId, o));
        if (!found.ok) return down('check read', found);
        check = found.value;
      }
      return answer(subject, row, check);
    },

    async evidence(subject: store.OnfidoSubjectRow, includeScans: boolean): Promise<EvidenceResult> {
      const notFound = { ok: false, kind: 'not_found', message: `Onfido no longer holds the applicant of subject ${subject.ref}.` } as const;
      let chosen: store.OnfidoCheckRow | undefined;
      for (const row of await store.listChecks(db, subject.ref)) {
        if (row.completed_at) {
          chosen = row;
          break;
        }
        const found = await onfido.call('check read', (api, o) => api.findCheck(row.check_id, o));
        if (!found.ok) return found.kind === 'gone' ? notFound : down('check read', found);
        if (found.value.status === 'complete') {
          chosen = { ...row, completed_at: await store.markCompleted(db, subject.ref, row.attempt, clock.now()) };
          break;
        }
      }
      if (!chosen) return { ok: true, evidence: null };
      const row = chosen;
      const read = await readCompleted(row);
      if (!read.ok) return read.failure.kind === 'gone' ? notFound : down(read.operation, read.failure);
      const evidence: IdentityEvidence = {
        attempt: row.attempt,
        verifiedAt: row.completed_at!,
        details: detailsOf(read.applicant),
        document: documentFieldsOf(row.document_type, read.documentProperties, read.country),
        claimed: read.claimed,
        faceMatch: read.findings.faceMatch,
        checks: read.findings.checks,
        providerResults: read.providerResults,
      };
      if (!includeScans) return { ok: true, evidence };
      const images = await Promise.all([
        download('document download', (api, o) => api.downloadDocument(row.front_document_id, { ...o, ...asBytes })),
        row.back_document_id ? download('document download', (api, o) => api.downloadDocument(row.back_document_id!, { ...o, ...asBytes })) : undefined,
        download('live photo download', (api, o) => api.downloadLivePhoto(row.live_photo_id, { ...o, ...asBytes })),
      ]);
      if (images.includes('gone')) return notFound;
      const failed = images.find((i): i is IdentityUnavailable => typeof i === 'object' && 'ok' in i);
      if (failed) return failed;
      const [front, back, selfie] = images as Array<IdentityImage | undefined>;
      return { ok: true, evidence: { ...evidence, document: { ...evidence.document, front, ...(back ? { back } : {}) }, selfie } };
    },
  };
}
