// Billing runs left CAPTURING: the gateway is unreachable until the capture job's retries are spent,
// then the hourly sweeper settles the run from the gateway's own record of the attempt's charge.
// Charged → CAPTURED (one gateway charge, never a second); declined → FAILED as the job records it;
// never charged → FAILED `gateway_unavailable` and retried under a new key; gateway still unreachable
// → untouched, one warning per run per sweep. A run whose capture job is still retrying is left to it.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { captureRunJob, gatewayRetry } from '../../src/modules/billing/billing.jobs.ts';
import type { Payer } from '../../src/modules/billing/charges.service.ts';
import { createManualClock } from '../../src/platform/clock.ts';
import { newId } from '../../src/platform/ids.ts';
import { backoffFor } from '../../src/platform/jobs/job.ts';
import { tenantOf } from '../../src/platform/tenancy.ts';
import type { GatewayUnavailable, PaymentGateway } from '../../src/providers/gateway/gateway.ts';
import { billableContact, cards, eventsOf, runDueJobs } from '../helpers/billing.ts';
import { createTestContext, type TestContext, type TestPartner } from '../helpers/context.ts';

const clock = createManualClock(new Date('2026-11-21T09:00:00.000Z'));
const hour = 3600_000;
const sweepAfterHours = 27; // the default of BILLING_SWEEP_AFTER_HOURS

/** What the gateway does now: `lose-answer` charges once and answers unavailable, then is down. */
const gatewayState = { charge: 'up' as 'up' | 'down' | 'lose-answer', find: 'up' as 'up' | 'down' };
const calls: Array<{ op: 'charge' | 'findCharge'; key: string }> = [];
const unavailable: GatewayUnavailable = { ok: false, kind: 'unavailable', message: 'connection refused' };

function controlled(gateway: PaymentGateway): PaymentGateway {
  return {
    ...gateway,
    hostedFields: () => gateway.hostedFields(),
    async charge(input) {
      calls.push({ op: 'charge', key: input.idempotencyKey });
      if (gatewayState.charge === 'down') return unavailable;
      const result = await gateway.charge(input);
      if (gatewayState.charge === 'lose-answer') {
        gatewayState.charge = 'down';
        return unavailable;
      }
      return result;
    },
    async findCharge(input) {
      calls.push({ op: 'findCharge', key: input.idempotencyKey });
      return gatewayState.find === 'down' ? unavailable : gateway.findCharge(input);
    },
  };
}

let t: TestContext;
before(async () => {
  t = await createTestContext({ clock, wrapGateway: controlled });
});
after(() => t.close());

async function charge(partner: TestPartner, contactId: string, product: 'BUSINESS_LOOKUP_FULL' | 'DEED_ANALYSIS' = 'BUSINESS_LOOKUP_FULL') {
  const payer: Payer = await t.services.charges.gate(tenantOf(partner.partnerId), contactId);
  const referenceId = newId('lookup', clock.now().getTime());
  return t.services.db.transaction((tx) => t.services.charges.charge(tx, tenantOf(partner.partnerId), { payer, product, referenceId }));
}

async function run(id: string) {
  const [row] = await t.services.db.query<{ status: string; attempts: number; failure_reason: string | null; next_retry_at: Date | null }>(
    'SELECT status, attempts, failure_reason, next_retry_at FROM billing_runs WHERE id = $1',
    [id],
  );
  return row!;
}

/** The sandbox gateway's charges made under the run's keys. */
async function gatewayCharges(runId: string) {
  return t.services.db.query<{ idempotency_key: string; status: string; amount: number }>(
    `SELECT idempotency_key, status, amount FROM sandbox_gateway_charges WHERE idempotency_key LIKE $1 ORDER BY created_at, id`,
    [`${runId}:%`],
  );
}

const callsFor = (runId: string) => calls.filter((c) => c.key.startsWith(`${runId}:`)).map((c) => `${c.op} ${c.key.slice(runId.length + 1)}`);

async function billingEvents(partner: TestPartner) {
  return (await eventsOf(t, partner.partnerId, 'contact.billing')).map((e) => [e.type, e.payload] as const);
}

function sweeperWarnings(runId: string) {
  return t.logs.filter((l) => l.level === 'warn' && l.billingRunId === runId && String(l.msg).includes('could not be asked'));
}

/**
 * A run whose window closes while the gateway is unreachable: its capture job runs all its attempts,
 * each after the backoff, and gives up with the run CAPTURING. The gateway is as `gatewayState` says.
 */
async function stuckRun(partner: TestPartner, contactId: string, options: { duringFirstAttempt?: () => Promise<void> } = {}): Promise<string> {
  const made = await charge(partner, contactId);
  const runId = made.billingRunId!;
  clock.advance(10_000);
  await runDueJobs(t);
  await options.duringFirstAttempt?.();
  for (let attempt = 1; attempt < gatewayRetry.maxAttempts; attempt++) {
    clock.advance(backoffFor(gatewayRetry, attempt) * 1000);
    await runDueJobs(t);
  }
  const jobs = await t.services.db.query<{ status: string; attempts: number }>(
    `SELECT status, attempts FROM jobs WHERE kind = 'billing.capture-run' AND payload->>'billingRunId' = $1`,
    [runId],
  );
  assert.deepEqual(jobs, [{ status: 'FAILED', attempts: gatewayRetry.maxAttempts }], 'the capture job gave up');
  assert.deepEqual(await run(runId), { status: 'CAPTURING', attempts: 1, failure_reason: null, next_retry_at: null });
  assert.equal(sweeperWarnings(runId).length, 0, 'no sweep looked at it before the threshold');
  return runId;
}

/** Seconds from the attempt's start to the capture job's last attempt: 25 h 42 min 30 s. */
const givenUpAfterSeconds = Array.from({ length: gatewayRetry.maxAttempts - 1 }, (_, i) => backoffFor(gatewayRetry, i + 1)).reduce((a, b) => a + b, 0);

/**
 * On to the first hourly sweep after the run has been capturing for the threshold. An hour at a time,
 * so each drain runs one sweep slot.
 */
async function untilSwept(): Promise<void> {
  const hours = Math.floor((sweepAfterHours * 3600 - givenUpAfterSeconds) / 3600) + 1;
  for (let step = 0; step < hours; step++) {
    clock.advance(hour);
    await runDueJobs(t);
  }
}

describe('a run left capturing after its capture job gave up', () => {
  it('charged at the gateway (the answer was lost): the sweeper records it CAPTURED, and nothing charges it again', async () => {
    const partner = await t.f.partner();
    const buyer = await billableContact(t, partner);
    gatewayState.charge = 'lose-answer';
    gatewayState.find = 'down';
    const runId = await stuckRun(partner, buyer.id);
    assert.deepEqual(await gatewayCharges(runId), [{ idempotency_key: `${runId}:attempt:1`, status: 'succeeded', amount: 1500 }]);
    // The job's retries looked for the charge first and never asked to charge again.
    assert.deepEqual(callsFor(runId), ['charge attempt:1', ...Array(gatewayRetry.maxAttempts - 1).fill('findCharge attempt:1')]);

    gatewayState.charge = 'up';
    gatewayState.find = 'up';
    await untilSwept();
    assert.deepEqual(await run(runId), { status: 'CAPTURED', attempts: 1, failure_reason: null, next_retry_at: null });
    const statuses = await t.services.db.query<{ status: string }>('SELECT status FROM charges WHERE billing_run_id = $1', [runId]);
    assert.deepEqual(statuses, [{ status: 'CAPTURED' }]);
    assert.equal((await t.services.contacts.get(tenantOf(partner.partnerId), buyer.id)).billingStatus, 'BILLABLE');
    const ids = { contactId: buyer.id, channelPartnerId: partner.partnerId, billingRunId: runId };
    assert.deepEqual(await billingEvents(partner), [
      ['contact.billing.run_created', { ...ids, amount: 1500 }],
      ['contact.billing.captured', { ...ids, amount: 1500 }],
    ]);

    // Later sweeps, and a capture job that comes late, find it settled: no second charge, no second event.
    const late = await t.services.db.transaction((tx) => t.services.queue.enqueue(tx, captureRunJob, { billingRunId: runId }, { key: `late:${runId}` }));
    assert.ok(late.created);
    for (let sweep = 0; sweep < 3; sweep++) {
      clock.advance(hour);
      await runDueJobs(t);
    }
    assert.equal((await gatewayCharges(runId)).length, 1, 'one gateway charge, never a second');
    assert.deepEqual(callsFor(runId).slice(gatewayRetry.maxAttempts), ['findCharge attempt:1'], 'the sweeper only looked; the late job asked nothing');
    assert.equal((await billingEvents(partner)).length, 2);
  });

  it('a charge voided while the run was stuck is refunded once the sweeper records the capture, though its refund job gave up', async () => {
    const partner = await t.f.partner();
    const buyer = await billableContact(t, partner);
    gatewayState.charge = 'lose-answer';
    gatewayState.find = 'down';
    const deed = await charge(partner, buyer.id, 'DEED_ANALYSIS');
    const runId = await stuckRun(partner, buyer.id, {
      // The deed analysis fails on our side while the attempt for both charges is out.
      duringFirstAttempt: async () => {
        clock.advance(1000);
        await t.services.db.transaction((tx) =>
          t.services.charges.voidCharge(tx, tenantOf(partner.partnerId), { product: 'DEED_ANALYSIS', referenceId: deed.referenceId, reason: 'FAILED' }),
        );
        await runDueJobs(t); // its refund job's first try: the attempt is out, so it waits
      },
    });
    assert.equal(deed.billingRunId, runId);
    const refundJobs = () =>
      t.services.db.query<{ key: string; status: string }>(`SELECT key, status FROM jobs WHERE kind = 'billing.refund-charge' AND payload->>'chargeId' = $1 ORDER BY created_at, id`, [deed.id]);
    assert.deepEqual(await refundJobs(), [{ key: `refund:${deed.id}`, status: 'FAILED' }], 'it waited for the attempt as long as its retries lasted');

    gatewayState.charge = 'up';
    gatewayState.find = 'up';
    await untilSwept();
    assert.equal((await run(runId)).status, 'CAPTURED');
    assert.deepEqual(await refundJobs(), [
      { key: `refund:${deed.id}`, status: 'FAILED' },
      { key: `refund:${deed.id}:${runId}:attempt:1`, status: 'SUCCEEDED' },
    ]);
    const [paid] = await t.services.db.query<{ amount: number; refunded_amount: number }>(
      'SELECT amount, refunded_amount FROM sandbox_gateway_charges WHERE idempotency_key = $1',
      [`${runId}:attempt:1`],
    );
    assert.deepEqual(paid, { amount: 4000, refunded_amount: 2500 }, 'both charges paid, the voided one given back');
    const [voided] = await t.services.db.query<{ status: string; refund_ref: string | null }>('SELECT status, refund_ref FROM charges WHERE id = $1', [deed.id]);
    assert.equal(voided!.status, 'VOID');
    assert.match(voided!.refund_ref ?? '', /^re_/);
  });

  it('declined at the gateway: the sweeper records the decline as the capture job would', async () => {
    const partner = await t.f.partner();
    const buyer = await billableContact(t, partner, cards.insufficientFunds);
    gatewayState.charge = 'lose-answer';
    gatewayState.find = 'down';
    const runId = await stuckRun(partner, buyer.id);
    gatewayState.charge = 'up';
    gatewayState.find = 'up';
    await untilSwept();
    const sweptAt = clock.now();
    const retryAt = new Date(sweptAt.getTime() + 24 * hour);
    assert.deepEqual(await run(runId), { status: 'FAILED', attempts: 1, failure_reason: 'insufficient_funds', next_retry_at: retryAt });
    assert.equal((await t.services.contacts.get(tenantOf(partner.partnerId), buyer.id)).billingStatus, 'BLOCKED');
    assert.deepEqual((await billingEvents(partner)).at(-1), [
      'contact.billing.failed',
      {
        contactId: buyer.id,
        channelPartnerId: partner.partnerId,
        billingRunId: runId,
        amount: 1500,
        failureReason: 'insufficient_funds',
        merchantAdviceCode: '02',
        nextRetryAt: retryAt.toISOString(),
      },
    ]);
    assert.deepEqual(await gatewayCharges(runId), [{ idempotency_key: `${runId}:attempt:1`, status: 'failed', amount: 1500 }]);
  });

  it('never charged: the sweeper fails the run (gateway_unavailable), and the retry charges under a new key', async () => {
    const partner = await t.f.partner();
    const buyer = await billableContact(t, partner);
    gatewayState.charge = 'down';
    gatewayState.find = 'down';
    const runId = await stuckRun(partner, buyer.id);
    assert.deepEqual(await gatewayCharges(runId), []);

    gatewayState.charge = 'up';
    gatewayState.find = 'up';
    await untilSwept();
    const retryAt = new Date(clock.now().getTime() + 24 * hour);
    assert.deepEqual(await run(runId), { status: 'FAILED', attempts: 1, failure_reason: 'gateway_unavailable', next_retry_at: retryAt });
    const statuses = await t.services.db.query<{ status: string }>('SELECT status FROM charges WHERE billing_run_id = $1', [runId]);
    assert.deepEqual(statuses, [{ status: 'FAILED' }]);
    assert.equal((await t.services.contacts.get(tenantOf(partner.partnerId), buyer.id)).billingStatus, 'BLOCKED');
    const ids = { contactId: buyer.id, channelPartnerId: partner.partnerId, billingRunId: runId };
    assert.deepEqual(await billingEvents(partner), [
      ['contact.billing.run_created', { ...ids, amount: 1500 }],
      ['contact.billing.failed', { ...ids, amount: 1500, failureReason: 'gateway_unavailable', merchantAdviceCode: null, nextRetryAt: retryAt.toISOString() }],
    ]);

    // The retry plan's next attempt is attempt 2, under its own key: a key the gateway never saw.
    clock.advance(24 * hour);
    await runDueJobs(t);
    assert.deepEqual(await run(runId), { status: 'CAPTURED', attempts: 2, failure_reason: null, next_retry_at: null });
    assert.deepEqual(await gatewayCharges(runId), [{ idempotency_key: `${runId}:attempt:2`, status: 'succeeded', amount: 1500 }]);
    assert.deepEqual(callsFor(runId).slice(gatewayRetry.maxAttempts), ['findCharge attempt:1', 'charge attempt:2']);
    assert.equal((await t.services.contacts.get(tenantOf(partner.partnerId), buyer.id)).billingStatus, 'BILLABLE');
    assert.deepEqual((await billingEvents(partner)).at(-1), ['contact.billing.captured', { ...ids, amount: 1500 }]);
  });

  it('the gateway still unreachable: the run is left CAPTURING, with one warning per sweep, until a sweep can look', async () => {
    const partner = await t.f.partner();
    const buyer = await billableContact(t, partner);
    gatewayState.charge = 'lose-answer';
    gatewayState.find = 'down';
    const runId = await stuckRun(partner, buyer.id);
    const eventsBefore = await billingEvents(partner);

    await untilSwept();
    assert.deepEqual(await run(runId), { status: 'CAPTURING', attempts: 1, failure_reason: null, next_retry_at: null });
    assert.equal(sweeperWarnings(runId).length, 1, 'one warning for the run in this sweep');
    assert.equal(sweeperWarnings(runId)[0]!.attempt, 1);
    clock.advance(hour);
    await runDueJobs(t);
    assert.equal(sweeperWarnings(runId).length, 2, 'and one in the next');
    assert.deepEqual(await billingEvents(partner), eventsBefore, 'no event while it cannot be settled');
    assert.equal((await gatewayCharges(runId)).length, 1);

    gatewayState.charge = 'up';
    gatewayState.find = 'up';
    clock.advance(hour);
    await runDueJobs(t);
    assert.equal((await run(runId)).status, 'CAPTURED');
    assert.equal(sweeperWarnings(runId).length, 2);
    assert.equal((await gatewayCharges(runId)).length, 1);
    assert.ok(!callsFor(runId).includes('charge attempt:2') && callsFor(runId).filter((c) => c.startsWith('charge')).length === 1, 'charged once, ever');
  });
});

describe('a run whose capture job is still retrying', () => {
  let early: TestContext;
  before(async () => {
    early = await createTestContext({ clock, wrapGateway: controlled, env: { BILLING_SWEEP_AFTER_HOURS: '1' } });
  });
  after(() => early.close());

  it('is left to its job, however long the threshold has passed: the sweeper does not even look', async () => {
    const partner = await early.f.partner();
    const buyer = await billableContact(early, partner);
    gatewayState.charge = 'down';
    gatewayState.find = 'down';
    const payer: Payer = await early.services.charges.gate(tenantOf(partner.partnerId), buyer.id);
    const made = await early.services.db.transaction((tx) =>
      early.services.charges.charge(tx, tenantOf(partner.partnerId), { payer, product: 'BUSINESS_LOOKUP_FULL', referenceId: newId('lookup', clock.now().getTime()) }),
    );
    const runId = made.billingRunId!;
    clock.advance(10_000);
    await runDueJobs(early);
    for (let hours = 0; hours < 4; hours++) {
      clock.advance(hour);
      await runDueJobs(early);
    }
    const [stuck] = await early.services.db.query<{ status: string }>('SELECT status FROM billing_runs WHERE id = $1', [runId]);
    assert.equal(stuck!.status, 'CAPTURING');
    const left = early.logs.filter((l) => l.billingRunId === runId && String(l.msg).includes('has not finished'));
    assert.ok(left.length >= 3, `the sweeps left it to its job (${left.length})`);
    // Every lookup was the job's own re-ask (one per retry), none the sweeper's.
    const [job] = await early.services.db.query<{ attempts: number; status: string }>(
      `SELECT attempts, status FROM jobs WHERE kind = 'billing.capture-run' AND payload->>'billingRunId' = $1`,
      [runId],
    );
    assert.equal(job!.status, 'QUEUED');
    assert.equal(callsFor(runId).filter((c) => c.startsWith('findCharge')).length, job!.attempts - 1);
    gatewayState.charge = 'up';
    gatewayState.find = 'up';
  });
});
