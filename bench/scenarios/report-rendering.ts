// report-rendering: what laying out a verification report costs over making a PDF at all. In-process, no
// database, no HTTP: the renderers are pure functions from a model to bytes (src/modules/verifications/
// reports/), and what the signed URL adds around them (the reads, the audit row) is the database's.
//
// (a) baseline: a one-page pdfkit document on A4 with the reports' four Noto Sans faces registered and one
//     line set in each, so its bytes include the same four embedded font subsets: the least a report is.
// (b) real: the entity report of a request with ten people (test/helpers/report-models.ts: every outcome,
//     a two-level ownership tree, two issues; four pages), and, beside it in the notes and details, the
//     individual report of a verified person (two pages).
//
// Renders run back to back on this one thread, interleaved a b i │ b i a │ i a b … within each of
// BENCH_SLICES slices, 20 × BENCH_SECONDS of each in all (200 by default). Every render of a model must give
// the same bytes as its first: a difference makes the run INVALID (the renderers promise reproducible output).
import { createHash } from 'node:crypto';
import { renderEntityReport } from '../../src/modules/verifications/reports/entity-report.ts';
import { renderIndividualReport } from '../../src/modules/verifications/reports/individual-report.ts';
import { createPdfDocument, fontFiles } from '../../src/modules/verifications/reports/pdf-document.ts';
import { passedIndividualModel, reportGeneratedAt, tenIndividualEntityModel } from '../../test/helpers/report-models.ts';
import { summarize, type Figures, type RawRun } from '../lib/load.ts';
import { scenarioResult } from '../lib/report.ts';
import { readSettings } from '../lib/settings.ts';
import { defineScenario } from '../lib/types.ts';
import { loadAverage, round1, round3 } from '../lib/measure.ts';

/** (a): the same document as a report's (createPdfDocument: A4, fonts, settings), one line per face, nothing laid out. */
function renderBaseline(): Promise<Buffer> {
  const doc = createPdfDocument({ Title: 'Baseline', Author: 'PVS', CreationDate: reportGeneratedAt });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  for (const face of Object.keys(fontFiles)) doc.font(face).fontSize(10).text(`Entity due diligence report: ${face}`, 50, doc.y);
  doc.end();
  return done;
}

type Side = 'baseline' | 'entity' | 'individual';
const sides: Side[] = ['baseline', 'entity', 'individual'];

const sha256 = (pdf: Buffer) => createHash('sha256').update(pdf).digest('hex');

const description = 'Entity report, ten people (and individual report) vs a one-page PDF with the same embedded fonts';

export default defineScenario({
  kind: 'measured',
  name: 'report-rendering',
  description,
  // No database: once per run, on its first back-end, not once per back-end with the same figures.
  backends: [readSettings().backends[0]!],
  // Measured only: the ratios are what to watch from run to run (no goal was set for them).
  goals: {},
  async measure(ctx) {
    const { settings } = ctx;
    const loadBefore = loadAverage();
    // One model per side for the whole run: the same bytes every time, which the run checks.
    const entityModel = tenIndividualEntityModel();
    const individualModel = passedIndividualModel();
    const render: Record<Side, () => Promise<Buffer>> = {
      baseline: renderBaseline,
      entity: () => renderEntityReport(entityModel),
      individual: () => renderIndividualReport(individualModel),
    };

    const first = {} as Record<Side, { hash: string; bytes: number }>;
    for (const side of sides) {
      const pdf = await render[side]();
      first[side] = { hash: sha256(pdf), bytes: pdf.length };
    }
    const until = performance.now() + settings.warmupSeconds * 1000;
    for (let i = 0; i < 5 || performance.now() < until; i++) for (const side of sides) await render[side]();

    const total = 20 * settings.seconds;
    const slices = Math.min(settings.slices, total);
    const perSlice = Math.ceil(total / slices);
    const runs: Record<Side, RawRun[]> = { baseline: [], entity: [], individual: [] };
    const differing: Record<Side, number> = { baseline: 0, entity: 0, individual: 0 };
    let round = 0;
    for (let s = 0; s < slices; s++) {
      const times: Record<Side, number[]> = { baseline: [], entity: [], individual: [] };
      const cpu: Record<Side, number> = { baseline: 0, entity: 0, individual: 0 };
      await ctx.profile(`slice-${s + 1}`, async () => {
        for (let i = 0; i < perSlice && round < total; i++, round++) {
          // Each side goes first, second and third in turn, so none always runs on a warmer cache.
          for (let k = 0; k < sides.length; k++) {
            const side = sides[(round + k) % sides.length]!;
            const usage = process.cpuUsage();
            const started = performance.now();
            const pdf = await render[side]();
            times[side].push(performance.now() - started);
            const used = process.cpuUsage(usage);
            cpu[side] += used.user + used.system;
            if (sha256(pdf) !== first[side].hash) differing[side]++;
          }
        }
      });
      for (const side of sides) {
        const seconds = times[side].reduce((a, b) => a + b, 0) / 1000;
        runs[side].push({ count: times[side].length, seconds, latencies: Float64Array.from(times[side]), unexpectedStatus: {}, errors: 0, timeouts: 0, serverCpuUs: cpu[side] });
      }
      ctx.progress(`slice ${s + 1}/${slices}: ${round} renders of each`);
    }

    const figures = Object.fromEntries(sides.map((side) => [side, summarize(runs[side])])) as Record<Side, Figures>;
    const result = scenarioResult(description, figures.baseline, figures.entity, ctx.goal);
    for (const side of sides) if (differing[side]) result.problems.push(`${side}: ${differing[side]} of ${round} renders gave other bytes than the first`);

    const a = figures.baseline.latencyMs;
    const ratio = (f: Figures) => ({ p50: round3(f.latencyMs.p50 / a.p50), p99: round3(f.latencyMs.p99 / a.p99), cpu: round3((f.serverCpuUsPerRequest ?? 0) / (figures.baseline.serverCpuUsPerRequest ?? 1)) });
    const line = (label: string, f: Figures) => `${label}: p50 ${f.latencyMs.p50} ms, p99 ${f.latencyMs.p99} ms, max ${f.latencyMs.max} ms, CPU ${f.serverCpuUsPerRequest} µs/render`;
    const individual = ratio(figures.individual);
    return {
      ...result,
      labels: { throughput: 'renders/s', p50: 'p50 ms', p99: 'p99 ms', cpu: 'CPU µs/render' },
      notes: [
        `(a) one A4 page, the four Noto Sans faces embedded, one line each (${first.baseline.bytes} bytes); (b) the entity report, ten people (${first.entity.bytes} bytes). ${round} renders of each, back to back, in ${slices} interleaved slices.`,
        line('(i) individual report, verified person', figures.individual) + ` (${first.individual.bytes} bytes)`,
        `(i)/(a): p50 ${individual.p50}×, p99 ${individual.p99}×, CPU ${individual.cpu}×.`,
        `Same bytes on every render: ${sides.every((side) => differing[side] === 0) ? 'yes' : 'NO'}. Run once, on this back-end (no database). Load average ${loadBefore.join(' ')} → ${loadAverage().join(' ')}.`,
      ],
      details: {
        renders: round,
        bytes: { baseline: first.baseline.bytes, entity: first.entity.bytes, individual: first.individual.bytes },
        individual: figures.individual,
        individualRatios: individual,
        rendersPerSecond: Object.fromEntries(sides.map((side) => [side, round1(figures[side].rps)])),
        loadAverageBefore: loadBefore,
        loadAverageAfter: loadAverage(),
      },
    };
  },
});
