// The billing gate and charges as a paid capability uses them, through a stand-in paid route
// (POST /v1/test-paid-work): gate first, then the work and its charge in one transaction. The gate's
// three codes, the partner default, a failed transaction leaving no charge, one charge per billed
// thing, voiding, and GET /v1/charges for reconciliation, tenancy included.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Type } from '@sinclair/typebox';
import { createManualClock } from '../../src/platform/clock.ts';
import { newId } from '../../src/platform/ids.ts';
import type { PartnerApi } from '../../src/platform/http/partner-api.ts';
import type { Services } from '../../src/services.ts';
import { createTestContext, type TestContext, type TestPartner } from '../helpers/context.ts';
import { billableContact, createContact } from '../helpers/billing.ts';

const clock = createManualClock(new Date('2026-11-21T09:00:00.000Z'));
let t: TestContext;
let partner: TestPartner;

/** A paid capability in miniature: `fail` makes the work throw after its charge was written. */
function paidWork(api: PartnerApi, services: () => Services) {
  api.post(
    '/test-paid-work',
    { schema: { hide: true, body: Type.Object({ contactId: Type.Optional(Type.String()), fail: Type.Optional(Type.Boolean()) }) } },
    async (request, reply) => {
      const { charges, db } = services();
      const payer = await charges.gate(request.tenant, request.body.contactId);
      const referenceId = newId('lookup', clock.now().getTime());
      const charge = await db.transaction(async (tx) => {
        const made = await charges.charge(tx, request.tenant, { payer, product: 'BUSINESS_LOOKUP_FULL', referenceId });
        if (request.body.fail) throw new Error('the work failed after charging');
        return made;
      });
      return reply.code(202).send(charge);
    },
  );
}

before(async () => {
  t = await createTestContext({ clock, app: { extraPartnerRoutes: (api) => paidWork(api, () => t.services) } });
  partner = await t.f.partner();
});
after(() => t.close());

const work = (body: Record<string, unknown>, who: TestPartner = partner) => t.app.inject({ method: 'POST', url: '/v1/test-paid-work', headers: who.headers, payload: body });

async function chargeRows(partnerId: string) {
  return t.services.db.query<{ id: string }>('SELECT id FROM charges WHERE partner_id = $1', [partnerId]);
}

describe('the billing gate', () => {
  it('bills the partner when no contact is named: a BILLED charge at the configured price', async () => {
    const res = await work({});
    assert.equal(res.statusCode, 202, res.body);
    const charge = res.json<Record<string, unknown>>();
    assert.deepEqual(
      { ...charge, id: undefined, referenceId: undefined },
      {
        id: undefined,
        referenceId: undefined,
        contactId: null,
        billedTo: 'PARTNER',
        product: 'BUSINESS_LOOKUP_FULL',
        amount: 1500,
        status: 'BILLED',
        billingRunId: null,
        createdAt: clock.now().toISOString(),
        updatedAt: clock.now().toISOString(),
      },
    );
  });

  it('CONTACT_INVALID (422, /contactId) for an unknown contact, another partner’s, or an archived one; nothing charged', async () => {
    const own = await t.f.partner();
    const stranger = await t.f.partner();
    const theirs = await createContact(t, stranger);
    const archived = await createContact(t, own);
    await t.app.inject({ method: 'DELETE', url: `/v1/contacts/${archived.id}`, headers: own.headers });
    for (const contactId of ['con_01JD0000000000000000000000', theirs.id, archived.id]) {
      const res = await work({ contactId }, own);
      assert.equal(res.statusCode, 422, res.body);
      const problem = res.json<{ code: string; errors: Array<{ pointer: string }> }>();
      assert.equal(problem.code, 'CONTACT_INVALID');
      assert.equal(problem.errors[0]!.pointer, '/contactId');
    }
    assert.deepEqual(await chargeRows(own.partnerId), []);
  });

  it('PAYMENT_METHOD_REQUIRED (402) for a contact without a card', async () => {
    const own = await t.f.partner();
    const contact = await createContact(t, own);
    const res = await work({ contactId: contact.id }, own);
    assert.equal(res.statusCode, 402);
    assert.equal(res.json<{ code: string }>().code, 'PAYMENT_METHOD_REQUIRED');
    assert.deepEqual(await chargeRows(own.partnerId), []);
  });

  it('CONTACT_BILLING_BLOCKED (402) while the partner blocks the contact; billable again once unblocked', async () => {
    const own = await t.f.partner();
    const contact = await billableContact(t, own);
    await t.app.inject({ method: 'PATCH', url: `/v1/contacts/${contact.id}`, headers: own.headers, payload: { billingBlocked: true } });
    const blocked = await work({ contactId: contact.id }, own);
    assert.equal(blocked.statusCode, 402);
    assert.equal(blocked.json<{ code: string }>().code, 'CONTACT_BILLING_BLOCKED');
    assert.deepEqual(await chargeRows(own.partnerId), []);
    await t.app.inject({ method: 'PATCH', url: `/v1/contacts/${contact.id}`, headers: own.headers, payload: { billingBlocked: false } });
    const ok = await work({ contactId: contact.id }, own);
    assert.equal(ok.statusCode, 202);
    assert.deepEqual(
      [ok.json<{ billedTo: string }>().billedTo, ok.json<{ status: string }>().status, ok.json<{ contactId: string }>().contactId],
      ['CONTACT', 'PENDING', contact.id],
    );
  });
});

describe('charges', () => {
  it('a charge written in a transaction that fails is not written at all, nor is its run', async () => {
    const own = await t.f.partner();
    const contact = await billableContact(t, own);
    const res = await work({ contactId: contact.id, fail: true }, own);
    assert.equal(res.statusCode, 500);
    assert.deepEqual(await chargeRows(own.partnerId), []);
    assert.deepEqual(await t.services.db.query('SELECT id FROM billing_runs WHERE contact_id = $1', [contact.id]), []);
    assert.deepEqual(await t.services.db.query("SELECT id FROM events WHERE partner_id = $1 AND type = 'contact.billing.run_created'", [own.partnerId]), []);
  });

  it('one charge per billed thing: charging the same work again (a retried job) answers the first charge', async () => {
    const tenant = { partnerId: partner.partnerId } as never;
    const referenceId = 'lkp_01JD0000000000000000000001';
    const first = await t.services.db.transaction((tx) => t.services.charges.charge(tx, tenant, { payer: { billedTo: 'PARTNER' }, product: 'DEED_ANALYSIS', referenceId }));
    const again = await t.services.db.transaction((tx) => t.services.charges.charge(tx, tenant, { payer: { billedTo: 'PARTNER' }, product: 'DEED_ANALYSIS', referenceId }));
    assert.deepEqual(again, first);
    assert.equal((await t.services.db.query('SELECT id FROM charges WHERE reference_id = $1', [referenceId])).length, 1);
  });

  it('checks the contact again inside the transaction: a card removed after the gate stops the charge', async () => {
    const own = await t.f.partner();
    const contact = await billableContact(t, own);
    const tenant = { partnerId: own.partnerId } as never;
    const payer = await t.services.charges.gate(tenant, contact.id);
    await t.app.inject({ method: 'DELETE', url: `/v1/contacts/${contact.id}/card`, headers: own.headers });
    await assert.rejects(
      t.services.db.transaction((tx) => t.services.charges.charge(tx, tenant, { payer, product: 'DEED_ANALYSIS', referenceId: 'dda_gate_race' })),
      { code: 'PAYMENT_METHOD_REQUIRED' },
    );
    assert.deepEqual(await chargeRows(own.partnerId), []);
  });

  it('voids a charge when the work fails on our side; voiding twice or voiding nothing is harmless', async () => {
    const tenant = { partnerId: partner.partnerId } as never;
    const referenceId = 'dda_01JD0000000000000000000002';
    await t.services.db.transaction((tx) => t.services.charges.charge(tx, tenant, { payer: { billedTo: 'PARTNER' }, product: 'DEED_ANALYSIS', referenceId }));
    const voided = await t.services.db.transaction((tx) => t.services.charges.voidCharge(tx, tenant, { product: 'DEED_ANALYSIS', referenceId, reason: 'EXTRACTION_FAILED' }));
    assert.equal(voided?.status, 'VOID');
    const again = await t.services.db.transaction((tx) => t.services.charges.voidCharge(tx, tenant, { product: 'DEED_ANALYSIS', referenceId, reason: 'again' }));
    assert.equal(again?.status, 'VOID');
    const none = await t.services.db.transaction((tx) => t.services.charges.voidCharge(tx, tenant, { product: 'DEED_ANALYSIS', referenceId: 'dda_none', reason: 'x' }));
    assert.equal(none, undefined);
  });

  it('GET /v1/charges lists newest first, filters by contactId, and shows nothing of another partner', async () => {
    const own = await t.f.partner();
    const contact = await billableContact(t, own);
    const ids: string[] = [];
    for (const body of [{}, { contactId: contact.id }, {}]) {
      clock.advance(1);
      ids.push((await work(body, own)).json<{ id: string }>().id);
    }
    const all = await t.app.inject({ method: 'GET', url: '/v1/charges', headers: own.headers });
    assert.deepEqual(
      all.json<{ data: Array<{ id: string }> }>().data.map((c) => c.id),
      [...ids].reverse(),
    );
    const mine = await t.app.inject({ method: 'GET', url: `/v1/charges?contactId=${contact.id}`, headers: own.headers });
    assert.deepEqual(
      mine.json<{ data: Array<{ id: string }> }>().data.map((c) => c.id),
      [ids[1]],
    );
    const one = await t.app.inject({ method: 'GET', url: `/v1/charges/${ids[1]}`, headers: own.headers });
    assert.equal(one.json<{ billingRunId: string }>().billingRunId.slice(0, 4), 'brn_');

    const stranger = await t.f.partner();
    const theirs = await t.app.inject({ method: 'GET', url: `/v1/charges?contactId=${contact.id}`, headers: stranger.headers });
    assert.deepEqual(theirs.json<{ data: unknown[] }>().data, []);
    assert.equal((await t.app.inject({ method: 'GET', url: `/v1/charges/${ids[1]}`, headers: stranger.headers })).statusCode, 404);
    assert.equal((await t.app.inject({ method: 'GET', url: '/v1/charges?limit=0', headers: own.headers })).statusCode, 400);
  });
});
