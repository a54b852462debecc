// Images as an identity provider receives them in tests: after PVS's cleanImage, as every hosted upload is.
import assert from 'node:assert/strict';
import { deflateSync } from 'node:zlib';
import { cleanImage } from '../../src/platform/images.ts';
import type { IdentityImage } from '../../src/providers/identity/identity-provider.ts';
import { pngChunk, pngSignature } from '../fixtures/images.ts';

/** What PVS sends: an image after cleanImage (a JPEG's EXIF, with its GPS position, goes). */
export function cleaned(bytes: Buffer): IdentityImage {
  const result = cleanImage(bytes);
  assert.ok(result.ok, 'a valid test image');
  return { contentType: result.image.contentType, bytes: result.image.bytes };
}

/** A 4×3 PNG whose pixels depend on `seed` (distinct images), or all one colour (`flat`: "no face", "no document"). */
export function png(seed: number, flat = false): IdentityImage {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(4, 0);
  header.writeUInt32BE(3, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const rows: number[] = [];
  for (let y = 0; y < 3; y++) {
    rows.push(0);
    for (let x = 0; x < 4; x++) rows.push(...(flat ? [90, 90, 90] : [(x * 60 + seed) % 256, (y * 90 + seed * 7) % 256, (seed * 13) % 256]));
  }
  return cleaned(Buffer.concat([pngSignature, pngChunk('IHDR', header), pngChunk('IDAT', deflateSync(Buffer.from(rows))), pngChunk('IEND')]));
}
