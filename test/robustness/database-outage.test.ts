// PostgreSQL going away mid-traffic, and coming back. The whole service runs in-process (API, worker,
// dispatcher) on a database reached through a TCP proxy the test cuts: every open connection closed,
// every new one refused, for 12 s while partners keep calling. During the cut every call must answer 503
// problem+json SERVICE_UNAVAILABLE with Retry-After promptly, /ready 503 and /health 200. After the
// restore, with no restart: every lookup accepted (202) before, during or after the outage has its
// event delivered to the partner's receiver exactly once, and no job spent an attempt on the outage.
// PostgreSQL only: PGlite is in-process and cannot become unreachable.
import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { it } from 'node:test';
import { openPostgres } from '../../src/platform/db/postgres.ts';
import { isValidAcn } from '../../src/platform/business-numbers.ts';
import { abnOfAcn } from '../../src/providers/register/sandbox/sandbox-model.ts';
import { abnNotOnRegister, abnRegisterUnavailable, abnTransientlyUnavailable, tableBusinesses, tableCompaniesByAbn } from '../../src/providers/register/sandbox/sandbox-table.ts';
import { createTestContext } from '../helpers/context.ts';
import { backend, createTestDatabase } from '../helpers/database.ts';
import { startReceiver } from '../helpers/receiver.ts';
import { startTcpProxy } from '../helpers/tcp-proxy.ts';
import type { Registers } from '../../src/providers/register/index.ts';

const skip = backend === 'postgres' ? false : 'PostgreSQL only (TEST_DATABASE=postgres): embedded PGlite runs in-process and cannot become unreachable';

/** Events committed (and mostly delivered) before the database goes. */
const eventsBeforeCut = 1_000;
/** Before the cut, callers wait while more accepted lookups than this are not yet delivered. */
const backlogLimit = 150;
const cutMs = 12_000;
const lanes = 4;
/** A call that takes longer than this during the outage is hanging, not failing fast. */
const promptMs = 10_000;

const special = new Set<string>([abnNotOnRegister, abnRegisterUnavailable, abnTransientlyUnavailable, ...tableBusinesses.keys(), ...tableCompaniesByAbn.keys()]);
let nextTail = 123_400_000;
/** A sole trader's ABN, different each call: the sandbox answers it at once, so its lookup completes. */
function businessAbn(): string {
  for (;;) {
    const tail = String(nextTail++);
    const abn = abnOfAcn(tail);
    if (!isValidAcn(tail) && !special.has(abn)) return abn;
  }
}

interface Call {
  startedAt: number;
  ms: number;
  status: number;
  lookupId?: string;
  code?: string;
  contentType?: string;
  retryAfter?: string;
}

async function until(what: string, condition: () => Promise<boolean> | boolean, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

it('answers 503 fast while PostgreSQL is cut, and delivers every accepted event exactly once after it returns', { skip, timeout: 150_000 }, async (test) => {
  const direct = await createTestDatabase();
  const target = new URL(direct.url!);
  const proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
  const served = openPostgres(proxy.urlFor(direct.url!), { max: 10 });
  // Around the cut the ABN register holds two lookups' handlers mid-job until the database is gone, so
  // that some handler is surely running when it goes (however quickly the worker kept up before): the path
  // that holds a job's outcome, or gives the job back uncounted, must run. Only two, so that the worker's
  // other slots go on settling lookups and their events are being delivered when it goes too (the
  // receiver holds its answers meanwhile): the path that holds a delivery's outcome must run as well.
  let registerGate: Promise<void> | undefined;
  let held = 0;
  const gated = (registers: Registers): Registers => ({
    ...registers,
    abn: {
      ...registers.abn,
      findByAbn: async (abn) => {
        if (registerGate && held < 2) {
          held++;
          await registerGate;
        }
        return registers.abn.findByAbn(abn);
      },
    },
  });
  const t = await createTestContext({
    wrapRegisters: gated,
    database: { db: served, url: proxy.urlFor(direct.url!), drop: async () => served.close() },
    env: { RATE_LIMIT_BURST: '1000000', RATE_LIMIT_PER_SECOND: '1000000', JOB_POLL_MILLISECONDS: '100' },
  });
  const receiver = await startReceiver();
  const worker = t.services.createWorker();
  const dispatcher = t.services.createDispatcher();
  test.after(async () => {
    await worker.stop(2_000);
    await dispatcher.stop(2_000);
    await receiver.close();
    await t.close();
    await proxy.close();
    await direct.drop();
  });

  const partner = await t.f.partner();
  // What is still to do, read past the proxy: lookups not yet settled, notifications not yet delivered.
  const backlog = async () =>
    (
      await direct.db.query<{ lookups: number; notifications: number }>(
        `SELECT (SELECT count(*)::int FROM business_lookups WHERE partner_id = $1 AND status = 'PENDING') AS lookups,
           (SELECT count(*)::int FROM webhook_notifications WHERE partner_id = $1 AND status <> 'DELIVERED') AS notifications`,
        [partner.partnerId],
      )
    )[0]!;
  const created = await t.app.inject({
    method: 'POST',
    url: '/v1/webhook-destinations',
    headers: partner.headers,
    payload: { url: receiver.url, categories: ['BUSINESS_LOOKUPS'] },
  });
  assert.equal(created.statusCode, 201, created.body);
  receiver.setSecret(created.json<{ secret: string }>().secret);
  // The receiver answers at once, except that around the cut it holds its answers back until the database
  // is gone: those deliveries reached the partner, and the dispatcher must keep their outcomes until it
  // can record them rather than send them again.
  const answered: number[] = [];
  let holding: Array<() => void> | undefined;
  receiver.respond((delivery, res) => {
    const answer = () => {
      res.writeHead(delivery.verified.ok ? 200 : 401).end();
      answered.push(performance.now());
    };
    if (holding) holding.push(answer);
    else answer();
  });
  worker.start();
  dispatcher.start();

  // Partners' traffic: `lanes` callers posting lookups back to back (paced a little while refused).
  // Before the cut they keep the backlog short, so that what was accepted is mostly events already
  // committed, many delivered, some in flight, when the database goes.
  const calls: Call[] = [];
  const accepted = new Set<string>();
  let running = true;
  let cutting = false;
  async function lane() {
    while (running) {
      if (!cutting && accepted.size - receiver.received.length > backlogLimit) {
        await sleep(10);
        continue;
      }
      const startedAt = performance.now();
      const res = await t.app.inject({ method: 'POST', url: '/v1/business-lookups', headers: partner.headers, payload: { abn: businessAbn() } });
      const call: Call = { startedAt, ms: performance.now() - startedAt, status: res.statusCode, contentType: String(res.headers['content-type']) };
      if (res.statusCode === 202) {
        call.lookupId = res.json<{ lookupRequestId: string }>().lookupRequestId;
        accepted.add(call.lookupId);
      } else {
        call.code = res.json<{ code: string }>().code;
        call.retryAfter = res.headers['retry-after'] as string | undefined;
        await sleep(25);
      }
      calls.push(call);
    }
  }
  const traffic = Array.from({ length: lanes }, () => lane());

  await until(`${eventsBeforeCut} events delivered`, () => receiver.received.length >= eventsBeforeCut, 60_000);
  holding = [];
  let openGate = () => {};
  registerGate = new Promise((resolve) => (openGate = resolve));
  await sleep(1_000);
  cutting = true;
  const acceptedBefore = accepted.size;
  const cutAt = performance.now();
  proxy.cut();
  setTimeout(() => {
    registerGate = undefined;
    openGate();
  }, 200);
  const backlogAtCut = await backlog();
  const committedBeforeCut = await direct.db.query<{ id: string }>(`SELECT id FROM events WHERE partner_id = $1 AND category = 'BUSINESS_LOOKUPS'`, [partner.partnerId]);
  await sleep(500);
  const heldAnswers = holding;
  holding = undefined;
  for (const answer of heldAnswers) answer();
  const probes: Array<{ ready: number; health: number; readyMs: number }> = [];
  for (const at of [1_000, cutMs / 2, cutMs - 1_000]) {
    await sleep(Math.max(0, cutAt + at - performance.now()));
    const readyStart = performance.now();
    const ready = await t.app.inject({ method: 'GET', url: '/ready' });
    const readyMs = performance.now() - readyStart;
    const health = await t.app.inject({ method: 'GET', url: '/health' });
    probes.push({ ready: ready.statusCode, health: health.statusCode, readyMs });
  }
  await sleep(Math.max(0, cutAt + cutMs - performance.now()));
  const backlogAtRestore = await backlog();
  const restoredAt = performance.now();
  proxy.restore();

  await until('50 lookups accepted after the restore', () => calls.filter((c) => c.startedAt > restoredAt && c.status === 202).length >= 50, 30_000);
  running = false;
  await Promise.all(traffic);
  const firstAcceptedAfter = Math.min(...calls.filter((c) => c.startedAt > restoredAt && c.status === 202).map((c) => c.startedAt + c.ms));

  // Every accepted lookup settled, every notification delivered, checked on the database directly.
  const db = direct.db;
  const countOf = async (sql: string) => (await db.query<{ n: number }>(sql, [partner.partnerId]))[0]!.n;
  await until(
    'every lookup settled and every notification delivered',
    async () =>
      (await countOf(`SELECT count(*)::int AS n FROM business_lookups WHERE partner_id = $1 AND status = 'PENDING'`)) === 0 &&
      (await countOf(`SELECT count(*)::int AS n FROM webhook_notifications WHERE partner_id = $1 AND status <> 'DELIVERED'`)) === 0,
    90_000,
  );
  const settledAt = performance.now();
  // A delivery sent twice would arrive within moments of the first recorded outcome; give it the chance.
  await sleep(500);

  // The calls: only 202 or 503, every one of the outage a prompt problem+json with Retry-After.
  const during = calls.filter((c) => c.startedAt >= cutAt && c.startedAt + c.ms <= restoredAt);
  const refused = calls.filter((c) => c.status !== 202);
  assert.deepEqual([...new Set(calls.map((c) => c.status))].sort(), [202, 503]);
  assert.ok(during.length > 100, `traffic continued during the cut (${during.length} calls)`);
  assert.deepEqual([...new Set(during.map((c) => c.status))], [503], 'every call during the cut answers 503');
  for (const c of refused) {
    assert.match(c.contentType ?? '', /^application\/problem\+json/);
    assert.equal(c.code, 'SERVICE_UNAVAILABLE');
    assert.equal(c.retryAfter, '5');
  }
  const deliveredBeforeCut = answered.filter((at) => at <= cutAt).length;
  const slowest503 = Math.max(...refused.map((c) => c.ms));
  assert.ok(slowest503 < promptMs, `a 503 took ${Math.round(slowest503)} ms`);
  for (const p of probes) {
    assert.equal(p.ready, 503, '/ready answers 503 while the database is away');
    assert.equal(p.health, 200, '/health stays 200');
  }

  // Exactly once: every committed event, and so every accepted lookup, arrived once; nothing twice.
  const received = receiver.received.map((r) => r.body as { eventId: string; type: string; lookupRequestId: string });
  assert.ok(receiver.received.every((r) => r.verified.ok), 'every delivery verifies');
  const byEvent = new Map<string, number>();
  for (const r of received) byEvent.set(r.eventId, (byEvent.get(r.eventId) ?? 0) + 1);
  const duplicates = [...byEvent.values()].filter((n) => n > 1).length;
  const events = await db.query<{ id: string }>(`SELECT id FROM events WHERE partner_id = $1 AND category = 'BUSINESS_LOOKUPS'`, [partner.partnerId]);
  const lookupsDelivered = new Set(received.map((r) => r.lookupRequestId));
  const missing = [...accepted].filter((id) => !lookupsDelivered.has(id));
  const attempts = await db.query<{ attempts: number; n: number }>(
    `SELECT attempts, count(*)::int AS n FROM jobs WHERE kind = 'lookups.process' AND status = 'SUCCEEDED' GROUP BY attempts ORDER BY attempts`,
  );
  const webhookAttempts = await countOf(
    'SELECT count(*)::int AS n FROM webhook_attempts a JOIN webhook_notifications n ON n.id = a.notification_id WHERE n.partner_id = $1',
  );

  const logs = t.logs;
  const dispatcherPaused = 'database unavailable: webhook dispatcher stopped claiming and keeps its outcomes until it is back';
  const logged = (msg: string) => logs.filter((l) => l.msg === msg).length;
  // Deliveries the receiver answered while the database was away: their outcomes had to be kept.
  const answeredDuringCut = answered.filter((at) => at > cutAt && at < restoredAt).length;
  const figures = {
    eventsCommittedBeforeCut: committedBeforeCut.length,
    deliveredBeforeCut,
    eventsCommitted: events.length,
    acceptedBeforeCut: acceptedBefore,
    acceptedInAll: accepted.size,
    eventsDelivered: received.length,
    distinctEventsDelivered: byEvent.size,
    duplicateDeliveries: duplicates,
    acceptedWithoutEvent: missing.length,
    cutSeconds: Math.round((restoredAt - cutAt) / 100) / 10,
    callsDuringCut: during.length,
    answered503: refused.length,
    slowest503Ms: Math.round(slowest503),
    readyDuringCutMs: probes.map((p) => Math.round(p.readyMs)),
    firstAcceptedAfterRestoreMs: Math.round(firstAcceptedAfter - restoredAt),
    allDeliveredAfterRestoreMs: Math.round(settledAt - restoredAt),
    lookupJobsByAttempts: Object.fromEntries(attempts.map((a) => [a.attempts, a.n])),
    webhookAttempts,
    connectionsRefusedByProxy: proxy.refused,
    backlogAtCut,
    backlogAtRestore,
    deliveriesAnsweredDuringCut: answeredDuringCut,
    jobOutcomesHeld: logged('database unavailable: job outcome held until it is back'),
  };
  test.diagnostic(`database outage: ${JSON.stringify(figures)}`);

  assert.ok(answeredDuringCut > 0, 'deliveries were answered during the cut (the held-outcome path ran)');
  assert.ok(logged('database unavailable: job outcome held until it is back') > 0, 'handlers failed for the outage (the held-release path ran)');
  assert.ok(committedBeforeCut.length >= eventsBeforeCut, `${committedBeforeCut.length} events committed before the cut`);
  assert.ok(
    committedBeforeCut.every((e) => byEvent.get(e.id) === 1),
    'every event committed before the outage delivered exactly once',
  );
  assert.equal(missing.length, 0, `accepted lookups without a delivered event: ${missing.slice(0, 5).join(', ')}`);
  assert.equal(duplicates, 0, 'no event delivered twice');
  assert.equal(byEvent.size, events.length, 'every committed event delivered');
  assert.ok(events.every((e) => byEvent.get(e.id) === 1), 'every committed event delivered exactly once');
  assert.ok(events.length >= accepted.size, 'an event per accepted lookup (a 503 whose commit landed may add one)');
  assert.equal(webhookAttempts, events.length, 'one attempt per notification: no delivery was made twice');
  assert.deepEqual(
    attempts.map((a) => a.attempts),
    [1],
    'no lookup job spent an attempt on the outage',
  );

  // One line each when the database went and came back; the worker and the dispatcher stopped claiming.
  assert.equal(logged('database unavailable: calls fail at once (503) until it answers again'), 1);
  assert.equal(logged('database available again'), 1);
  assert.equal(logged('database unavailable: worker stopped claiming and backs off until it is back'), 1);
  assert.equal(logged(dispatcherPaused), 1);
  assert.equal(logged('worker poll failed'), 0);
  assert.equal(logged('webhook claim failed'), 0);
  assert.equal(logged('rate-limit counters unreachable (PostgreSQL): rate limits are per node until it returns'), 1);
  assert.equal(logged('rate-limit counters reachable again (PostgreSQL): rate limits are shared across nodes again'), 1);
});
