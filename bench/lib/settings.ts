// Every knob of `npm run bench`, read once from the environment and the command line.
import type { Backend } from './vocabulary.ts';

export type LoadGenerator = 'child' | 'inprocess';

export interface BenchSettings {
  seconds: number;
  warmupSeconds: number;
  connections: number;
  /** Each server's measured time is cut into this many slices, interleaved a b | b a | a b … */
  slices: number;
  backends: Backend[];
  /** Scenario names to run; empty means all. */
  scenarios: string[];
  /** A PostgreSQL database the bench may connect to in order to create and drop its own. */
  adminUrl: string;
  loadGenerator: LoadGenerator;
  /** Write a V8 CPU profile of the server process per measured slice to bench/results/latest-profiles/. */
  profile: boolean;
  /** webhook-delivery: notifications per server in the throughput phase (default 1000 × seconds). */
  webhookEvents: number;
  /** webhook-delivery: events per second in the delay phase (moderate load, open loop). */
  webhookRate: number;
  /** webhook-delivery: concurrent emitting transactions in (b)'s throughput phase. */
  webhookEmitters: number;
  /** screening: entries in the generated list (the labelled sets' entries are added to them). */
  screeningEntries: number;
  /** screening: person queries timed both ways (plus a tenth as many business queries). */
  screeningQueries: number;
  /** lookups: business lookups posted in each end-to-end phase. */
  lookups: number;
  /** lookups: job workers settling them in the end-to-end phases. */
  lookupWorkers: number;
  /** hosted-verification: people taken through the four hosted calls per image size. */
  hostedIndividuals: number;
  /** hosted-verification: people at a time (and (a)'s connections). */
  hostedPeople: number;
  /** hosted-verification: individuals per verification request (1–100); the people taken in turn share one. */
  hostedPerRequest: number;
  saveBaseline: boolean;
  /** Exit non-zero when a goal is missed (invalid runs always exit non-zero). */
  strict: boolean;
}

export class SettingsError extends Error {}

function positiveNumber(env: NodeJS.ProcessEnv, name: string, fallback: number, options: { integer?: boolean; allowZero?: boolean } = {}): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  const ok = Number.isFinite(value) && (options.allowZero ? value >= 0 : value > 0) && (!options.integer || Number.isInteger(value));
  if (!ok) throw new SettingsError(`${name}: expected a ${options.integer ? 'whole number' : 'number'} ${options.allowZero ? '≥ 0' : '> 0'}, got ${JSON.stringify(raw)}`);
  return value;
}

function list(raw: string | undefined): string[] {
  return (raw ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

export const usage = `npm run bench [-- --save-baseline] [-- --strict]

  --save-baseline   after the run, copy bench/results/latest.json to bench/results/baseline.json
  --strict          exit 1 when a goal is missed (a run with errors always exits 1)

Environment:
  BENCH_SECONDS          measured seconds per server and scenario (default 10)
  BENCH_WARMUP_SECONDS   warm-up seconds before each measurement, not recorded (default 2; 0 = none)
  BENCH_CONNECTIONS      concurrent connections (default 10)
  BENCH_SLICES           cut each server's measured time into this many slices, interleaving
                         (a) and (b) as a b | b a | a b … so that background load hits both alike (default 5)
  BENCH_BACKENDS         postgres,pglite (default both, in that order)
  BENCH_SCENARIOS        comma-separated scenario names (default all in bench/scenarios/)
  BENCH_DATABASE_URL     PostgreSQL to create the bench database from
                         (default TEST_DATABASE_URL or postgres://postgres@127.0.0.1:5432/test)
  BENCH_LOADGEN          child (default) or inprocess: where autocannon runs
  BENCH_PROFILE=1        CPU-profile the server process during each measured slice into
                         bench/results/latest-profiles/ (summarise with bench/tools/profile-summary.ts);
                         profiling slows the server, so profiled figures are not comparable
  BENCH_WEBHOOK_EVENTS   webhook-delivery: notifications per server in the throughput phase
                         (default 1000 × BENCH_SECONDS)
  BENCH_WEBHOOK_RATE     webhook-delivery: events per second in the delay phase (default 200)
  BENCH_WEBHOOK_EMITTERS webhook-delivery: concurrent emitting transactions in (b)'s throughput phase (default 4)
  BENCH_SCREENING_ENTRIES
                         screening: entries in the generated list (default 20000)
  BENCH_SCREENING_QUERIES
                         screening: person queries, each run through the index and by brute force
                         (default 300, plus a tenth as many business queries)
  BENCH_LOOKUPS          lookups: business lookups posted in each end-to-end phase (default 2000)
  BENCH_LOOKUP_WORKERS   lookups: job workers (in this process) settling them (default 1)
  BENCH_HOSTED_INDIVIDUALS
                         hosted-verification: people taken through details, document, selfie and
                         submit per image size (default 200)
  BENCH_HOSTED_PEOPLE    hosted-verification: people at a time, and (a)'s connections (default 10)
  BENCH_HOSTED_PER_REQUEST
                         hosted-verification: individuals per verification request, 1–100 (default 100)
  BENCH_PVS_ROOT         cli: the project whose bin/pvs.mjs is run (default this repository)
  BENCH_CLI_RUNS         cli: runs of each command, the median reported (default 10)
  BENCH_CLI_IDLE_SECONDS cli: seconds a started server idles before its memory is read (default 3)
  BENCH_CLI_KEEP=1       cli: keep its data directories and logs
  BENCH_CLI_DATABASE_URL cli: an empty PostgreSQL database for the pvs processes (default embedded PGlite)`;

export function readSettings(argv: readonly string[] = process.argv.slice(2), env: NodeJS.ProcessEnv = process.env): BenchSettings {
  const flags = new Set(argv);
  for (const flag of flags) {
    if (!['--save-baseline', '--strict', '--help', '-h'].includes(flag)) throw new SettingsError(`Unknown argument ${flag}\n\n${usage}`);
  }
  const backends = list(env.BENCH_BACKENDS);
  for (const b of backends) if (b !== 'postgres' && b !== 'pglite') throw new SettingsError(`BENCH_BACKENDS: unknown back-end ${JSON.stringify(b)} (postgres, pglite)`);
  const loadGenerator = env.BENCH_LOADGEN || 'child';
  if (loadGenerator !== 'child' && loadGenerator !== 'inprocess') throw new SettingsError(`BENCH_LOADGEN: child or inprocess, got ${JSON.stringify(loadGenerator)}`);
  const seconds = positiveNumber(env, 'BENCH_SECONDS', 10);
  // POST /v1/verifications takes at most 100 individuals.
  const hostedPerRequest = positiveNumber(env, 'BENCH_HOSTED_PER_REQUEST', 100, { integer: true });
  if (hostedPerRequest > 100) throw new SettingsError(`BENCH_HOSTED_PER_REQUEST: at most 100 (a verification request's limit), got ${hostedPerRequest}`);
  return {
    seconds,
    warmupSeconds: positiveNumber(env, 'BENCH_WARMUP_SECONDS', 2, { allowZero: true }),
    connections: positiveNumber(env, 'BENCH_CONNECTIONS', 10, { integer: true }),
    slices: positiveNumber(env, 'BENCH_SLICES', 5, { integer: true }),
    backends: backends.length ? (backends as Backend[]) : ['postgres', 'pglite'],
    scenarios: list(env.BENCH_SCENARIOS),
    adminUrl: env.BENCH_DATABASE_URL || env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test',
    loadGenerator,
    profile: env.BENCH_PROFILE === '1' || env.BENCH_PROFILE === 'true',
    webhookEvents: positiveNumber(env, 'BENCH_WEBHOOK_EVENTS', Math.max(100, Math.round(1000 * seconds)), { integer: true }),
    webhookRate: positiveNumber(env, 'BENCH_WEBHOOK_RATE', 200),
    webhookEmitters: positiveNumber(env, 'BENCH_WEBHOOK_EMITTERS', 4, { integer: true }),
    screeningEntries: positiveNumber(env, 'BENCH_SCREENING_ENTRIES', 20_000, { integer: true }),
    screeningQueries: positiveNumber(env, 'BENCH_SCREENING_QUERIES', 300, { integer: true }),
    lookups: positiveNumber(env, 'BENCH_LOOKUPS', 2000, { integer: true }),
    lookupWorkers: positiveNumber(env, 'BENCH_LOOKUP_WORKERS', 1, { integer: true }),
    hostedIndividuals: positiveNumber(env, 'BENCH_HOSTED_INDIVIDUALS', 200, { integer: true }),
    hostedPeople: positiveNumber(env, 'BENCH_HOSTED_PEOPLE', 10, { integer: true }),
    hostedPerRequest,
    saveBaseline: flags.has('--save-baseline'),
    strict: flags.has('--strict'),
  };
}

export function wantsHelp(argv: readonly string[] = process.argv.slice(2)): boolean {
  return argv.includes('--help') || argv.includes('-h');
}
