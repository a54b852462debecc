// What the deed pipeline costs, against pdfjs and tesseract.js alone on the same files in the same run:
//
//   node --import tsx bench/tools/deed-pipeline-measure.ts [--scanned-pages 150] [--ocr-pages 6] [--runs 5]
//
//   1. inspectPdf on a 150-page born-digital deed (what `POST …/start` waits for).
//   2. The text layer of that deed: pdfjs's own getTextContent loop (open, every page, close) against
//      readPagesInProcess (the same plus joining, tidying and the TFN scan) and readDeedPages (the same in
//      a child process: its start included). Runs alternate, medians reported.
//   3. OCR per scanned page: tesseract.js `recognize` alone (one worker, started beforehand) on each page's
//      image, against the pipeline at concurrency 1 (render at 300 dpi, OCR, TFN scan, worker start
//      included). Two baselines: the image we OCR (300 dpi), and the page at the scan's own 200 dpi.
//   4. `--scanned-pages` scanned pages through readDeedPages at concurrency 2, without a deadline: how long
//      a deadline must be. Skipped with `--scanned-pages 0`.
//
// Made-up deeds (test/helpers/deed-scans.ts); nothing is written. Prints JSON on the last line.
import { parseArgs } from 'node:util';
import { createWorker, OEM } from 'tesseract.js';
import { createRequire } from 'node:module';
import path from 'node:path';
import { scanPdf, typesetPdf } from '../../test/helpers/deed-scans.ts';
import { inspectPdf } from '../../src/modules/deeds/pipeline/inspect.ts';
import { readPagesInProcess, ocrDpi } from '../../src/modules/deeds/pipeline/page-reader.ts';
import { encodePgm, renderPageGrey } from '../../src/modules/deeds/pipeline/page-render.ts';
import { openPdf } from '../../src/modules/deeds/pipeline/pdf-document.ts';
import { readDeedPages } from '../../src/modules/deeds/pipeline/read-pages.ts';

const { values } = parseArgs({ options: { 'scanned-pages': { type: 'string', default: '150' }, 'ocr-pages': { type: 'string', default: '6' }, runs: { type: 'string', default: '5' } } });
const scannedPages = Number(values['scanned-pages']);
const ocrPageCount = Number(values['ocr-pages']);
const runs = Number(values.runs);

const say = (line: string) => process.stdout.write(`${line}\n`);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const round = (x: number, digits = 0) => Number(x.toFixed(digits));
async function timed<T>(fn: () => Promise<T>): Promise<[T, number]> {
  const started = performance.now();
  const value = await fn();
  return [value, performance.now() - started];
}

const clauses = [
  'THIS DEED OF SETTLEMENT is made on the date set out in the Schedule BETWEEN the Settlor named in Item 1 of the Schedule AND the Trustee named in Item 2 of the Schedule.',
  'The Trustee shall hold the Trust Fund and the income of the Trust Fund upon trust for such one or more of the General Beneficiaries as the Trustee in its absolute discretion appoints.',
  'The Appointor may by deed remove any Trustee and appoint a new or additional Trustee; the Appointor named in Item 3 is Gregory James Whitfield of 9 Jacaranda Avenue, Indooroopilly QLD 4068.',
  'Whitfield Nominees Pty Ltd ACN 004 085 616 ABN 51 824 753 556 of Level 3, 120 Edward Street, Brisbane QLD 4000 consents to act as the first Trustee of the Whitfield Family Trust.',
  'The Vesting Day means the day before the eightieth anniversary of the date of this Deed or such earlier day as the Trustee may in writing appoint.',
];
const deedPage = (n: number) => `${n}. ${Array.from({ length: 4 }, (_, i) => clauses[(n + i) % clauses.length]).join('\n\n')}`;

const figures: Record<string, unknown> = {};

// 1 and 2: born-digital.
const born = await typesetPdf(Array.from({ length: 150 }, (_, i) => deedPage(i + 1)));
const [, firstInspectMs] = await timed(() => inspectPdf(born));
const inspectMs: number[] = [];
for (let r = 0; r < runs; r++) inspectMs.push((await timed(() => inspectPdf(born)))[1]);
figures.inspect150 = { firstCallMs: round(firstInspectMs), medianMs: round(median(inspectMs)) };
say(`inspectPdf, 150 pages: ${round(median(inspectMs))} ms (first call in the process ${round(firstInspectMs)} ms)`);

async function pdfjsTextLoop(bytes: Buffer): Promise<number> {
  const opened = await openPdf(bytes);
  if (!opened.ok) throw new Error('not a PDF');
  let items = 0;
  for (let n = 1; n <= opened.doc.numPages; n++) items += (await (await opened.doc.getPage(n)).getTextContent()).items.length;
  await opened.doc.destroy();
  return items;
}
const text = { pdfjs: [] as number[], inProcess: [] as number[], child: [] as number[] };
for (let r = 0; r < runs; r++) {
  const order = r % 2 === 0 ? (['pdfjs', 'inProcess', 'child'] as const) : (['child', 'inProcess', 'pdfjs'] as const);
  for (const way of order) {
    const [, ms] = await timed(async () => {
      if (way === 'pdfjs') return pdfjsTextLoop(born);
      const result = way === 'inProcess' ? await readPagesInProcess(born, { concurrency: 2 }) : await readDeedPages(born, { deadlineMs: 120_000, concurrency: 2 });
      if (!result.ok || result.ocrPages !== 0) throw new Error('born-digital deed not read from its text layer');
      return result;
    });
    text[way].push(ms);
  }
}
const textMs = { pdfjs: median(text.pdfjs), inProcess: median(text.inProcess), child: median(text.child) };
figures.textLayer150 = {
  pdfjsLoopMs: round(textMs.pdfjs),
  pipelineInProcessMs: round(textMs.inProcess),
  pipelineChildMs: round(textMs.child),
  ratioInProcess: round(textMs.inProcess / textMs.pdfjs, 2),
  ratioChild: round(textMs.child / textMs.pdfjs, 2),
};
say(`text layer, 150 pages: pdfjs loop ${round(textMs.pdfjs)} ms; pipeline in process ${round(textMs.inProcess)} ms (×${round(textMs.inProcess / textMs.pdfjs, 2)}); in its child ${round(textMs.child)} ms (×${round(textMs.child / textMs.pdfjs, 2)})`);

// 3: OCR per scanned page.
const scanned = await scanPdf(await typesetPdf(Array.from({ length: ocrPageCount }, (_, i) => deedPage(i + 1))), { seed: 42 });
const images: { at300: Buffer; at200: Buffer }[] = [];
{
  const opened = await openPdf(scanned);
  if (!opened.ok) throw new Error('scan not a PDF');
  for (let n = 1; n <= opened.doc.numPages; n++) {
    const page = await opened.doc.getPage(n);
    images.push({ at300: encodePgm(await renderPageGrey(opened.doc, page, ocrDpi)), at200: encodePgm(await renderPageGrey(opened.doc, page, 200)) });
  }
  await opened.doc.destroy();
}
const require = createRequire(import.meta.url);
const langPath = path.join(path.dirname(require.resolve('@tesseract.js-data/eng/package.json')), '4.0.0_best_int');
const [worker, workerStartMs] = await timed(() => createWorker('eng', OEM.LSTM_ONLY, { langPath, gzip: true, cacheMethod: 'none', errorHandler: () => undefined }));
await worker.setParameters({ debug_file: '/dev/null' });
async function recogniseAll(which: 'at300' | 'at200'): Promise<number> {
  await worker.setParameters({ user_defined_dpi: which === 'at300' ? String(ocrDpi) : '200' });
  const [, ms] = await timed(async () => {
    for (const image of images) await worker.recognize(image[which]);
  });
  return ms / images.length;
}
const baseline300 = await recogniseAll('at300');
const [pipelineResult, pipelineMs] = await timed(() => readPagesInProcess(scanned, { concurrency: 1 }));
if (!pipelineResult.ok || pipelineResult.ocrPages !== ocrPageCount) throw new Error(`scan not read: ${pipelineResult.ok ? 'pages' : pipelineResult.reason}`);
const baseline200 = await recogniseAll('at200');
await worker.terminate();
const pipelinePerPage = pipelineMs / ocrPageCount;
figures.ocrPerPage = {
  pages: ocrPageCount,
  tesseractWorkerStartMs: round(workerStartMs),
  recognise300DpiMs: round(baseline300),
  recognise200DpiMs: round(baseline200),
  pipelineConcurrency1Ms: round(pipelinePerPage),
  ratioVs300: round(pipelinePerPage / baseline300, 2),
  ratioVs200: round(pipelinePerPage / baseline200, 2),
};
say(`OCR per scanned page: recognize alone ${round(baseline300)} ms (300 dpi image), ${round(baseline200)} ms (the scan's 200 dpi); pipeline at concurrency 1 ${round(pipelinePerPage)} ms (×${round(pipelinePerPage / baseline300, 2)}, ×${round(pipelinePerPage / baseline200, 2)}); a worker starts in ${round(workerStartMs)} ms`);

// 4: a long scanned deed through the child at concurrency 2.
if (scannedPages > 0) {
  const long = await scanPdf(await typesetPdf(Array.from({ length: scannedPages }, (_, i) => deedPage(i + 1))), { seed: 43 });
  const [result, ms] = await timed(() => readDeedPages(long, { deadlineMs: 3_600_000, concurrency: 2 }));
  if (!result.ok) throw new Error(`long scan not read: ${result.reason}`);
  figures.scanned = { pages: scannedPages, concurrency: 2, totalS: round(ms / 1000, 1), perPageS: round(ms / 1000 / scannedPages, 2) };
  say(`${scannedPages} scanned pages at concurrency 2, in the child: ${round(ms / 1000, 1)} s (${round(ms / 1000 / scannedPages, 2)} s a page)`);
}

say(JSON.stringify(figures));
