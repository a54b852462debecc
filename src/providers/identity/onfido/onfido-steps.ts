// The hosted flow's steps saved at Onfido: details as the applicant, the document's sides and the selfie
// as uploads to it. Each save replaces the step in PVS's record (onfido-store.ts) once Onfido has taken it.
//
// Onfido takes no change to an applicant once a check was made for it. Details saved again after an
// attempt therefore go to a new applicant, with the current document and live photo copied there (read
// from the old applicant, uploaded to the new), and the subject moves to it; the old applicant stays, with
// the checks of the earlier attempts, as their evidence, until the subject is forgotten.
//
// An applicant holds the person's name, date of birth and address, so each one is recorded
// (onfido-store.ts) as soon as Onfido answers its create, before anything else is done with it, and
// forget deletes every one recorded. One the subject did not move to (the copy failed or was refused, or
// another save got there first) is deleted at once, and its record dropped only once Onfido confirms it
// gone; a delete that fails leaves the record for forget. An applicant whose create Onfido made but whose
// answer never arrived (a timeout) is the one PVS cannot know of: Onfido gives it no reference of ours.
import type { ApplicantBuilder, CountryCodes } from '@onfido/api';
import type { Clock } from '../../../platform/clock.ts';
import type { Database } from '../../../platform/db/database.ts';
import type { IdentityDocument, IdentityImage, IdentityRejected, IdentityUnavailable, PersonDetails } from '../identity-provider.ts';

/** A step saved with Onfido, or why not (the adapter adds what is still missing). */
export type StepSaved = { ok: true } | IdentityRejected | IdentityUnavailable;
import { alpha3Of, applicantOf } from './onfido-applicant.ts';
import { asBytes, bytesOf, type CallResult, type OnfidoClient } from './onfido-client.ts';
import { detailsRejected, imageRejected, type OnfidoFailure } from './onfido-errors.ts';
import * as store from './onfido-store.ts';

const onfidoDocumentTypes = { PASSPORT: 'passport', DRIVER_LICENCE: 'driving_licence' } as const;

const notBeforeDetails = (pointer: string): IdentityRejected => ({ ok: false, kind: 'rejected', pointer, message: 'cannot be saved before your details: enter your details first' });

/** A failure on a save that is neither Onfido down nor the person's input: our mistake, thrown. */
function saveFailure(operation: string, failure: OnfidoFailure, rejected: (fields: string[]) => IdentityRejected): StepSaved {
  if (failure.kind === 'unavailable') return failure;
  if (failure.kind === 'validation') return rejected(failure.fields);
  throw new Error(`Onfido ${operation}: the applicant is gone at Onfido (forgotten, or deleted there)`);
}

/** What must succeed or be an outage: a refusal or a missing resource here is ours to fix. */
function needed<T>(operation: string, result: CallResult<T>): T | IdentityUnavailable {
  if (result.ok) return result.value;
  if (result.kind === 'unavailable') return result;
  throw new Error(`Onfido ${operation}: ${result.kind === 'gone' ? 'not found' : `refused fields ${result.fields.join(', ') || '(none named)'}`}`);
}

const isOutage = (value: unknown): value is IdentityUnavailable => typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'unavailable';

const fileName = (name: string, image: Pick<IdentityImage, 'bytes'>) => `${name}.${image.bytes[0] === 0x89 ? 'png' : 'jpg'}`;

export function createOnfidoSteps(deps: { db: Database; clock: Clock; onfido: OnfidoClient; subjectOf(ref: string): Promise<store.OnfidoSubjectRow> }) {
  const { db, clock, onfido } = deps;

  /**
   * An applicant the subject did not move to, deleted at Onfido; its record goes only once Onfido has
   * deleted it (a 404/410 is already gone), otherwise it stays for forget to delete.
   */
  async function discard(subjectRef: string, applicantId: string): Promise<void> {
    const deleted = await onfido.call('applicant delete', (api, o) => api.deleteApplicant(applicantId, o));
    if (deleted.ok || deleted.kind === 'gone') await store.dropApplicant(db, subjectRef, applicantId);
  }

  /** The current document and live photo, uploaded again to applicant `to`: without validation, they passed it once. */
  async function copySteps(subject: store.OnfidoSubjectRow, to: string) {
    const sides: Array<{ side: 'front' | 'back'; documentId: string }> = [];
    const document = await store.listDocument(db, subject.ref);
    if (document[0]) {
      const front = needed('document read', await onfido.call('document read', (api, o) => api.findDocument(document[0]!.document_id, o)));
      if (isOutage(front)) return front;
      for (const { side, document_id } of document) {
        const bytes = needed('document download', await onfido.call('document download', (api, o) => api.downloadDocument(document_id, { ...o, ...asBytes }), 'upload'));
        if (isOutage(bytes)) return bytes;
        const data = bytesOf(bytes);
        const copy = needed('document upload (copy)', await onfido.call('document upload (copy)', (api, o, sdk) => api.uploadDocument(front.type!, to, new sdk.FileTransfer(data, fileName(side, { bytes: data })), undefined, side, front.issuing_country, false, undefined, o), 'upload'));
        if (isOutage(copy)) return copy;
        sides.push({ side, documentId: copy.id });
      }
    }
    let livePhotoId: string | null = null;
    if (subject.live_photo_id) {
      const photoId = subject.live_photo_id;
      const bytes = needed('live photo download', await onfido.call('live photo download', (api, o) => api.downloadLivePhoto(photoId, { ...o, ...asBytes }), 'upload'));
      if (isOutage(bytes)) return bytes;
      const data = bytesOf(bytes);
      const copy = needed('live photo upload (copy)', await onfido.call('live photo upload (copy)', (api, o, sdk) => api.uploadLivePhoto(to, new sdk.FileTransfer(data, fileName('selfie', { bytes: data })), false, o), 'upload'));
      if (isOutage(copy)) return copy;
      livePhotoId = copy.id;
    }
    return { document: document[0] ? { type: document[0].document_type, sides } : null, livePhotoId };
  }

  async function saveDetails(subjectRef: string, details: PersonDetails): Promise<StepSaved> {
    const subject = await deps.subjectOf(subjectRef);
    // Onfido's types name countries as a closed list; ours are alpha-2 codes checked upstream, made alpha-3.
    const fields = applicantOf(details) as ApplicantBuilder;
    const current = subject.applicant_id;
    if (current) {
      const listed = needed('check list', await onfido.call('check list', (api, o) => api.listChecks(current, o)));
      if (isOutage(listed)) return listed;
      if (listed.checks.length === 0) {
        const updated = await onfido.call('applicant update', (api, o) => api.updateApplicant(current, fields, o));
        return updated.ok ? { ok: true } : saveFailure('applicant update', updated, (f) => detailsRejected('applicant update', f));
      }
    }
    const created = await onfido.call('applicant create', (api, o) => api.createApplicant(fields, o));
    if (!created.ok) return saveFailure('applicant create', created, (f) => detailsRejected('applicant create', f));
    const applicantId = created.value.id;
    let moved: boolean | IdentityUnavailable;
    try {
      await store.recordApplicant(db, subjectRef, applicantId, clock.now());
      moved = await moveTo(subject, applicantId);
    } catch (error) {
      // A copy Onfido refused (404/422), or a record that could not be written, is thrown, but the
      // applicant goes first. The error reported is this one: a clean-up that fails too leaves the record
      // (when there is one) for forget.
      await discard(subjectRef, applicantId).catch(() => undefined);
      throw error;
    }
    if (moved === true) return { ok: true };
    await discard(subjectRef, applicantId);
    if (moved !== false) return moved;
    // Another save of this step got there first: the details are saved again to wherever the subject is now.
    return saveDetails(subjectRef, details);
  }

  /** The subject moved to its new applicant (true), another save moved it first (false), or the outage that stopped the copy. */
  async function moveTo(subject: store.OnfidoSubjectRow, applicantId: string): Promise<boolean | IdentityUnavailable> {
    if (!subject.applicant_id) return store.setApplicant(db, subject.ref, applicantId, clock.now());
    const copied = await copySteps(subject, applicantId);
    if (isOutage(copied)) return copied;
    return store.switchApplicant(db, subject.ref, { from: subject.applicant_id, to: applicantId, ...copied }, clock.now());
  }

  return {
    saveDetails,

    async saveDocument(subjectRef: string, document: IdentityDocument): Promise<StepSaved> {
      if (document.type === 'MEDICARE') {
        return { ok: false, kind: 'rejected', pointer: '/type', message: 'cannot be checked here: use a passport or an Australian driver licence' };
      }
      const type = onfidoDocumentTypes[document.type];
      const applicantId = (await deps.subjectOf(subjectRef)).applicant_id;
      if (!applicantId) return notBeforeDetails('/front');
      // PVS's driver licences are Australian (the hosted flow says so); a passport is of the country entered.
      const country = (document.type === 'DRIVER_LICENCE' ? 'AUS' : alpha3Of(document.issuingCountry)) as CountryCodes;
      const sides = document.back ? ([['front', document.front], ['back', document.back]] as const) : ([['front', document.front]] as const);
      const uploaded: Array<{ side: 'front' | 'back'; documentId: string }> = [];
      for (const [side, image] of sides) {
        const operation = `document upload (${side})`;
        const result = await onfido.call(
          operation,
          (api, o, sdk) => api.uploadDocument(type, applicantId, new sdk.FileTransfer(image.bytes, fileName(side, image)), undefined, side, country, true, undefined, o),
          'upload',
        );
        if (!result.ok) return saveFailure(operation, result, (f) => imageRejected(`/${side}`, f));
        uploaded.push({ side, documentId: result.value.id });
      }
      await store.replaceDocument(db, subjectRef, document.type, uploaded, clock.now());
      return { ok: true };
    },

    async saveSelfie(subjectRef: string, selfie: IdentityImage): Promise<StepSaved> {
      const applicantId = (await deps.subjectOf(subjectRef)).applicant_id;
      if (!applicantId) return notBeforeDetails('/image');
      const result = await onfido.call('live photo upload', (api, o, sdk) => api.uploadLivePhoto(applicantId, new sdk.FileTransfer(selfie.bytes, fileName('selfie', selfie)), true, o), 'upload');
      if (!result.ok) return saveFailure('live photo upload', result, (f) => imageRejected('/image', f));
      await store.setLivePhoto(db, subjectRef, result.value.id, clock.now());
      return { ok: true };
    },
  };
}
