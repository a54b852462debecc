// The hosted identity-verification submit path: the four calls a person's phone makes, one person after
// another, C people at a time.
//
// (a) baseline: the bare Fastify route of `partners-me` (one primary-key SELECT on partners), the
//     foundation's cheapest request, driven by the same client as (b): C connections, each sending again
//     as soon as it has its answer.
// (b) real: for each individual, in sequence, with `Authorization: Bearer <sessionToken>`:
//     PUT  /hosted/v1/verification-session/details    (JSON)
//     POST /hosted/v1/verification-session/document   (multipart: type, number, issuingCountry, expiryDate, `front`)
//     POST /hosted/v1/verification-session/selfie     (multipart: `image`)
//     POST /hosted/v1/verification-session/submit
//     with the sandbox identity provider (ENVIRONMENT=sandbox), every answer 200. No worker runs (as with
//     `--role api`): submit only enqueues the check job. Three image sizes, each its own (b):
//     small: test/fixtures' sampleJpeg(), 158 bytes;
//     1.5 MB of metadata: sampleJpeg with 23 APP2 segments of random bytes (what a phone photo's ICC/MPF
//       blocks are), which cleanImage strips: the identity provider gets its 158 bytes;
//     1.5 MB of scan: sampleJpeg with 1.5 MB of byte-stuffed random entropy-coded data before EOI (what a
//       photo re-encoded by the page's downscale is: no metadata, all picture), which cleanImage keeps.
// Every individual has its own session, made before the measurement through the real API: partner
// requests of BENCH_HOSTED_PER_REQUEST individuals (100), their links, each link exchanged for a session.
// The check jobs the submits queue are deleted at the end: a later scenario's workers (lookups) would run them.
//
// The client runs in a child process (this file, started with `--hosted-verification-driver`), for the
// reason bench/README.md gives for autocannon's; autocannon itself cannot send a different bearer token
// per person and a different body per step.
//
// What dominates (2-core machine; figures in bench/README.md). A person's four calls send 12 statements
// (details 4, document 2, selfie 2, submit 4: test/verifications/hosted-statements.test.ts holds them
// there); they sent 53 until issue 34, and half the process's CPU went on pg sending them. Now (b) reaches
// ~0.10 of (a)'s req/s on PostgreSQL at ~1.6 ms of CPU per call against (a)'s ~0.15–0.2 ms: what the rest is
// needs a profile. 1.5 MB of metadata: the upload itself (socket reads, busboy's boundary search, garbage).
// 1.5 MB kept: the copies on its way to the database (4 now: multipart's buffer, the cipher's output, the
// sealed value, pg's bind), the writes to PostgreSQL and the sealing. PGlite: one thread, two thirds inside
// PGlite; with 1.5 MB kept, its bytea handling (hex text, decode) dominates.
import { randomBytes } from 'node:crypto';
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import Fastify, { type FastifyInstance } from 'fastify';
import { Client } from 'undici';
import { verificationCheckJob } from '../../src/modules/verifications/verifications.jobs.ts';
import { cleanImage } from '../../src/platform/images.ts';
import { jpegSegment, sampleJpeg } from '../../test/fixtures/images.ts';
import { countStatements, describeCount, type StatementCount } from '../../test/helpers/statement-count.ts';
import { multipartForm, passport, personDetails, photo } from '../../test/helpers/verifications.ts';
import { originOf } from '../lib/context.ts';
import { summarize, type Figures, type RawRun } from '../lib/load.ts';
import { scenarioResult } from '../lib/report.ts';
import { defineScenario, type BenchPartner, type MeasureContext, type ScenarioRun } from '../lib/types.ts';
import partnersMe from './partners-me.ts';
import { loadAverage, round1, round3 } from '../lib/measure.ts';

const driverFlag = '--hosted-verification-driver';
const imageBytes = 1_500_000;
/** How long one slice may take before the run is declared broken. */
const sliceDeadlineMs = 300_000;
const callNames = ['details', 'document', 'selfie', 'submit'] as const;
type CallName = (typeof callNames)[number];

// ---- The images ----

/** sampleJpeg with APP2 segments of random bytes (at most 65 533 bytes each) making it `total` bytes. */
function jpegWithMetadata(total: number): Buffer {
  const segments: Buffer[] = [];
  for (let left = total - sampleJpeg().length; left > 4; ) {
    const size = Math.min(65_533, left - 4);
    segments.push(jpegSegment(0xe2, randomBytes(size)));
    left -= size + 4;
  }
  return sampleJpeg({ before: segments });
}

/**
 * sampleJpeg with random entropy-coded data before EOI, every 0xFF stuffed with 0x00 as in a real scan:
 * cleanImage keeps it (nothing decodes images on this path; a decoder skips it after the frame's blocks).
 */
function jpegWithScan(total: number): Buffer {
  const small = sampleJpeg();
  const raw = randomBytes(total - small.length);
  const stuffed = Buffer.alloc(raw.length * 2);
  let n = 0;
  for (const byte of raw) {
    stuffed[n++] = byte;
    if (byte === 0xff) stuffed[n++] = 0x00;
  }
  const eoi = small.length - 2;
  return Buffer.concat([small.subarray(0, eoi), stuffed.subarray(0, Math.max(0, total - small.length)), small.subarray(eoi)]);
}

interface Variant {
  key: 'small' | 'metadata' | 'scan';
  label: string;
  image: Buffer;
  /** What cleanImage leaves of it: what the identity provider keeps. */
  storedBytes: number;
}

function variants(): Variant[] {
  const made = [
    { key: 'small' as const, label: 'small JPEG', image: sampleJpeg() },
    { key: 'metadata' as const, label: '1.5 MB JPEG, metadata', image: jpegWithMetadata(imageBytes) },
    { key: 'scan' as const, label: '1.5 MB JPEG, scan', image: jpegWithScan(imageBytes) },
  ];
  return made.map((v) => {
    const cleaned = cleanImage(v.image);
    if (!cleaned.ok) throw new Error(`${v.label}: cleanImage refuses it (${cleaned.message})`);
    return { ...v, storedBytes: cleaned.image.bytes.length };
  });
}

// ---- The client (in a child process by default) ----

interface Call {
  name: CallName;
  method: 'PUT' | 'POST';
  path: string;
  contentType?: string;
  body?: string | Uint8Array;
}

type DriverCommand =
  | { kind: 'repeat'; origin: string; path: string; headers: Record<string, string>; connections: number; seconds: number }
  | { kind: 'people'; origin: string; sessionTokens: string[]; calls: Call[]; connections: number };

interface DriverRun {
  /** Answers with status 200. */
  count: number;
  /** First request sent to last answer read. */
  seconds: number;
  /** Per call name (`repeat`: one, `get`), the latency of each 200, ms. */
  latencies: Record<string, Float64Array>;
  /** `document 409` → count; and the first few bodies. */
  unexpected: Record<string, number>;
  examples: string[];
  errors: number;
  /** `people`: individuals whose four calls all answered 200. */
  completed: number;
}

/**
 * Sends the command's requests from C lanes, each with a keep-alive connection of its own; any status but
 * 200 is counted, and a person stops at it. A 200's body is read and dropped (undici's lightest path).
 */
async function drive(command: DriverCommand): Promise<DriverRun> {
  const clients = Array.from({ length: command.connections }, () => new Client(command.origin, { pipelining: 1 }));
  const latencies = new Map<string, number[]>();
  const unexpected: Record<string, number> = {};
  const examples: string[] = [];
  let count = 0;
  let errors = 0;
  let completed = 0;
  let last = 0;
  const send = async (client: Client, name: string, options: Parameters<Client['request']>[0]): Promise<boolean> => {
    const started = performance.now();
    try {
      const response = await client.request(options);
      if (response.statusCode === 200) {
        await response.body.dump();
        last = performance.now();
        count++;
        let list = latencies.get(name);
        if (!list) latencies.set(name, (list = []));
        list.push(last - started);
        return true;
      }
      const text = await response.body.text();
      last = performance.now();
      const key = `${name} ${response.statusCode}`;
      unexpected[key] = (unexpected[key] ?? 0) + 1;
      if (examples.length < 3) examples.push(`${key}: ${text.slice(0, 300)}`);
    } catch (error) {
      errors++;
      if (examples.length < 3) examples.push(`${name}: ${(error as Error).message}`);
    }
    return false;
  };
  const started = performance.now();
  try {
    if (command.kind === 'repeat') {
      const deadline = started + command.seconds * 1000;
      const lane = async (client: Client) => {
        while (performance.now() < deadline) await send(client, 'get', { method: 'GET', path: command.path, headers: command.headers });
      };
      await Promise.all(clients.map(lane));
    } else {
      let next = 0;
      const lane = async (client: Client) => {
        while (next < command.sessionTokens.length) {
          const authorization = `Bearer ${command.sessionTokens[next++]}`;
          let ok = true;
          for (const call of command.calls) {
            const headers = { authorization, ...(call.contentType ? { 'content-type': call.contentType } : {}) };
            ok = await send(client, call.name, { method: call.method, path: call.path, headers, body: call.body });
            if (!ok) break;
          }
          if (ok) completed++;
        }
      };
      await Promise.all(clients.map(lane));
    }
  } finally {
    await Promise.all(clients.map((c) => c.close()));
  }
  const arrays: Record<string, Float64Array> = {};
  for (const [name, list] of latencies) arrays[name] = Float64Array.from(list);
  return { count, seconds: last ? (last - started) / 1000 : 0, latencies: arrays, unexpected, examples, errors, completed };
}

interface Driver {
  run(command: DriverCommand): Promise<DriverRun>;
  close(): Promise<void>;
}

function childDriver(): Driver {
  // Explicit execArgv: the child must not inherit --cpu-prof or --inspect meant for the server.
  const child: ChildProcess = fork(fileURLToPath(import.meta.url), [driverFlag], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'], serialization: 'advanced' });
  const waiting = new Map<number, { resolve: (run: DriverRun) => void; reject: (error: Error) => void }>();
  let nextId = 0;
  let exited = false;
  child.on('message', (message: { id: number; run?: DriverRun; error?: string }) => {
    const w = waiting.get(message.id);
    waiting.delete(message.id);
    if (message.run) w?.resolve(message.run);
    else w?.reject(new Error(`hosted-verification driver: ${message.error}`));
  });
  child.on('exit', (code, signal) => {
    exited = true;
    for (const w of waiting.values()) w.reject(new Error(`hosted-verification driver exited (${signal ?? code})`));
    waiting.clear();
  });
  return {
    run(command) {
      if (exited) return Promise.reject(new Error('hosted-verification driver has exited'));
      const id = nextId++;
      return new Promise((resolve, reject) => {
        waiting.set(id, { resolve, reject });
        child.send({ id, command });
      });
    },
    async close() {
      if (exited) return;
      const gone = new Promise((resolve) => child.once('exit', resolve));
      child.disconnect();
      await gone;
    },
  };
}

if (process.argv[2] === driverFlag) {
  process.on('disconnect', () => process.exit(0));
  process.on('message', (message: { id: number; command: DriverCommand }) => {
    drive(message.command).then(
      (run) => process.connected && process.send!({ id: message.id, run }),
      (error: unknown) => process.connected && process.send!({ id: message.id, error: error instanceof Error ? (error.stack ?? error.message) : String(error) }),
    );
  });
}

function withDeadline<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: not done after ${ms / 1000} s`)), ms);
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}

// ---- Sessions, made through the real API ----

async function json<T>(origin: string, method: string, path: string, headers: Record<string, string>, body: unknown, status: number): Promise<T> {
  const response = await fetch(new URL(path, origin), { method, headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const text = await response.text();
  if (response.status !== status) throw new Error(`${method} ${path} answered ${response.status}, expected ${status}: ${text.slice(0, 300)}`);
  return JSON.parse(text) as T;
}

/** `count` individuals, each with an open session: TPB_POI requests of `perRequest` (≤ 100), their links, each link exchanged. */
async function openSessions(origin: string, partner: BenchPartner, count: number, perRequest: number): Promise<{ sessionTokens: string[]; requestIds: string[] }> {
  const linkTokens: string[] = [];
  const requestIds: string[] = [];
  for (let made = 0; made < count; made += perRequest) {
    const individuals = Array.from({ length: Math.min(perRequest, count - made) }, () => ({ role: 'DIRECTOR' }));
    const created = await json<{ id: string }>(origin, 'POST', '/v1/verifications', partner.headers, { mode: 'TPB_POI', individuals }, 201);
    const links = await json<{ individuals: Array<{ verificationUrl: string }> }>(origin, 'POST', `/v1/verifications/${created.id}/links`, partner.headers, {}, 200);
    requestIds.push(created.id);
    linkTokens.push(...links.individuals.map((i) => i.verificationUrl.split('/v/')[1]!));
  }
  const sessionTokens: string[] = new Array(linkTokens.length);
  let next = 0;
  const lane = async () => {
    while (next < linkTokens.length) {
      const i = next++;
      sessionTokens[i] = (await json<{ sessionToken: string }>(origin, 'POST', '/hosted/v1/verification-sessions', {}, { token: linkTokens[i] }, 201)).sessionToken;
    }
  };
  await Promise.all(Array.from({ length: 10 }, lane));
  return { sessionTokens, requestIds };
}

function flowCalls(image: Buffer): Call[] {
  const document = multipartForm(passport, { front: photo(image) });
  const selfie = multipartForm({}, { image: photo(image) });
  const base = '/hosted/v1/verification-session';
  return [
    { name: 'details', method: 'PUT', path: `${base}/details`, contentType: 'application/json', body: JSON.stringify(personDetails('Harrow')) },
    { name: 'document', method: 'POST', path: `${base}/document`, contentType: document.headers['content-type'], body: document.payload },
    { name: 'selfie', method: 'POST', path: `${base}/selfie`, contentType: selfie.headers['content-type'], body: selfie.payload },
    { name: 'submit', method: 'POST', path: `${base}/submit` },
  ];
}

// ---- Statements per call: one person, traced ----

async function traceOnePerson(ctx: MeasureContext, origin: string, sessionToken: string, calls: Call[]): Promise<Record<CallName, StatementCount>> {
  const counts = {} as Record<CallName, StatementCount>;
  for (const call of calls) {
    counts[call.name] = await countStatements(ctx.db, async () => {
      const headers = { authorization: `Bearer ${sessionToken}`, ...(call.contentType ? { 'content-type': call.contentType } : {}) };
      const response = await fetch(new URL(call.path, origin), { method: call.method, headers, body: call.body });
      const text = await response.text();
      if (response.status !== 200) throw new Error(`traced person: ${call.name} answered ${response.status}: ${text.slice(0, 300)}`);
    });
  }
  return counts;
}

// ---- The scenario ----

const description = 'hosted verification, 4 calls per person (details, document, selfie, submit) vs one primary-key SELECT on partners';

/** Splits `n` into `parts` nearly equal whole numbers. */
const split = (n: number, parts: number) => Array.from({ length: parts }, (_, i) => Math.floor((n * (i + 1)) / parts) - Math.floor((n * i) / parts));

function toRaw(run: DriverRun, names: readonly string[], cpuUs: number): RawRun {
  const parts = names.map((n) => run.latencies[n] ?? new Float64Array(0));
  const latencies = new Float64Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const p of parts) {
    latencies.set(p, offset);
    offset += p.length;
  }
  return { count: run.count, seconds: run.seconds, latencies, unexpectedStatus: run.unexpected, errors: run.errors, timeouts: 0, serverCpuUs: cpuUs };
}

interface Side {
  runs: Array<{ run: DriverRun; cpuUs: number }>;
}

/** One image size's (b): its calls, the sessions of its warm-up and of each slice, and what was measured. */
interface Plan {
  variant: Variant;
  calls: Call[];
  /** People measured (in all slices). */
  people: number;
  warmTokens: string[];
  sliceTokens: string[][];
  side: Side;
}

export default defineScenario({
  kind: 'measured',
  name: 'hosted-verification',
  description,
  // Figures only: (b) is four requests of a person's flow, not the same request made dearer.
  goals: {},
  async measure(ctx) {
    const { settings } = ctx;
    const loadBefore = loadAverage();
    const people = settings.hostedPeople;
    const n = settings.hostedIndividuals;
    const slices = Math.min(settings.slices, n);
    const origin = originOf(ctx.app);
    const images = variants();
    const partner = await ctx.partner({ name: 'Hosted verification bench partner' });
    const driver: Driver = settings.loadGenerator === 'child' ? childDriver() : { run: drive, close: async () => {} };
    let bare: FastifyInstance | undefined;
    const requestIds: string[] = [];
    try {
      // (a): partners-me's own bare route and request.
      const baselineRun: ScenarioRun = await partnersMe.setup(ctx);
      bare = Fastify();
      bare.route({ method: baselineRun.baseline.method ?? 'GET', url: baselineRun.baseline.url, handler: baselineRun.baseline.handler });
      await bare.listen({ host: '127.0.0.1', port: 0 });
      const probe = await fetch(new URL(baselineRun.request.path, originOf(bare)), { headers: baselineRun.request.headers });
      const probeText = await probe.text();
      const refused = probe.status !== 200 ? `answered ${probe.status}` : baselineRun.check?.('baseline', probe.status, probeText);
      if (refused) throw new Error(`(a): ${refused}`);
      const repeat = (seconds: number): DriverCommand => ({
        kind: 'repeat',
        origin: originOf(bare!),
        path: baselineRun.request.path,
        headers: baselineRun.request.headers ?? {},
        connections: people,
        seconds,
      });

      // Sessions for the traced person, the warm-ups and every slice, before anything is measured. On PGlite
      // a person with 1.5 MB images that are kept costs about a second (its bytea serialiser), so a tenth.
      const warm = settings.warmupSeconds > 0 ? Math.max(people, Math.round(10 * settings.warmupSeconds)) : 0;
      const scaled = (v: Variant, count: number) => (v.key === 'scan' && ctx.backend === 'pglite' ? Math.ceil(count / 10) : count);
      const total = 1 + images.reduce((sum, v) => sum + scaled(v, warm) + Math.max(slices, scaled(v, n)), 0);
      ctx.progress(`opening ${total} sessions through the API…`);
      const sessions = async (count: number) => {
        const opened = await openSessions(origin, partner, count, settings.hostedPerRequest);
        requestIds.push(...opened.requestIds);
        return opened.sessionTokens;
      };
      const traced = await traceOnePerson(ctx, origin, (await sessions(1))[0]!, flowCalls(images[0]!.image));
      const plans: Plan[] = [];
      for (const variant of images) {
        const [warmCount, count] = [scaled(variant, warm), Math.max(slices, scaled(variant, n))];
        const tokens = await sessions(warmCount + count);
        let from = warmCount;
        const sliceTokens = split(count, slices).map((size) => tokens.slice(from, (from += size)));
        plans.push({ variant, calls: flowCalls(variant.image), people: count, warmTokens: tokens.slice(0, warmCount), sliceTokens, side: { runs: [] } });
      }

      const flow = (plan: Plan, sessionTokens: string[]): DriverCommand => ({ kind: 'people', origin, sessionTokens, calls: plan.calls, connections: people });
      if (settings.warmupSeconds > 0) {
        ctx.progress(`warm-up: (a) ${settings.warmupSeconds} s, (b) ${warm} people per image size…`);
        await driver.run(repeat(settings.warmupSeconds));
        for (const plan of plans) if (plan.warmTokens.length) await driver.run(flow(plan, plan.warmTokens));
      }

      ctx.progress(`measuring: (a) ${settings.seconds} s, (b) ${plans.map((p) => p.people).join(', ')} people, ${people} at a time, in ${slices} interleaved slice(s)…`);
      const a: Side = { runs: [] };
      type Step = { name: string; side: Side; command: DriverCommand };
      for (let i = 0; i < slices; i++) {
        const steps: Step[] = [
          { name: `a-${i + 1}`, side: a, command: repeat(settings.seconds / slices) },
          ...plans.map((plan) => ({ name: `b-${plan.variant.key}-${i + 1}`, side: plan.side, command: flow(plan, plan.sliceTokens[i]!) })),
        ];
        // a b c d | d c b a | …: a drift in the machine's background load weighs on every side alike.
        for (const step of i % 2 === 0 ? steps : steps.reverse()) {
          const cpu = process.cpuUsage();
          const run = await ctx.profile(step.name, () => withDeadline(driver.run(step.command), sliceDeadlineMs, step.name));
          const used = process.cpuUsage(cpu);
          step.side.runs.push({ run, cpuUs: used.user + used.system });
        }
      }

      const baseline = summarize(a.runs.map((r) => toRaw(r.run, ['get'], r.cpuUs)));
      const problems: string[] = [];
      const perVariant = plans.map(({ variant, side, people: count }) => {
        const all = summarize(side.runs.map((r) => toRaw(r.run, callNames, r.cpuUs)));
        const perCall = Object.fromEntries(callNames.map((name) => [name, summarize(side.runs.map((r) => toRaw(r.run, [name], 0))).latencyMs])) as Record<CallName, Figures['latencyMs']>;
        const completed = side.runs.reduce((s, r) => s + r.run.completed, 0);
        const cpuUs = side.runs.reduce((s, r) => s + r.cpuUs, 0);
        for (const r of side.runs) problems.push(...r.run.examples.map((e) => `(b) ${variant.label}: ${e}`));
        if (completed !== count) problems.push(`(b) ${variant.label}: ${completed} of ${count} people completed all four calls`);
        return {
          variant,
          count,
          all,
          perCall,
          individualsPerSecond: round1(completed / all.seconds),
          cpuUsPerIndividual: round1(cpuUs / Math.max(1, completed)),
          ratioToBaseline: round3(all.rps / baseline.rps),
        };
      });
      for (const r of a.runs) problems.push(...r.run.examples.map((e) => `(a): ${e}`));

      // Every measured person's submit must have made an attempt, CHECKING, with its check job queued.
      const [state] = await ctx.db.query<{ individuals: number; checking: number; jobs: number }>(
        `SELECT count(*)::int AS individuals,
                count(*) FILTER (WHERE EXISTS (SELECT 1 FROM verification_attempts a WHERE a.individual_id = i.id AND a.status = 'CHECKING'))::int AS checking,
                count(*) FILTER (WHERE EXISTS (SELECT 1 FROM jobs j WHERE j.key = 'verification-check:' || i.id || ':1' AND j.status = 'QUEUED'))::int AS jobs
         FROM verification_individuals i WHERE i.request_id = ANY($1::text[])`,
        [requestIds],
      );
      const submitted = total;
      if (state!.checking !== submitted) problems.push(`${state!.checking} of ${submitted} individuals have a CHECKING attempt`);
      if (state!.jobs !== submitted) problems.push(`${state!.jobs} of ${submitted} individuals have a pending check job`);

      const small = perVariant[0]!;
      const result = scenarioResult(description, baseline, small.all, ctx.goal);
      result.problems.push(...problems.filter((p) => !result.problems.includes(p)));
      return {
        ...result,
        labels: { throughput: 'req/s', p50: 'p50 ms', p99: 'p99 ms', cpu: 'CPU µs/req' },
        notes: [
          `(a) partners-me's bare route, ${people} connections; (b) people × 4 hosted calls, ${people} people at a time, each person's calls in sequence; no worker runs.`,
          `The table's (b) is the small JPEG; per image size, (b) req/s ÷ (a) req/s, and p50/p99 ms per call:`,
          ...perVariant.flatMap((p) => [
            `  ${p.variant.label} (${p.variant.image.length} B uploaded, ${p.variant.storedBytes} B kept), ${p.count} people: ${p.individualsPerSecond} people/s, ` +
              `${p.all.rps} req/s = ${p.ratioToBaseline}× (a); CPU ${p.cpuUsPerIndividual} µs/person (${p.all.serverCpuUsPerRequest} µs/req)`,
            `    ${callNames.map((c) => `${c} ${p.perCall[c].p50}/${p.perCall[c].p99}`).join(', ')}`,
          ]),
          `Statements per call (one person, traced): ${callNames.map((c) => `${c} ${describeCount(traced[c])}`).join(', ')}.`,
          `(a) and (b) driven by the same client (undici, ${settings.loadGenerator === 'child' ? 'in a child process' : 'in this process'}). Load average ${loadBefore.join(' ')} → ${loadAverage().join(' ')}.`,
        ],
        details: {
          concurrentPeople: people,
          baseline: { rps: baseline.rps, latencyMs: baseline.latencyMs, cpuUsPerRequest: baseline.serverCpuUsPerRequest },
          variants: Object.fromEntries(
            perVariant.map((p) => [
              p.variant.key,
              {
                people: p.count,
                uploadedBytes: p.variant.image.length,
                storedBytes: p.variant.storedBytes,
                individualsPerSecond: p.individualsPerSecond,
                requestsPerSecond: p.all.rps,
                ratioToBaseline: p.ratioToBaseline,
                cpuUsPerIndividual: p.cpuUsPerIndividual,
                cpuUsPerRequest: p.all.serverCpuUsPerRequest,
                latencyMs: p.all.latencyMs,
                perCallLatencyMs: p.perCall,
              },
            ]),
          ),
          statementsPerCall: traced,
          loadAverageBefore: loadBefore,
          loadAverageAfter: loadAverage(),
        },
      };
    } finally {
      await bare?.close();
      await driver.close();
      await ctx.db.query(
        `DELETE FROM jobs WHERE kind = $1 AND status = 'QUEUED'
           AND payload->>'individualId' IN (SELECT id FROM verification_individuals WHERE request_id = ANY($2::text[]))`,
        [verificationCheckJob.kind, requestIds],
      );
    }
  },
});
