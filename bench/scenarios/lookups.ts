// Business lookups, in two parts.
//
// The request (the goal), measured as the runner measures an HTTP scenario:
// (a) baseline: a bare Fastify route doing one INSERT into business_lookups (autocommit) and answering
//     202 with the new id: the least a lookup request could do;
// (b) real: POST /v1/business-lookups on the real app: token and X-Partner-Id, rate limit, body schema,
//     ABN/ACN check digits, then the charge, the lookup and its `lookups.process` job in one transaction.
// Both get the same bytes: a different valid ABN and/or ACN on every request, none a CONTRACT §13 test value.
// No job worker runs during this part (as in `pvs serve --role api`): it measures the request path alone,
// and (a) runs no jobs either. Its jobs stay queued; nothing runs them afterwards.
//
// End to end (figures, no goal), before the request part so that its backlog stays out of the way,
// each phase with a partner of its own so that its lookups can be counted:
// - backlog: N lookups posted with the workers stopped, then the workers started: lookups settled per
//   second from the workers' start to the last completion (the workers' rate);
// - live: the workers running while N lookups are posted: first lookup created to last completed.
// Every lookup must end COMPLETED, its job SUCCEEDED and its business-lookup.completed event written.
import { processLookupJob } from '../../src/modules/lookups/lookups.jobs.ts';
import { acnCheckDigit, isValidAcn } from '../../src/platform/business-numbers.ts';
import { newId } from '../../src/platform/ids.ts';
import type { Worker } from '../../src/platform/jobs/worker.ts';
import { abnOfAcn } from '../../src/providers/register/sandbox/sandbox-model.ts';
import { abnNotOnRegister, abnRegisterUnavailable, abnTransientlyUnavailable, tableBusinesses, tableCompanies, tableCompaniesByAbn } from '../../src/providers/register/sandbox/sandbox-table.ts';
import type { Figures } from '../lib/load.ts';
import { createRandom, weighted, type Random } from '../lib/random.ts';
import { scenarioResult } from '../lib/report.ts';
import { defineScenario, type BenchRequest, type MeasureContext, type ScenarioRun } from '../lib/types.ts';
import { loadAverage, round1, round3 } from '../lib/measure.ts';

/** Distinct bodies for the request part; more than a 10-s run sends to either server. */
const requestBodies = 20_000;
/** How long the workers may take to settle one phase before the run is declared broken. */
const settleDeadlineMs = 120_000;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

const specialAbns = new Set([abnNotOnRegister, abnRegisterUnavailable, abnTransientlyUnavailable, ...tableBusinesses.keys(), ...tableCompaniesByAbn.keys()]);

/** "51 824 753 556": how many partners send an ABN; the service strips the spaces. */
const spaced = (abn: string) => `${abn.slice(0, 2)} ${abn.slice(2, 5)} ${abn.slice(5, 8)} ${abn.slice(8)}`;

/** Nine digits, first digit 1–9: an ACN when its check digit is right, else the tail of a business's ABN. */
const nineDigits = (random: Random) => String(100_000_000 + random.int(900_000_000));

function randomAcn(random: Random): string {
  for (;;) {
    const first = nineDigits(random).slice(0, 8);
    const acn = `${first}${acnCheckDigit(first)}`;
    if (!tableCompanies.has(acn) && !specialAbns.has(abnOfAcn(acn))) return acn;
  }
}

/** A sole trader's, partnership's or trust's ABN: valid, and its last nine digits are not an ACN. */
function randomBusinessAbn(random: Random): string {
  for (;;) {
    const tail = nineDigits(random);
    const abn = abnOfAcn(tail); // the ABN check digits for any nine digits, not only an ACN's
    if (!isValidAcn(tail) && !specialAbns.has(abn)) return abn;
  }
}

const identifierKind = weighted({ companyAbn: 40, acn: 30, both: 15, businessAbn: 15 });

/** `count` request bodies, each naming a different business, every number valid. */
export function lookupBodies(random: Random, count: number): string[] {
  const seen = new Set<string>();
  const bodies: string[] = [];
  while (bodies.length < count) {
    const kind = identifierKind(random);
    const acn = kind === 'businessAbn' ? undefined : randomAcn(random);
    const abn = kind === 'businessAbn' ? randomBusinessAbn(random) : kind === 'acn' ? undefined : abnOfAcn(acn!);
    const key = abn ?? acn!;
    if (seen.has(key)) continue;
    seen.add(key);
    bodies.push(JSON.stringify({ ...(abn && { abn: random.chance(0.5) ? spaced(abn) : abn }), ...(kind !== 'companyAbn' && kind !== 'businessAbn' && { acn }) }));
  }
  return bodies;
}

const lookupRequest = (headers: Record<string, string>, bodies: readonly string[]): BenchRequest => ({
  method: 'POST',
  path: '/v1/business-lookups',
  headers: { ...headers, 'content-type': 'application/json' },
  bodies,
  expectStatus: 202,
});

interface Settled {
  completed: number;
  other: number;
  jobsNotSucceeded: number;
  events: number;
  firstCreated: number;
  lastCompleted: number;
  partiesPerLookup: number;
  rolesPerLookup: number;
}

/** Polls until none of the partner's `count` lookups is PENDING, then reads what the workers wrote. */
async function settled(ctx: MeasureContext, partnerId: string, count: number): Promise<Settled> {
  const deadline = Date.now() + settleDeadlineMs;
  for (;;) {
    const [row] = await ctx.db.query<{ pending: number; total: number }>(
      `SELECT count(*) FILTER (WHERE status = 'PENDING')::int AS pending, count(*)::int AS total FROM business_lookups WHERE partner_id = $1`,
      [partnerId],
    );
    if (row!.total >= count && row!.pending === 0) break;
    if (Date.now() > deadline) throw new Error(`${row!.pending} of ${row!.total} lookups still PENDING after ${settleDeadlineMs / 1000} s`);
    await sleep(20);
  }
  const [row] = await ctx.db.query<{ completed: number; other: number; first_created: Date; last_completed: Date; parties: number; roles: number }>(
    `SELECT count(*) FILTER (WHERE status = 'COMPLETED')::int AS completed, count(*) FILTER (WHERE status <> 'COMPLETED')::int AS other,
            min(created_at) AS first_created, max(completed_at) AS last_completed,
            (SELECT count(*)::int FROM idv_entities WHERE partner_id = $1) AS parties,
            (SELECT count(*)::int FROM lookup_individuals i JOIN business_lookups l ON l.id = i.lookup_id WHERE l.partner_id = $1) AS roles
     FROM business_lookups WHERE partner_id = $1`,
    [partnerId],
  );
  const [jobs] = await ctx.db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM business_lookups l LEFT JOIN jobs j ON j.key = 'lookup:' || l.id WHERE l.partner_id = $1 AND j.status IS DISTINCT FROM 'SUCCEEDED'`,
    [partnerId],
  );
  const [events] = await ctx.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM events WHERE partner_id = $1 AND type = 'business-lookup.completed'`, [partnerId]);
  return {
    completed: row!.completed,
    other: row!.other,
    jobsNotSucceeded: jobs!.n,
    events: events!.n,
    firstCreated: row!.first_created.getTime(),
    lastCompleted: row!.last_completed.getTime(),
    partiesPerLookup: round1(row!.parties / Math.max(1, row!.completed)),
    rolesPerLookup: round1(row!.roles / Math.max(1, row!.completed)),
  };
}

interface Phase {
  posted: Figures;
  settled: Settled;
  /** From the workers' start (backlog) or the first lookup's creation (live) to the last completion. */
  settleMs: number;
  /** First lookup created to last completed. */
  endToEndMs: number;
  cpuUsPerLookup: number;
}

/** `label` names the phase's partner and profile (the warm-up is a live phase of its own). */
async function runPhase(ctx: MeasureContext, mode: 'backlog' | 'live', bodies: readonly string[], label: string = mode): Promise<Phase> {
  const partner = await ctx.partner({ name: `Lookup bench partner (${label})` });
  const workers: Worker[] = Array.from({ length: ctx.settings.lookupWorkers }, () => ctx.services.createWorker());
  const count = bodies.length;
  const cpu = process.cpuUsage();
  const request = lookupRequest(partner.headers, bodies);
  try {
    let posted = mode === 'backlog' ? await ctx.send(request, { count }) : undefined;
    let started = 0;
    // Profiled (BENCH_PROFILE=1): backlog, from the workers' start; live, the whole phase.
    const result = await ctx.profile(`end-to-end-${label}`, async () => {
      started = Date.now();
      for (const w of workers) w.start();
      if (mode === 'live') posted = await ctx.send(request, { count });
      return settled(ctx, partner.partnerId, count);
    });
    const used = process.cpuUsage(cpu);
    return {
      posted: posted!,
      settled: result,
      settleMs: result.lastCompleted - (mode === 'backlog' ? started : result.firstCreated),
      endToEndMs: result.lastCompleted - result.firstCreated,
      cpuUsPerLookup: round1((used.user + used.system) / count),
    };
  } finally {
    for (const w of workers) await w.stop(5_000);
  }
}

const description = 'POST /v1/business-lookups (auth, validation, charge + lookup + job in one transaction) vs one bare INSERT into business_lookups';

export default defineScenario({
  kind: 'measured',
  name: 'lookups',
  description,
  // The goal: (b) writes three rows and a SELECT in a transaction (BEGIN … COMMIT) where (a) makes
  // one autocommitted INSERT, and adds the /v1 pipeline and the body's validation on top.
  goals: { postgres: { minThroughputRatio: 0.6, maxP99Ratio: 2 } },
  async measure(ctx) {
    const { settings } = ctx;
    const loadBefore = loadAverage();
    const random = createRandom(0x100c);
    const n = settings.lookups;

    if (settings.warmupSeconds > 0) {
      // The POST path and the job, cold (JIT, the pool's connections, the synthetic register's code).
      const warm = Math.max(1, Math.round(250 * settings.warmupSeconds));
      ctx.progress(`warm-up, ${warm} lookups posted and settled…`);
      await runPhase(ctx, 'live', lookupBodies(random.fork('warm-up'), warm), 'warm-up');
    }
    ctx.progress(`end to end: ${n} lookups posted, then ${settings.lookupWorkers} worker(s) started…`);
    const backlog = await runPhase(ctx, 'backlog', lookupBodies(random.fork('backlog'), n));
    ctx.progress(`end to end: ${n} lookups posted with ${settings.lookupWorkers} worker(s) running…`);
    const live = await runPhase(ctx, 'live', lookupBodies(random.fork('live'), n));

    const partner = await ctx.partner({ name: 'Lookup bench partner' });
    const bodies = lookupBodies(random.fork('requests'), requestBodies);
    const run: ScenarioRun = {
      request: lookupRequest(partner.headers, bodies),
      baseline: {
        method: 'POST',
        url: '/v1/business-lookups',
        async handler(request, reply) {
          const body = request.body as { abn?: string; acn?: string };
          const id = newId('lookup');
          const now = new Date();
          await ctx.db.query(
            `INSERT INTO business_lookups (id, partner_id, abn, acn, scope, status, created_at, updated_at) VALUES ($1, $2, $3, $4, 'FULL', 'PENDING', $5, $5)`,
            [id, request.headers['x-partner-id'], body.abn?.replace(/\s/g, '') ?? null, body.acn ?? null, now],
          );
          return reply.code(202).send({ lookupRequestId: id });
        },
      },
      check(server, _status, text) {
        const id = (JSON.parse(text) as { lookupRequestId?: string }).lookupRequestId;
        return id?.startsWith('lkp_') ? undefined : `${server} answered ${text.slice(0, 200)}`;
      },
    };
    const { baseline, real } = await ctx.compareHttp(run);
    const result = scenarioResult(description, baseline, real, ctx.goal);

    const phases = { backlog, live };
    for (const [name, p] of Object.entries(phases)) {
      const s = p.settled;
      if (s.other) result.problems.push(`end to end (${name}): ${s.other} lookups not COMPLETED`);
      if (s.jobsNotSucceeded) result.problems.push(`end to end (${name}): ${s.jobsNotSucceeded} lookups without a SUCCEEDED job`);
      if (s.events !== s.completed) result.problems.push(`end to end (${name}): ${s.events} completed events for ${s.completed} completed lookups`);
      for (const [status, count] of Object.entries(p.posted.unexpectedStatus)) result.problems.push(`end to end (${name}): ${count} POSTs answered ${status}`);
      if (p.posted.errors + p.posted.timeouts) result.problems.push(`end to end (${name}): ${p.posted.errors} connection errors, ${p.posted.timeouts} timeouts`);
    }
    const perSecond = (count: number, ms: number) => round1((count / ms) * 1000);
    const summary = (p: Phase) => ({
      lookups: p.settled.completed,
      postedPerSecond: p.posted.rps,
      postP50Ms: p.posted.latencyMs.p50,
      postP99Ms: p.posted.latencyMs.p99,
      settledPerSecond: perSecond(p.settled.completed, p.settleMs),
      settleSeconds: round3(p.settleMs / 1000),
      firstPostToLastCompletionSeconds: round3(p.endToEndMs / 1000),
      cpuUsPerLookup: p.cpuUsPerLookup,
      partiesPerLookup: p.settled.partiesPerLookup,
      rolesPerLookup: p.settled.rolesPerLookup,
    });
    const b = summary(backlog);
    const l = summary(live);
    const concurrency = ctx.services.jobDefinitions.find((d) => d.kind === processLookupJob.kind)?.concurrency;
    const workers = `${settings.lookupWorkers} worker${settings.lookupWorkers === 1 ? '' : 's'} (lookups.process: ${concurrency} at a time each)`;
    return {
      ...result,
      labels: { throughput: 'req/s', p50: 'p50 ms', p99: 'p99 ms', cpu: 'CPU µs/req' },
      notes: [
        `request: ${requestBodies} distinct valid ABNs/ACNs in turn (company ABN 40 %, ACN 30 %, both 15 %, other business's ABN 15 %; half the ABNs spaced),`,
        `  billed to the partner's account, no Idempotency-Key; no worker runs during this part.`,
        `end to end, backlog: ${n} lookups posted (${b.postedPerSecond} req/s) with no worker, then ${workers}: ${b.settledPerSecond} lookups completed/s`,
        `  from the workers' start (${b.settleSeconds} s); first POST to last completion ${b.firstPostToLastCompletionSeconds} s; ${b.cpuUsPerLookup} µs CPU/lookup (POST and job).`,
        `end to end, live: ${n} lookups posted (${l.postedPerSecond} req/s, p99 ${l.postP99Ms} ms) with ${workers} running: first POST to last completion`,
        `  ${l.firstPostToLastCompletionSeconds} s, ${l.settledPerSecond} lookups completed/s; ${l.cpuUsPerLookup} µs CPU/lookup.`,
        `each lookup (sandbox register, scope FULL): ${b.partiesPerLookup} idv entities and ${b.rolesPerLookup} roles written. Load average ${loadBefore.join(' ')} → ${loadAverage().join(' ')}.`,
      ],
      details: {
        requestBodies,
        workers: settings.lookupWorkers,
        jobConcurrency: concurrency,
        endToEnd: { backlog: b, live: l },
        loadAverageBefore: loadBefore,
        loadAverageAfter: loadAverage(),
      },
    };
  },
});
