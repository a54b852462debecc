// Documents and live photos: upload (multipart), find, download. The refusals Onfido documents at upload:
// a file that is not JPEG, PNG or PDF, or too large (3 MB for a document, 10 MB for a live photo: the
// smallest sizes Onfido states are not enforced, so the small test images pass); with
// `advanced_validation` (on unless false) a live photo with no face; with `validate_image_quality` a
// document image with no document. "No face" and "no document" are, here, an image of one flat colour.
import { randomUUID } from 'node:crypto';
import { ok, validationError, type Answer, type Handler, type HandlerContext } from './answers.ts';
import { applicantNamedBy, ownedBy, type HandlerDeps } from './applicants.ts';
import { documentJson, livePhotoJson, timestamp, type StoredDocument, type StoredFile } from './store.ts';
import { isFlatColour, kindOf, type FileKind } from './uploads.ts';

const megabyte = 1024 * 1024;

export const refusals = {
  notAFile: 'must be a file part',
  fileType: 'must be a JPEG, PNG or PDF file',
  unreadable: 'could not be read as an image',
  // Onfido's wording for a live photo without a face.
  noFace: 'Face not detected in image. Please note this validation can be disabled by setting the advanced_validation parameter to false.',
  noDocument: 'No document detected in image. Please note this validation can be disabled by setting the validate_image_quality parameter to false.',
};

/** The uploaded file judged: its kind, or the 422 Onfido answers. */
async function acceptFile(context: HandlerContext, limitMb: number, flatField: string | null, flatMessage: string): Promise<{ file: Omit<StoredFile, 'id' | 'applicantId' | 'createdAt'>; answer?: undefined } | { answer: Answer }> {
  const upload = context.files.get('file');
  if (!upload) return { answer: validationError({ file: [refusals.notAFile] }) };
  const kind: FileKind | null = kindOf(upload.data);
  if (!kind) return { answer: validationError({ file: [refusals.fileType] }) };
  if (upload.data.length > limitMb * megabyte) return { answer: validationError({ file: [`must be at most ${limitMb} MB`] }) };
  if (kind.fileType !== 'pdf') {
    const flat = await isFlatColour(upload.data);
    if (flat === null) return { answer: validationError({ file: [refusals.unreadable] }) };
    if (flat && flatField) return { answer: validationError({ [flatField]: [flatMessage] }) };
  }
  return { file: { data: upload.data, kind, fileName: upload.fileName || `upload.${kind.fileType}` } };
}

/** A download: the bytes as uploaded, with the type their bytes are. */
function download(file: StoredFile): Answer {
  return { status: 200, bytes: { data: file.data, contentType: file.kind.contentType, fileName: file.fileName } };
}

export function mediaHandlers({ store, presenter }: HandlerDeps): Record<string, Handler> {
  return {
    upload_document: async (context) => {
      const { body } = context;
      const applicant = applicantNamedBy(store, body.applicant_id);
      if (applicant.answer) return applicant.answer;
      const accepted = await acceptFile(context, 3, body.validate_image_quality === true ? 'document_detection' : null, refusals.noDocument);
      if (accepted.answer) return accepted.answer;
      const document: StoredDocument = {
        id: randomUUID(),
        applicantId: applicant.found.id,
        createdAt: timestamp(),
        ...accepted.file,
        type: String(body.type),
        ...(typeof body.side === 'string' ? { side: body.side } : {}),
        ...(typeof body.issuing_country === 'string' ? { issuingCountry: body.issuing_country } : {}),
      };
      store.documents.set(document.id, document);
      return ok(documentJson(presenter, document), 201);
    },

    find_document: ({ params }) => {
      const { found, answer } = ownedBy(store, store.documents.get(params.document_id!));
      return answer ?? ok(documentJson(presenter, found));
    },

    download_document: ({ params }) => {
      const { found, answer } = ownedBy(store, store.documents.get(params.document_id!));
      return answer ?? download(found);
    },

    upload_live_photo: async (context) => {
      const { body } = context;
      const applicant = applicantNamedBy(store, body.applicant_id);
      if (applicant.answer) return applicant.answer;
      const accepted = await acceptFile(context, 10, body.advanced_validation === false ? null : 'face_detection', refusals.noFace);
      if (accepted.answer) return accepted.answer;
      const photo: StoredFile = { id: randomUUID(), applicantId: applicant.found.id, createdAt: timestamp(), ...accepted.file };
      store.livePhotos.set(photo.id, photo);
      return ok(livePhotoJson(presenter, photo), 201);
    },

    find_live_photo: ({ params }) => {
      const { found, answer } = ownedBy(store, store.livePhotos.get(params.live_photo_id!));
      return answer ?? ok(livePhotoJson(presenter, found));
    },

    download_live_photo: ({ params }) => {
      const { found, answer } = ownedBy(store, store.livePhotos.get(params.live_photo_id!));
      return answer ?? download(found);
    },
  };
}
