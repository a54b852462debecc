// The pipeline's work, in whatever process runs it (read-pages.ts runs it in a child process with a
// deadline; bench/tools/deed-pipeline-measure.ts runs it in its own to compare with pdfjs and tesseract alone):
//
//   1. Every page's text layer (pdfjs), scanned for a TFN as soon as it is read.
//   2. The pages whose layer has fewer than 40 letters (page-text.ts) are rendered at 300 dpi (one page
//      ahead of the OCR) and OCR'd, up to `concurrency` at a time; each page's OCR text is scanned for a
//      TFN as soon as it is read.
//   3. A TFN anywhere ends the work at once: OCR under way is abandoned, the workers terminated, and the
//      answer is TFN_CONTENT_DETECTED with no text.
//
// Never logs, and never lets an exception's message out: pdfjs's can quote the file.
import type { DeedPage } from '../../../providers/extractor/deed-payload.ts';
import { createOcrPool, type OcrPool } from './page-ocr.ts';
import { renderPageGrey, type GreyImage } from './page-render.ts';
import { countLetters, hasUsableTextLayer, readTextLayer, tidyText } from './page-text.ts';
import { openPdf, type PdfDocument } from './pdf-document.ts';
import { containsTfn } from './tfn.ts';

export type PageReadingFailure = 'NOT_A_PDF' | 'OCR_FAILED' | 'TFN_CONTENT_DETECTED';
export type PageReading = { ok: true; pages: DeedPage[]; ocrPages: number } | { ok: false; reason: PageReadingFailure };
export type PageReadingStage = 'TEXT_LAYER' | 'OCR';

export interface PageReaderOptions {
  /** OCR workers (threads) at most; each takes one core while it reads. */
  concurrency: number;
  /** Told when a stage starts: a caller that loses the process can still say where it was. */
  onStage?: (stage: PageReadingStage) => void;
}

/**
 * The resolution pages are rendered at for OCR. Measured on generated scans (bench/tools/deed-pipeline-measure.ts and the
 * README): 11-pt text reads the same at 200 and 300 dpi, but 6–7-pt text on a noisy 150-dpi scan loses
 * digits at 200 that it keeps at 300; 300 costs ~20 % more OCR time than 200 and gains nothing at 400.
 */
export const ocrDpi = 300;

/** An OCR'd page read something when it has this many letters and tesseract's mean confidence is this high. */
const minOcrLetters = 20;
const minOcrConfidence = 30;
/** A page with fewer dark pixels than this is blank (a duplex scan's back, a page number alone): nothing to read. */
const maxBlankInk = 0.01;

export type OcrOutcome = 'READ' | 'BLANK' | 'UNREADABLE';

/** Share of pixels darker than mid-grey. */
function inkOf(image: GreyImage): number {
  let dark = 0;
  for (let i = 0; i < image.data.length; i++) if (image.data[i]! < 128) dark++;
  return dark / Math.max(1, image.data.length);
}

/**
 * OCR_FAILED when OCR read nothing on any page that needed it (a document of blank scans is that too), or
 * when more of the pages with ink on them could not be read than could: an analysis would then run on
 * fragments. Blank pages count for neither.
 */
export function ocrFailed(outcomes: OcrOutcome[]): boolean {
  const read = outcomes.filter((o) => o === 'READ').length;
  const unreadable = outcomes.filter((o) => o === 'UNREADABLE').length;
  return outcomes.length > 0 && (read === 0 || unreadable > read);
}

class TfnFound extends Error {}

export async function readPagesInProcess(bytes: Buffer, options: PageReaderOptions): Promise<PageReading> {
  const opened = await openPdf(bytes);
  if (!opened.ok) return opened;
  const { doc } = opened;
  try {
    options.onStage?.('TEXT_LAYER');
    const pages: DeedPage[] = [];
    const needOcr: number[] = [];
    try {
      for (let n = 1; n <= doc.numPages; n++) {
        const text = await readTextLayer(await doc.getPage(n));
        if (containsTfn(text)) return { ok: false, reason: 'TFN_CONTENT_DETECTED' };
        if (hasUsableTextLayer(text)) pages.push({ number: n, text, source: 'TEXT_LAYER' });
        else needOcr.push(n);
      }
    } catch {
      // pdfjs reads leniently (stopAtErrors: false); what it still throws on is a file it cannot read.
      return { ok: false, reason: 'NOT_A_PDF' };
    }
    if (needOcr.length === 0) return { ok: true, pages, ocrPages: 0 };

    options.onStage?.('OCR');
    const concurrency = Number.isFinite(options.concurrency) ? Math.max(1, Math.floor(options.concurrency)) : 1;
    const read = await ocrPages(doc, needOcr, concurrency);
    if (!read.ok) return read;
    pages.push(...read.pages);
    pages.sort((a, b) => a.number - b.number);
    return { ok: true, pages, ocrPages: needOcr.length };
  } finally {
    await doc.destroy().catch(() => undefined);
  }
}

async function ocrPages(doc: PdfDocument, numbers: number[], concurrency: number): Promise<{ ok: true; pages: DeedPage[] } | { ok: false; reason: 'OCR_FAILED' | 'TFN_CONTENT_DETECTED' }> {
  let pool: OcrPool;
  try {
    pool = await createOcrPool(Math.min(concurrency, numbers.length));
  } catch {
    return { ok: false, reason: 'OCR_FAILED' };
  }
  const pages: DeedPage[] = [];
  const outcomes: OcrOutcome[] = [];
  let next = 0;
  let stop = false;

  // Each page's image, rendered once, one page ahead of the OCR: pdfjs draws on this thread while the
  // tesseract threads read, so at concurrency 1 the drawing costs no time. Never rejects: null is a page
  // pdfjs cannot draw, which OCR cannot read either.
  const images = new Map<number, Promise<GreyImage | null>>();
  const imageOf = (index: number): Promise<GreyImage | null> | undefined => {
    if (index >= numbers.length) return undefined;
    let image = images.get(index);
    if (!image) {
      image = doc.getPage(numbers[index]!).then((page) => renderPageGrey(doc, page, ocrDpi)).catch(() => null);
      images.set(index, image);
    }
    return image;
  };

  async function readOne(index: number): Promise<void> {
    const number = numbers[index]!;
    const image = await imageOf(index)!;
    images.delete(index);
    // The page the next free slot takes.
    void imageOf(next);
    if (stop) return;
    if (!image) {
      pages.push({ number, text: '', source: 'OCR' });
      outcomes.push('UNREADABLE');
      return;
    }
    const { text: raw, confidence } = await pool.recognise(image, ocrDpi);
    if (stop) return;
    const text = tidyText(raw);
    if (containsTfn(text)) throw new TfnFound();
    pages.push({ number, text, source: 'OCR' });
    outcomes.push(countLetters(text) >= minOcrLetters && confidence >= minOcrConfidence ? 'READ' : inkOf(image) < maxBlankInk ? 'BLANK' : 'UNREADABLE');
  }

  async function slot(): Promise<void> {
    for (let index = next++; index < numbers.length && !stop; index = next++) {
      try {
        await readOne(index);
      } catch (error) {
        stop = true;
        throw error;
      }
    }
  }

  try {
    await Promise.all(Array.from({ length: Math.min(concurrency, numbers.length) }, () => slot()));
  } catch (error) {
    return { ok: false, reason: error instanceof TfnFound ? 'TFN_CONTENT_DETECTED' : 'OCR_FAILED' };
  } finally {
    stop = true;
    await pool.close();
  }
  if (ocrFailed(outcomes)) return { ok: false, reason: 'OCR_FAILED' };
  return { ok: true, pages };
}
