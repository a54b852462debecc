// Screening: the latency of one screening against a list of 20 000 entries, through the index
// (`search`: only the names that share a phonetic or one-edit key with the query) and by brute force
// (`searchAll`: every name of the kind, the baseline), on the same queries in the same run.
//
// (a) baseline: `index.searchAll(query, threshold)`;
// (b) real:     `index.search(query, threshold)`;
// both on one index built from a generated list (bench/lib/screening-list.ts, seeded) plus the
// entries of test/screening/labelled-pairs.json and holdout-pairs.json.
//
// Each query runs both ways back to back, the order flipping from one query to the next, so that
// whatever else the machine does weighs on both alike. Every query's two answers must be the same
// entries with the same scores, and so must every labelled pair's; a difference makes the run INVALID.
//
// The engine is in-memory and uses no database, so the scenario runs once, on the first back-end of
// the run, rather than once per back-end with the same figures.
//
// Then the one-off search (`pvs screening search` with no server: screening.searchOnce, which reads its
// candidates from the database instead of building the index): the same list imported into an embedded
// PGlite of its own (the database a CLI opens; the cli scenario times the whole process on disk), some
// of the queries and every labelled one timed one-off and through a warm index of the same version,
// back to back, order flipping. Every answer must be the index's (same entries, order, scores, names
// and features), or the run is INVALID. Reported in the notes and details: the one-off's latency over
// the warm index's (the ratio), over what the CLI did before (read the version, build its index, search
// once), and the words and entries it read per query.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildIndex, type IndexedEntry, type Match, type ScreeningIndex, type ScreeningQuery } from '../../src/modules/screening/matching/screening-index.ts';
import { searchOnce, type OneOffQuery } from '../../src/modules/screening/one-off-search.ts';
import * as screeningRepo from '../../src/modules/screening/screening.repository.ts';
import { createScreeningService } from '../../src/modules/screening/screening.service.ts';
import { systemClock } from '../../src/platform/clock.ts';
import { migrate } from '../../src/platform/db/migrate.ts';
import { openPglite } from '../../src/platform/db/pglite.ts';
import { createLogger } from '../../src/platform/logger.ts';
import { labelledEntry, readLabelledPairs, type ListedPair } from '../../test/screening/labelled-pairs.ts';
import { writeSimpleCsvList } from '../../test/screening/simple-csv-list.ts';
import { summarize, type RawRun } from '../lib/load.ts';
import { scenarioResult } from '../lib/report.ts';
import { generateScreeningList, generateScreeningQueries, type BenchQuery } from '../lib/screening-list.ts';
import { readSettings } from '../lib/settings.ts';
import { defineScenario } from '../lib/types.ts';
import { loadAverage, rawRun, round1, round3 } from '../lib/measure.ts';

/** The issue's goals: p99 through the index under 5 ms, and at least 20× faster than brute force at p50. */
const maxIndexP99Ms = 5;
const minSpeedUp = 20;

/** A pair's entry as the index holds it, under an id no generated entry has. */
function indexedLabelledEntry(pair: ListedPair): IndexedEntry {
  return { ...labelledEntry(pair), list: 'bench', contentHash: pair.entryId };
}

/** What must be equal: the entries found, in order, with their scores. */
const summary = (matches: readonly Match[]) => matches.map((m) => `${m.entry.entryId}:${m.score}`).join(' ');

function describeQuery(query: ScreeningQuery): string {
  const extras = [query.dateOfBirth, query.countries?.join('/'), query.identifiers?.join('/')].filter(Boolean).join(', ');
  return `${query.kind} "${query.names.join('" / "')}"${extras ? ` (${extras})` : ''}`;
}

/** How the two answers differ, for the report: entries only one found, and different scores. */
function difference(viaIndex: readonly Match[], bruteForce: readonly Match[], names: readonly [string, string] = ['the index', 'brute force']): string {
  const a = new Map(viaIndex.map((m) => [`${m.entry.list}|${m.entry.entryId}`, m]));
  const b = new Map(bruteForce.map((m) => [`${m.entry.list}|${m.entry.entryId}`, m]));
  const parts: string[] = [];
  for (const [id, m] of b) {
    const other = a.get(id);
    if (!other) parts.push(`only ${names[1]} found ${id} ${m.score} ("${m.matchedName}")`);
    else if (other.score !== m.score) parts.push(`${id}: ${names[0]} ${other.score} ("${other.matchedName}"), ${names[1]} ${m.score} ("${m.matchedName}")`);
  }
  for (const [id, m] of a) if (!b.has(id)) parts.push(`only ${names[0]} found ${id} ${m.score}`);
  return parts.join('; ') || 'same entries and scores, another order, name or features';
}

interface Mismatches {
  count: number;
  /** The first 50 (all of them in latest.json's details; five of each kind under the table). */
  examples: string[];
}

function compare(mismatches: Mismatches, query: ScreeningQuery, viaIndex: readonly Match[], bruteForce: readonly Match[]): boolean {
  if (summary(viaIndex) === summary(bruteForce)) return true;
  mismatches.count++;
  if (mismatches.examples.length < 50) mismatches.examples.push(`${describeQuery(query)}: ${difference(viaIndex, bruteForce)}`);
  return false;
}

/** One query both ways, timed; `indexFirst` alternates so neither side always runs on a warmer cache. */
function timeBoth(index: ScreeningIndex, query: ScreeningQuery, threshold: number, indexFirst: boolean) {
  const out = { index: { ms: 0, cpuUs: 0, matches: [] as Match[] }, brute: { ms: 0, cpuUs: 0, matches: [] as Match[] } };
  for (const side of indexFirst ? (['index', 'brute'] as const) : (['brute', 'index'] as const)) {
    const cpu = process.cpuUsage();
    const started = performance.now();
    const matches = side === 'index' ? index.search(query, threshold) : index.searchAll(query, threshold);
    out[side].ms = performance.now() - started;
    const used = process.cpuUsage(cpu);
    out[side].cpuUs = used.user + used.system;
    out[side].matches = matches;
  }
  return out;
}

/** What the one-off search must answer alike: the entries, in order, with everything an answer shows of them. */
const shown = (matches: readonly Match[]) => JSON.stringify(matches.map((m) => [m.entry.list, m.entry.entryId, m.score, m.matchedName, m.features]));

const percentile = (xs: readonly number[], q: number) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]! : 0;
};

interface OneOffFigures {
  queries: number;
  importMs: number;
  /** Reading the version and building its index: what a CLI without a server did before every search. */
  coldIndexMs: number;
  oneOff: { p50: number; p90: number; p99: number; max: number; mean: number };
  warm: { p50: number; p90: number; p99: number; max: number; mean: number };
  read: { words: { p50: number; p90: number; max: number }; entries: { p50: number; p90: number; max: number } };
  mismatches: Mismatches;
}

/**
 * The one-off search against a warm index of the same version, on an embedded database of its own: the
 * list is imported as `pvs screening import` would (keys and all), so both sides read the same entries.
 */
async function measureOneOff(entries: readonly IndexedEntry[], queries: readonly ScreeningQuery[], threshold: number, progress: (text: string) => void): Promise<OneOffFigures> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pvs-bench-one-off-'));
  const db = await openPglite();
  try {
    await migrate(db);
    const deps = { db, clock: systemClock, logger: createLogger({ level: 'silent' }) };
    const screening = createScreeningService({ ...deps, threshold, refreshSeconds: 3600 });
    progress(`one-off search: importing the ${entries.length} entries into an embedded database of its own…`);
    const importStarted = performance.now();
    await screening.importList({ format: 'csv', list: 'bench', filePath: writeSimpleCsvList(path.join(dir, 'list.csv'), entries) });
    const importMs = performance.now() - importStarted;

    const coldStarted = performance.now();
    const version = (await screeningRepo.findCurrentVersion(db))!;
    const index = buildIndex(await screeningRepo.entriesOfVersion(db, version));
    const coldIndexMs = performance.now() - coldStarted;

    const times = { oneOff: [] as number[], warm: [] as number[] };
    const read = { words: [] as number[], entries: [] as number[] };
    const mismatches: Mismatches = { count: 0, examples: [] };
    progress(`one-off search: ${queries.length} queries, one-off and through the warm index…`);
    for (const [i, full] of queries.entries()) {
      // The command takes no identifiers: neither side is given them.
      const query: OneOffQuery = { kind: full.kind, names: full.names, dateOfBirth: full.dateOfBirth, countries: full.countries };
      let once: Awaited<ReturnType<typeof searchOnce>> | undefined;
      let warm: Match[] = [];
      for (const side of i % 2 === 0 ? (['oneOff', 'warm'] as const) : (['warm', 'oneOff'] as const)) {
        const started = performance.now();
        if (side === 'oneOff') once = await searchOnce(deps, query, threshold);
        else warm = index.search(query, threshold);
        times[side].push(performance.now() - started);
      }
      read.words.push(once!.read.words);
      read.entries.push(once!.read.entries);
      if (shown(once!.matches) !== shown(warm)) {
        mismatches.count++;
        if (mismatches.examples.length < 50) mismatches.examples.push(`${describeQuery(query)}: ${difference(once!.matches, warm, ['the one-off search', 'the warm index'])}`);
      }
    }
    const figures = (xs: number[]) => ({ p50: round3(percentile(xs, 0.5)), p90: round3(percentile(xs, 0.9)), p99: round3(percentile(xs, 0.99)), max: round3(percentile(xs, 1)), mean: round3(xs.reduce((a, b) => a + b, 0) / xs.length) });
    const counts = (xs: number[]) => ({ p50: percentile(xs, 0.5), p90: percentile(xs, 0.9), max: percentile(xs, 1) });
    return {
      queries: queries.length,
      importMs: round1(importMs),
      coldIndexMs: round1(coldIndexMs),
      oneOff: figures(times.oneOff),
      warm: figures(times.warm),
      read: { words: counts(read.words), entries: counts(read.entries) },
      mismatches,
    };
  } finally {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const minutes = (ms: number) => (ms >= 90_000 ? `${round1(ms / 60_000)} min` : `${round1(ms / 1000)} s`);

const description = 'One screening against a generated list: the blocking index (search) vs scoring every name (searchAll)';

export default defineScenario({
  kind: 'measured',
  name: 'screening',
  description,
  // No database: once per run, on its first back-end (BENCH_BACKENDS order), not once per back-end.
  backends: [readSettings().backends[0]!],
  // The table shows these as ratios; the verdicts are set below from the issue's own terms.
  goals: { postgres: { minThroughputRatio: minSpeedUp }, pglite: { minThroughputRatio: minSpeedUp } },
  async measure(ctx) {
    const { settings } = ctx;
    const threshold = ctx.services.config.SCREENING_MATCH_THRESHOLD;
    const loadBefore = loadAverage();

    const generatedAt = performance.now();
    const generated = generateScreeningList(settings.screeningEntries);
    const generateMs = performance.now() - generatedAt;
    const labelled = readLabelledPairs();
    const entries = [...generated.entries, ...labelled.map(indexedLabelledEntry)];
    const names = entries.reduce((n, e) => n + 1 + e.aliases.length, 0);
    const persons = generated.entries.filter((e) => e.kind === 'person').length;

    const builtAt = performance.now();
    const index = buildIndex(entries);
    const buildMs = performance.now() - builtAt;
    ctx.progress(`${entries.length} entries (${names} names) generated in ${Math.round(generateMs)} ms, index built in ${Math.round(buildMs)} ms`);

    const businessQueries = Math.max(1, Math.round(settings.screeningQueries / 10));
    const queries = generateScreeningQueries(generated, { persons: settings.screeningQueries, businesses: businessQueries });

    if (settings.warmupSeconds > 0) {
      // Other queries than the measured ones (another seed), both ways, so both paths are compiled.
      const warm = generateScreeningQueries(generated, { persons: 200, businesses: 20, seed: 7 });
      const until = performance.now() + settings.warmupSeconds * 1000;
      for (let i = 0; i < warm.length && (i < 4 || performance.now() < until); i++) timeBoth(index, warm[i]!.query, threshold, i % 2 === 0);
    }

    const runs = { index: [] as RawRun[], brute: [] as RawRun[] };
    const mismatches: Mismatches = { count: 0, examples: [] };
    const hits = { listed: 0, new: 0 };
    const counts = { listed: 0, new: 0 };
    const perSlice = Math.ceil(queries.length / Math.min(settings.slices, queries.length));
    const slices = Math.ceil(queries.length / perSlice);
    const started = performance.now();
    for (let s = 0; s < slices; s++) {
      const slice: BenchQuery[] = queries.slice(s * perSlice, (s + 1) * perSlice);
      const times = { index: [] as number[], brute: [] as number[] };
      const cpu = { index: 0, brute: 0 };
      await ctx.profile(`slice-${s + 1}`, async () => {
        slice.forEach(({ query, origin }, i) => {
          const out = timeBoth(index, query, threshold, (s * perSlice + i) % 2 === 0);
          for (const side of ['index', 'brute'] as const) {
            times[side].push(out[side].ms);
            cpu[side] += out[side].cpuUs;
          }
          counts[origin]++;
          if (out.brute.matches.length) hits[origin]++;
          compare(mismatches, query, out.index.matches, out.brute.matches);
        });
      });
      runs.index.push(rawRun(times.index, cpu.index));
      runs.brute.push(rawRun(times.brute, cpu.brute));
      const elapsed = performance.now() - started;
      const left = s + 1 < slices ? `, about ${minutes((elapsed / (s + 1)) * (slices - s - 1))} to go` : '';
      ctx.progress(`slice ${s + 1}/${slices}: ${Math.min(queries.length, (s + 1) * perSlice)} queries both ways in ${minutes(elapsed)}${left}`);
    }

    // The labelled pairs against the whole list: what the issue calls "the same results on the labelled set".
    ctx.progress(`${labelled.length} labelled queries both ways against all ${entries.length} entries…`);
    const labelledMismatches: Mismatches = { count: 0, examples: [] };
    const labelledFound = { truePositive: 0, falseNegative: 0, falsePositive: 0, trueNegative: 0, otherEntriesHit: 0 };
    const labelledIds = new Set(labelled.map((p) => p.entryId));
    labelled.forEach((pair, i) => {
      const query: ScreeningQuery = { kind: pair.kind, names: [pair.query.name], dateOfBirth: pair.query.dateOfBirth, countries: pair.query.countries, identifiers: pair.query.identifiers };
      const out = timeBoth(index, query, threshold, i % 2 === 0);
      compare(labelledMismatches, query, out.index.matches, out.brute.matches);
      const found = out.index.matches.some((m) => m.entry.entryId === pair.entryId);
      if (pair.match) labelledFound[found ? 'truePositive' : 'falseNegative']++;
      else labelledFound[found ? 'falsePositive' : 'trueNegative']++;
      if (out.index.matches.some((m) => !labelledIds.has(m.entry.entryId))) labelledFound.otherEntriesHit++;
    });

    // The one-off search: a fifth of the measured queries (at least 200) and every labelled one.
    const oneOffQueries = [
      ...queries.slice(0, Math.max(200, Math.round(queries.length / 5))).map((q) => q.query),
      ...labelled.map((pair): ScreeningQuery => ({ kind: pair.kind, names: [pair.query.name], dateOfBirth: pair.query.dateOfBirth, countries: pair.query.countries })),
    ];
    const oneOff = await measureOneOff(entries, oneOffQueries, threshold, ctx.progress);

    const a = summarize(runs.brute);
    const b = summarize(runs.index);
    // The table's rate is 1000 / p50, so that its b/a is the speed-up at p50, which the goal is set on;
    // the rate over the whole run (1000 / mean) is in the notes and details.
    const backToBack = { a: a.rps, b: b.rps };
    a.rps = round1(1000 / a.latencyMs.p50);
    b.rps = round1(1000 / b.latencyMs.p50);
    const speedUp = { p50: a.latencyMs.p50 / b.latencyMs.p50, p99: a.latencyMs.p99 / b.latencyMs.p99, mean: a.latencyMs.mean / b.latencyMs.mean };
    // The p99 goal is absolute (5 ms) where the table's goals are ratios: it is shown as the ratio it
    // amounts to in this run (5 ms / p99 of (a)), and judged on the milliseconds themselves.
    const goal = { minThroughputRatio: minSpeedUp, maxP99Ratio: round3(maxIndexP99Ms / a.latencyMs.p99) };
    const result = scenarioResult(description, a, b, goal);
    result.verdict = { throughput: speedUp.p50 >= minSpeedUp ? 'PASS' : 'MISS', p99: b.latencyMs.p99 < maxIndexP99Ms ? 'PASS' : 'MISS' };
    if (mismatches.count) result.problems.push(`${mismatches.count} of ${queries.length} queries: the index answered differently from brute force, e.g. ${mismatches.examples[0]}`);
    if (labelledMismatches.count) result.problems.push(`${labelledMismatches.count} of ${labelled.length} labelled queries: the index answered differently from brute force, e.g. ${labelledMismatches.examples[0]}`);
    if (oneOff.mismatches.count) result.problems.push(`${oneOff.mismatches.count} of ${oneOff.queries} queries: the one-off search answered differently from the warm index, e.g. ${oneOff.mismatches.examples[0]}`);
    const oneOffRatio = { p50: oneOff.oneOff.p50 / oneOff.warm.p50, mean: oneOff.oneOff.mean / oneOff.warm.mean };

    const pct = (n: number, of: number) => `${of ? Math.round((n / of) * 100) : 0} %`;
    const f = labelledFound;
    return {
      ...result,
      labels: { throughput: 'queries/s', p50: 'p50 ms', p99: 'p99 ms', cpu: 'CPU µs/query' },
      notes: [
        `(a) searchAll, brute force: every name of the kind; (b) search, through the index. Threshold ${threshold}.`,
        `queries/s: 1000 / p50, so b/a is the speed-up at p50; back to back over the whole run (1000 / mean): (a) ${backToBack.a}, (b) ${backToBack.b}.`,
        `list: ${entries.length} entries (${persons} generated persons, ${generated.entries.length - persons} businesses, ${labelled.length} labelled), ${names} names; generated in ${Math.round(generateMs)} ms, index built in ${Math.round(buildMs)} ms.`,
        `queries: ${queries.length} (${settings.screeningQueries} persons, ${businessQueries} businesses), each both ways; with a match: ${hits.listed} of ${counts.listed} made from listed entries (${pct(hits.listed, counts.listed)}), ${hits.new} of ${counts.new} not listed (${pct(hits.new, counts.new)}).`,
        `speed-up (a)/(b): p50 ${round1(speedUp.p50)}× (goal ≥ ${minSpeedUp}×: ${result.verdict.throughput}), p99 ${round1(speedUp.p99)}×, mean ${round1(speedUp.mean)}×; index p99 ${b.latencyMs.p99} ms (goal < ${maxIndexP99Ms} ms: ${result.verdict.p99}), max ${b.latencyMs.max} ms.`,
        `same results: ${queries.length - mismatches.count} of ${queries.length} queries, ${labelled.length - labelledMismatches.count} of ${labelled.length} labelled queries against the whole list.`,
        ...[...mismatches.examples.slice(0, 5), ...labelledMismatches.examples.slice(0, 5)].map((e) => `  differs: ${e}`),
        `labelled pairs against the whole list (index): ${f.truePositive} of ${f.truePositive + f.falseNegative} matches found, ${f.falsePositive} of ${f.falsePositive + f.trueNegative} non-matches hit; ${f.otherEntriesHit} labelled queries also hit generated entries.`,
        `one-off search (no server; embedded database of its own, list imported in ${minutes(oneOff.importMs)}): ${oneOff.queries} queries, p50 ${oneOff.oneOff.p50} ms, p99 ${oneOff.oneOff.p99} ms, max ${oneOff.oneOff.max} ms; warm index p50 ${oneOff.warm.p50} ms: one-off / warm ${round1(oneOffRatio.p50)}× at p50 (${round1(oneOffRatio.mean)}× mean).`,
        `one-off search vs what a CLI without a server did before (read the version and build its index, ${Math.round(oneOff.coldIndexMs)} ms, then search): ${round1(oneOff.coldIndexMs / oneOff.oneOff.p50)}× faster at p50, ${round1(oneOff.coldIndexMs / oneOff.oneOff.max)}× at its slowest.`,
        `one-off search read per query: words p50 ${oneOff.read.words.p50} / p90 ${oneOff.read.words.p90} / max ${oneOff.read.words.max}; entries p50 ${oneOff.read.entries.p50} / p90 ${oneOff.read.entries.p90} / max ${oneOff.read.entries.max} (of ${entries.length}); same answers as the warm index: ${oneOff.queries - oneOff.mismatches.count} of ${oneOff.queries}.`,
        ...oneOff.mismatches.examples.slice(0, 5).map((e) => `  differs: ${e}`),
        `Run once, on this back-end (the index needs no database; the one-off search has an embedded one of its own). Load average ${loadBefore.join(' ')} → ${loadAverage().join(' ')}.`,
      ],
      details: {
        threshold,
        goals: { maxIndexP99Ms, minSpeedUpP50: minSpeedUp },
        speedUp: { p50: round1(speedUp.p50), p99: round1(speedUp.p99), mean: round1(speedUp.mean) },
        queriesPerSecondBackToBack: backToBack,
        list: { entries: entries.length, generated: generated.entries.length, persons, businesses: generated.entries.length - persons, labelled: labelled.length, names, generateMs: round1(generateMs), buildMs: round1(buildMs) },
        queries: { total: queries.length, persons: settings.screeningQueries, businesses: businessQueries, ...Object.fromEntries((['listed', 'new'] as const).map((o) => [o, { queries: counts[o], withMatch: hits[o] }])) },
        mismatches: { queries: mismatches, labelled: labelledMismatches },
        labelled: { queries: labelled.length, ...labelledFound },
        oneOff: { ...oneOff, ratioToWarm: { p50: round1(oneOffRatio.p50), mean: round1(oneOffRatio.mean) } },
        loadAverageBefore: loadBefore,
        loadAverageAfter: loadAverage(),
      },
    };
  },
});
