// The database going away at the worst moments, on PGlite and PostgreSQL alike: a connection the test
// breaks (helpers/faulty-database.ts) under the whole service. While it is away calls answer 503 at
// once, /ready 503 and /health 200, with one log line when it goes and one when it is back; a job whose
// handler failed for it keeps its attempt, a claim whose answer was lost is given back, and a delivery
// that reached its receiver is recorded when the database returns instead of being sent again.
import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { DatabaseUnavailableError, type Database } from '../../src/platform/db/database.ts';
import type { JobRow } from '../../src/platform/jobs/jobs.repository.ts';
import type { Registers } from '../../src/providers/register/index.ts';
import { createTestContext, type TestContext, type TestPartner } from '../helpers/context.ts';
import { createTestDatabase } from '../helpers/database.ts';
import { faultyDatabase, type FaultyDatabase } from '../helpers/faulty-database.ts';
import { startReceiver, type Receiver } from '../helpers/receiver.ts';

let t: TestContext;
let db: FaultyDatabase;
/** The same database past the faults and the service's guard: what the test reads with. */
let raw: Database;
let partner: TestPartner;
let receiver: Receiver;
/** While set, the ABN register waits for it: a lookup's handler stands still mid-job. */
let registerGate: Promise<void> | undefined;

const gated = (registers: Registers): Registers => ({
  ...registers,
  abn: {
    ...registers.abn,
    findByAbn: async (abn) => {
      await registerGate;
      return registers.abn.findByAbn(abn);
    },
  },
});

before(async () => {
  const base = await createTestDatabase();
  raw = base.db;
  db = faultyDatabase(base.db);
  t = await createTestContext({ database: { db, url: base.url, drop: () => base.drop() }, wrapRegisters: gated, env: { RATE_LIMIT_BURST: '100000' } });
  partner = await t.f.partner();
  receiver = await startReceiver();
  const created = await t.app.inject({ method: 'POST', url: '/v1/webhook-destinations', headers: partner.headers, payload: { url: receiver.url, categories: ['BUSINESS_LOOKUPS'] } });
  assert.equal(created.statusCode, 201, created.body);
  receiver.setSecret(created.json<{ secret: string }>().secret);
});
after(async () => {
  db.restore();
  await receiver.close();
  await t.close();
});

const logged = (msg: string) => t.logs.filter((l) => l.msg === msg).length;
const wentDown = 'database unavailable: calls fail at once (503) until it answers again';
const cameBack = 'database available again';

async function until(what: string, condition: () => Promise<boolean> | boolean, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

async function postLookup(abn: string) {
  return t.app.inject({ method: 'POST', url: '/v1/business-lookups', headers: partner.headers, payload: { abn } });
}

async function lookupJob(lookupId: string): Promise<JobRow> {
  const [job] = await raw.query<JobRow>(`SELECT * FROM jobs WHERE kind = 'lookups.process' AND payload->>'lookupId' = $1`, [lookupId]);
  assert.ok(job, `the job of lookup ${lookupId}`);
  return job;
}

/** Sole traders' ABNs the sandbox answers at once (valid check digits, not one of its test values). */
const abns = { first: '89987654000', handlerFails: '70987654001', claimLost: '51987654002', deliveryHeld: '32987654003' };

/** Restores the database and waits until the service sees it back. */
async function restored() {
  db.restore();
  await until('the service to see the database back', () => t.app.inject({ method: 'GET', url: '/ready' }).then((r) => r.statusCode === 200));
}

const deliveriesOf = (lookupId: string) => receiver.received.filter((r) => r.body.lookupRequestId === lookupId);

describe('while the database is away', () => {
  it('answers calls 503 problem+json at once, /ready 503 and /health 200, and logs one line each way', async () => {
    const downBefore = logged(wentDown);
    const backBefore = logged(cameBack);
    db.cut();
    const calls = [];
    for (let i = 0; i < 20; i++) {
      const started = performance.now();
      const res = await postLookup(abns.first);
      calls.push({ res, ms: performance.now() - started });
    }
    for (const { res, ms } of calls) {
      assert.equal(res.statusCode, 503, res.body);
      assert.match(String(res.headers['content-type']), /^application\/problem\+json/);
      assert.equal(res.json<{ code: string }>().code, 'SERVICE_UNAVAILABLE');
      assert.equal(res.headers['retry-after'], '5');
      assert.ok(ms < 5_000, `a 503 took ${Math.round(ms)} ms`);
    }
    // Known to be down: the guard refuses without trying.
    await assert.rejects(t.services.db.query('SELECT 1'), DatabaseUnavailableError);
    assert.equal((await t.app.inject({ method: 'GET', url: '/ready' })).statusCode, 503);
    assert.equal((await t.app.inject({ method: 'GET', url: '/health' })).statusCode, 200);
    assert.equal(logged(wentDown), downBefore + 1);

    await restored();
    assert.equal(logged(cameBack), backBefore + 1);
    assert.equal(logged(wentDown), downBefore + 1);
    assert.equal((await postLookup(abns.first)).statusCode, 202);
  });
});

describe('the worker', () => {
  it('gives back uncounted a job whose handler failed for the outage, and runs it once the database is back', async () => {
    const worker = t.services.createWorker();
    let open!: () => void;
    registerGate = new Promise((resolve) => (open = resolve));
    try {
      const res = await postLookup(abns.handlerFails);
      assert.equal(res.statusCode, 202, res.body);
      const lookupId = res.json<{ lookupRequestId: string }>().lookupRequestId;
      worker.start();
      await until('the handler to start', async () => (await lookupJob(lookupId)).status === 'RUNNING');

      db.cut();
      open(); // the handler goes on, and its completion meets a database that is gone
      await until('the worker to stop claiming', () => logged('database unavailable: worker stopped claiming and backs off until it is back') > 0);
      assert.ok(logged('database unavailable: job outcome held until it is back') >= 1, 'the release was held');
      await sleep(1_500);
      await restored();

      await until('the lookup to complete', async () => (await lookupJob(lookupId)).status === 'SUCCEEDED');
      const job = await lookupJob(lookupId);
      assert.equal(job.attempts, 1, 'the outage cost no attempt');
      await t.services.createDispatcher().drain();
      assert.equal(deliveriesOf(lookupId).length, 1);
      assert.ok(logged('worker claiming again: the database is back') >= 1, 'the worker says it resumed');
    } finally {
      registerGate = undefined;
      open?.();
      await worker.stop(1_000);
      await restored();
    }
  });

  it('gives back the jobs of a claim whose answer was lost, without waiting for their lease', async () => {
    const worker = t.services.createWorker();
    try {
      const res = await postLookup(abns.claimLost);
      assert.equal(res.statusCode, 202, res.body);
      const lookupId = res.json<{ lookupRequestId: string }>().lookupRequestId;
      const lost = db.loseAnswerOnce((sql, params) => /UPDATE jobs SET status = 'RUNNING'/.test(sql) && params[0] === 'lookups.process');
      worker.start();
      await lost;
      // The claim committed; the worker never saw its jobs. The lease is a minute: well past this wait.
      await until('the lookup to complete', async () => (await lookupJob(lookupId)).status === 'SUCCEEDED', 10_000);
      assert.equal((await lookupJob(lookupId)).attempts, 1);
      assert.equal(logged('jobs claimed as the database went away given back uncounted'), 1);
    } finally {
      await worker.stop(1_000);
      await restored();
    }
  });
});

describe('the dispatcher', () => {
  it('keeps the outcome of a delivery made as the database went, and records it when it is back: sent once', async () => {
    const worker = t.services.createWorker();
    const res = await postLookup(abns.deliveryHeld);
    assert.equal(res.statusCode, 202, res.body);
    const lookupId = res.json<{ lookupRequestId: string }>().lookupRequestId;
    await worker.drain();
    await worker.stop(1_000);

    // The receiver gets the delivery, and the database goes before it answers.
    receiver.respond((_delivery, response) => {
      db.cut();
      setTimeout(() => response.writeHead(200).end('ok'), 50);
    });
    const dispatcher = t.services.createDispatcher();
    try {
      dispatcher.start();
      await until('the delivery', () => deliveriesOf(lookupId).length === 1);
      await until('the dispatcher to stop claiming', () => logged('database unavailable: webhook dispatcher stopped claiming and keeps its outcomes until it is back') > 0);
      receiver.respond((_delivery, response) => response.writeHead(200).end('ok'));
      await sleep(1_500);
      await restored();
      await until('the outcome to be recorded', async () => {
        const [n] = await raw.query<{ status: string; attempts: number }>(
          'SELECT n.status, n.attempts FROM webhook_notifications n JOIN events e ON e.id = n.event_id WHERE e.payload->>\'lookupRequestId\' = $1',
          [lookupId],
        );
        return n?.status === 'DELIVERED' && n.attempts === 1;
      });
      await sleep(500);
      assert.equal(deliveriesOf(lookupId).length, 1, 'delivered once');
    } finally {
      receiver.respond((_delivery, response) => response.writeHead(200).end('ok'));
      await dispatcher.stop(1_000);
      await restored();
    }
  });
});
