// The MRZ reader's read rate on generated passport pages (test/helpers/passport-images.ts), per variant:
// `node --import tsx bench/tools/mrz-read-rate.ts [pages per variant, default 10]`.
// "Read" means both lines exactly as printed; "usable" means found with every check digit valid (a page
// with a deliberately wrong check digit counts as usable when that digit, and no other, is found wrong).
// Baseline, in the same run: tesseract on the whole page as it comes, no preparation, no repair.
import { createRequire } from 'node:module';
import path from 'node:path';
import { createWorker, PSM } from 'tesseract.js';
import { allValid } from '../../src/modules/verifications/mrz/icao9303.ts';
import { createMrzReader } from '../../src/modules/verifications/mrz/mrz-reader.ts';
import { generatePassport, variants } from '../../test/helpers/passport-images.ts';

const perVariant = Number(process.argv[2] ?? 10);
const require = createRequire(import.meta.url);
const reader = createMrzReader();
const plain = await createWorker('eng', 1, { langPath: path.join(path.dirname(require.resolve('@tesseract.js-data/eng/package.json')), '4.0.0_best_int'), gzip: true, cacheMethod: 'none' });
await plain.setParameters({ tessedit_char_whitelist: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789<', tessedit_pageseg_mode: PSM.SINGLE_BLOCK });

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const p99 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.99))]!;
const totals = { read: 0, usable: 0, baselineRead: 0, pages: 0, ours: [] as number[], baseline: [] as number[] };
console.log('variant          read  usable  baseline-read  median ms (ours / baseline)');
for (const variant of variants) {
  let read = 0;
  let usable = 0;
  let baselineRead = 0;
  const ours: number[] = [];
  const baseline: number[] = [];
  for (let i = 0; i < perVariant; i++) {
    const page = await generatePassport(5000 + i, variant);
    let started = performance.now();
    const result = await reader.read(page.image);
    ours.push(performance.now() - started);
    started = performance.now();
    const text = (await plain.recognize(page.image.bytes)).data.text;
    baseline.push(performance.now() - started);
    const plainLines = text.split('\n').map((l) => l.replace(/\s/g, ''));
    if (plainLines.includes(page.lines[0]) && plainLines.includes(page.lines[1])) baselineRead += 1;
    if (!result.found) continue;
    if (result.td3.lines[0] === page.lines[0] && result.td3.lines[1] === page.lines[1]) read += 1;
    const invalid = result.td3.checkDigits.filter((c) => !c.valid).map((c) => c.field).join(',');
    if (variant === 'wrongCheckDigit' ? invalid === 'dateOfBirth,composite' : allValid(result.td3)) usable += 1;
  }
  Object.assign(totals, { read: totals.read + read, usable: totals.usable + usable, baselineRead: totals.baselineRead + baselineRead, pages: totals.pages + perVariant });
  totals.ours.push(...ours);
  totals.baseline.push(...baseline);
  console.log(`${variant.padEnd(16)} ${String(read).padStart(3)}/${perVariant}  ${String(usable).padStart(3)}/${perVariant}  ${String(baselineRead).padStart(6)}/${perVariant}       ${Math.round(median(ours))} / ${Math.round(median(baseline))}`);
}
const ratio = (a: number, b: number) => (a / b).toFixed(2);
console.log(
  `all: read ${totals.read}/${totals.pages} (${Math.round((100 * totals.read) / totals.pages)} %), usable ${totals.usable}/${totals.pages} (${Math.round((100 * totals.usable) / totals.pages)} %), baseline read ${totals.baselineRead}/${totals.pages}; ` +
    `time per page median ${ratio(median(totals.ours), median(totals.baseline))}× the baseline's, p99 ${ratio(p99(totals.ours), p99(totals.baseline))}×`,
);
await reader.close();
await plain.terminate();
