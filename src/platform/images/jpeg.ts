// JPEG: walks the file's segments (ITU-T T.81 B.1), keeps what a decoder needs and drops the rest.
// The compressed image data is copied untouched: nothing is decoded or re-encoded, so the picture an
// identity provider analyses is byte for byte the one the person took.
//
// Kept:    SOI, DQT, SOFn, DHT, DAC, DRI, DNL, DHP, EXP, SOS with its entropy-coded data and RSTn, EOI;
//          a JFIF APP0 cut back to its 14 bytes (no thumbnail); an Adobe APP14 (its 12 bytes say how to
//          convert colours, and some files decode wrongly without it);
//          the EXIF orientation, rebuilt as a new APP1 holding that one tag, so a photo taken in portrait
//          still displays upright.
// Dropped: every other APPn (EXIF with GPS and camera serials, XMP, ICC profiles, MPF, Photoshop IRB…),
//          COM, and anything after EOI (the further images of an MPF file, a motion photo's video, vendor
//          trailers).
import type { StrippedImage } from './stripped-image.ts';

const SOI = 0xd8;
const EOI = 0xd9;
const SOS = 0xda;
const DQT = 0xdb;
const APP0 = 0xe0;
const APP1 = 0xe1;
const APP14 = 0xee;

/** Frame headers: SOF0–SOF3, SOF5–SOF7, SOF9–SOF11, SOF13–SOF15 (C4 is DHT, C8 JPG, CC DAC). */
function isFrameHeader(marker: number): boolean {
  return marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
}

/** Tables and markers a decoder reads, copied as they are. */
const decodingMarkers = new Set([0xc4 /* DHT */, 0xcc /* DAC */, DQT, 0xdd /* DRI */, 0xdc /* DNL */, 0xde /* DHP */, 0xdf /* EXP */]);

export function isJpeg(bytes: Buffer): boolean {
  return bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === SOI && bytes[2] === 0xff;
}

/** The file without its metadata, or undefined when its structure is broken (truncated, lengths that overrun, no frame or scan). */
export function stripJpeg(bytes: Buffer): StrippedImage | undefined {
  const head: Buffer[] = [bytes.subarray(0, 2)];
  const body: Buffer[] = [];
  let orientation: number | undefined;
  let size: { width: number; height: number } | undefined;
  let components: Set<number> | undefined;
  let quantisationTables = false;
  let scans = 0;
  let p = 2;

  for (;;) {
    // A marker is 0xFF and a code; any number of 0xFF fill bytes may come before it.
    if (bytes[p] !== 0xff) return undefined;
    while (bytes[p] === 0xff) p++;
    if (p >= bytes.length) return undefined;
    const marker = bytes[p]!;
    const start = p - 1;
    p++;
    if (marker === EOI) {
      if (!size || scans === 0) return undefined;
      body.push(bytes.subarray(start, p));
      break;
    }
    if (marker === SOI || marker === 0x00 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) return undefined;
    if (p + 2 > bytes.length) return undefined;
    const length = bytes.readUInt16BE(p);
    if (length < 2 || p + length > bytes.length) return undefined;
    const payload = bytes.subarray(p + 2, p + length);
    const segment = bytes.subarray(start, p + length);
    p += length;

    if (isFrameHeader(marker)) {
      const frame = readFrame(payload);
      if (!frame) return undefined;
      size ??= frame.size;
      components ??= frame.components;
      body.push(segment);
    } else if (marker === SOS) {
      if (!size || !components || !quantisationTables || !validScanHeader(payload, components)) return undefined;
      body.push(segment);
      const end = endOfEntropyCodedData(bytes, p);
      if (end === undefined) return undefined;
      body.push(bytes.subarray(p, end));
      p = end;
      scans++;
    } else if (decodingMarkers.has(marker)) {
      if (marker === DQT) quantisationTables = true;
      body.push(segment);
    } else if (marker === APP0) {
      const jfif = jfifWithoutThumbnail(payload);
      if (jfif && head.length === 1) head.push(jfif);
    } else if (marker === APP14) {
      if (payload.length === 12 && payload.subarray(0, 5).toString('latin1') === 'Adobe') body.push(segment);
    } else if (marker === APP1) {
      orientation ??= exifOrientation(payload);
    } else if ((marker > APP0 && marker <= 0xef) || marker === 0xfe) {
      // Other application segments and comments: metadata, dropped.
    } else {
      // JPGn, reserved codes: not part of a JPEG a browser displays.
      return undefined;
    }
  }

  if (!size) return undefined;
  if (orientation !== undefined && orientation !== 1) head.push(orientationSegment(orientation));
  // Nothing dropped and nothing added (a picture re-encoded by the page has no metadata): the bytes up to
  // EOI as they came, not a copy of a phone photo's megabytes.
  const kept = [...head, ...body].reduce((n, part) => n + part.length, 0);
  if (head.length === 1 && kept === p) return { bytes: bytes.subarray(0, p), ...size };
  return { bytes: Buffer.concat([...head, ...body]), ...size };
}

function readFrame(payload: Buffer): { size: { width: number; height: number }; components: Set<number> } | undefined {
  if (payload.length < 6) return undefined;
  const precision = payload[0]!;
  const height = payload.readUInt16BE(1);
  const width = payload.readUInt16BE(3);
  const count = payload[5]!;
  // A height of 0 defers it to a DNL segment, which browsers do not support.
  if (![8, 12, 16].includes(precision) || width === 0 || height === 0 || count === 0 || payload.length !== 6 + 3 * count) return undefined;
  const components = new Set<number>();
  for (let i = 0; i < count; i++) {
    const sampling = payload[7 + 3 * i]!;
    if (sampling >> 4 < 1 || sampling >> 4 > 4 || (sampling & 0x0f) < 1 || (sampling & 0x0f) > 4) return undefined;
    components.add(payload[6 + 3 * i]!);
  }
  return { size: { width, height }, components };
}

function validScanHeader(payload: Buffer, components: Set<number>): boolean {
  const count = payload[0] ?? 0;
  if (count < 1 || count > 4 || payload.length !== 4 + 2 * count) return false;
  for (let i = 0; i < count; i++) if (!components.has(payload[1 + 2 * i]!)) return false;
  return true;
}

/**
 * Where a scan's entropy-coded data ends: at the first marker that is not a restart marker. Inside the
 * data a 0xFF byte is followed by 0x00 (stuffing), RSTn, or more 0xFF (fill). Undefined when the file
 * ends inside the scan (a truncated upload).
 */
function endOfEntropyCodedData(bytes: Buffer, from: number): number | undefined {
  let p = bytes.indexOf(0xff, from);
  while (p !== -1 && p + 1 < bytes.length) {
    const next = bytes[p + 1]!;
    if (next === 0x00 || (next >= 0xd0 && next <= 0xd7)) p = bytes.indexOf(0xff, p + 2);
    else if (next === 0xff) p++;
    else return p;
  }
  return undefined;
}

/** A JFIF APP0's fixed part (version, density) without its thumbnail; undefined for JFXX and others. */
function jfifWithoutThumbnail(payload: Buffer): Buffer | undefined {
  if (payload.length < 14 || payload.subarray(0, 5).toString('latin1') !== 'JFIF\0') return undefined;
  const segment = Buffer.alloc(18);
  segment.writeUInt16BE(0xffe0, 0);
  segment.writeUInt16BE(16, 2);
  payload.copy(segment, 4, 0, 12);
  // Thumbnail width and height 0: no thumbnail follows.
  return segment;
}

/** The Orientation tag (0x0112) of IFD0 in an EXIF APP1, when present and 1–8; a malformed block has none. */
export function exifOrientation(payload: Buffer): number | undefined {
  if (payload.length < 14 || payload.subarray(0, 6).toString('latin1') !== 'Exif\0\0') return undefined;
  const tiff = payload.subarray(6);
  const order = tiff.subarray(0, 2).toString('latin1');
  if (order !== 'II' && order !== 'MM') return undefined;
  const little = order === 'II';
  const u16 = (at: number) => (little ? tiff.readUInt16LE(at) : tiff.readUInt16BE(at));
  const u32 = (at: number) => (little ? tiff.readUInt32LE(at) : tiff.readUInt32BE(at));
  if (u16(2) !== 42) return undefined;
  const ifd = u32(4);
  if (ifd < 8 || ifd + 2 > tiff.length) return undefined;
  const entries = u16(ifd);
  for (let i = 0; i < entries; i++) {
    const at = ifd + 2 + 12 * i;
    if (at + 12 > tiff.length) return undefined;
    // Type SHORT, count 1: the value sits in the first two bytes of the value field.
    if (u16(at) === 0x0112 && u16(at + 2) === 3 && u32(at + 4) === 1) {
      const value = u16(at + 8);
      return value >= 1 && value <= 8 ? value : undefined;
    }
  }
  return undefined;
}

/** An APP1 whose EXIF holds IFD0 with the Orientation tag only (big-endian TIFF, 26 bytes). */
export function orientationSegment(orientation: number): Buffer {
  const segment = Buffer.alloc(36);
  segment.writeUInt16BE(0xffe1, 0);
  segment.writeUInt16BE(34, 2);
  segment.write('Exif\0\0MM', 4, 'latin1');
  segment.writeUInt16BE(42, 12);
  segment.writeUInt32BE(8, 14); // IFD0 right after the TIFF header
  segment.writeUInt16BE(1, 18); // one entry
  segment.writeUInt16BE(0x0112, 20);
  segment.writeUInt16BE(3, 22); // SHORT
  segment.writeUInt32BE(1, 24);
  segment.writeUInt16BE(orientation, 28);
  // Bytes 30–31 pad the value field; 32–35 say no further IFD.
  return segment;
}
