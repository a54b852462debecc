// The page side of reading a passport's zone (mrz-reader.ts): the photo as grey pixels, its skew, the zone's
// two rows found among the strokes, and the zone cut out at a size OCR reads well. sharp only; no OCR.
import sharp from 'sharp';

export const median = (values: readonly number[]) => {
  const sorted = [...values].sort((x, y) => x - y);
  return sorted.length ? sorted[Math.floor(sorted.length / 2)]! : 0;
};
export type Grey = { data: Buffer; width: number; height: number };

export const rawOf = (g: Grey) => ({ raw: { width: g.width, height: g.height, channels: 1 as const } });

/** The image as 8-bit grey pixels, `width` px wide, EXIF orientation applied. */
export async function greyAt(bytes: Buffer, width: number): Promise<Grey> {
  const { data, info } = await sharp(bytes, { limitInputPixels: 50_000_000 }).rotate().resize({ width }).greyscale().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/** Strokes: pixels clearly darker than their surroundings, so uneven light and large dark areas drop out. */
export async function strokesOf(g: Grey): Promise<Uint8Array> {
  // sharp gives three channels back from one unless told `greyscale()`.
  const background = await sharp(g.data, rawOf(g)).blur(8).greyscale().raw().toBuffer();
  const smooth = await sharp(g.data, rawOf(g)).median(3).greyscale().raw().toBuffer();
  const out = new Uint8Array(g.data.length);
  for (let i = 0; i < out.length; i++) out[i] = background[i]! - smooth[i]! > 18 ? 1 : 0;
  return out;
}

/** The text's angle in degrees (positive: turned clockwise), ±10° at most, to 0.1°. */
export function skewOf(strokes: Uint8Array, width: number, height: number): number {
  const xs: number[] = [];
  const ys: number[] = [];
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x += 2)
      if (strokes[y * width + x]) {
        xs.push(x);
        ys.push(y);
      }
  if (xs.length < 200) return 0;
  // The sum of squared row counts is largest when rows of text fall into as few rows as they can.
  const sharpness = (degrees: number) => {
    const t = Math.tan((degrees * Math.PI) / 180);
    const rows = new Float64Array(height + 2 * width + 2);
    for (let i = 0; i < xs.length; i++) rows[Math.round(ys[i]! - xs[i]! * t) + width + 1]! += 1;
    let sum = 0;
    for (const r of rows) sum += r * r;
    return sum;
  };
  let best = 0;
  let bestScore = -1;
  const tryAngle = (a: number) => {
    const s = sharpness(a);
    if (s > bestScore) {
      bestScore = s;
      best = a;
    }
  };
  for (let a = -10; a <= 10; a += 0.5) tryAngle(a);
  for (let a = best - 0.4; a <= best + 0.4; a += 0.1) tryAngle(a);
  return Math.round(best * 10) / 10;
}

export type Band = { top: number; bottom: number; left: number; right: number };

/**
 * The zone's two rows: the lowest adjacent pair of long rows of text of about the same height. A row of
 * text is told by how often it crosses a stroke, not by how dark it is (a page edge is dark, crossed once).
 */
export function zoneBands(strokes: Uint8Array, width: number, height: number): [Band, Band] | null {
  const raw = new Float64Array(height);
  for (let y = 0; y < height; y++) for (let x = 1; x < width; x++) if (strokes[y * width + x] && !strokes[y * width + x - 1]) raw[y]! += 1;
  // The least of five rows: a dashed rule (a frame, a perforation) is a row or two thin; text is not.
  const crossings = raw.map((_, y) => Math.min(...raw.subarray(Math.max(0, y - 2), Math.min(height, y + 3))));
  const max = Math.max(...crossings);
  if (max < 40) return null;
  // What a row between lines of text still crosses: a page's or a table's edges, some pattern.
  const floor = median([...crossings]);
  const bands: Band[] = [];
  let start = -1;
  for (let y = 0; y <= height; y++) {
    const on = y < height && crossings[y]! > max * 0.3;
    if (on && start < 0) start = y;
    if (on || start < 0) continue;
    // Cut where crossings peak (the middle of the letters), then widened to where the strokes end.
    let top = start;
    let bottom = y;
    while (top > 0 && crossings[top - 1]! > floor + (max - floor) * 0.1) top--;
    while (bottom < height && crossings[bottom]! > floor + (max - floor) * 0.1) bottom++;
    let left = width;
    let right = 0;
    for (let yy = start; yy < y; yy++)
      for (let x = 0; x < width; x++)
        if (strokes[yy * width + x]) {
          left = Math.min(left, x);
          right = Math.max(right, x);
        }
    bands.push({ top, bottom, left, right });
    start = -1;
  }
  const long = bands.filter((b) => b.bottom - b.top >= 8 && b.right - b.left >= width * 0.5);
  for (let i = long.length - 1; i > 0; i--) {
    const [a, b] = [long[i - 1]!, long[i]!];
    const ratio = (a.bottom - a.top) / (b.bottom - b.top);
    if (ratio > 0.6 && ratio < 1.6 && b.top >= a.bottom && b.top - a.bottom < 1.5 * (b.bottom - b.top)) return [a, b];
  }
  return null;
}

export interface Zone {
  image: Grey;
  bands: [Band, Band];
}

/** The lower 55 % of the page, where a passport's zone is. */
export function lowerHalf(page: Grey): Grey {
  const top = Math.floor(page.height * 0.45);
  return { data: page.data.subarray(top * page.width), width: page.width, height: page.height - top };
}

/** The zone in the lower page, turned straight: at the skew measured, else as it is. */
export async function zoneIn(lower: Grey): Promise<Zone | null> {
  const skew = skewOf(await strokesOf(lower), lower.width, lower.height);
  return (await locate(lower, skew)) ?? (skew === 0 ? null : await locate(lower, 0));
}

/** The lower page turned back by `angle` and the zone's rows in it; null when there is no zone. */
export async function locate(lower: Grey, angle: number): Promise<Zone | null> {
  let image = lower;
  if (angle !== 0) {
    const { data, info } = await sharp(lower.data, rawOf(lower)).rotate(-angle, { background: '#ffffff' }).greyscale().raw().toBuffer({ resolveWithObject: true });
    image = { data, width: info.width, height: info.height };
  }
  const bands = zoneBands(await strokesOf(image), image.width, image.height);
  return bands && { image, bands };
}

/** The zone cut out at `capitals` px per capital: PNG for OCR, grey pixels for the shape checks. */
export async function cutOut(zone: Zone, capitals: number): Promise<{ png: Buffer; grey: Grey }> {
  const [a, b] = zone.bands;
  const rowHeight = Math.max(b.bottom - b.top, a.bottom - a.top);
  const margin = Math.round(rowHeight * 0.9);
  const left = Math.max(0, Math.min(a.left, b.left) - margin);
  const right = Math.min(zone.image.width, Math.max(a.right, b.right) + margin);
  const top = Math.max(0, a.top - margin);
  const bottom = Math.min(zone.image.height, b.bottom + margin);
  const { data, info } = await sharp(zone.image.data, rawOf(zone.image))
    .extract({ left, top, width: right - left, height: bottom - top })
    .resize({ width: Math.round(((right - left) * capitals) / rowHeight), kernel: 'cubic' })
    .normalise()
    .greyscale()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const grey = { data, width: info.width, height: info.height };
  return { png: await sharp(data, rawOf(grey)).png({ compressionLevel: 1 }).toBuffer(), grey };
}
