// Billing runs end to end on a manual clock: charges gather in one run per contact, the card is charged
// once after the window; declines block the contact and follow the retry plan by merchant advice code;
// a new card unblocks and retries; voided charges are left out or refunded; a gateway that fails after
// charging (a worker dying between the charge and the record) never leads to a second charge.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createManualClock } from '../../src/platform/clock.ts';
import { newId } from '../../src/platform/ids.ts';
import { tenantOf } from '../../src/platform/tenancy.ts';
import type { PaymentGateway } from '../../src/providers/gateway/gateway.ts';
import type { Payer } from '../../src/modules/billing/charges.service.ts';
import { createTestContext, type TestContext, type TestPartner } from '../helpers/context.ts';
import { billableContact, cards, eventsOf, mintCardLink, runDueJobs, submitCard, type ContactBody } from '../helpers/billing.ts';

const clock = createManualClock(new Date('2026-11-21T09:00:00.000Z'));
const hour = 3600_000;
let t: TestContext;
/** When set, the gateway's charge answers and then this throws, as if the worker died right after. */
let dieAfterCharge = false;

function dyingAfterCharge(gateway: PaymentGateway): PaymentGateway {
  return {
    ...gateway,
    hostedFields: () => gateway.hostedFields(),
    async charge(input) {
      const result = await gateway.charge(input);
      if (dieAfterCharge) {
        dieAfterCharge = false;
        throw new Error('worker died after the gateway charged');
      }
      return result;
    },
  };
}

before(async () => {
  t = await createTestContext({ clock, wrapGateway: dyingAfterCharge });
});
after(() => t.close());

async function charge(partner: TestPartner, contactId: string, product: 'BUSINESS_LOOKUP_FULL' | 'DEED_ANALYSIS' = 'BUSINESS_LOOKUP_FULL') {
  const payer: Payer = await t.services.charges.gate(tenantOf(partner.partnerId), contactId);
  const referenceId = newId('lookup', clock.now().getTime());
  return t.services.db.transaction((tx) => t.services.charges.charge(tx, tenantOf(partner.partnerId), { payer, product, referenceId }));
}

async function run(id: string) {
  const [row] = await t.services.db.query<{ status: string; amount: number; attempts: number; next_retry_at: Date | null; failure_reason: string | null }>(
    'SELECT status, amount, attempts, next_retry_at, failure_reason FROM billing_runs WHERE id = $1',
    [id],
  );
  return row!;
}

async function gatewayCharges(contactId: string) {
  return t.services.db.query<{ amount: number; status: string; refunded_amount: number }>(
    `SELECT g.amount, g.status, g.refunded_amount FROM sandbox_gateway_charges g
     JOIN sandbox_gateway_payment_methods m ON m.id = g.payment_method_id
     WHERE m.customer_id = (SELECT gateway_customer_ref FROM contacts WHERE id = $1) ORDER BY g.created_at, g.id`,
    [contactId],
  );
}

/** Through the service: days pass on the clock in these tests, and access tokens last an hour. */
async function contact(partner: TestPartner, id: string): Promise<Pick<ContactBody, 'billingStatus'>> {
  return t.services.contacts.get(tenantOf(partner.partnerId), id);
}

async function chargeStatuses(contactId: string) {
  return (await t.services.db.query<{ status: string }>('SELECT status FROM charges WHERE contact_id = $1 ORDER BY id', [contactId])).map((r) => r.status);
}

describe('a run that captures', () => {
  it('gathers the window’s charges into one run and charges the card once for their total', async () => {
    const partner = await t.f.partner();
    const buyer = await billableContact(t, partner);
    const first = await charge(partner, buyer.id);
    clock.advance(2000);
    const second = await charge(partner, buyer.id, 'DEED_ANALYSIS');
    assert.equal(first.billingRunId, second.billingRunId, 'one open run per contact');

    clock.advance(7000);
    await runDueJobs(t);
    assert.equal((await run(first.billingRunId!)).status, 'OPEN', 'not before the window ends');

    clock.advance(1000);
    await runDueJobs(t);
    assert.deepEqual(await run(first.billingRunId!), { status: 'CAPTURED', amount: 4000, attempts: 1, next_retry_at: null, failure_reason: null });
    assert.deepEqual(await chargeStatuses(buyer.id), ['CAPTURED', 'CAPTURED']);
    assert.deepEqual(await gatewayCharges(buyer.id), [{ amount: 4000, status: 'succeeded', refunded_amount: 0 }]);

    const events = (await eventsOf(t, partner.partnerId, 'contact.billing')).map((e) => [e.type, e.payload]);
    const ids = { contactId: buyer.id, channelPartnerId: partner.partnerId, billingRunId: first.billingRunId };
    assert.deepEqual(events, [
      ['contact.billing.run_created', { ...ids, amount: 1500 }],
      ['contact.billing.captured', { ...ids, amount: 4000 }],
    ]);

    const later = await charge(partner, buyer.id);
    assert.notEqual(later.billingRunId, first.billingRunId, 'a charge after the capture opens a new run');
  });

  it('leaves voided charges out; a run with nothing left is void, the card is not asked, and contact.billing.voided says so', async () => {
    const partner = await t.f.partner();
    const buyer = await billableContact(t, partner);
    const kept = await charge(partner, buyer.id);
    const dropped = await charge(partner, buyer.id, 'DEED_ANALYSIS');
    await t.services.db.transaction((tx) => t.services.charges.voidCharge(tx, tenantOf(partner.partnerId), { product: 'DEED_ANALYSIS', referenceId: dropped.referenceId, reason: 'FAILED' }));
    clock.advance(10_000);
    await runDueJobs(t);
    assert.equal((await run(kept.billingRunId!)).amount, 1500);
    assert.deepEqual(await gatewayCharges(buyer.id), [{ amount: 1500, status: 'succeeded', refunded_amount: 0 }]);

    const alone = await charge(partner, buyer.id);
    const alsoVoided = await charge(partner, buyer.id, 'DEED_ANALYSIS');
    for (const voided of [alone, alsoVoided]) {
      await t.services.db.transaction((tx) =>
        t.services.charges.voidCharge(tx, tenantOf(partner.partnerId), { product: voided.product, referenceId: voided.referenceId, reason: 'FAILED' }),
      );
    }
    assert.equal((await eventsOf(t, partner.partnerId, 'contact.billing.voided')).length, 0, 'not while the run is open');
    clock.advance(10_000);
    await runDueJobs(t);
    assert.equal((await run(alone.billingRunId!)).status, 'VOID');
    assert.equal((await gatewayCharges(buyer.id)).length, 1, 'no second charge');
    const ids = { contactId: buyer.id, channelPartnerId: partner.partnerId, billingRunId: alone.billingRunId };
    const events = (await eventsOf(t, partner.partnerId, 'contact.billing')).filter((e) => e.payload.billingRunId === alone.billingRunId);
    assert.deepEqual(
      events.map((e) => [e.type, e.payload]),
      [
        ['contact.billing.run_created', { ...ids, amount: 1500 }],
        ['contact.billing.voided', { ...ids, amount: 0, voidedChargeCount: 2 }],
      ],
    );
  });

  it('refunds a charge voided after its run was captured', async () => {
    const partner = await t.f.partner();
    const buyer = await billableContact(t, partner);
    const made = await charge(partner, buyer.id);
    await charge(partner, buyer.id, 'DEED_ANALYSIS');
    clock.advance(10_000);
    await runDueJobs(t);
    await t.services.db.transaction((tx) => t.services.charges.voidCharge(tx, tenantOf(partner.partnerId), { product: 'BUSINESS_LOOKUP_FULL', referenceId: made.referenceId, reason: 'FAILED' }));
    await runDueJobs(t);
    assert.deepEqual(await gatewayCharges(buyer.id), [{ amount: 4000, status: 'succeeded', refunded_amount: 1500 }]);
    await runDueJobs(t);
    assert.equal((await gatewayCharges(buyer.id))[0]!.refunded_amount, 1500, 'refunded once');
  });
});

describe('a run that fails', () => {
  it('9995: declines with 02, blocks the contact, retries every 24 h three times, then waits for a new card that captures it', async () => {
    const partner = await t.f.partner();
    const buyer = await billableContact(t, partner, cards.insufficientFunds);
    const made = await charge(partner, buyer.id);
    clock.advance(10_000);
    await runDueJobs(t);

    const failedAt = clock.now();
    assert.deepEqual(await run(made.billingRunId!), {
      status: 'FAILED',
      amount: 1500,
      attempts: 1,
      next_retry_at: new Date(failedAt.getTime() + 24 * hour),
      failure_reason: 'insufficient_funds',
    });
    assert.deepEqual(await chargeStatuses(buyer.id), ['FAILED']);
    assert.equal((await contact(partner, buyer.id)).billingStatus, 'BLOCKED');
    await assert.rejects(t.services.charges.gate(tenantOf(partner.partnerId), buyer.id), { code: 'CONTACT_BILLING_BLOCKED' });
    const [failed] = await eventsOf(t, partner.partnerId, 'contact.billing.failed');
    assert.deepEqual(failed!.payload, {
      contactId: buyer.id,
      channelPartnerId: partner.partnerId,
      billingRunId: made.billingRunId,
      amount: 1500,
      failureReason: 'insufficient_funds',
      merchantAdviceCode: '02',
      nextRetryAt: new Date(failedAt.getTime() + 24 * hour).toISOString(),
    });

    clock.advance(23 * hour);
    await runDueJobs(t);
    assert.equal((await run(made.billingRunId!)).attempts, 1, 'not retried before 24 h');
    for (let retry = 1; retry <= 3; retry++) {
      clock.advance(25 * hour);
      await runDueJobs(t);
      assert.equal((await run(made.billingRunId!)).attempts, 1 + retry);
    }
    const exhausted = await run(made.billingRunId!);
    assert.equal(exhausted.next_retry_at, null, 'three retries on the card, then no more');
    const failures = await eventsOf(t, partner.partnerId, 'contact.billing.failed');
    assert.equal(failures.length, 4);
    assert.equal(failures[3]!.payload.nextRetryAt, null, 'the last failure says no retry follows');
    clock.advance(72 * hour);
    await runDueJobs(t);
    assert.equal((await gatewayCharges(buyer.id)).length, 4, 'one charge and three retries at the gateway');

    // A new card: billable at once, and the unpaid run is charged to it straight away.
    const saved = await submitCard(t, (await mintCardLink(t, await t.f.signIn(partner), buyer.id)).token, cards.succeeds);
    assert.equal(saved.json<{ billingStatus: string }>().billingStatus, 'BILLABLE');
    await runDueJobs(t);
    assert.equal((await run(made.billingRunId!)).status, 'CAPTURED');
    assert.deepEqual(await chargeStatuses(buyer.id), ['CAPTURED']);
    assert.equal((await contact(partner, buyer.id)).billingStatus, 'BILLABLE');
    const captured = await eventsOf(t, partner.partnerId, 'contact.billing.captured');
    assert.deepEqual(
      captured.map((e) => e.payload.billingRunId),
      [made.billingRunId],
    );
  });

  it('0341: declines with 03 and is never retried on that card', async () => {
    const partner = await t.f.partner();
    const buyer = await billableContact(t, partner, cards.doNotHonor);
    const made = await charge(partner, buyer.id);
    clock.advance(10_000);
    await runDueJobs(t);
    const [failed] = await eventsOf(t, partner.partnerId, 'contact.billing.failed');
    assert.deepEqual([failed!.payload.failureReason, failed!.payload.merchantAdviceCode, failed!.payload.nextRetryAt], ['do_not_honor', '03', null]);
    const retries = await t.services.db.query("SELECT id FROM jobs WHERE kind = 'billing.capture-run' AND payload->>'billingRunId' = $1 AND status = 'PENDING'", [made.billingRunId]);
    assert.deepEqual(retries, [], 'no retry is scheduled');
    for (let day = 0; day < 5; day++) {
      clock.advance(25 * hour);
      await runDueJobs(t);
    }
    assert.equal((await run(made.billingRunId!)).attempts, 1);
    assert.equal((await gatewayCharges(buyer.id)).length, 1, 'the card was asked once');
    assert.equal((await contact(partner, buyer.id)).billingStatus, 'BLOCKED');
  });

  it('a declined run whose charges are all voided closes VOID with contact.billing.voided, and unblocks the contact', async () => {
    const partner = await t.f.partner();
    const buyer = await billableContact(t, partner, cards.insufficientFunds);
    const first = await charge(partner, buyer.id);
    const second = await charge(partner, buyer.id, 'DEED_ANALYSIS');
    clock.advance(10_000);
    await runDueJobs(t);
    assert.equal((await run(first.billingRunId!)).status, 'FAILED');
    assert.equal((await contact(partner, buyer.id)).billingStatus, 'BLOCKED');
    clock.advance(1000); // events are listed by id, which orders them by the clock's milliseconds

    const voidOne = (made: typeof first) =>
      t.services.db.transaction((tx) => t.services.charges.voidCharge(tx, tenantOf(partner.partnerId), { product: made.product, referenceId: made.referenceId, reason: 'FAILED' }));
    await voidOne(first);
    assert.equal((await run(first.billingRunId!)).status, 'FAILED', 'something is still owed');
    assert.equal((await eventsOf(t, partner.partnerId, 'contact.billing.voided')).length, 0);
    await voidOne(second);
    assert.deepEqual(await run(first.billingRunId!), { status: 'VOID', amount: 4000, attempts: 1, next_retry_at: null, failure_reason: 'insufficient_funds' });
    assert.equal((await contact(partner, buyer.id)).billingStatus, 'BILLABLE');
    const events = (await eventsOf(t, partner.partnerId, 'contact.billing')).map((e) => e.type);
    assert.deepEqual(events, ['contact.billing.run_created', 'contact.billing.failed', 'contact.billing.voided']);
    const [voided] = await eventsOf(t, partner.partnerId, 'contact.billing.voided');
    assert.deepEqual(voided!.payload, { contactId: buyer.id, channelPartnerId: partner.partnerId, billingRunId: first.billingRunId, amount: 0, voidedChargeCount: 2 });

    // Voiding again, or the retry that was planned, changes nothing more.
    await voidOne(second);
    clock.advance(25 * hour);
    await runDueJobs(t);
    assert.equal((await run(first.billingRunId!)).status, 'VOID');
    assert.equal((await eventsOf(t, partner.partnerId, 'contact.billing.voided')).length, 1);
    assert.equal((await gatewayCharges(buyer.id)).length, 1, 'the card was asked once');
  });

  it('a run whose contact removed the card fails with no_payment_method and waits for a card', async () => {
    const partner = await t.f.partner();
    const buyer = await billableContact(t, partner);
    const made = await charge(partner, buyer.id);
    await t.app.inject({ method: 'DELETE', url: `/v1/contacts/${buyer.id}/card`, headers: partner.headers });
    clock.advance(10_000);
    await runDueJobs(t);
    const failed = await run(made.billingRunId!);
    assert.deepEqual([failed.status, failed.failure_reason, failed.next_retry_at], ['FAILED', 'no_payment_method', null]);
    assert.equal((await contact(partner, buyer.id)).billingStatus, 'BLOCKED');
  });
});

describe('crash safety', () => {
  it('a worker that dies after the gateway charged does not charge twice: the retry gets the first answer', async () => {
    const partner = await t.f.partner();
    const buyer = await billableContact(t, partner);
    const made = await charge(partner, buyer.id);
    clock.advance(10_000);
    dieAfterCharge = true;
    await runDueJobs(t);
    assert.equal((await run(made.billingRunId!)).status, 'CAPTURING', 'the outcome was not recorded');
    assert.equal((await gatewayCharges(buyer.id)).length, 1, 'but the gateway charged');

    clock.advance(60_000); // the job's backoff
    await runDueJobs(t);
    assert.equal((await run(made.billingRunId!)).status, 'CAPTURED');
    assert.deepEqual(await gatewayCharges(buyer.id), [{ amount: 1500, status: 'succeeded', refunded_amount: 0 }]);
    assert.equal((await eventsOf(t, partner.partnerId, 'contact.billing.captured')).length, 1);
  });
});
