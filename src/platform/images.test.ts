// The image rule: JPEG or PNG by their bytes, at most 10 MiB, whole, and without metadata afterwards. The
// fixtures are built in code (test/fixtures/images.ts); a stripped file is compared byte for byte with the
// same image built without its metadata, and a PNG's pixel data is inflated to show it survived.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import {
  cameraMake,
  exifSegment,
  inflatedPngData,
  jpegSegment,
  pngChunk,
  pngSignature,
  sampleJpeg,
  samplePng,
  samplePngRows,
  xmpSegment,
} from '../../test/fixtures/images.ts';
import { cleanImage, maxImageBytes, type CleanImage, type ImageRefusal } from './images.ts';
import { exifOrientation, orientationSegment } from './images/jpeg.ts';

function cleaned(bytes: Uint8Array): CleanImage {
  const result = cleanImage(bytes);
  assert.ok(result.ok, `expected the image to be accepted, got ${JSON.stringify(result)}`);
  return result.image;
}

function refusal(bytes: Uint8Array): ImageRefusal {
  const result = cleanImage(bytes);
  assert.ok(!result.ok, 'expected the image to be refused');
  return result.reason;
}

const gpsLatitudeLE = Buffer.from([33, 0, 0, 0, 1, 0, 0, 0, 51, 0, 0, 0, 1, 0, 0, 0]);

describe('cleanImage: JPEG', () => {
  it('strips EXIF with GPS, XMP, comments, other APPn segments, the JFIF thumbnail and what follows EOI, keeping the orientation', () => {
    const dirty = sampleJpeg({
      jfif: 'with-thumbnail',
      before: [exifSegment({ order: 'II', orientation: 6 }), xmpSegment, jpegSegment(0xe2, 'ICC_PROFILE\0\x01\x01profile'), jpegSegment(0xfe, 'taken at home')],
      middle: [jpegSegment(0xed, 'Photoshop 3.0\x008BIM caption'), jpegSegment(0xef, 'vendor')],
      trailer: Buffer.from('a motion photo video and an MPF image'),
    });
    assert.ok(dirty.includes(gpsLatitudeLE) && dirty.includes(cameraMake));

    const image = cleaned(dirty);
    assert.equal(image.contentType, 'image/jpeg');
    assert.deepEqual([image.width, image.height], [16, 16]);
    // The same image built without metadata, with only the rebuilt orientation segment added.
    assert.deepEqual(image.bytes, sampleJpeg({ jfif: 'plain', before: [orientationSegment(6)] }));
    for (const text of [cameraMake, 'ns.adobe.com', 'ICC_PROFILE', 'taken at home', 'Photoshop', 'vendor', 'motion photo']) {
      assert.ok(!image.bytes.includes(text), `${text} is still in the image`);
    }
    assert.ok(!image.bytes.includes(gpsLatitudeLE));
    assert.equal(exifOrientation(image.bytes.subarray(image.bytes.indexOf('Exif'))), 6);
  });

  it('reads the orientation of big- and little-endian EXIF, and keeps no EXIF at all when the photo is upright', () => {
    for (const order of ['II', 'MM'] as const) {
      for (const orientation of [3, 8]) {
        const image = cleaned(sampleJpeg({ before: [exifSegment({ order, orientation })] }));
        assert.deepEqual(image.bytes, sampleJpeg({ before: [orientationSegment(orientation)] }), `${order} ${orientation}`);
      }
      assert.deepEqual(cleaned(sampleJpeg({ before: [exifSegment({ order, orientation: 1 })] })).bytes, sampleJpeg());
    }
    // An EXIF block that is malformed gives no orientation; the image is still accepted.
    const broken = jpegSegment(0xe1, Buffer.concat([Buffer.from('Exif\0\0II*\0', 'latin1'), Buffer.from([0xff, 0xff, 0, 0])]));
    assert.deepEqual(cleaned(sampleJpeg({ before: [broken] })).bytes, sampleJpeg());
  });

  it('keeps an Adobe APP14, which says how to convert the colours, and a clean JPEG unchanged', () => {
    const adobe = jpegSegment(0xee, Buffer.from([0x41, 0x64, 0x6f, 0x62, 0x65, 0, 100, 0, 0, 0, 0, 1]));
    assert.deepEqual(cleaned(sampleJpeg({ before: [adobe] })).bytes, sampleJpeg({ before: [adobe] }));
    assert.deepEqual(cleaned(sampleJpeg()).bytes, sampleJpeg());
    // Cleaning twice changes nothing more.
    const once = cleaned(sampleJpeg({ before: [exifSegment({ orientation: 5 })] })).bytes;
    assert.deepEqual(cleaned(once).bytes, once);
  });

  it('refuses a damaged JPEG', () => {
    const good = sampleJpeg();
    const eoi = good.length - 2;
    const sos = good.indexOf(Buffer.from([0xff, 0xda]));
    const sof = good.indexOf(Buffer.from([0xff, 0xc0]));
    const dqt = good.indexOf(Buffer.from([0xff, 0xdb]));
    const cases: Record<string, Buffer> = {
      'cut inside the scan': good.subarray(0, sos + 14),
      'no EOI': good.subarray(0, eoi),
      'a segment longer than the file': Buffer.concat([good.subarray(0, 2), Buffer.from([0xff, 0xfe, 0xff, 0xff]), good.subarray(2)]),
      'a segment length below 2': Buffer.concat([good.subarray(0, 2), Buffer.from([0xff, 0xfe, 0x00, 0x01]), good.subarray(2)]),
      'no frame header': Buffer.concat([good.subarray(0, sof), good.subarray(sof + 2 + good.readUInt16BE(sof + 2))]),
      'no quantisation table': Buffer.concat([good.subarray(0, dqt), good.subarray(dqt + 2 + good.readUInt16BE(dqt + 2))]),
      'a scan of a component the frame lacks': Buffer.from(good).fill(7, sos + 5, sos + 6),
      'width 0': Buffer.from(good).fill(0, sof + 7, sof + 9),
      'no scan': Buffer.concat([good.subarray(0, sos), Buffer.from([0xff, 0xd9])]),
      'garbage after SOI': Buffer.concat([good.subarray(0, 3), Buffer.from('not a marker')]),
      'a second SOI': Buffer.concat([good.subarray(0, 2), good]),
      'a reserved marker': Buffer.concat([good.subarray(0, 2), Buffer.from([0xff, 0xf7, 0x00, 0x02]), good.subarray(2)]),
    };
    for (const [name, bytes] of Object.entries(cases)) assert.equal(refusal(bytes), 'DAMAGED', name);
  });
});

describe('cleanImage: PNG', () => {
  const gamma = pngChunk('gAMA', Buffer.from([0, 0, 0xb1, 0x8f]));
  const srgb = pngChunk('sRGB', Buffer.from([0]));
  const transparency = pngChunk('tRNS', Buffer.from([0, 0, 0, 0, 0, 200]));

  it('strips text, EXIF, time and other ancillary chunks and what follows IEND; the pixels are untouched', () => {
    const dirty = samplePng({
      before: [
        gamma,
        pngChunk('tEXt', 'Author\0Jane Citizen'),
        pngChunk('zTXt', 'Comment\0\0compressed'),
        pngChunk('iTXt', 'XML:com.adobe.xmp\0\0\0\0\0<x:xmpmeta/>'),
        pngChunk('eXIf', exifSegment({ order: 'MM', orientation: 6 }).subarray(10)),
        pngChunk('iCCP', 'Display P3\0\0profile'),
        pngChunk('pHYs', Buffer.from([0, 0, 11, 19, 0, 0, 11, 19, 1])),
        srgb,
        transparency,
      ],
      after: [pngChunk('tIME', Buffer.from([7, 234, 1, 2, 3, 4, 5])), pngChunk('prVt', 'private')],
      idatChunks: 3,
      trailer: Buffer.from('appended data'),
    });
    const image = cleaned(dirty);
    assert.equal(image.contentType, 'image/png');
    assert.deepEqual([image.width, image.height], [4, 3]);
    assert.deepEqual(image.bytes, samplePng({ before: [gamma, srgb, transparency], idatChunks: 3 }));
    for (const text of ['Jane Citizen', 'tEXt', 'zTXt', 'iTXt', 'eXIf', 'iCCP', 'pHYs', 'tIME', 'prVt', cameraMake, 'appended']) {
      assert.ok(!image.bytes.includes(text), `${text} is still in the image`);
    }
    assert.deepEqual(inflatedPngData(image.bytes), samplePngRows());
  });

  it('leaves a clean PNG as it is', () => {
    assert.deepEqual(cleaned(samplePng()).bytes, samplePng());
  });

  it('refuses a damaged PNG', () => {
    const good = samplePng({ idatChunks: 2 });
    const firstIdat = good.indexOf('IDAT') - 4;
    const iend = good.indexOf('IEND') - 4;
    const header = Buffer.from(good.subarray(8, 33));
    const withHeader = (edit: (data: Buffer) => void) => {
      const chunk = Buffer.from(header);
      edit(chunk.subarray(8, 21));
      return Buffer.concat([pngSignature, pngChunk('IHDR', chunk.subarray(8, 21)), good.subarray(33)]);
    };
    const cases: Record<string, Buffer> = {
      'a bad CRC': Buffer.from(good).fill(0, 29, 33),
      truncated: good.subarray(0, good.length - 20),
      'no IEND': good.subarray(0, iend),
      'IHDR not first': Buffer.concat([pngSignature, pngChunk('gAMA', Buffer.from([0, 0, 0xb1, 0x8f])), good.subarray(8)]),
      'IDAT chunks apart': Buffer.concat([good.subarray(0, iend), gamma, samplePng().subarray(firstIdat, samplePng().indexOf('IEND') - 4), good.subarray(iend)]),
      'no IDAT': Buffer.concat([good.subarray(0, firstIdat), good.subarray(iend)]),
      'an unknown critical chunk': Buffer.concat([good.subarray(0, firstIdat), pngChunk('ZZZZ', 'x'), good.subarray(firstIdat)]),
      'width 0': withHeader((d) => d.fill(0, 0, 4)),
      'bit depth 3': withHeader((d) => d.fill(3, 8, 9)),
      'an indexed image without a palette': withHeader((d) => d.fill(3, 9, 10)),
      'IDAT that is not zlib': Buffer.concat([good.subarray(0, firstIdat), pngChunk('IDAT', 'plain text'), good.subarray(iend)]),
    };
    for (const [name, bytes] of Object.entries(cases)) assert.equal(refusal(bytes), 'DAMAGED', name);
  });
});

describe('cleanImage: what is refused before looking inside', () => {
  it('judges the type by the bytes: anything but a JPEG or PNG is refused', () => {
    const others: Record<string, Buffer> = {
      empty: Buffer.alloc(0),
      GIF: Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1'),
      WebP: Buffer.from('RIFF\x1a\x00\x00\x00WEBPVP8 ', 'latin1'),
      PDF: Buffer.from('%PDF-1.7\n'),
      HEIC: Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypheic')]),
      'a JPEG with its first byte lost': sampleJpeg().subarray(1),
      'a PNG signature with the wrong line ending': Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0d]), samplePng().subarray(8)]),
    };
    for (const [name, bytes] of Object.entries(others)) assert.equal(refusal(bytes), 'NOT_JPEG_OR_PNG', name);
    assert.deepEqual(cleanImage(Buffer.from('%PDF')), { ok: false, reason: 'NOT_JPEG_OR_PNG', message: 'not a JPEG or PNG image' });
  });

  it('accepts 10 MiB and refuses a byte more, whatever the bytes', () => {
    const jpeg = sampleJpeg();
    const exactly = Buffer.concat([jpeg, Buffer.alloc(maxImageBytes - jpeg.length)]);
    assert.deepEqual(cleaned(exactly).bytes, jpeg);
    assert.deepEqual(cleanImage(Buffer.concat([exactly, Buffer.from([0])])), { ok: false, reason: 'TOO_LARGE', message: 'larger than 10 MiB' });
    assert.equal(refusal(Buffer.alloc(maxImageBytes + 1)), 'TOO_LARGE');
  });

  it('says a damaged image is damaged', () => {
    assert.deepEqual(cleanImage(samplePng().subarray(0, 20)), { ok: false, reason: 'DAMAGED', message: 'the image is damaged' });
  });

  it('answers the upload’s own bytes when it has nothing to drop, and new bytes when it had', () => {
    const plain = sampleJpeg();
    const kept = cleaned(plain);
    assert.deepEqual(kept.bytes, plain);
    assert.ok(kept.bytes.buffer === plain.buffer && kept.bytes.byteOffset === plain.byteOffset, 'no copy of a picture that had no metadata');
    const withMetadata = sampleJpeg({ before: [xmpSegment] });
    const stripped = cleaned(withMetadata);
    withMetadata.fill(0);
    assert.ok(stripped.bytes.some((byte) => byte !== 0), 'the stripped image is its own');
  });
});

describe('cleanImage on broken files', () => {
  const dirtyJpeg = sampleJpeg({ jfif: 'with-thumbnail', before: [exifSegment({ orientation: 6 }), xmpSegment] });
  const dirtyPng = samplePng({ before: [pngChunk('tEXt', 'Author\0Jane')], idatChunks: 2 });

  it('refuses every truncation of a JPEG or PNG', () => {
    for (const file of [dirtyJpeg, dirtyPng]) {
      for (let length = 0; length < file.length; length++) {
        const reason = refusal(file.subarray(0, length));
        assert.ok(reason === 'DAMAGED' || (length < 8 && reason === 'NOT_JPEG_OR_PNG'), `length ${length}: ${reason}`);
      }
    }
  });

  it('never throws on corrupted bytes, and what it accepts is a fixed point', () => {
    fc.assert(
      fc.property(fc.constantFrom(dirtyJpeg, dirtyPng), fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 8 }), (file, edits) => {
        const bytes = Buffer.from(file);
        for (const [at, value] of edits) bytes[at % bytes.length] = value;
        const result = cleanImage(bytes);
        if (result.ok) assert.deepEqual(cleaned(result.image.bytes).bytes, result.image.bytes);
      }),
      { numRuns: 2000 },
    );
  });
});
