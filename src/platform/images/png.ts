// PNG: walks the file's chunks (PNG specification, 3rd edition, §5), checks each one's CRC, keeps the
// critical chunks and the few ancillary ones that change how the pixels look, and drops the rest. The
// image data (IDAT) is copied untouched: nothing is decoded or re-encoded.
//
// Kept:    IHDR, PLTE, IDAT, IEND; tRNS (transparency), gAMA, cHRM, sRGB, sBIT, cICP (colour).
// Dropped: every other ancillary chunk: eXIf, tEXt, zTXt, iTXt, tIME, pHYs, iCCP, the APNG frames
//          (acTL, fcTL, fdAT: the still image in IDAT remains), private chunks; and anything after IEND.
import { crc32 } from 'node:zlib';
import type { StrippedImage } from './stripped-image.ts';

const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

const keptAncillary = new Set(['tRNS', 'gAMA', 'cHRM', 'sRGB', 'sBIT', 'cICP']);

/** Allowed bit depths of each colour type (greyscale, truecolour, indexed, grey + alpha, truecolour + alpha). */
const bitDepths: Record<number, number[]> = { 0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16] };

export function isPng(bytes: Buffer): boolean {
  return bytes.length >= signature.length && bytes.subarray(0, signature.length).equals(signature);
}

interface Header {
  width: number;
  height: number;
  colourType: number;
}

function readHeader(data: Buffer): Header | undefined {
  if (data.length !== 13) return undefined;
  const width = data.readUInt32BE(0);
  const height = data.readUInt32BE(4);
  const [bitDepth, colourType, compression, filter, interlace] = data.subarray(8);
  if (width === 0 || height === 0 || width > 0x7fffffff || height > 0x7fffffff) return undefined;
  if (!bitDepths[colourType!]?.includes(bitDepth!) || compression !== 0 || filter !== 0 || (interlace !== 0 && interlace !== 1)) return undefined;
  return { width, height, colourType: colourType! };
}

/** A zlib stream's first two bytes: deflate, a window of at most 32 KiB, no preset dictionary, check bits right. */
function validZlibHeader(cmf: number, flg: number): boolean {
  return (cmf & 0x0f) === 8 && cmf >> 4 <= 7 && (flg & 0x20) === 0 && (cmf * 256 + flg) % 31 === 0;
}

/** The file without its metadata, or undefined when its structure is broken (bad CRC, truncated, chunks out of order). */
export function stripPng(bytes: Buffer): StrippedImage | undefined {
  const kept: Buffer[] = [signature];
  let header: Header | undefined;
  let palette = false;
  // IDAT chunks must be consecutive: none, inside the run, or after it.
  let imageData: 'none' | 'in' | 'done' = 'none';
  const zlibStart: number[] = [];
  let p = signature.length;

  for (;;) {
    if (p + 12 > bytes.length) return undefined;
    const length = bytes.readUInt32BE(p);
    if (length > 0x7fffffff || p + 12 + length > bytes.length) return undefined;
    const type = bytes.subarray(p + 4, p + 8).toString('latin1');
    if (!/^[A-Za-z]{4}$/.test(type)) return undefined;
    const data = bytes.subarray(p + 8, p + 8 + length);
    if (crc32(bytes.subarray(p + 4, p + 8 + length)) !== bytes.readUInt32BE(p + 8 + length)) return undefined;
    const chunk = bytes.subarray(p, p + 12 + length);
    p += 12 + length;

    if (!header) {
      if (type !== 'IHDR') return undefined;
      header = readHeader(data);
      if (!header) return undefined;
      kept.push(chunk);
      continue;
    }
    if (imageData === 'in' && type !== 'IDAT') imageData = 'done';

    if (type === 'IEND') {
      if (length !== 0 || imageData !== 'done') return undefined;
      if (header.colourType === 3 && !palette) return undefined;
      if (zlibStart.length < 2 || !validZlibHeader(zlibStart[0]!, zlibStart[1]!)) return undefined;
      kept.push(chunk);
      break;
    }
    if (type === 'IDAT') {
      if (imageData === 'done') return undefined;
      imageData = 'in';
      for (const byte of data.subarray(0, 2 - zlibStart.length)) zlibStart.push(byte);
      kept.push(chunk);
    } else if (type === 'PLTE') {
      if (palette || imageData !== 'none' || header.colourType === 0 || header.colourType === 4) return undefined;
      if (length === 0 || length > 768 || length % 3 !== 0) return undefined;
      palette = true;
      kept.push(chunk);
    } else if (type === 'IHDR') {
      return undefined;
    } else if (type.charCodeAt(0) < 0x61) {
      // An unknown critical chunk (upper-case first letter): a decoder must refuse the file.
      return undefined;
    } else if (keptAncillary.has(type)) {
      kept.push(chunk);
    }
  }

  return { bytes: Buffer.concat(kept), width: header.width, height: header.height };
}
