// Passport zone reading: how often the reader gets a generated passport page's zone exactly right, per kind
// of page, and what a read costs against one plain OCR call on the same image, in the same run.
//
// (a) baseline: one tesseract.js `recognize` of the page's lower quarter (the feasibility test's call: same
//     English data, character whitelist and page segmentation; no preprocessing, no correction);
// (b) real:     `createMrzReader().read(image)`: sharp preprocessing, deskew, the zone cut out, up to four
//     OCR passes, the column-by-column reading, the ICAO 9303 correction and the vote.
//
// Each page is read both ways back to back, the order flipping from page to page, so that whatever else the
// machine does weighs on both alike. A read is right when both lines equal the page's, character for
// character, check digits as printed (a wrongCheckDigit page must come back with its wrong digit). The
// baseline's text is counted right when it holds both lines as they are.
//
// OCR needs no database: the scenario runs once, on the run's first back-end.
import { createRequire } from 'node:module';
import path from 'node:path';
import sharp from 'sharp';
import { createWorker, OEM, PSM } from 'tesseract.js';
import { createMrzReader, type MrzImage } from '../../src/modules/verifications/mrz/mrz-reader.ts';
import { generatePassport, passportVariants, type PassportCase, type PassportVariant } from '../../test/helpers/passport-images.ts';
import { summarize } from '../lib/load.ts';
import { scenarioResult } from '../lib/report.ts';
import { readSettings } from '../lib/settings.ts';
import { defineScenario } from '../lib/types.ts';
import { loadAverage, rawRun, round1, timed } from '../lib/measure.ts';

/** The issue's goals: ≥ 90 % read exactly overall, every clean page, no read over a few seconds (3 s here). */
const goals = { overallRate: 0.9, cleanRate: 1, maxReadMs: 3000, minSpeedRatio: 0.2 };

const require = createRequire(import.meta.url);
const languagePath = path.join(path.dirname(require.resolve('@tesseract.js-data/eng/package.json')), '4.0.0_best_int');

/** `BENCH_MRZ_PER_VARIANT`: pages per kind of page (default 20). */
function perVariant(): number {
  const raw = process.env.BENCH_MRZ_PER_VARIANT;
  const n = raw ? Number(raw) : 20;
  if (!Number.isInteger(n) || n < 1) throw new Error(`BENCH_MRZ_PER_VARIANT: a whole number ≥ 1, got ${JSON.stringify(raw)}`);
  return n;
}

/** The feasibility test's call: the lower quarter of the page as it is. */
async function createPlainOcr() {
  const worker = await createWorker('eng', OEM.LSTM_ONLY, { langPath: languagePath, gzip: true, cacheMethod: 'none', errorHandler: () => undefined });
  await worker.setParameters({ tessedit_char_whitelist: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789<', tessedit_pageseg_mode: PSM.SINGLE_BLOCK, debug_file: '/dev/null' });
  return {
    async read(image: MrzImage): Promise<string> {
      const { width = 0, height = 0 } = await sharp(image.bytes).metadata();
      const top = Math.floor(height * 0.75);
      const { data } = await worker.recognize(image.bytes, { rectangle: { left: 0, top, width, height: height - top } });
      return data.text;
    },
    close: () => worker.terminate(),
  };
}

const percent = (n: number, of: number) => (of ? Math.round((n / of) * 1000) / 10 : 0);

function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]! : Number.NaN;
}

const description = 'Passport zone reading: the reader (preprocessing, passes, ICAO 9303 correction) vs one plain tesseract recognize';

export default defineScenario({
  kind: 'measured',
  name: 'mrz-read-rate',
  description,
  // No database: once per run, on its first back-end (BENCH_BACKENDS order).
  backends: [readSettings().backends[0]!],
  // The table shows these as ratios; the verdicts are set below from the issue's own terms.
  goals: { postgres: { minThroughputRatio: goals.minSpeedRatio }, pglite: { minThroughputRatio: goals.minSpeedRatio } },
  async measure(ctx) {
    const { settings } = ctx;
    const loadBefore = loadAverage();
    const n = perVariant();

    const generatedAt = performance.now();
    const pages: PassportCase[] = [];
    for (const variant of passportVariants) for (let i = 0; i < n; i++) pages.push(await generatePassport(50_000 + passportVariants.indexOf(variant) * 1000 + i, variant));
    // Interleave the kinds of page, so that each slice holds some of every kind.
    pages.sort((p, q) => (p.seed % 1000) - (q.seed % 1000) || passportVariants.indexOf(p.variant) - passportVariants.indexOf(q.variant));
    ctx.progress(`${pages.length} pages generated (${n} per kind) in ${Math.round(performance.now() - generatedAt)} ms`);

    const plain = await createPlainOcr();
    const reader = createMrzReader();
    try {
      // Both workers started and warmed on pages of their own, so no measured read pays for a start.
      const warmUntil = performance.now() + settings.warmupSeconds * 1000;
      for (let i = 0; i < 2 || performance.now() < warmUntil; i++) {
        const page = await generatePassport(90_000 + i, passportVariants[i % passportVariants.length]!);
        await plain.read(page.image);
        await reader.read(page.image);
        if (i > 20) break;
      }

      const times = { a: [] as number[][], b: [] as number[][] };
      const cpu = { a: [] as number[], b: [] as number[] };
      const right = { a: new Map<PassportVariant, number>(), b: new Map<PassportVariant, number>() };
      const readMs = new Map<PassportVariant, number[]>();
      const wrongExamples: string[] = [];
      const perSlice = Math.ceil(pages.length / Math.min(settings.slices, pages.length));
      const started = performance.now();
      for (let s = 0; s * perSlice < pages.length; s++) {
        const slice = pages.slice(s * perSlice, (s + 1) * perSlice);
        const sliceTimes = { a: [] as number[], b: [] as number[] };
        const sliceCpu = { a: 0, b: 0 };
        await ctx.profile(`slice-${s + 1}`, async () => {
          for (const [i, page] of slice.entries()) {
            const order = (s * perSlice + i) % 2 === 0 ? (['a', 'b'] as const) : (['b', 'a'] as const);
            for (const side of order) {
              if (side === 'a') {
                const t = await timed(() => plain.read(page.image));
                const text = t.value.replace(/ /g, '');
                if (page.mrz.every((line) => text.includes(line))) right.a.set(page.variant, (right.a.get(page.variant) ?? 0) + 1);
                sliceTimes.a.push(t.ms);
                sliceCpu.a += t.cpuUs;
              } else {
                const t = await timed(() => reader.read(page.image));
                const ok = t.value.found && t.value.lines[0] === page.mrz[0] && t.value.lines[1] === page.mrz[1];
                if (ok) right.b.set(page.variant, (right.b.get(page.variant) ?? 0) + 1);
                else if (wrongExamples.length < 12) wrongExamples.push(`${page.variant} #${page.seed} (${page.transform}): ${t.value.found ? `${t.value.valid ? 'check digits hold' : 'check digits do not hold'}, ${mismatchCount(t.value.lines, page.mrz)} characters differ` : t.value.reason}`);
                readMs.set(page.variant, [...(readMs.get(page.variant) ?? []), t.ms]);
                sliceTimes.b.push(t.ms);
                sliceCpu.b += t.cpuUs;
              }
            }
          }
        });
        times.a.push(sliceTimes.a);
        times.b.push(sliceTimes.b);
        cpu.a.push(sliceCpu.a);
        cpu.b.push(sliceCpu.b);
        ctx.progress(`slice ${s + 1}: ${Math.min(pages.length, (s + 1) * perSlice)} of ${pages.length} pages both ways in ${round1((performance.now() - started) / 1000)} s`);
      }

      const a = summarize(times.a.map((t, i) => rawRun(t, cpu.a[i]!)));
      const b = summarize(times.b.map((t, i) => rawRun(t, cpu.b[i]!)));
      // reads/s is 1000 / p50, so that b/a is the speed at p50 against one plain OCR call.
      a.rps = round1(1000 / a.latencyMs.p50);
      b.rps = round1(1000 / b.latencyMs.p50);
      const goal = { minThroughputRatio: goals.minSpeedRatio, maxP99Ratio: Math.round((goals.maxReadMs / a.latencyMs.p99) * 1000) / 1000 };
      const result = scenarioResult(description, a, b, goal);

      const total = (m: Map<PassportVariant, number>) => [...m.values()].reduce((x, y) => x + y, 0);
      const overall = total(right.b) / pages.length;
      const clean = (right.b.get('clean') ?? 0) / n;
      const rateMet = overall >= goals.overallRate && clean >= goals.cleanRate;
      const speedMet = result.ratios.throughput >= goals.minSpeedRatio;
      // The speed goal and the read-rate goals together make the first verdict; the second is the 3 s bound.
      result.verdict = { throughput: speedMet && rateMet ? 'PASS' : 'MISS', p99: b.latencyMs.max < goals.maxReadMs ? 'PASS' : 'MISS' };

      const perKind = passportVariants.map((v) => {
        const ms = readMs.get(v) ?? [];
        return { variant: v, right: right.b.get(v) ?? 0, plainRight: right.a.get(v) ?? 0, of: n, p50Ms: round1(quantile(ms, 0.5)), maxMs: round1(Math.max(...ms)) };
      });
      return {
        ...result,
        labels: { throughput: 'reads/s', p50: 'p50 ms', p99: 'p99 ms', cpu: 'CPU µs/read' },
        notes: [
          `(a) one plain tesseract recognize of the page's lower quarter; (b) the reader. reads/s = 1000 / p50.`,
          `read exactly, (b): ${total(right.b)} of ${pages.length} (${percent(total(right.b), pages.length)} %; goal ≥ ${goals.overallRate * 100} %, clean ${goals.cleanRate * 100} %: ${rateMet ? 'PASS' : 'MISS'}); (a)'s text held both lines for ${total(right.a)} (${percent(total(right.a), pages.length)} %).`,
          ...perKind.map((k) => `  ${k.variant.padEnd(16)} ${String(k.right).padStart(3)}/${k.of}  (a) ${String(k.plainRight).padStart(3)}/${k.of}  p50 ${k.p50Ms} ms  max ${k.maxMs} ms`),
          `slowest read ${b.latencyMs.max} ms (goal < ${goals.maxReadMs} ms: ${result.verdict.p99}, the p99 verdict); speed at p50 ${result.ratios.throughput}× (a)'s (goal ≥ ${goals.minSpeedRatio}×: ${speedMet ? 'PASS' : 'MISS'}); the throughput verdict is the speed and read-rate goals together.`,
          ...wrongExamples.map((e) => `  not exact: ${e}`),
          `Run once, on this back-end (no database). Load average ${loadBefore.join(' ')} → ${loadAverage().join(' ')}.`,
        ],
        details: { goals, perVariant: n, pages: pages.length, readExactly: total(right.b), plainTextHeldBoth: total(right.a), perKind, notExact: wrongExamples, loadAverageBefore: loadBefore, loadAverageAfter: loadAverage() },
      };
    } finally {
      await reader.close();
      await plain.close();
    }
  },
});

/** How many positions of the two lines differ (a read of another length counts its whole line). */
function mismatchCount(read: readonly string[], expected: readonly string[]): number {
  return expected.reduce((n, line, k) => {
    const got = read[k] ?? '';
    if (got.length !== line.length) return n + line.length;
    return n + [...line].filter((c, i) => got[i] !== c).length;
  }, 0);
}
