// OCR of rendered pages: a pool of tesseract.js workers (one thread each), English data from npm loaded
// from disk (nothing fetched, nothing cached, nothing written), LSTM engine only, as mrz-reader.ts does.
// The pool lives for one document; close() terminates every worker, and a job still waiting rejects.
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Worker as ThreadWorker } from 'node:worker_threads';
import { createWorker, OEM, PSM, type Worker } from 'tesseract.js';
import { despeckle, encodePgm, type GreyImage } from './page-render.ts';

const require = createRequire(import.meta.url);
// The integer LSTM model only (2.9 MB to load instead of 10.9 MB with the legacy engine; mrz-reader.ts).
const languagePath = path.join(path.dirname(require.resolve('@tesseract.js-data/eng/package.json')), '4.0.0_best_int');

export interface OcrText {
  text: string;
  /** tesseract's mean word confidence, 0 to 100. */
  confidence: number;
}

export interface OcrPool {
  /** Reads one page image at `dpi`; waits for a free worker. Rejects when OCR fails or the pool is closed. */
  recognise(image: GreyImage, dpi: number): Promise<OcrText>;
  close(): Promise<void>;
}

export class OcrPoolClosed extends Error {
  constructor() {
    super('OCR pool closed');
  }
}

async function startWorker(): Promise<Worker> {
  // Without an errorHandler, tesseract.js rethrows a failed job in its message listener (a crash).
  const worker = await createWorker('eng', OEM.LSTM_ONLY, { langPath: languagePath, gzip: true, cacheMethod: 'none', errorHandler: () => undefined });
  // tesseract's diagnostics ("Estimating resolution …") would otherwise go to stderr. A deed is one column
  // of text: read as such, a table's rows come out as lines (`Trustee  Jane Doe`), where the automatic
  // layout analysis takes cells for blocks and drops or reorders some.
  await worker.setParameters({ debug_file: '/dev/null', tessedit_pageseg_mode: PSM.SINGLE_COLUMN });
  return worker;
}

export async function createOcrPool(size: number): Promise<OcrPool> {
  const started = await Promise.allSettled(Array.from({ length: Math.max(1, size) }, () => startWorker()));
  const workers = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  if (workers.length < started.length) {
    await Promise.all(workers.map((w) => w.terminate().catch(() => undefined)));
    throw new Error('OCR worker did not start');
  }
  const idle = [...workers];
  const waiting: { resolve: (w: Worker) => void; reject: (e: Error) => void }[] = [];
  /** The resolution each worker was last told its image has (tesseract uses it to size its filters). */
  const dpiOf = new Map<Worker, number>();
  let closed = false;
  let failure: Error | null = null;

  for (const worker of workers) {
    // An uncaught error in a worker's thread is an 'error' event nobody else listens to: the pool is done.
    (worker as unknown as { worker?: ThreadWorker }).worker?.on('error', () => {
      failure = new Error('OCR worker failed');
      for (const w of waiting.splice(0)) w.reject(failure);
    });
  }

  const take = (): Promise<Worker> => {
    if (closed) return Promise.reject(new OcrPoolClosed());
    if (failure) return Promise.reject(failure);
    const worker = idle.pop();
    if (worker) return Promise.resolve(worker);
    return new Promise((resolve, reject) => waiting.push({ resolve, reject }));
  };
  const give = (worker: Worker) => {
    const next = waiting.shift();
    if (next) next.resolve(worker);
    else idle.push(worker);
  };

  return {
    async recognise(image, dpi) {
      const worker = await take();
      try {
        if (dpiOf.get(worker) !== dpi) {
          await worker.setParameters({ user_defined_dpi: String(dpi) });
          dpiOf.set(worker, dpi);
        }
        const { data } = await worker.recognize(encodePgm(await despeckle(image)));
        if (closed) throw new OcrPoolClosed();
        return { text: data.text, confidence: data.confidence };
      } finally {
        give(worker);
      }
    },

    async close() {
      closed = true;
      for (const w of waiting.splice(0)) w.reject(new OcrPoolClosed());
      await Promise.all(workers.map((w) => w.terminate().catch(() => undefined)));
    },
  };
}
