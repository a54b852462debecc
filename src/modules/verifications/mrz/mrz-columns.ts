// What one OCR pass makes of the zone (mrz-reader.ts): each symbol put into its column of the 44-column grid,
// its shape overruling OCR where OCR is known to slip, digits read again alone where the line is suspect,
// and the passes' readings and column votes ranked by the check digits that hold. No image decoding here.
import type { Line } from 'tesseract.js';
import { correctTd3, findTd3Lines, td3LineLength, type Td3Candidate } from './icao9303.ts';
import { median, type Grey } from './mrz-page.ts';
export interface Glyph {
  text: string;
  confidence: number;
  box: { x0: number; y0: number; x1: number; y1: number };
  cx: number;
  width: number;
  height: number;
}


/**
 * The width of a glyph's ink at its foot against its head: a T stands on its stem (~0.2), an I on its
 * serif (~1). OCR-B draws I with serifs, as does the font of our test pages; the eng model reads it as T.
 */
export function footToHead(image: Grey, box: Glyph['box']): number {
  let darkest = 255;
  let lightest = 0;
  for (let y = box.y0; y < box.y1; y++)
    for (let x = box.x0; x < box.x1; x++) {
      const p = image.data[y * image.width + x] ?? 255;
      darkest = Math.min(darkest, p);
      lightest = Math.max(lightest, p);
    }
  const ink = (darkest + lightest) / 2;
  const band = Math.max(1, Math.round((box.y1 - box.y0) * 0.18));
  const extent = (from: number, to: number) => {
    let left = Infinity;
    let right = -Infinity;
    for (let y = from; y < to; y++)
      for (let x = box.x0; x < box.x1; x++)
        if ((image.data[y * image.width + x] ?? 255) < ink) {
          left = Math.min(left, x);
          right = Math.max(right, x);
        }
    return right >= left ? right - left + 1 : 0;
  };
  return extent(box.y1 - band, box.y1) / Math.max(1, extent(box.y0, box.y0 + band));
}

/** A cell OCR gave nothing certain for: it does not vote, and alone it is read as a filler. */
export const unknown = '?';

/**
 * A glyph's character, its shape overruling OCR where OCR slips: no taller than a filler is a filler
 * (whatever OCR called it: runs of `<` come back as K and L), T or I by its foot, and a Q without the
 * tail that takes it below the line is an O. Letters and digits are all capital height; `<` is not.
 */
export function characterOf(g: Glyph, capitals: number, image: Grey): string {
  if (g.height < capitals * 0.8) return '<';
  // As tall as a letter but read as a filler: OCR merged or missed something here.
  if (g.text === '<') return unknown;
  if (g.text === 'T' || g.text === 'I') {
    const ratio = footToHead(image, g.box);
    return ratio > 0.6 ? 'I' : ratio < 0.45 ? 'T' : g.text;
  }
  if (g.text === 'Q' && g.height < capitals * 1.12) return 'O';
  return g.text;
}

/**
 * Origin and pitch of the 44 columns: each ordinary symbol numbered from its neighbour (a gap of two
 * pitches is a column OCR left out), then a least-squares fit of centre = origin + pitch × column.
 */
export function columnsOf(ordinary: readonly Glyph[]): { origin: number; pitch: number } | null {
  if (ordinary.length < 2) return null;
  const step = median(ordinary.slice(1).map((g, i) => g.cx - ordinary[i]!.cx));
  if (!(step > 0)) return null;
  const points = [{ x: 0, y: ordinary[0]!.cx }];
  for (let i = 1; i < ordinary.length; i++) points.push({ x: points[i - 1]!.x + Math.max(1, Math.round((ordinary[i]!.cx - ordinary[i - 1]!.cx) / step)), y: ordinary[i]!.cx });
  const n = points.length;
  const sx = points.reduce((s, p) => s + p.x, 0);
  const sy = points.reduce((s, p) => s + p.y, 0);
  const sxx = points.reduce((s, p) => s + p.x * p.x, 0);
  const sxy = points.reduce((s, p) => s + p.x * p.y, 0);
  const d = n * sxx - sx * sx;
  if (d === 0) return null;
  const pitch = (n * sxy - sx * sy) / d;
  return pitch > 0 ? { origin: (sy - pitch * sx) / n, pitch } : null;
}

/** One OCR line read column by column, and where its columns are in the cut-out. */
export interface LineCells {
  text: string;
  origin: number;
  pitch: number;
  top: number;
  bottom: number;
}

/** An OCR line's symbols, their typical width and capital height, and the columns fitted to them. */
export interface LineGlyphs {
  glyphs: Glyph[];
  typicalWidth: number;
  capitals: number;
  columns: { origin: number; pitch: number };
}

export function glyphsOf(line: Line): LineGlyphs | null {
  const glyphs: Glyph[] = line.words
    .flatMap((w) => w.symbols)
    .map((s) => ({ text: s.text, confidence: s.confidence, box: s.bbox, cx: (s.bbox.x0 + s.bbox.x1) / 2, width: s.bbox.x1 - s.bbox.x0, height: s.bbox.y1 - s.bbox.y0 }))
    .sort((p, q) => p.cx - q.cx);
  if (glyphs.length < 30) return null;
  const typicalWidth = median(glyphs.map((g) => g.width));
  const capitals = [...glyphs.map((g) => g.height)].sort((x, y) => x - y)[Math.floor(glyphs.length * 0.8)]!;
  const columns = columnsOf(glyphs.filter((g) => g.width > typicalWidth * 0.6 && g.width < typicalWidth * 1.6));
  return columns && { glyphs, typicalWidth, capitals, columns };
}

/** The column a line's last glyph ends in: 43 when the columns were counted right. */
export const lastColumn = (line: LineGlyphs) => Math.round((line.glyphs.at(-1)!.box.x1 - line.columns.pitch / 2 - line.columns.origin) / line.columns.pitch);

/**
 * Both lines of the zone start at the same column and share a pitch. A line whose glyphs do not end in
 * column 43 was miscounted (OCR split a glyph in two, or dropped one): line 2 is then counted back from
 * its last character, which is always a check digit, and line 1 takes line 2's columns.
 */
export function alignColumns(one: LineGlyphs, two: LineGlyphs): void {
  if (lastColumn(two) !== td3LineLength - 1) {
    const pitch = lastColumn(one) === td3LineLength - 1 ? one.columns.pitch : two.columns.pitch;
    const end = two.glyphs.at(-1)!;
    two.columns = { origin: end.box.x1 - pitch / 2 - (td3LineLength - 1) * pitch, pitch };
  }
  if (lastColumn(one) !== td3LineLength - 1 && lastColumn(two) === td3LineLength - 1) one.columns = { ...two.columns };
}

/**
 * One line read column by column. In each column, the most confident symbol of ordinary width (a sliver
 * between two is an extra OCR saw), its character checked against its shape; then the symbols spanning
 * columns. An empty column between fillers is a filler, otherwise unknown.
 */
export function cellsOf({ glyphs, typicalWidth, capitals, columns }: LineGlyphs, image: Grey): LineCells {
  const column = (x: number) => Math.round((x - columns.origin) / columns.pitch);
  const sliver = (g: Glyph) => g.width < typicalWidth * 0.6;
  const wide = (g: Glyph) => g.width >= typicalWidth * 1.6;
  const cells: Array<string | undefined> = Array.from({ length: td3LineLength });
  const held: Array<Glyph | undefined> = Array.from({ length: td3LineLength });
  for (const g of glyphs.filter((x) => !wide(x))) {
    const i = column(g.cx);
    const h = held[i];
    if (i < 0 || i >= td3LineLength) continue;
    if (!h || (sliver(h) && !sliver(g)) || (sliver(h) === sliver(g) && g.confidence > h.confidence)) {
      held[i] = g;
      cells[i] = characterOf(g, capitals, image);
    }
  }
  // A box spanning columns is a glyph fused with its neighbour's ink (blur) or a run OCR read as one. Its
  // character takes the first free column it covers; the rest are fillers if it is short, else unknown.
  for (const g of glyphs.filter(wide)) {
    const first = Math.max(0, column(g.box.x0 + columns.pitch / 2));
    const last = Math.min(td3LineLength - 1, column(g.box.x1 - columns.pitch / 2));
    const short = g.height < capitals * 0.8;
    let placed = short || g.text === '<';
    for (let i = first; i <= last; i++) {
      if (cells[i] !== undefined) continue;
      cells[i] = short ? '<' : placed ? unknown : characterOf(g, capitals, image);
      placed = true;
    }
  }
  const tall = glyphs.filter((g) => g.height >= capitals * 0.8);
  return {
    text: cells.map((c, i) => c ?? (cells[i - 1] === '<' && (i === td3LineLength - 1 || cells[i + 1] === '<') ? '<' : unknown)).join(''),
    ...columns,
    top: median(tall.map((g) => g.box.y0)),
    bottom: median(tall.map((g) => g.box.y1)),
  };
}

/** One pass: the zone's two lines column by column (unknowns kept, for the vote) and its best corrected reading. */
export interface PassReading {
  cells: [string, string] | null;
  best: Td3Candidate | null;
}

export const holding = (c: Td3Candidate) => Object.values(c.checkDigits).filter(Boolean).length;
export const better = (a: Td3Candidate, b: Td3Candidate | null) => !b || holding(a) > holding(b) || (holding(a) === holding(b) && a.guesses < b.guesses);

/** Reads one glyph of the cut-out alone, as a digit: what OCR saw there. */
export type ReadDigit = (image: Grey, box: { left: number; top: number; width: number; height: number }) => Promise<string>;

/** A column's box in the cut-out, `half` a pitch either side of its centre and a little above and below. */
export function columnBox(line: LineCells, image: Grey, i: number, half: number) {
  const left = Math.max(0, Math.round(line.origin + (i - half) * line.pitch));
  const right = Math.min(image.width, Math.round(line.origin + (i + half) * line.pitch));
  const pad = Math.round((line.bottom - line.top) * 0.15);
  const top = Math.max(0, line.top - pad);
  const bottom = Math.min(image.height, line.bottom + pad);
  return right > left && bottom > top ? { left, top, width: right - left, height: bottom - top } : null;
}

/**
 * Line 2's digits read again one by one where the line's reading is suspect: a check digit right after
 * fillers (the LSTM, having read `<<<<<<`, reads the 8 after them as Y or as a filler), or a date's or
 * check digit's column that holds no digit at all. Alone, with nothing before it, the glyph reads true.
 */
export async function rereadDigits(line: LineCells, image: Grey, readDigit: ReadDigit): Promise<string> {
  const text = [...line.text];
  for (let i = 9; i < td3LineLength; i++) {
    const c = text[i]!;
    const checkDigit = [9, 19, 27, 42, 43].includes(i);
    if (!checkDigit && !(i >= 13 && i < 19) && !(i >= 21 && i < 27)) continue;
    if (c === '<' || (/[0-9]/.test(c) && !(checkDigit && text[i - 1] === '<'))) continue;
    // The column itself, then a little wider when OCR sees nothing there (a slanted or shifted glyph).
    for (const half of [0.5, 0.75]) {
      const box = columnBox(line, image, i, half);
      const digit = box ? await readDigit(image, box) : '';
      if (/^[0-9]$/.test(digit)) {
        text[i] = digit;
        break;
      }
    }
  }
  return text.join('');
}

/**
 * The zone in one OCR answer. Line 1 column by column (its fillers and letters checked by shape; it has
 * no check digit to choose by), line 2 column by column or as OCR's plain text, whichever more of its
 * check digits hold for (column by column on a tie).
 */
export async function readingOf(lines: readonly Line[], image: Grey, readDigit: ReadDigit): Promise<PassReading> {
  let fromCells: { one: LineCells; two: LineCells; candidate: Td3Candidate } | null = null;
  const parsed = lines.map(glyphsOf);
  for (let i = 0; i + 1 < lines.length; i++) {
    const [first, second] = [parsed[i], parsed[i + 1]];
    if (!first || !second) continue;
    const pair = { one: { ...first }, two: { ...second } };
    alignColumns(pair.one, pair.two);
    const [one, two] = [cellsOf(pair.one, image), cellsOf(pair.two, image)];
    const candidate = correctTd3([one.text.replaceAll(unknown, '<'), two.text.replaceAll(unknown, '<')]);
    if (candidate && better(candidate, fromCells?.candidate ?? null)) fromCells = { one, two, candidate };
  }
  const plainLines = findTd3Lines(lines.map((l) => l.text));
  if (!fromCells) return { cells: null, best: plainLines && correctTd3(plainLines) };
  const one = fromCells.one.text.replaceAll(unknown, '<');
  const two = await rereadDigits(fromCells.two, image, readDigit);
  const byCells = correctTd3([one, two.replaceAll(unknown, '<')]) ?? fromCells.candidate;
  const byText = plainLines && correctTd3([one, plainLines[1]]);
  return { cells: [fromCells.one.text, two], best: byText && better(byText, byCells) ? byText : byCells };
}

/** Each position's most frequent character across the passes (unknowns abstain; the earliest pass breaks a tie). */
export function vote(cells: ReadonlyArray<[string, string]>): [string, string] {
  const line = (k: 0 | 1) =>
    Array.from({ length: td3LineLength }, (_, i) => {
      const counts = new Map<string, number>();
      for (const c of cells) if (c[k][i] !== unknown) counts.set(c[k][i]!, (counts.get(c[k][i]!) ?? 0) + 1);
      return counts.size ? [...counts].reduce((a, b) => (b[1] > a[1] ? b : a))[0] : '<';
    }).join('');
  return [line(0), line(1)];
}

export const same = (a: Td3Candidate, b: Td3Candidate) => a.lines[0] === b.lines[0] && a.lines[1] === b.lines[1];

/**
 * What the passes so far make of the zone: each pass's reading and the vote of their columns, ranked by
 * check digits that hold, then by how many passes read exactly that, then by fewest guesses. Settled when
 * two passes read the same zone whose check digits hold, or three the same zone whatever its digits (a
 * wrong check digit on the page reads the same each time).
 */
export function decide(readings: readonly PassReading[]): { best: Td3Candidate | null; settled: boolean } {
  const candidates = readings.flatMap((r) => (r.best ? [r.best] : []));
  const cells = readings.flatMap((r) => (r.cells ? [r.cells] : []));
  const voted = cells.length >= 2 ? correctTd3(vote(cells)) : null;
  if (voted) candidates.unshift(voted);
  const agreement = (c: Td3Candidate) => readings.filter((r) => r.best && same(r.best, c)).length;
  let best: Td3Candidate | null = null;
  let bestRank = -Infinity;
  // Two lines that look like a zone but of whose five check digits fewer than two hold are no zone: text
  // OCR squeezed into the zone's alphabet holds each digit by chance one time in ten.
  for (const c of candidates.filter((x) => holding(x) >= 2)) {
    const rank = holding(c) * 100 + agreement(c) * 10 - c.guesses;
    if (rank > bestRank) {
      best = c;
      bestRank = rank;
    }
  }
  // A reading whose check digits fail may be a misreading the next pass avoids: it takes a third pass to agree.
  return { best, settled: best !== null && agreement(best) >= (best.valid ? 2 : 3) };
}

/** A promise that rejects after `ms`, and the cancel of its timer. */
