// Reads a passport's machine-readable zone from a photo of its page: sharp prepares the foot of the page
// (grey, stretched contrast, a readable size), tesseract.js reads it with English data packaged on npm
// (@tesseract.js-data/eng: nothing is fetched at run time, nothing written to disk), and icao9303.ts
// makes the two lines of it. A photo taken at an angle is read again turned a few degrees either way,
// within a fixed number of tries. One OCR worker per reader, started on the first read; reads wait their
// turn. Never throws on a bad image, and never logs: the zone holds a person's name and numbers.
import { createRequire } from 'node:module';
import path from 'node:path';
import sharp from 'sharp';
import { createWorker, PSM, type Worker } from 'tesseract.js';
import { allValid, readTd3, type Td3 } from './icao9303.ts';

const require = createRequire(import.meta.url);
// The fast integer model reads the zone as well as the float one and starts in a third of the time.
const languageData = path.join(path.dirname(require.resolve('@tesseract.js-data/eng/package.json')), '4.0.0_best_int');

/** Smaller than this, a picture cannot carry a readable zone. */
const minimumWidth = 400;
/** The zone's foot of the page is read at this width: about 27 px a character. */
const readingWidth = 1400;
/** Turns tried, in order, when the straight reading gives no valid zone. */
const turns = [0, -3, 3, -6, 6];

export type MrzRead = { found: true; td3: Td3 } | { found: false; reason: 'too_small' | 'not_an_image' | 'no_zone' };

export interface MrzImage {
  contentType: 'image/jpeg' | 'image/png';
  bytes: Buffer;
}

export function createMrzReader() {
  let worker: Promise<Worker> | undefined;
  let queue: Promise<unknown> = Promise.resolve();

  function startWorker(): Promise<Worker> {
    worker ??= (async () => {
      const started = await createWorker('eng', 1, { langPath: languageData, gzip: true, cacheMethod: 'none' });
      await started.setParameters({ tessedit_char_whitelist: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789<', tessedit_pageseg_mode: PSM.SINGLE_BLOCK });
      return started;
    })();
    return worker;
  }

  /** The lower part of the page, turned by `degrees`, grey and at reading size. */
  async function footOf(bytes: Buffer, degrees: number): Promise<Buffer> {
    const turned = degrees === 0 ? bytes : await sharp(bytes).rotate(degrees, { background: '#ffffff' }).toBuffer();
    const { width = 0, height = 0 } = await sharp(turned).metadata();
    const top = Math.floor(height * 0.62);
    return sharp(turned)
      .extract({ left: 0, top, width, height: height - top })
      .greyscale()
      .normalise()
      .resize({ width: readingWidth })
      .png()
      .toBuffer();
  }

  async function readNow(image: MrzImage): Promise<MrzRead> {
    let width = 0;
    try {
      width = (await sharp(image.bytes).metadata()).width ?? 0;
    } catch {
      return { found: false, reason: 'not_an_image' };
    }
    if (width < minimumWidth) return { found: false, reason: 'too_small' };
    const ocr = await startWorker();
    let best: Td3 | undefined;
    for (const degrees of turns) {
      let text: string;
      try {
        text = (await ocr.recognize(await footOf(image.bytes, degrees))).data.text;
      } catch {
        return { found: false, reason: 'not_an_image' };
      }
      const td3 = readTd3(text);
      if (td3 && allValid(td3)) return { found: true, td3 };
      best ??= td3;
    }
    return best ? { found: true, td3: best } : { found: false, reason: 'no_zone' };
  }

  return {
    /** The zone of a passport page photo, read one at a time; `found: false` when there is none to read. */
    read(image: MrzImage): Promise<MrzRead> {
      const turn = queue.then(() => readNow(image));
      queue = turn.catch(() => undefined);
      return turn;
    },

    /** Stops the OCR worker, if one started; safe to call twice. */
    async close(): Promise<void> {
      const started = worker;
      worker = undefined;
      if (started) await (await started).terminate();
    },
  };
}

export type MrzReader = ReturnType<typeof createMrzReader>;
