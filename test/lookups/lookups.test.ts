// Business lookups as a partner makes them: POST /v1/business-lookups (validation with pointers, the
// billing gate, Idempotency-Key), the job that reads the sandbox registers (every CONTRACT §13 value, each
// scope, retries of a register that is down), the record, the webhook payloads exactly, and charges.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createManualClock } from '../../src/platform/clock.ts';
import { billableContact, cards, createContact, eventsOf, runDueJobs } from '../helpers/billing.ts';
import { createTestContext, type TestContext, type TestPartner } from '../helpers/context.ts';
import { getLookup, ownershipOf, postLookup, settledLookup } from '../helpers/lookups.ts';

const clock = createManualClock(new Date('2026-11-21T09:00:00.000Z'));
let t: TestContext;
let partner: TestPartner;

before(async () => {
  // The clock stands still, so the partner's request rate would never refill.
  t = await createTestContext({ clock, env: { RATE_LIMIT_BURST: '100000' } });
  partner = await t.f.partner();
});
after(() => t.close());

async function chargesFor(lookupId: string) {
  return t.services.db.query<{ product: string; amount: number; status: string; billed_to: string }>(
    'SELECT product, amount, status, billed_to FROM charges WHERE reference_id = $1',
    [lookupId],
  );
}

async function count(table: string, partnerId: string) {
  const [row] = await t.services.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE partner_id = $1`, [partnerId]);
  return row!.n;
}

/** A person's roles on the record, `Given FAMILY: ROLE, ROLE`, in the record's order. */
function rolesOf(individuals: Array<{ name: string; role: string; idvEntityId: string }>) {
  const byPerson = new Map<string, string[]>();
  for (const i of individuals) byPerson.set(i.name, [...(byPerson.get(i.name) ?? []), i.role]);
  return [...byPerson].map(([name, roles]) => `${name}: ${roles.join(', ')}`);
}

describe('creating a lookup', () => {
  it('answers 202 with lookupRequestId only, and the record is PENDING until the job runs', async () => {
    const res = await postLookup(t, partner, { abn: '32 111 111 114' });
    assert.equal(res.statusCode, 202, res.body);
    const body = res.json<{ lookupRequestId: string }>();
    assert.deepEqual(Object.keys(body), ['lookupRequestId']);
    assert.match(body.lookupRequestId, /^lkp_[0-9A-HJKMNP-TV-Z]{26}$/);

    const pending = await getLookup(t, partner, body.lookupRequestId);
    assert.deepEqual(pending, {
      lookupRequestId: body.lookupRequestId,
      status: 'PENDING',
      scope: 'FULL',
      abn: '32111111114',
      acn: null,
      failureReason: null,
      contactId: null,
      entity: null,
      partyCounts: null,
      individuals: [],
      uboCount: null,
      createdAt: clock.now().toISOString(),
      updatedAt: clock.now().toISOString(),
      completedAt: null,
    });
    await runDueJobs(t);
    assert.equal((await getLookup(t, partner, body.lookupRequestId)).status, 'COMPLETED');
  });

  it('refuses bad identifiers with VALIDATION_ERROR and a pointer per field; nothing is written', async () => {
    const own = await t.f.partner();
    const cases: Array<[Record<string, unknown>, Array<{ pointer: string; message: RegExp }>]> = [
      [{ abn: '32 111 111 115' }, [{ pointer: '/abn', message: /^abn has wrong check digits \(not a valid ABN\)$/ }]],
      [{ acn: '111 111 115' }, [{ pointer: '/acn', message: /^acn has a wrong check digit \(not a valid ACN\)$/ }]],
      [{ abn: '3211111111' }, [{ pointer: '/abn', message: /must be 11 digits, got 10/ }]],
      [{ acn: '11-111-114' }, [{ pointer: '/acn', message: /must be digits \(spaces allowed\)/ }]],
      [{ abn: '12', acn: 'x' }, [{ pointer: '/abn', message: /11 digits/ }, { pointer: '/acn', message: /digits/ }]],
      [{}, [{ pointer: '/abn', message: /give abn or acn/ }]],
      [{ scope: 'FULL' }, [{ pointer: '/abn', message: /give abn or acn/ }]],
    ];
    for (const [body, expected] of cases) {
      const res = await postLookup(t, own, body);
      assert.equal(res.statusCode, 400, JSON.stringify(body));
      assert.equal(res.headers['content-type'], 'application/problem+json; charset=utf-8');
      const problem = res.json<{ code: string; errors: Array<{ pointer: string; message: string }> }>();
      assert.equal(problem.code, 'VALIDATION_ERROR');
      assert.equal(problem.errors.length, expected.length, JSON.stringify(problem));
      expected.forEach((e, i) => {
        assert.equal(problem.errors[i]!.pointer, e.pointer);
        assert.match(problem.errors[i]!.message, e.message);
      });
    }
    for (const [body, pointer] of [
      [{ abn: '32111111114', scope: 'EVERYTHING' }, '/scope'],
      [{ abn: '32111111114', firstName: 'Ann' }, '/firstName'],
      [{ abn: 32111111114 }, '/abn'],
    ] as const) {
      const res = await postLookup(t, own, body);
      assert.equal(res.statusCode, 400, JSON.stringify(body));
      assert.equal(res.json<{ errors: Array<{ pointer: string }> }>().errors[0]!.pointer, pointer, res.body);
    }
    assert.equal(await count('business_lookups', own.partnerId), 0);
    assert.equal(await count('charges', own.partnerId), 0);
  });

  it('ignores a channelPartnerId in the body: the lookup is the caller’s', async () => {
    const other = await t.f.partner();
    const res = await postLookup(t, partner, { abn: '32111111114', channelPartnerId: other.partnerId });
    assert.equal(res.statusCode, 202, res.body);
    assert.equal((await getLookup(t, partner, res.json<{ lookupRequestId: string }>().lookupRequestId)).status, 'PENDING');
    assert.equal(await count('business_lookups', other.partnerId), 0);
    await runDueJobs(t);
  });

  it('Idempotency-Key: a repeat answers the first lookup; another body with the key is IDEMPOTENCY_KEY_REUSED', async () => {
    const own = await t.f.partner();
    const key = { 'idempotency-key': 'lookup-0001' };
    const first = await postLookup(t, own, { acn: '222222228' }, key);
    const again = await postLookup(t, own, { acn: '222222228' }, key);
    assert.equal(first.statusCode, 202);
    assert.equal(again.statusCode, 202);
    assert.equal(again.headers['idempotent-replayed'], 'true');
    assert.deepEqual(again.json(), first.json());
    const other = await postLookup(t, own, { acn: '111111114' }, key);
    assert.equal(other.statusCode, 422);
    assert.equal(other.json<{ code: string }>().code, 'IDEMPOTENCY_KEY_REUSED');
    assert.equal(await count('business_lookups', own.partnerId), 1);
    assert.equal(await count('charges', own.partnerId), 1);
    await runDueJobs(t);
  });
});

describe('the billing gate', () => {
  it('bills the partner by default, at the scope’s price', async () => {
    for (const [scope, product, amount] of [
      ['FULL', 'BUSINESS_LOOKUP_FULL', 1500],
      ['ASIC_ONLY', 'BUSINESS_LOOKUP_ASIC_ONLY', 500],
      ['UBO_ONLY', 'BUSINESS_LOOKUP_UBO_ONLY', 1200],
    ] as const) {
      const lookup = await settledLookup(t, partner, { abn: '32111111114', scope });
      assert.deepEqual(await chargesFor(lookup.lookupRequestId), [{ product, amount, status: 'BILLED', billed_to: 'PARTNER' }]);
    }
  });

  it('a contact that cannot be billed stops the lookup: no lookup, no charge, no job', async () => {
    const own = await t.f.partner();
    const stranger = await t.f.partner();
    const noCard = await createContact(t, own);
    const blocked = await billableContact(t, own);
    await t.app.inject({ method: 'PATCH', url: `/v1/contacts/${blocked.id}`, headers: own.headers, payload: { billingBlocked: true } });
    const theirs = await billableContact(t, stranger);
    const jobsBefore = (await t.services.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM jobs WHERE kind = 'lookups.process'`))[0]!.n;
    for (const [contactId, status, code] of [
      [noCard.id, 402, 'PAYMENT_METHOD_REQUIRED'],
      [blocked.id, 402, 'CONTACT_BILLING_BLOCKED'],
      [theirs.id, 422, 'CONTACT_INVALID'],
      ['con_01JD0000000000000000000000', 422, 'CONTACT_INVALID'],
    ] as const) {
      const res = await postLookup(t, own, { abn: '32111111114', contactId });
      assert.equal(res.statusCode, status, res.body);
      assert.equal(res.json<{ code: string }>().code, code);
    }
    assert.equal(await count('business_lookups', own.partnerId), 0);
    assert.equal(await count('charges', own.partnerId), 0);
    const jobsAfter = (await t.services.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM jobs WHERE kind = 'lookups.process'`))[0]!.n;
    assert.equal(jobsAfter, jobsBefore);
  });

  it('bills a contact with a saved card; a failed lookup voids the charge', async () => {
    const own = await t.f.partner();
    const buyer = await billableContact(t, own, cards.succeeds);
    const done = await settledLookup(t, own, { abn: '32111111114', contactId: buyer.id });
    assert.equal(done.contactId, buyer.id);
    assert.deepEqual(await chargesFor(done.lookupRequestId), [{ product: 'BUSINESS_LOOKUP_FULL', amount: 1500, status: 'PENDING', billed_to: 'CONTACT' }]);

    const failed = await settledLookup(t, own, { abn: '85 900 000 004', contactId: buyer.id });
    assert.equal(failed.status, 'FAILED');
    assert.deepEqual(await chargesFor(failed.lookupRequestId), [{ product: 'BUSINESS_LOOKUP_FULL', amount: 1500, status: 'VOID', billed_to: 'CONTACT' }]);
  });
});

describe('the sandbox register (CONTRACT §13)', () => {
  const companies = [
    {
      abn: '32111111114', acn: '111111114', name: 'BLUEGUM ORCHARDS PTY LTD', counts: [1, 2, 2, 2], completeness: 'HIGH', reason: 'COMPLETE',
      roles: ['Harriet Jane PENROSE: DIRECTOR, UBO', 'Malcolm David PENROSE: DIRECTOR'], owners: [100],
    },
    {
      abn: '54222222228', acn: '222222228', name: 'WATTLE CREEK LOGISTICS PTY LTD', counts: [3, 2, 3, 3], completeness: 'HIGH', reason: 'COMPLETE',
      roles: ['Oliver James KINGSLEY: DIRECTOR, SECRETARY, UBO', 'Priscilla Mary FAIRBAIRN: DIRECTOR, UBO', 'Daniel Hugh MERRIWEATHER: UBO'], owners: [40, 30, 30],
    },
    {
      abn: '21444444446', acn: '444444446', name: 'CORELLA CONSTRUCTIONS PTY LTD', counts: [1, 2, 2, 2], completeness: 'PARTIAL', reason: 'BLOCKED_NODES',
      roles: ['Lachlan Peter BRADSHAW: DIRECTOR, UBO', 'Grace Eleanor BRADSHAW: DIRECTOR'], owners: [50],
    },
    {
      abn: '55555555550', acn: '555555550', name: 'MYALL PASTORAL PTY LTD', counts: [0, 2, 2, 2], completeness: 'PARTIAL', reason: 'TRUNCATED',
      roles: ['Edwina Rose CARRINGTON: DIRECTOR', 'Samuel John HARGREAVE: DIRECTOR'], owners: [],
    },
    {
      abn: '77666666664', acn: '666666664', name: 'GALAH GROVE VINEYARDS PTY LTD', counts: [1, 2, 2, 2], completeness: 'PARTIAL', reason: 'UNLINKED_OWNERS',
      roles: ['Beatrice Anne LINDQVIST: DIRECTOR, UBO', 'Rupert Alan HALLORAN: DIRECTOR'], owners: [70],
    },
    {
      abn: '10777777778', acn: '777777778', name: 'TALLOWOOD TIMBER SUPPLIES PTY LTD', counts: [0, 2, 3, 3], completeness: 'UNKNOWN', reason: 'SOURCE_UNAVAILABLE',
      roles: ['Vincent Paul DOUGHERTY: DIRECTOR', 'Naomi Claire DOUGHERTY: DIRECTOR', 'Imogen Kate FARRANT: SECRETARY'], owners: [],
    },
    {
      abn: '44888888882', acn: '888888882', name: 'COOLABAH RESOURCES LIMITED', counts: [0, 4, 6, 6], completeness: 'UNKNOWN', reason: 'UNKNOWN',
      roles: [
        'Geoffrey Alan MARSDEN: DIRECTOR', 'Yvonne Louise TREMAYNE: DIRECTOR', 'Kenji Robert NAKAMURA: DIRECTOR', 'Alison Margaret FORSYTHE: DIRECTOR',
        'Bernard Hugh LOCKWOOD: SECRETARY', 'Rachel Anne DUNSTAN: OFFICER',
      ],
      owners: [],
    },
    { abn: '66999999996', acn: '999999996', name: 'PADDLEWHEEL CATERING PTY LTD', counts: [0, 0, 0, 0], completeness: 'UNKNOWN', reason: 'UNKNOWN', roles: [], owners: [] },
  ];

  for (const c of companies) {
    it(`${c.abn} / ACN ${c.acn}: ${c.name}, ${c.completeness} (${c.reason})`, async () => {
      for (const body of [{ abn: c.abn }, { acn: c.acn }, { abn: c.abn, acn: c.acn }]) {
        const lookup = await settledLookup(t, partner, body);
        assert.equal(lookup.status, 'COMPLETED', JSON.stringify(body));
        assert.deepEqual(lookup.entity, { name: c.name, type: 'COMPANY' });
        const [beneficialOwners, directors, officers, total] = c.counts;
        assert.deepEqual(lookup.partyCounts, { beneficialOwners, directors, officers, total });
        assert.equal(lookup.uboCount, beneficialOwners);
        assert.deepEqual(rolesOf(lookup.individuals), c.roles);
        assert.deepEqual(lookup.individuals.filter((i) => i.role === 'UBO').map((i) => i.ownershipPercent), c.owners);
        const ownership = await ownershipOf(t, partner, lookup.lookupRequestId);
        assert.equal(ownership.completeness, c.completeness);
        assert.equal(ownership.reason, c.reason);
      }
    });
  }

  it('53900000001: a SOLE_TRADER’s proprietor is its one party (INDIVIDUAL_OWNER), so a verification bound to it verifies them', async () => {
    const lookup = await settledLookup(t, partner, { abn: '53900000001' });
    assert.deepEqual([lookup.status, lookup.entity], ['COMPLETED', { name: 'ABERCROMBIE, FIONA MAREE', type: 'SOLE_TRADER' }]);
    assert.deepEqual(lookup.partyCounts, { beneficialOwners: 0, directors: 0, officers: 0, total: 1 });
    assert.deepEqual(lookup.individuals.map((i) => [i.role, i.name]), [['INDIVIDUAL_OWNER', 'FIONA MAREE ABERCROMBIE']]);
    const verification = await t.app.inject({ method: 'POST', url: '/v1/verifications', headers: partner.headers, payload: { mode: 'TPB_POI', lookupRequestId: lookup.lookupRequestId } });
    assert.equal(verification.statusCode, 201, verification.body);
    assert.deepEqual(
      verification.json<{ individuals: Array<{ idvEntityId: string; role: string }> }>().individuals.map((i) => [i.idvEntityId, i.role]),
      [[lookup.individuals[0]!.idvEntityId, 'INDIVIDUAL_OWNER']],
    );
    const ownership = await ownershipOf(t, partner, lookup.lookupRequestId);
    assert.deepEqual([ownership.ownershipSource, ownership.reason, ownership.completeness], ['UNAVAILABLE', 'SOURCE_UNAVAILABLE', 'UNKNOWN']);
  });

  for (const [abn, name, type] of [
    ['34900000002', 'The Trustee for the WOLLEMI FAMILY TRUST', 'TRUST'],
    ['15900000003', 'D K FAIRWEATHER & S L MONTGOMERY', 'PARTNERSHIP'],
  ] as const) {
    it(`${abn}: a ${type} has no officers or ownership register: completed with no parties, completeness UNKNOWN`, async () => {
      const lookup = await settledLookup(t, partner, { abn });
      assert.equal(lookup.status, 'COMPLETED');
      assert.deepEqual(lookup.entity, { name, type });
      assert.deepEqual(lookup.partyCounts, { beneficialOwners: 0, directors: 0, officers: 0, total: 0 });
      assert.deepEqual(lookup.individuals, []);
      const ownership = await ownershipOf(t, partner, lookup.lookupRequestId);
      assert.deepEqual([ownership.ownershipSource, ownership.reason, ownership.completeness], ['UNAVAILABLE', 'SOURCE_UNAVAILABLE', 'UNKNOWN']);
    });
  }

  it('85 900 000 004 is not on the register: FAILED NOT_FOUND, not billed, business-lookup.failed', async () => {
    const own = await t.f.partner();
    const lookup = await settledLookup(t, own, { abn: '85900000004' });
    assert.deepEqual([lookup.status, lookup.failureReason, lookup.entity, lookup.partyCounts], ['FAILED', 'NOT_FOUND', null, null]);
    assert.equal((await chargesFor(lookup.lookupRequestId))[0]!.status, 'VOID');
    const events = await eventsOf(t, own.partnerId, 'business-lookup.');
    assert.deepEqual(events.map((e) => e.type), ['business-lookup.failed']);
    assert.deepEqual(events[0]!.payload, { lookupRequestId: lookup.lookupRequestId, channelPartnerId: own.partnerId, failureReason: 'NOT_FOUND' });
  });

  it('an ABN and an ACN of different companies: FAILED IDENTIFIER_MISMATCH, not billed', async () => {
    for (const body of [{ abn: '32111111114', acn: '222222228' }, { abn: '53900000001', acn: '111111114' }]) {
      const lookup = await settledLookup(t, partner, body);
      assert.deepEqual([lookup.status, lookup.failureReason], ['FAILED', 'IDENTIFIER_MISMATCH'], JSON.stringify(body));
      assert.equal((await chargesFor(lookup.lookupRequestId))[0]!.status, 'VOID');
    }
  });

  it('a synthetic company for any other valid number is the same company every time', async () => {
    const first = await settledLookup(t, partner, { acn: '004 085 616' });
    const second = await settledLookup(t, partner, { acn: '004085616' });
    assert.equal(first.status, 'COMPLETED');
    assert.deepEqual(second.entity, first.entity);
    assert.deepEqual(second.partyCounts, first.partyCounts);
    assert.deepEqual(rolesOf(second.individuals), rolesOf(first.individuals));
    assert.notEqual(second.individuals[0]?.idvEntityId, first.individuals[0]?.idvEntityId, 'each lookup has its own idv entities');
  });
});

describe('scopes', () => {
  it('ASIC_ONLY lists directors but runs no UBO report; UBO_ONLY lists owners only', async () => {
    const asicOnly = await settledLookup(t, partner, { abn: '54222222228', scope: 'ASIC_ONLY' });
    assert.equal(asicOnly.scope, 'ASIC_ONLY');
    assert.deepEqual(asicOnly.partyCounts, { beneficialOwners: 0, directors: 2, officers: 3, total: 2 });
    assert.deepEqual(rolesOf(asicOnly.individuals), ['Oliver James KINGSLEY: DIRECTOR, SECRETARY', 'Priscilla Mary FAIRBAIRN: DIRECTOR']);
    const notRequested = await ownershipOf(t, partner, asicOnly.lookupRequestId);
    assert.deepEqual([notRequested.ownershipSource, notRequested.reason, notRequested.completeness], ['NOT_REQUESTED', 'NOT_REQUESTED', 'UNKNOWN']);

    const uboOnly = await settledLookup(t, partner, { abn: '54222222228', scope: 'UBO_ONLY' });
    assert.deepEqual(uboOnly.partyCounts, { beneficialOwners: 3, directors: 0, officers: 0, total: 3 });
    assert.deepEqual(rolesOf(uboOnly.individuals), ['Oliver James KINGSLEY: UBO', 'Priscilla Mary FAIRBAIRN: UBO', 'Daniel Hugh MERRIWEATHER: UBO']);
    assert.equal((await ownershipOf(t, partner, uboOnly.lookupRequestId)).completeness, 'HIGH');
  });
});

describe('webhook payloads', () => {
  it('business-lookup.completed carries exactly SPEC’s fields: one idv entity per party, no names or roles', async () => {
    const own = await t.f.partner();
    const lookup = await settledLookup(t, own, { abn: '54222222228' });
    const events = await eventsOf(t, own.partnerId, 'business-lookup.');
    assert.deepEqual(events.map((e) => e.type), ['business-lookup.completed']);
    const parties = [...new Set(lookup.individuals.map((i) => i.idvEntityId))];
    assert.equal(parties.length, 3);
    assert.deepEqual(events[0]!.payload, {
      lookupRequestId: lookup.lookupRequestId,
      channelPartnerId: own.partnerId,
      entity: { name: 'WATTLE CREEK LOGISTICS PTY LTD', type: 'COMPANY' },
      individuals: parties.map((idvEntityId) => ({ idvEntityId })),
    });
  });

  it('individuals is present and empty when no party was found', async () => {
    const own = await t.f.partner();
    const lookup = await settledLookup(t, own, { abn: '15900000003' });
    const [event] = await eventsOf(t, own.partnerId, 'business-lookup.');
    assert.deepEqual(event!.payload, {
      lookupRequestId: lookup.lookupRequestId,
      channelPartnerId: own.partnerId,
      entity: { name: 'D K FAIRWEATHER & S L MONTGOMERY', type: 'PARTNERSHIP' },
      individuals: [],
    });
  });
});

describe('a register that is down', () => {
  it('is tried again by the job: 51 824 753 556 answers on the third attempt and the lookup completes once', async () => {
    const own = await t.f.partner();
    const res = await postLookup(t, own, { abn: '51 824 753 556' });
    const id = res.json<{ lookupRequestId: string }>().lookupRequestId;
    await runDueJobs(t);
    assert.equal((await getLookup(t, own, id)).status, 'PENDING', 'attempt 1: unavailable');
    clock.advance(5_000);
    await runDueJobs(t);
    assert.equal((await getLookup(t, own, id)).status, 'PENDING', 'attempt 2: unavailable');
    clock.advance(20_000);
    await runDueJobs(t);
    const done = await getLookup(t, own, id);
    assert.equal(done.status, 'COMPLETED');
    assert.equal((await eventsOf(t, own.partnerId, 'business-lookup.')).length, 1);
    assert.equal((await chargesFor(id))[0]!.status, 'BILLED');
  });

  it('66 900 000 005 stays unavailable: FAILED REGISTER_UNAVAILABLE after the fourth attempt, not billed', async () => {
    const own = await t.f.partner();
    const res = await postLookup(t, own, { abn: '66900000005' });
    const id = res.json<{ lookupRequestId: string }>().lookupRequestId;
    for (const wait of [0, 5_000, 20_000]) {
      clock.advance(wait);
      await runDueJobs(t);
      assert.equal((await getLookup(t, own, id)).status, 'PENDING');
    }
    clock.advance(60_000);
    await runDueJobs(t);
    const failed = await getLookup(t, own, id);
    assert.deepEqual([failed.status, failed.failureReason], ['FAILED', 'REGISTER_UNAVAILABLE']);
    assert.equal((await chargesFor(id))[0]!.status, 'VOID');
    const events = await eventsOf(t, own.partnerId, 'business-lookup.');
    assert.deepEqual(events.map((e) => e.payload), [{ lookupRequestId: id, channelPartnerId: own.partnerId, failureReason: 'REGISTER_UNAVAILABLE' }]);
    const [job] = await t.services.db.query<{ status: string; attempts: number }>(`SELECT status, attempts FROM jobs WHERE key = $1`, [`lookup:${id}`]);
    assert.deepEqual(job, { status: 'SUCCEEDED', attempts: 4 });
  });
});
