// Deed extraction: how well the rule-based extractor (src/providers/extractor/rules-extractor.ts) reads the
// generated deed corpus (test/helpers/deed-corpus/), and what it costs beside reading the deed at all.
//
// (a) baseline: reading one deed's text layer, page by page, with pdfjs (as test/helpers/pdf-text.ts
//     does): the least a born-digital deed costs before anything can be read from it;
// (b) real:     `createRulesExtractor().extract(pages)` on those pages.
//
// The deeds are rendered once (pdfkit, born-digital) and their pages read once for the scores
// (bench/lib/deed-score.ts; the extractor is deterministic). Each slice then reads and extracts every deed,
// (a) and (b) back to back, the order flipping from deed to deed. The scores: party precision, recall and F1 (role, kind and
// name; ACN/ABN when the truth has them), trust-field accuracy, name splitting, classes; and any answer that
// fails the schema, quotes text not on its page, or holds a date of birth. The verdict is the goal: party F1
// and trust-field accuracy both at least 0.95.
//
// Scanned deeds: every deed of at most BENCH_DEED_SCANNED_MAX_PAGES pages (default 12: the long ones would
// take minutes each) is rasterised into an image-only PDF with noise and skew (test/helpers/deed-scans.ts),
// read by the real pipeline (readDeedPages: OCR in its child process) and scored the same way, apart. The
// four deeds that print a TFN are scanned without it: the pipeline rightly refuses a scan showing one.
//
// BENCH_DEED_SEED: draw the corpus from another seed (same kinds of deed, other names and wording; default:
// the corpus the tests use). No database: the scenario runs once, on the run's first back-end.
import os from 'node:os';
import type { DeedPage } from '../../src/providers/extractor/deed-payload.ts';
import { readDeedPages } from '../../src/modules/deeds/pipeline/read-pages.ts';
import { createRulesExtractor } from '../../src/providers/extractor/rules-extractor.ts';
import { deedCorpus, renderDeed, type DeedCase } from '../../test/helpers/deed-corpus/index.ts';
import { scanPdf } from '../../test/helpers/deed-scans.ts';
import { pdfText } from '../../test/helpers/pdf-text.ts';
import { scoreDeedPages, summariseScores, trustFields, type DeedScore } from '../lib/deed-score.ts';
import { summarize } from '../lib/load.ts';
import { scenarioResult } from '../lib/report.ts';
import { readSettings } from '../lib/settings.ts';
import { defineScenario } from '../lib/types.ts';
import { loadAverage, rawRun, round1, round3, timed } from '../lib/measure.ts';

const goals = { f1: 0.95, trustFields: 0.95, scannedF1: 0.85 };

function corpusSeed(): number | undefined {
  const raw = process.env.BENCH_DEED_SEED;
  if (raw === undefined || raw === '') return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new Error(`BENCH_DEED_SEED: a whole number ≥ 0, got ${JSON.stringify(raw)}`);
  return n;
}

/** A born-digital deed's pages: its text layer. */
async function readTextLayer(pdf: Buffer): Promise<DeedPage[]> {
  return (await pdfText(pdf)).map((text, i) => ({ number: i + 1, text, source: 'TEXT_LAYER' as const }));
}

/** A born-digital deed scanned (noise, a slight skew, no text layer) and read back by the pipeline's OCR. */
async function readScanned(pdf: Buffer, seed: number): Promise<DeedPage[] | null> {
  const scanned = await scanPdf(pdf, { seed, noise: 0.02, skewDegrees: ((seed % 7) - 3) * 0.3 });
  const reading = await readDeedPages(scanned, { deadlineMs: 900_000, concurrency: os.availableParallelism() });
  return reading.ok ? reading.pages : null;
}

function scannedMaxPages(): number {
  const raw = process.env.BENCH_DEED_SCANNED_MAX_PAGES;
  const n = raw ? Number(raw) : 12;
  if (!Number.isInteger(n) || n < 0) throw new Error(`BENCH_DEED_SCANNED_MAX_PAGES: a whole number ≥ 0, got ${JSON.stringify(raw)}`);
  return n;
}

/** Where each kind of deed's pages come from. */
const pageSources = { 'born-digital': readTextLayer } as const;

const description = 'Deed extraction: the rules extractor on the generated corpus vs reading the deeds’ text layers';

export default defineScenario({
  kind: 'measured',
  name: 'deed-extraction',
  description,
  backends: [readSettings().backends[0]!],
  // The table shows the ratios; the verdict is set below from the scores.
  goals: {},
  async measure(ctx) {
    const { settings } = ctx;
    const loadBefore = loadAverage();
    const seed = corpusSeed();

    const renderedAt = performance.now();
    const deeds: Array<{ deed: DeedCase; pdf: Buffer }> = [];
    for (const deed of deedCorpus({ seed })) deeds.push({ deed, pdf: await renderDeed(deed) });
    ctx.progress(`${deeds.length} deeds rendered in ${Math.round(performance.now() - renderedAt)} ms`);

    const extractor = createRulesExtractor();
    const read = pageSources['born-digital'];
    // Every deed's pages once, untimed: what (b) extracts from and what the scores are for. This also warms
    // both paths (pdfjs's parser and fonts, the extractor's regular expressions).
    const pagesOf = new Map<string, DeedPage[]>();
    const scores: DeedScore[] = [];
    for (const { deed, pdf } of deeds) {
      const pages = await read(pdf);
      pagesOf.set(deed.id, pages);
      scores.push(await scoreDeedPages(deed, pages, extractor));
    }
    const pageCount = [...pagesOf.values()].reduce((n, p) => n + p.length, 0);

    // The same deeds scanned, read by OCR, scored apart. A deed whose reading fails scores as nothing found.
    const scannedScores: DeedScore[] = [];
    const scanStarted = performance.now();
    for (const [i, { deed, pdf }] of deeds.entries()) {
      if (pagesOf.get(deed.id)!.length > scannedMaxPages()) continue;
      // A scan showing a TFN is refused by the pipeline before anything is read (TFN_CONTENT_DETECTED), as
      // it must be: such a deed is scanned without its TFN, so that what is scored is the reading.
      const pages = await readScanned(deed.tfn ? await renderDeed(deed, { tfn: null }) : pdf, i + 1);
      scannedScores.push(await scoreDeedPages(deed, pages ?? [], extractor));
    }
    ctx.progress(`${scannedScores.length} deeds scanned and read by OCR in ${Math.round((performance.now() - scanStarted) / 1000)} s`);

    const times = { a: [] as number[][], b: [] as number[][] };
    const cpu = { a: [] as number[], b: [] as number[] };
    const slices = Math.max(1, settings.slices);
    const started = performance.now();
    for (let s = 0; s < slices; s++) {
      const sliceTimes = { a: [] as number[], b: [] as number[] };
      const sliceCpu = { a: 0, b: 0 };
      await ctx.profile(`slice-${s + 1}`, async () => {
        for (const [i, { deed, pdf }] of deeds.entries()) {
          const order = (s * deeds.length + i) % 2 === 0 ? (['a', 'b'] as const) : (['b', 'a'] as const);
          for (const side of order) {
            const t = side === 'a' ? await timed(() => read(pdf)) : await timed(() => extractor.extract(pagesOf.get(deed.id)!));
            sliceTimes[side].push(t.ms);
            sliceCpu[side] += t.cpuUs;
          }
        }
      });
      times.a.push(sliceTimes.a);
      times.b.push(sliceTimes.b);
      cpu.a.push(sliceCpu.a);
      cpu.b.push(sliceCpu.b);
      ctx.progress(`slice ${s + 1}: ${deeds.length} deeds read and extracted in ${round1((performance.now() - started) / 1000)} s`);
    }

    const a = summarize(times.a.map((t, i) => rawRun(t, cpu.a[i]!)));
    const b = summarize(times.b.map((t, i) => rawRun(t, cpu.b[i]!)));
    // deeds/s is 1000 / p50, so that b/a compares one extraction with one reading of a text layer.
    a.rps = round1(1000 / a.latencyMs.p50);
    b.rps = round1(1000 / b.latencyMs.p50);
    const result = scenarioResult(description, a, b, undefined);

    const total = summariseScores(scores);
    const scanned = scannedScores.length ? summariseScores(scannedScores) : null;
    const scannedMet = !scanned || scanned.f1 >= goals.scannedF1;
    const met = total.f1 >= goals.f1 && total.trustFieldAccuracy >= goals.trustFields && total.problems === 0 && scannedMet;
    result.verdict = { throughput: met ? 'PASS' : 'MISS', p99: null };
    const isFailing = (s: DeedScore) => s.missed.length || s.extra.length || s.problems.length || s.fields.some((f) => !f.right);
    const failing = scores.filter(isFailing);
    const scannedFailing = scannedScores.filter(isFailing);
    const failure = (s: DeedScore) => `  ${s.id}: ${[...s.missed.map((m) => `missed ${m}`), ...s.extra.map((m) => `extra ${m}`), ...s.fields.filter((f) => !f.right).map((f) => `${f.field} ${JSON.stringify(f.actual)} ≠ ${JSON.stringify(f.expected)}`), ...s.problems].join('; ')}`;
    return {
      ...result,
      labels: { throughput: 'deeds/s', p50: 'p50 ms', p99: 'p99 ms', cpu: 'CPU µs/deed' },
      notes: [
        `(a) reading a deed's text layer with pdfjs; (b) the rules extractor on those pages. deeds/s = 1000 / p50. ${deeds.length} deeds, ${pageCount} pages${seed === undefined ? '' : `, corpus seed ${seed}`}.`,
        `parties: precision ${round3(total.precision)}, recall ${round3(total.recall)}, F1 ${round3(total.f1)} (goal ≥ ${goals.f1}); names split right ${round3(total.nameSplitAccuracy)}`,
        `trust fields: ${round3(total.trustFieldAccuracy)} (goal ≥ ${goals.trustFields}): ${trustFields.map((f) => `${f} ${round3(total.perField[f])}`).join(', ')}; classes ${round3(total.classAccuracy)}`,
        scanned
          ? `scanned (${scannedScores.length} deeds of ≤ ${scannedMaxPages()} pages, OCR): parties precision ${round3(scanned.precision)}, recall ${round3(scanned.recall)}, F1 ${round3(scanned.f1)} (goal ≥ ${goals.scannedF1}); trust fields ${round3(scanned.trustFieldAccuracy)}: ${trustFields.map((f) => `${f} ${round3(scanned.perField[f])}`).join(', ')}; problems ${scanned.problems}`
          : 'scanned: not run (BENCH_DEED_SCANNED_MAX_PAGES=0)',
        `answers with problems (schema, quote not on its page, date of birth): ${total.problems}. Verdict (throughput column): the scores' goals, ${met ? 'PASS' : 'MISS'}.`,
        ...failing.slice(0, 12).map(failure),
        ...(scannedFailing.length ? ['scanned, what failed:', ...scannedFailing.slice(0, 12).map(failure)] : []),
        `Run once, on this back-end (no database). Load average ${loadBefore.join(' ')} → ${loadAverage().join(' ')}.`,
      ],
      details: {
        goals,
        seed: seed ?? null,
        deeds: deeds.length,
        pages: pageCount,
        scores: total,
        scanned,
        failing: failing.map((s) => ({ id: s.id, missed: s.missed, extra: s.extra, fields: s.fields.filter((f) => !f.right), problems: s.problems })),
        scannedFailing: scannedFailing.map((s) => ({ id: s.id, missed: s.missed, extra: s.extra, fields: s.fields.filter((f) => !f.right), problems: s.problems })),
      },
    };
  },
});
