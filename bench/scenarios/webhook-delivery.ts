// Webhook delivery: what the outbox and the dispatcher cost on top of the HTTP posts themselves.
//
// (a) baseline: the service's own deliverer (`createDeliverer`, its undici keep-alive Agent) posting
//     bodies built and signed as the dispatcher does (`notificationBody`, `signedHeaders`: same size,
//     same headers) to the sink, `maxInFlight` at a time, no database.
// (b) real: events emitted through `services.outbox.emit`, each in its own transaction (the fan-out
//     makes one notification for the one destination, which points at the sink), delivered by
//     `services.createDispatcher()`: claim with a lease, open the secret, sign, POST, record.
//
// Phases, each cut into slices interleaved a b | b a | …:
// - throughput (the goal): N notifications per server. (a) from the first POST until the last
//   answer; (b) the delivery path the issue names (claim, sign, POST, record): its events are
//   committed first, then timed from the dispatcher's start until the database shows no notification
//   left PENDING.
// - with emission (a figure, no goal): the same, timed from the first COMMIT while `webhookEmitters`
//   transactions emit; on PostgreSQL this measures the emitting transactions (fsync per COMMIT), which
//   deliver as fast as they commit.
// - delay, at a moderate load: events at a fixed rate (open loop, `webhookRate`/s). (a) from the
//   moment the POST is started, (b) from the moment the emitting transaction's COMMIT is acknowledged,
//   to the moment the sink (another process, same monotonic clock) has the request's headers.
//
// The sink is a plain node:http server in a child process answering 200 at once (bench/lib/sink.ts).
import { notificationBody, signedHeaders } from '../../src/modules/webhooks/body.ts';
import { createDeliverer, type Deliverer } from '../../src/modules/webhooks/delivery.ts';
import { newWebhookSecret } from '../../src/modules/webhooks/destinations.service.ts';
import { defaultMaxInFlight, type Dispatcher } from '../../src/modules/webhooks/dispatcher.ts';
import { businessLookupCompleted } from '../../src/modules/webhooks/events/index.ts';
import { newId } from '../../src/platform/ids.ts';
import { tenantOf } from '../../src/platform/tenancy.ts';
import { summarize, type RawRun } from '../lib/load.ts';
import { scenarioResult } from '../lib/report.ts';
import { monotonicMs, startSink, type Sink } from '../lib/sink.ts';
import { defineScenario, type MeasureContext } from '../lib/types.ts';
import { loadAverage, round1, round3 } from '../lib/measure.ts';

/** How long one slice may take before the run is declared broken. */
const sliceDeadlineMs = 120_000;
/** The sink checks the signature of one delivery in this many (of both servers alike). */
const verifyEvery = 50;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function withDeadline<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: not done after ${ms / 1000} s`)), ms);
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}

/** A business-lookup.completed payload with fresh ids: the size of a real one. */
function lookupPayload(partnerId: string) {
  return {
    lookupRequestId: newId('lookup'),
    channelPartnerId: partnerId,
    entity: { name: 'EXAMPLE HOLDINGS PTY LTD', type: 'COMPANY' as const },
    individuals: [{ idvEntityId: newId('idvEntity') }],
  };
}

/** What the sink saw of one server, over every slice. */
interface SinkTally {
  arrivals: number;
  duplicates: number;
  verified: number;
  badSignatures: string[];
  bytes: number;
}

const newTally = (): SinkTally => ({ arrivals: 0, duplicates: 0, verified: 0, badSignatures: [], bytes: 0 });

async function collectInto(sink: Sink, tally: SinkTally) {
  const seen = await sink.collect();
  tally.arrivals += seen.eventIds.length;
  tally.duplicates += seen.duplicates + seen.withoutEventId;
  tally.verified += seen.verified;
  tally.badSignatures.push(...seen.badSignatures);
  tally.bytes += seen.bytes;
  return seen;
}

interface SliceOutcome {
  /** Notifications delivered (and, for (b), recorded). */
  count: number;
  /** The measured window, ms. */
  ms: number;
  /** Deliveries that did not answer 2xx ((a)), or notifications not DELIVERED ((b)). */
  failures: number;
  cpuUs: number;
}

interface Side {
  /** Throughput: `n` notifications as fast as this side goes. */
  burst(n: number): Promise<SliceOutcome>;
  /**
   * (b) only: commits `n` notifications with the dispatcher stopped, then measures the dispatcher alone
   * (inside `around`) from its start to the last outcome recorded.
   */
  drain?(n: number, around: (measure: () => Promise<SliceOutcome>) => Promise<SliceOutcome>): Promise<SliceOutcome>;
  /** Delay: `n` events at `rate`/s; answers each event's delay (ms) from ready to arrival at the sink. */
  paced(n: number, rate: number): Promise<{ delays: Float64Array; failures: number }>;
}

/** Runs `fire(i)` at t0 + i/rate, without waiting for earlier ones (open loop). */
async function openLoop(n: number, rate: number, fire: (i: number) => Promise<void>): Promise<void> {
  const started = monotonicMs();
  const running: Array<Promise<void>> = [];
  for (let i = 0; i < n; i++) {
    const wait = started + (i * 1000) / rate - monotonicMs();
    if (wait >= 1) await sleep(wait);
    running.push(fire(i));
  }
  await Promise.all(running);
}

function delaysOf(readyMs: Map<string, number>, arrivals: { eventIds: string[]; arrivalsMs: Float64Array }): { delays: Float64Array; missing: number } {
  const delays = new Float64Array(readyMs.size);
  let k = 0;
  arrivals.eventIds.forEach((id, i) => {
    const ready = readyMs.get(id);
    if (ready !== undefined) delays[k++] = arrivals.arrivalsMs[i]! - ready;
  });
  return { delays: delays.slice(0, k), missing: readyMs.size - k };
}

/** (a): the deliverer alone, `concurrency` posts at a time. */
function baselineSide(sink: Sink, tally: SinkTally, deliverer: Deliverer, partnerId: string, concurrency: number): Side {
  const secret = newWebhookSecret();
  // What the dispatcher does per notification, minus the database: build the body, sign it, POST it.
  async function postOne(): Promise<{ eventId: string; ok: boolean }> {
    const now = new Date();
    const eventId = newId('event', now.getTime());
    const body = notificationBody({ id: eventId, type: businessLookupCompleted.type, occurredAt: now, payload: lookupPayload(partnerId), test: false });
    const headers = signedHeaders({ body, timestamp: Math.floor(now.getTime() / 1000), secret, eventId, notificationId: newId('notification', now.getTime()) });
    const result = await deliverer.deliver({ url: sink.url, body, headers });
    return { eventId, ok: result.ok };
  }
  return {
    async burst(n) {
      const { reached } = await sink.expect(n, { secret, verifyEvery });
      let next = 0;
      let failures = 0;
      const cpu = process.cpuUsage();
      const started = monotonicMs();
      const lane = async () => {
        while (next < n) {
          next += 1;
          if (!(await postOne()).ok) failures += 1;
        }
      };
      await withDeadline(Promise.all(Array.from({ length: concurrency }, lane)), sliceDeadlineMs, '(a) posts');
      const ended = monotonicMs();
      const used = process.cpuUsage(cpu);
      if (failures === 0) await withDeadline(reached, 5_000, '(a) arrivals at the sink');
      await collectInto(sink, tally);
      return { count: n - failures, ms: ended - started, failures, cpuUs: used.user + used.system };
    },
    async paced(n, rate) {
      await sink.expect(n, { secret, verifyEvery });
      const ready = new Map<string, number>();
      let failures = 0;
      await withDeadline(
        openLoop(n, rate, async () => {
          const at = monotonicMs();
          const { eventId, ok } = await postOne();
          ready.set(eventId, at);
          if (!ok) failures += 1;
        }),
        sliceDeadlineMs,
        '(a) paced posts',
      );
      const { delays, missing } = delaysOf(ready, await collectInto(sink, tally));
      return { delays, failures: failures + missing };
    },
  };
}

/** (b): outbox → fan-out → dispatcher → sink, recorded in the database. */
function realSide(ctx: MeasureContext, sink: Sink, tally: SinkTally, dispatcher: Dispatcher, partnerId: string, secret: string, emitters: number): Side {
  const { db, services } = ctx;
  async function emitOne(): Promise<{ eventId: string; committedAt: number }> {
    const event = await db.transaction((tx) => services.outbox.emit(tx, businessLookupCompleted, { partnerId, payload: lookupPayload(partnerId) }));
    return { eventId: event.id, committedAt: monotonicMs() };
  }
  /** Resolves with the moment the poll that first saw no PENDING notification was sent. */
  async function allRecorded(): Promise<number> {
    for (;;) {
      const sent = monotonicMs();
      const [row] = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM webhook_notifications WHERE status = 'PENDING'`);
      if (row!.n === 0) return sent;
      await sleep(1);
    }
  }
  async function emitMany(n: number): Promise<{ first: number; last: number }> {
    let next = 0;
    let first = Number.POSITIVE_INFINITY;
    const lane = async () => {
      while (next < n) {
        next += 1;
        const { committedAt } = await emitOne();
        if (committedAt < first) first = committedAt;
      }
    };
    await withDeadline(Promise.all(Array.from({ length: emitters }, lane)), sliceDeadlineMs, '(b) emitting');
    return { first, last: monotonicMs() };
  }
  /** Waits for the sink to have every event, then for every outcome to be recorded. */
  async function settle(reached: Promise<number>, what: string): Promise<number> {
    await withDeadline(reached, sliceDeadlineMs, `${what}: arrivals at the sink`);
    return withDeadline(allRecorded(), sliceDeadlineMs, `${what}: outcomes recorded`);
  }
  return {
    async burst(n) {
      const { reached } = await sink.expect(n, { secret, verifyEvery });
      dispatcher.start();
      try {
        const cpu = process.cpuUsage();
        const commits = await emitMany(n);
        const recorded = await settle(reached, '(b)');
        const used = process.cpuUsage(cpu);
        emitted.push({ count: n, ms: commits.last - commits.first });
        await collectInto(sink, tally);
        return { count: n, ms: recorded - commits.first, failures: 0, cpuUs: used.user + used.system };
      } finally {
        await dispatcher.stop(5_000);
      }
    },
    async drain(n, around) {
      const { reached } = await sink.expect(n, { secret, verifyEvery });
      await emitMany(n);
      const out = await around(async () => {
        const cpu = process.cpuUsage();
        const started = monotonicMs();
        dispatcher.start();
        try {
          const recorded = await settle(reached, '(b) drain');
          const used = process.cpuUsage(cpu);
          return { count: n, ms: recorded - started, failures: 0, cpuUs: used.user + used.system };
        } finally {
          await dispatcher.stop(5_000);
        }
      });
      await collectInto(sink, tally);
      return out;
    },
    async paced(n, rate) {
      const { reached } = await sink.expect(n, { secret, verifyEvery });
      dispatcher.start();
      try {
        const ready = new Map<string, number>();
        await withDeadline(
          openLoop(n, rate, async () => {
            const { eventId, committedAt } = await emitOne();
            ready.set(eventId, committedAt);
          }),
          sliceDeadlineMs,
          '(b) paced emitting',
        );
        await settle(reached, '(b) paced');
        const { delays, missing } = delaysOf(ready, await collectInto(sink, tally));
        return { delays, failures: missing };
      } finally {
        await dispatcher.stop(5_000);
      }
    },
  };
}

/** (b)'s emission, per throughput slice: to tell a slow dispatcher from slow emitters. */
const emitted: Array<{ count: number; ms: number }> = [];

const description = 'Webhook notifications/s: outbox.emit + dispatcher (claim, sign, POST, record) vs the deliverer posting signed bodies alone';

export default defineScenario({
  kind: 'measured',
  name: 'webhook-delivery',
  description,
  // (b) pays per notification a share of a claim and of a recording statement, and opening the sealed
  // secret, where (a) only signs and posts; the goal asks for at least half of (a)'s rate. The delay
  // has no goal, only figures.
  goals: { postgres: { minThroughputRatio: 0.5 } },
  async measure(ctx) {
    const { settings, services, db } = ctx;
    const loadBefore = loadAverage();
    emitted.length = 0;
    const sink = await startSink();
    const deliverer = createDeliverer({ environment: 'sandbox' });
    try {
      const partner = await ctx.partner({ name: 'Webhook bench partner' });
      const url = await services.destinations.checkUrl(sink.url);
      const destination = await db.transaction((tx) => services.destinations.create(tx, tenantOf(partner.partnerId), { url, categories: ['BUSINESS_LOOKUPS'] }));
      if (!destination.secret) throw new Error('the new destination came without its secret');
      const dispatcher = services.createDispatcher();
      const tallies = { a: newTally(), b: newTally() };
      const sides = {
        a: baselineSide(sink, tallies.a, deliverer, partner.partnerId, defaultMaxInFlight),
        b: realSide(ctx, sink, tallies.b, dispatcher, partner.partnerId, destination.secret, settings.webhookEmitters),
      };

      const slices = settings.slices;
      const perSlice = Math.max(1, Math.ceil(settings.webhookEvents / slices));
      const pacedPerSlice = Math.max(1, Math.round((settings.webhookRate * settings.seconds) / slices));
      const orderOf = (i: number) => (i % 2 === 0 ? (['a', 'b'] as const) : (['b', 'a'] as const));

      if (settings.warmupSeconds > 0) {
        const warm = Math.max(1, Math.round(500 * settings.warmupSeconds));
        ctx.progress(`warm-up, ${warm} notifications each…`);
        for (const which of ['a', 'b'] as const) await sides[which].burst(warm);
        emitted.length = 0;
        Object.assign(tallies.a, newTally());
        Object.assign(tallies.b, newTally());
      }

      const runs = { a: [] as RawRun[], b: [] as RawRun[] };
      const failures = { a: 0, b: 0 };
      ctx.progress(`throughput, ${perSlice * slices} notifications each in ${slices} slice(s)…`);
      for (let i = 0; i < slices; i++) {
        for (const which of orderOf(i)) {
          const out =
            which === 'a'
              ? await ctx.profile(`a-${i + 1}`, () => sides.a.burst(perSlice))
              : await sides.b.drain!(perSlice, (measure) => ctx.profile(`b-${i + 1}`, measure));
          failures[which] += out.failures;
          runs[which].push({ count: out.count, seconds: out.ms / 1000, latencies: new Float64Array(0), unexpectedStatus: {}, errors: out.failures, timeouts: 0, serverCpuUs: out.cpuUs });
        }
      }
      // Not a goal: the whole path with each event's own emitting transaction in the timing.
      ctx.progress(`(b) with emission, ${perSlice * slices} notifications in ${slices} slice(s)…`);
      const withEmission = { count: 0, ms: 0, cpuUs: 0 };
      for (let i = 0; i < slices; i++) {
        const out = await sides.b.burst(perSlice);
        withEmission.count += out.count;
        withEmission.ms += out.ms;
        withEmission.cpuUs += out.cpuUs;
      }
      ctx.progress(`delay at ${settings.webhookRate} events/s, ${pacedPerSlice * slices} events each in ${slices} slice(s)…`);
      for (let i = 0; i < slices; i++) {
        for (const which of orderOf(i)) {
          const out = await sides[which].paced(pacedPerSlice, settings.webhookRate);
          // Latencies only: the throughput and CPU figures come from the throughput phase.
          runs[which].push({ count: 0, seconds: 0, latencies: out.delays, unexpectedStatus: {}, errors: out.failures, timeouts: 0, serverCpuUs: 0 });
        }
      }

      // (b) must have delivered every notification exactly once, each recorded, each signed right.
      const [totals] = await db.query<{ delivered: number; other: number; attempts: number }>(
        `SELECT count(*) FILTER (WHERE status = 'DELIVERED')::int AS delivered, count(*) FILTER (WHERE status <> 'DELIVERED')::int AS other,
                (SELECT count(*)::int FROM webhook_attempts) AS attempts
         FROM webhook_notifications`,
      );
      const a = summarize(runs.a);
      const b = summarize(runs.b);
      const result = scenarioResult(description, a, b, ctx.goal);
      const emittedCount = emitted.reduce((n, e) => n + e.count, 0);
      const emittedMs = emitted.reduce((n, e) => n + e.ms, 0);
      if (totals!.other > 0) result.problems.push(`(b): ${totals!.other} notifications not DELIVERED`);
      if (totals!.attempts !== totals!.delivered) result.problems.push(`(b): ${totals!.attempts} attempts for ${totals!.delivered} delivered notifications`);
      for (const which of ['a', 'b'] as const) {
        const t = tallies[which];
        if (t.duplicates) result.problems.push(`(${which}): the sink received ${t.duplicates} duplicate deliveries`);
        if (t.badSignatures.length) result.problems.push(`(${which}): bad signatures at the sink, e.g. ${t.badSignatures.slice(0, 2).join('; ')}`);
        if (t.verified === 0) result.problems.push(`(${which}): the sink checked no signature`);
      }
      const emissionRate = (withEmission.count / withEmission.ms) * 1000;
      const bodyBytes = (t: SinkTally) => (t.arrivals ? round1(t.bytes / (t.arrivals + t.duplicates)) : null);
      return {
        ...result,
        labels: { throughput: 'notif/s', p50: 'delay p50 ms', p99: 'delay p99 ms', cpu: 'CPU µs/notif' },
        notes: [
          `notif/s: ${perSlice * slices} notifications per server, ${defaultMaxInFlight} in flight; (b) claims, signs, posts and records a committed backlog,`,
          `  from the dispatcher's start until the last outcome is recorded.`,
          `sink: (a) ${tallies.a.verified} / (b) ${tallies.b.verified} signatures checked (${tallies.a.badSignatures.length + tallies.b.badSignatures.length} bad), ${tallies.a.duplicates + tallies.b.duplicates} duplicates, ${bodyBytes(tallies.a)} / ${bodyBytes(tallies.b)} body bytes per notification.`,
          `(b) with emission (each event its own transaction, ${settings.webhookEmitters} emitting at once, ${round1((emittedCount / emittedMs) * 1000)} events/s committed): ${round1(emissionRate)} notif/s (${round3(emissionRate / a.rps)}× (a)), ${round1(withEmission.cpuUs / withEmission.count)} µs CPU/notif.`,
          `delay: at ${settings.webhookRate} events/s, from (a) the POST's start / (b) the COMMIT's acknowledgement to the request's arrival at the sink.`,
          `CPU: this process per notification in the throughput phase. Load average ${loadBefore.join(' ')} → ${loadAverage().join(' ')}.`,
        ],
        details: {
          notificationsPerServer: perSlice * slices,
          maxInFlight: defaultMaxInFlight,
          emitters: settings.webhookEmitters,
          emittedPerSecond: round1((emittedCount / emittedMs) * 1000),
          withEmission: {
            notifications: withEmission.count,
            seconds: round3(withEmission.ms / 1000),
            notificationsPerSecond: round1(emissionRate),
            ratioToBaseline: round3(emissionRate / a.rps),
            cpuUsPerNotification: round1(withEmission.cpuUs / withEmission.count),
          },
          paced: { eventsPerSecond: settings.webhookRate, eventsPerServer: pacedPerSlice * slices },
          database: totals,
          deliveryFailures: failures,
          sink: { a: { ...tallies.a, bytesPerNotification: bodyBytes(tallies.a) }, b: { ...tallies.b, bytesPerNotification: bodyBytes(tallies.b) } },
          loadAverageBefore: loadBefore,
          loadAverageAfter: loadAverage(),
        },
      };
    } finally {
      await deliverer.close();
      await sink.close();
    }
  },
});
