// Images people upload (identity documents, selfies). One rule for all of them: a JPEG or PNG, judged by
// its bytes (never by the file name or the declared type), at most 10 MiB, structurally whole, and
// stripped of its metadata (where and when it was taken, the camera, the software, comments) before it
// is kept or sent anywhere. Stripping removes segments and chunks and copies the compressed image data
// untouched, so nothing is decoded or re-encoded here (docs/decisions.md: why not sharp).
import { isJpeg, stripJpeg } from './images/jpeg.ts';
import { isPng, stripPng } from './images/png.ts';

export const maxImageBytes = 10 * 1024 * 1024;

export type ImageContentType = 'image/jpeg' | 'image/png';

/** An image that passed `cleanImage`: its type from its bytes, its metadata gone. */
export interface CleanImage {
  contentType: ImageContentType;
  bytes: Buffer;
  width: number;
  height: number;
}

/** What the format walkers return: the stripped file and the size its header declares. */
export type { StrippedImage } from './images/stripped-image.ts';

export type ImageRefusal = 'NOT_JPEG_OR_PNG' | 'TOO_LARGE' | 'DAMAGED';

/** Words for the person who uploaded the file, and for the problem's detail: `front: not a JPEG or PNG image`. */
export const imageRefusalMessages: Readonly<Record<ImageRefusal, string>> = {
  NOT_JPEG_OR_PNG: 'not a JPEG or PNG image',
  TOO_LARGE: 'larger than 10 MiB',
  DAMAGED: 'the image is damaged',
};

export type CleanImageResult = { ok: true; image: CleanImage } | { ok: false; reason: ImageRefusal; message: string };

function refuse(reason: ImageRefusal): CleanImageResult {
  return { ok: false, reason, message: imageRefusalMessages[reason] };
}

/**
 * Checks an uploaded file and returns it without metadata. A refusal is a value with a reason and its
 * words; nothing here throws for a bad file. A JPEG with nothing to drop is answered as a view of the
 * input's own bytes, not a copy (a phone photo's megabytes, on the hosted path's every upload): the
 * caller owns the upload and must not change it while the image is in use.
 */
export function cleanImage(input: Uint8Array): CleanImageResult {
  if (input.byteLength > maxImageBytes) return refuse('TOO_LARGE');
  const bytes = Buffer.from(input.buffer, input.byteOffset, input.byteLength);
  const [contentType, stripped] = isJpeg(bytes)
    ? (['image/jpeg', stripJpeg(bytes)] as const)
    : isPng(bytes)
      ? (['image/png', stripPng(bytes)] as const)
      : [undefined, undefined];
  if (!contentType) return refuse('NOT_JPEG_OR_PNG');
  if (!stripped) return refuse('DAMAGED');
  return { ok: true, image: { contentType, ...stripped } };
}
