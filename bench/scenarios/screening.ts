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
import { readFileSync } from 'node:fs';
import type { EntryKind } from '../../src/modules/screening/list-entry.ts';
import { buildIndex, type IndexedEntry, type Match, type ScreeningIndex, type ScreeningQuery } from '../../src/modules/screening/matching/screening-index.ts';
import { summarize, type RawRun } from '../lib/load.ts';
import { scenarioResult } from '../lib/report.ts';
import { generateScreeningList, generateScreeningQueries, type BenchQuery } from '../lib/screening-list.ts';
import { readSettings } from '../lib/settings.ts';
import { defineScenario } from '../lib/types.ts';
import { loadAverage, rawRun, round1, round3 } from '../lib/measure.ts';

/** The issue's goals: p99 through the index under 5 ms, and at least 20× faster than brute force at p50. */
const maxIndexP99Ms = 5;
const minSpeedUp = 20;

interface LabelledPair {
  id: string;
  kind: EntryKind;
  query: { name: string; dateOfBirth?: string; countries?: string[]; identifiers?: string[] };
  entry: { name: string; aliases?: string[]; datesOfBirth?: string[]; countries?: string[]; identifiers?: string[] };
  match: boolean;
}

const labelledFiles = [
  ['labelled', 'labelled-pairs.json'],
  ['holdout', 'holdout-pairs.json'],
] as const;

function readLabelled(): Array<LabelledPair & { entryId: string }> {
  return labelledFiles.flatMap(([prefix, file]) => {
    const pairs = JSON.parse(readFileSync(new URL(`../../test/screening/${file}`, import.meta.url), 'utf8')) as LabelledPair[];
    return pairs.map((p) => ({ ...p, entryId: `${prefix}-${p.id}` }));
  });
}

/** A pair's entry as the labelled-set test indexes it, under an id no generated entry has. */
function labelledEntry(pair: LabelledPair & { entryId: string }): IndexedEntry {
  return {
    list: 'bench',
    entryId: pair.entryId,
    kind: pair.kind,
    name: pair.entry.name,
    aliases: pair.entry.aliases ?? [],
    datesOfBirth: pair.entry.datesOfBirth ?? [],
    countries: pair.entry.countries ?? [],
    identifiers: pair.entry.identifiers ?? [],
    categories: ['SANCTIONS'],
    source: 'labelled set',
    contentHash: pair.entryId,
  };
}

/** What must be equal: the entries found, in order, with their scores. */
const summary = (matches: readonly Match[]) => matches.map((m) => `${m.entry.entryId}:${m.score}`).join(' ');

function describeQuery(query: ScreeningQuery): string {
  const extras = [query.dateOfBirth, query.countries?.join('/'), query.identifiers?.join('/')].filter(Boolean).join(', ');
  return `${query.kind} "${query.names.join('" / "')}"${extras ? ` (${extras})` : ''}`;
}

/** How the two answers differ, for the report: entries only one found, and different scores. */
function difference(viaIndex: readonly Match[], bruteForce: readonly Match[]): string {
  const a = new Map(viaIndex.map((m) => [m.entry.entryId, m]));
  const b = new Map(bruteForce.map((m) => [m.entry.entryId, m]));
  const parts: string[] = [];
  for (const [id, m] of b) {
    const other = a.get(id);
    if (!other) parts.push(`only brute force found ${id} ${m.score} ("${m.matchedName}")`);
    else if (other.score !== m.score) parts.push(`${id}: index ${other.score} ("${other.matchedName}"), brute force ${m.score} ("${m.matchedName}")`);
  }
  for (const [id, m] of a) if (!b.has(id)) parts.push(`only the index found ${id} ${m.score}`);
  return parts.join('; ') || 'same entries, another order';
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
    const labelled = readLabelled();
    const entries = [...generated.entries, ...labelled.map(labelledEntry)];
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
        `Run once, on this back-end (no database). Load average ${loadBefore.join(' ')} → ${loadAverage().join(' ')}.`,
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
        loadAverageBefore: loadBefore,
        loadAverageAfter: loadAverage(),
      },
    };
  },
});
