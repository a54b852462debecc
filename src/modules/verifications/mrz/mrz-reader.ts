// Reads a passport's machine-readable zone from a photo of its data page.
//
//   1. sharp: the page at 1 000 px wide, grey; the zone is in its lower 55 % (or, upside down, the upper).
//   2. The skew: the angle at which the lower part's strokes project most sharply onto rows.
//   3. Turned straight; the zone is the lowest pair of long rows of text; it is cut out with a margin,
//      scaled to a capital height OCR reads well, and its contrast stretched.
//   4. tesseract.js reads the cut-out (one worker per reader, English data from npm: nothing fetched,
//      nothing written). Each symbol goes into its column of the 44-column grid by its position, its shape
//      overrules OCR where OCR is known to slip (runs of `<` read as K and L, I read as T), and digits OCR
//      misread after a run of fillers are read again one by one.
//   5. icao9303.ts enforces each position's kind and lets the check digits choose between look-alikes.
//   6. Up to `maxReads` passes at other scales, within `timeBudgetMs`, until two passes read the same zone;
//      the passes' columns are also put to a vote. The reading most check digits hold for wins.
//
// Never throws for an image, and never logs: the zone holds a person's name, birth date and numbers.
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Worker as ThreadWorker } from 'node:worker_threads';
import sharp from 'sharp';
import { createWorker, OEM, PSM, type Line, type Worker } from 'tesseract.js';
import type { Td3 } from './icao9303.ts';
import { decide, readingOf, type PassReading, type ReadDigit } from './mrz-columns.ts';
import { cutOut, greyAt, lowerHalf, rawOf, zoneIn, type Grey, type Zone } from './mrz-page.ts';

const require = createRequire(import.meta.url);
// `4.0.0_best_int`, not `4.0.0`: both hold the same LSTM network (tessdata's is tessdata_best made integer)
// and read identically (measured: the same lines, character for character, on 54 generated pages of all
// nine kinds), but `4.0.0` also carries the legacy engine we do not run: 10.9 MB to load instead of 2.9 MB,
// and a worker ready in ~0.42 s instead of ~0.30 s on the 2-core machine this was written on.
const languagePath = path.join(path.dirname(require.resolve('@tesseract.js-data/eng/package.json')), '4.0.0_best_int');

export interface MrzImage {
  contentType: 'image/jpeg' | 'image/png';
  bytes: Buffer;
}

/** Why no zone came back: not an image sharp can decode, too small to hold one, none found, OCR failing, closed. */
export type MrzNotFound = 'UNREADABLE_IMAGE' | 'TOO_SMALL' | 'NO_ZONE' | 'OCR_FAILED' | 'READER_CLOSED';

export type MrzRead = ({ found: true; lines: [string, string] } & Td3) | { found: false; reason: MrzNotFound };

export interface MrzReaderOptions {
  /** OCR passes at most per image. Default 4. */
  maxReads?: number;
  /** No pass starts after this many ms of one read (a pass under way finishes). Default 3 000. */
  timeBudgetMs?: number;
  /** A pass taking longer ends the read, and the worker (another starts on the next read). Default 15 000. */
  passTimeoutMs?: number;
}

export interface MrzReader {
  /** The zone of a passport page photo; reads wait their turn. Never rejects. */
  read(image: MrzImage): Promise<MrzRead>;
  /** Ends the OCR worker once the read under way is done; reads still waiting answer READER_CLOSED. */
  close(): Promise<void>;
}

const workingWidth = 1000;
/** Smaller than this, a picture cannot hold a zone OCR could read. */
const minimumSize = { width: 300, height: 200 };
/**
 * Capital heights (px) of the passes, in order. Measured on 54 generated pages, one pass alone read 49–50
 * exactly at each of these heights, with different pages wrong; the passes that follow and the vote are
 * for those (bench/README.md: 98–99 % over 180 pages).
 */
const passCapitals = [22, 26, 19, 30];

function deadline(ms: number): { expired: Promise<never>; cancel: () => void } {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`OCR pass over ${ms} ms`)), ms);
  });
  expired.catch(() => undefined);
  return { expired, cancel: () => clearTimeout(timer) };
}

/** The worker's parameters for reading the zone as a block of text, or one digit alone. */
const ocrModes = {
  block: { tessedit_char_whitelist: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789<', tessedit_pageseg_mode: PSM.SINGLE_BLOCK },
  digit: { tessedit_char_whitelist: '0123456789', tessedit_pageseg_mode: PSM.SINGLE_CHAR },
};

export function createMrzReader(options: MrzReaderOptions = {}): MrzReader {
  const maxReads = options.maxReads ?? passCapitals.length;
  const timeBudgetMs = options.timeBudgetMs ?? 3000;
  const passTimeoutMs = options.passTimeoutMs ?? 15_000;
  let worker: Promise<Worker> | null = null;
  /** The worker's parameters now. */
  let mode: keyof typeof ocrModes | null = null;
  let queue: Promise<unknown> = Promise.resolve();
  let closed = false;

  function startWorker(): Promise<Worker> {
    worker ??= (async () => {
      // Without an errorHandler, tesseract.js rethrows a failed job in its message listener (a crash).
      const started = await createWorker('eng', OEM.LSTM_ONLY, { langPath: languagePath, gzip: true, cacheMethod: 'none', errorHandler: () => undefined });
      // An uncaught error in the worker thread is an 'error' event nobody else listens to.
      (started as unknown as { worker?: ThreadWorker }).worker?.on('error', () => void stopWorker());
      // tesseract's own diagnostics ("Image too small to scale!!") would otherwise go to stderr.
      await started.setParameters({ debug_file: '/dev/null' });
      mode = null;
      return started;
    })();
    worker.catch(() => {
      worker = null;
    });
    return worker;
  }

  async function stopWorker(): Promise<void> {
    const running = worker;
    worker = null;
    if (running) await running.then((w) => w.terminate()).catch(() => undefined);
  }


  /** One OCR call in `wanted` mode, bounded by the pass timeout. */
  async function ocrIn<T>(wanted: keyof typeof ocrModes, run: (ocr: Worker) => Promise<T>): Promise<T> {
    const ocr = await startWorker();
    const limit = deadline(passTimeoutMs);
    try {
      if (mode !== wanted) {
        await Promise.race([ocr.setParameters(ocrModes[wanted]), limit.expired]);
        mode = wanted;
      }
      return await Promise.race([run(ocr), limit.expired]);
    } catch (error) {
      // A call that failed or hung leaves the worker in a state we cannot know: the next read starts another.
      await stopWorker();
      throw error;
    } finally {
      limit.cancel();
    }
  }

  const recognise = (png: Buffer): Promise<Line[]> =>
    ocrIn('block', async (ocr) => {
      const { data } = await ocr.recognize(png, {}, { blocks: true, text: true });
      return (data.blocks ?? []).flatMap((b) => b.paragraphs.flatMap((p) => p.lines));
    });

  const readDigit: ReadDigit = async (image, box) => {
    // A white margin as wide as the glyph around it: tesseract reads nothing at an image's very edge.
    const png = await sharp(image.data, rawOf(image))
      .extract(box)
      .extend({ top: box.height, bottom: box.height, left: box.width, right: box.width, background: '#ffffff' })
      .greyscale()
      .png({ compressionLevel: 1 })
      .toBuffer();
    return ocrIn('digit', async (ocr) => (await ocr.recognize(png)).data.text.trim());
  };

  /** The page in grey at working size; or why there is none to read. */
  async function pageOf(image: MrzImage): Promise<Grey | MrzNotFound> {
    try {
      const meta = await sharp(image.bytes).metadata();
      if (!meta.width || !meta.height) return 'UNREADABLE_IMAGE';
      if (meta.width < minimumSize.width || meta.height < minimumSize.height) return 'TOO_SMALL';
      return await greyAt(image.bytes, workingWidth);
    } catch {
      return 'UNREADABLE_IMAGE';
    }
  }

  /** The page as photographed, then upside down (its zone at the top), each located lazily. */
  async function* zonesOf(page: Grey): AsyncGenerator<Zone> {
    const upright = await zoneIn(lowerHalf(page));
    if (upright) yield upright;
    const { data, info } = await sharp(page.data, rawOf(page)).rotate(180).greyscale().raw().toBuffer({ resolveWithObject: true });
    const upsideDown = await zoneIn(lowerHalf({ data, width: info.width, height: info.height }));
    if (upsideDown) yield upsideDown;
  }

  async function readNow(image: MrzImage): Promise<MrzRead> {
    const started = performance.now();
    const page = await pageOf(image);
    if (typeof page === 'string') return { found: false, reason: page };
    let passes = 0;
    let readAny = false;
    try {
      let upsideDown = false;
      for await (const zone of zonesOf(page)) {
        const readings: PassReading[] = [];
        let decided: ReturnType<typeof decide> = { best: null, settled: false };
        for (const capitals of passCapitals) {
          if (closed || passes >= maxReads || performance.now() - started > timeBudgetMs) break;
          // Passes without anything like a zone (two, or one upside down): not this way up, or no passport.
          if (readings.length === (upsideDown ? 1 : 2) && !decided.best) break;
          const cut = await cutOut(zone, capitals);
          passes++;
          readings.push(await readingOf(await recognise(cut.png), cut.grey, readDigit));
          readAny = true;
          decided = decide(readings);
          if (decided.settled) break;
        }
        const best = decided.best;
        if (best) return { found: true, lines: best.lines, fields: best.fields, checkDigits: best.checkDigits, valid: best.valid };
        upsideDown = true;
      }
    } catch {
      return { found: false, reason: readAny ? 'NO_ZONE' : 'OCR_FAILED' };
    }
    return { found: false, reason: 'NO_ZONE' };
  }

  return {
    read(image) {
      if (closed) return Promise.resolve({ found: false, reason: 'READER_CLOSED' });
      const turn = queue.then((): Promise<MrzRead> | MrzRead => (closed ? { found: false, reason: 'READER_CLOSED' } : readNow(image))).catch((): MrzRead => ({ found: false, reason: 'OCR_FAILED' }));
      queue = turn;
      return turn;
    },

    async close() {
      closed = true;
      await queue;
      await stopWorker();
    },
  };
}
