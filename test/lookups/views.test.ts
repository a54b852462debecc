// Reading a business lookup back: the registry and ownership views (CONTRACT §5 shapes, §13 values and
// completeness), states, tenancy and the list of lookups. Caching and the read budget: read-budget.test.ts.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Lookup, LookupSummary, Ownership } from '../../src/modules/lookups/lookups.schemas.ts';
import { createManualClock } from '../../src/platform/clock.ts';
import { newId } from '../../src/platform/ids.ts';
import type { SandboxRegister } from '../../src/providers/register/sandbox-register.ts';
import { personDetailsOf } from '../../src/providers/register/sandbox/sandbox-synthetic.ts';
import { tablePersons } from '../../src/providers/register/sandbox/sandbox-table.ts';
import { runDueJobs } from '../helpers/billing.ts';
import { createTestContext, type TestContext, type TestPartner } from '../helpers/context.ts';
import { getLookup, ownershipOf, postLookup, readView, registryOf, settledLookup } from '../helpers/lookups.ts';

type Response = Awaited<ReturnType<typeof readView>>;

const clock = createManualClock(new Date('2026-11-21T09:00:00.000Z'));
let t: TestContext;
let partner: TestPartner;

before(async () => {
  t = await createTestContext({ clock });
  partner = await t.f.partner({ name: 'Views & Co' });
});
after(() => t.close());

/** The sandbox's live personal details of a table person (CONTRACT §13 companies). */
const detailsOf = (partyRef: string) => personDetailsOf(tablePersons.get(partyRef)!);
const fullName = (o: Ownership['beneficialOwners'][number]) => `${o.name.givenNames} ${o.name.familyName}`;

async function readsSpent(context: TestContext, lookupId: string): Promise<number> {
  const rows = await context.services.db.query<{ reads: number }>('SELECT coalesce(sum(reads), 0)::int AS reads FROM lookup_reads WHERE lookup_id = $1', [lookupId]);
  return rows[0]!.reads;
}

function problemOf(res: Response) {
  assert.match(String(res.headers['content-type']), /^application\/problem\+json/);
  return res.json<{ code: string; status: number; detail: string; type: string; title: string; requestId: string }>();
}

/** SPEC's completeness rules, written out again from the view's own fields, in their order of precedence. */
function completenessBySpec(o: Ownership): string {
  if (o.traversalComplete === null || o.reason === 'UNKNOWN' || o.nodes.length === 0 || o.ownershipSource !== 'AVAILABLE') return 'UNKNOWN';
  if (o.blockedNodes.length > 0 || o.unlinkedOwners.length > 0 || o.truncated) return 'PARTIAL';
  if (o.complete && o.unlinkedOwners.length === 0) return 'HIGH';
  return 'none of SPEC’s rules';
}

describe('registry view', () => {
  it('54 222 222 228: the CONTRACT §5 shape with the register facts, retrieved when the lookup completed', async () => {
    const posted = await postLookup(t, partner, { abn: '54 222 222 228' });
    const id = posted.json<{ lookupRequestId: string }>().lookupRequestId;
    clock.advance(4_000);
    await runDueJobs(t);
    const record = await getLookup(t, partner, id);
    assert.equal(record.status, 'COMPLETED');
    assert.equal(record.completedAt, '2026-11-21T09:00:04.000Z');
    clock.advance(60_000);

    assert.deepEqual(await registryOf(t, partner, id), {
      lookupRequestId: id,
      retrievedAt: record.completedAt,
      abr: {
        abn: '54222222228', status: 'ACTIVE', statusFrom: '2009-11-02', entityName: 'WATTLE CREEK LOGISTICS PTY LTD', entityType: 'COMPANY',
        gstRegisteredFrom: '2009-12-01', businessNames: ['Wattle Creek Freight'], state: 'VIC', postcode: '3029',
      },
      asic: { acn: '222222228', name: 'WATTLE CREEK LOGISTICS PTY LTD', type: 'APTY', class: 'LMSH', status: 'REGD', registeredOn: '2009-11-02', deregisteredOn: null },
      officersSource: 'AVAILABLE',
    });
  });

  it('66 999 999 996: a cancelled ABN and a deregistered company', async () => {
    const lookup = await settledLookup(t, partner, { abn: '66999999996' });
    assert.equal(lookup.status, 'COMPLETED');
    const registry = await registryOf(t, partner, lookup.lookupRequestId);
    assert.deepEqual(registry.abr, {
      abn: '66999999996', status: 'CANCELLED', statusFrom: '2021-04-30', entityName: 'PADDLEWHEEL CATERING PTY LTD', entityType: 'COMPANY',
      gstRegisteredFrom: null, businessNames: [], state: 'SA', postcode: '5253',
    });
    assert.deepEqual(registry.asic, { acn: '999999996', name: 'PADDLEWHEEL CATERING PTY LTD', type: 'APTY', class: 'LMSH', status: 'DRGD', registeredOn: '2008-04-14', deregisteredOn: '2021-03-28' });
  });

  it('53 900 000 001: a sole trader has no company record', async () => {
    const lookup = await settledLookup(t, partner, { abn: '53900000001' });
    const registry = await registryOf(t, partner, lookup.lookupRequestId);
    assert.equal(registry.asic, null);
    assert.equal(registry.officersSource, 'NOT_REQUESTED');
    assert.deepEqual(registry.abr, {
      abn: '53900000001', status: 'ACTIVE', statusFrom: '2018-01-15', entityName: 'ABERCROMBIE, FIONA MAREE', entityType: 'SOLE_TRADER',
      gstRegisteredFrom: null, businessNames: ['Fiona Abercrombie Photography'], state: 'TAS', postcode: '7250',
    });
  });
});

describe('ownership view of 54 222 222 228', () => {
  let lookup: Lookup;
  const refs = { kingsley: 'SBX-222222228-1', fairbairn: 'SBX-333333332-1', merriweather: 'SBX-333333332-2' };
  before(async () => (lookup = await settledLookup(t, partner, { abn: '54222222228' })));

  it('two levels of nodes and edges; owners at 40/30/30 joined to the record’s individuals by idvEntityId', async () => {
    const view = await ownershipOf(t, partner, lookup.lookupRequestId);
    assert.equal(view.structureAsOf, lookup.completedAt);
    assert.deepEqual([view.ownershipSource, view.completeness, view.reason, view.complete, view.truncated], ['AVAILABLE', 'HIGH', 'COMPLETE', true, false]);
    const nameOf = new Map(view.nodes.map((n) => [n.id, n.name]));
    assert.deepEqual(view.edges.map((e) => [nameOf.get(e.ownerId), nameOf.get(e.ownedId), e.percent]), [
      ['Oliver James KINGSLEY', 'WATTLE CREEK LOGISTICS PTY LTD', 40],
      ['FAIRBAIRN MERRIWEATHER HOLDINGS PTY LTD', 'WATTLE CREEK LOGISTICS PTY LTD', 60],
      ['Priscilla Mary FAIRBAIRN', 'FAIRBAIRN MERRIWEATHER HOLDINGS PTY LTD', 50],
      ['Daniel Hugh MERRIWEATHER', 'FAIRBAIRN MERRIWEATHER HOLDINGS PTY LTD', 50],
    ]);
    // Companies carry their numbers, so that the partner can tell which company holds what; people do not.
    assert.deepEqual(view.nodes.map((n) => [n.kind, n.acn, n.abn]), [
      ['COMPANY', '222222228', '54222222228'],
      ['PERSON', null, null],
      ['COMPANY', '333333332', '88333333332'],
      ['PERSON', null, null],
      ['PERSON', null, null],
    ]);
    assert.deepEqual(view.beneficialOwners.map((o) => [fullName(o), o.ownershipPercent]), [
      ['Oliver James KINGSLEY', 40],
      ['Priscilla Mary FAIRBAIRN', 30],
      ['Daniel Hugh MERRIWEATHER', 30],
    ]);

    const ubos = lookup.individuals.filter((i) => i.role === 'UBO');
    assert.deepEqual(
      view.beneficialOwners.map((o) => [o.idvEntityId, fullName(o), o.ownershipPercent]),
      ubos.map((i) => [i.idvEntityId, i.name, i.ownershipPercent]),
    );
    for (const owner of view.beneficialOwners) {
      assert.match(owner.idvEntityId, /^ent_/);
      const node = view.nodes.find((n) => n.kind === 'PERSON' && n.name === fullName(owner));
      assert.equal(node?.idvEntityId, owner.idvEntityId, `the ${fullName(owner)} node carries the owner's idvEntityId`);
    }
    // Fairbairn also directs the company: one party, one idvEntityId in both roles.
    const fairbairn = lookup.individuals.filter((i) => i.name === 'Priscilla Mary FAIRBAIRN');
    assert.deepEqual(fairbairn.map((i) => i.role).sort(), ['DIRECTOR', 'UBO']);
    assert.equal(new Set(fairbairn.map((i) => i.idvEntityId)).size, 1);
  });

  it('owners’ dates of birth and addresses are read live and never stored; nothing of the provider shows', async () => {
    const sandbox = t.services.registers.reports as SandboxRegister;
    const callsBefore = sandbox.calls().filter((c) => c.method === 'personDetails').length;
    const res = await readView(t, partner, lookup.lookupRequestId, 'ownership');
    assert.equal(sandbox.calls().filter((c) => c.method === 'personDetails').length, callsBefore + 1, 'one live read per answer');
    const view = res.json<Ownership>();
    assert.equal(view.personalDetails, 'AVAILABLE');
    const expected = [refs.kingsley, refs.fairbairn, refs.merriweather].map(detailsOf);
    assert.deepEqual(
      view.beneficialOwners.map((o) => ({ name: o.name, dateOfBirth: o.dateOfBirth, address: o.address })),
      expected.map((d) => ({ name: { givenNames: d.givenNames, familyName: d.familyName }, dateOfBirth: d.dateOfBirth, address: d.address })),
    );
    for (const owner of view.beneficialOwners) assert.match(owner.dateOfBirth ?? '', /^\d{4}-\d{2}-\d{2}$/);

    const record = await t.app.inject({ method: 'GET', url: `/v1/business-lookups/${lookup.lookupRequestId}`, headers: partner.headers });
    const registry = await readView(t, partner, lookup.lookupRequestId, 'registry');
    for (const [what, text] of [['ownership', res.body], ['registry', registry.body], ['record', record.body]]) {
      assert.doesNotMatch(text!, /SBX-/, `${what}: no provider party references`);
      assert.doesNotMatch(text!, /\b(company|person|trust):/, `${what}: no provider node ids`);
      assert.doesNotMatch(text!, /partyRef|party_ref/, `${what}: no provider fields`);
    }
    assert.ok(view.nodes.every((n) => /^n\d+$/.test(n.id)), JSON.stringify(view.nodes.map((n) => n.id)));

    const [stored] = await t.services.db.query<{ ownership: unknown; registry: unknown }>('SELECT ownership, registry FROM business_lookups WHERE id = $1', [lookup.lookupRequestId]);
    const entities = await t.services.db.query('SELECT * FROM idv_entities WHERE lookup_id = $1', [lookup.lookupRequestId]);
    const storedText = JSON.stringify([stored, entities]);
    assert.ok(stored?.ownership, 'the structure is stored');
    for (const d of expected) {
      assert.ok(!storedText.includes(d.dateOfBirth!), `${d.familyName}'s date of birth is not stored`);
      assert.ok(!storedText.includes(d.address!.line1), `${d.familyName}'s address is not stored`);
    }
    assert.doesNotMatch(storedText, /dateOfBirth|date_of_birth|"address"|line1/);
    assert.doesNotMatch(JSON.stringify(stored), /\b(company|person|trust):/, 'provider node ids are not kept in the structure');
  });

  it('screens owners: UNAVAILABLE with no list; a list naming one as PEP makes a possible match under a new ETag', async () => {
    const unscreened = await readView(t, partner, lookup.lookupRequestId, 'ownership');
    assert.deepEqual(
      unscreened.json<Ownership>().beneficialOwners.map((o) => o.screening),
      [0, 1, 2].map(() => ({ status: 'UNAVAILABLE', categories: [] })),
    );

    const kingsley = detailsOf(refs.kingsley);
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'pvs-views-')), 'pep.csv');
    writeFileSync(file, ['id,kind,name,aliases,dateOfBirth,countries,categories,source', `pvs-t-kingsley,person,Oliver James KINGSLEY,,${kingsley.dateOfBirth},AU,PEP,Test list`, ''].join('\n'));
    const imported = await t.services.screening.importList({ format: 'csv', filePath: file, list: 'views-test' });
    assert.equal(imported.unchanged, false);

    const stale = await readView(t, partner, lookup.lookupRequestId, 'ownership', { 'if-none-match': String(unscreened.headers.etag) });
    assert.equal(stale.statusCode, 200, 'a new list version is a new answer: the old ETag no longer matches');
    assert.notEqual(stale.headers.etag, unscreened.headers.etag);
    assert.deepEqual(
      stale.json<Ownership>().beneficialOwners.map((o) => [fullName(o), o.screening]),
      [
        ['Oliver James KINGSLEY', { status: 'POSSIBLE_MATCH', categories: ['PEP'] }],
        ['Priscilla Mary FAIRBAIRN', { status: 'CLEAR', categories: [] }],
        ['Daniel Hugh MERRIWEATHER', { status: 'CLEAR', categories: [] }],
      ],
    );
    assert.doesNotMatch(stale.body, /pvs-t-kingsley|Test list/, 'the summary names no list entry');
  });
});

describe('completeness (CONTRACT §13)', () => {
  const cases: Array<{ body: Record<string, unknown>; expect: Partial<Ownership>; owners: Array<[string, number]> }> = [
    {
      body: { acn: '111 111 114' },
      expect: { ownershipSource: 'AVAILABLE', complete: true, truncated: false, traversalComplete: true, reason: 'COMPLETE', completeness: 'HIGH', blockedNodes: [], unlinkedOwners: [] },
      owners: [['Harriet Jane PENROSE', 100]],
    },
    {
      body: { acn: '444 444 446' },
      expect: { ownershipSource: 'AVAILABLE', complete: false, truncated: false, reason: 'BLOCKED_NODES', completeness: 'PARTIAL', unlinkedOwners: [] },
      owners: [['Lachlan Peter BRADSHAW', 50]],
    },
    {
      body: { acn: '555 555 550' },
      expect: { ownershipSource: 'AVAILABLE', complete: false, truncated: true, traversalComplete: false, reason: 'TRUNCATED', completeness: 'PARTIAL', blockedNodes: [], unlinkedOwners: [] },
      owners: [],
    },
    {
      body: { acn: '666 666 664' },
      expect: { ownershipSource: 'AVAILABLE', complete: false, truncated: false, reason: 'UNLINKED_OWNERS', completeness: 'PARTIAL', blockedNodes: [] },
      owners: [['Beatrice Anne LINDQVIST', 70]],
    },
    {
      body: { acn: '777 777 778' },
      expect: { ownershipSource: 'UNAVAILABLE', complete: false, traversalComplete: null, reason: 'SOURCE_UNAVAILABLE', completeness: 'UNKNOWN', nodes: [], edges: [], personalDetails: 'NOT_APPLICABLE' },
      owners: [],
    },
    {
      body: { acn: '888 888 882' },
      expect: { ownershipSource: 'AVAILABLE', complete: false, traversalComplete: null, reason: 'UNKNOWN', completeness: 'UNKNOWN', nodes: [], edges: [] },
      owners: [],
    },
    {
      body: { abn: '54 222 222 228', scope: 'ASIC_ONLY' },
      expect: { ownershipSource: 'NOT_REQUESTED', complete: false, traversalComplete: null, reason: 'NOT_REQUESTED', completeness: 'UNKNOWN', nodes: [], edges: [] },
      owners: [],
    },
  ];
  for (const { body, expect, owners } of cases) {
    it(`${JSON.stringify(body)}: ${expect.completeness} (${expect.reason})`, async () => {
      const lookup = await settledLookup(t, partner, body);
      assert.equal(lookup.status, 'COMPLETED');
      const view = await ownershipOf(t, partner, lookup.lookupRequestId);
      assert.deepEqual(Object.fromEntries(Object.keys(expect).map((k) => [k, view[k as keyof Ownership]])), expect);
      assert.equal(view.completeness, completenessBySpec(view), 'the completeness follows SPEC’s rules from the view’s own fields');
      assert.deepEqual(view.beneficialOwners.map((o) => [fullName(o), o.ownershipPercent]), owners);
    });
  }

  it('names the trust as the blocked node and the initials-only holder as the unlinked owner', async () => {
    const trust = await ownershipOf(t, partner, (await settledLookup(t, partner, { acn: '444444446' })).lookupRequestId);
    assert.deepEqual(
      trust.blockedNodes.map(({ kind, name, ownershipPercent }) => ({ kind, name, ownershipPercent })),
      [{ kind: 'TRUST', name: 'ASHCOMBE NOMINEES PTY LTD ATF THE BRADSHAW FAMILY TRUST', ownershipPercent: 50 }],
    );
    assert.ok(trust.nodes.some((n) => n.id === trust.blockedNodes[0]!.nodeId && n.kind === 'TRUST'));
    const unlinked = await ownershipOf(t, partner, (await settledLookup(t, partner, { acn: '666666664' })).lookupRequestId);
    const root = unlinked.nodes.find((n) => n.name === 'GALAH GROVE VINEYARDS PTY LTD')!;
    assert.deepEqual(unlinked.unlinkedOwners, [{ name: 'M. R. ABERNATHY', ownedId: root.id, percent: 30 }]);
  });
});

describe('states and tenancy', () => {
  it('a PENDING lookup’s views are 409 INVALID_STATE and spend nothing', async () => {
    const id = (await postLookup(t, partner, { abn: '54222222228' })).json<{ lookupRequestId: string }>().lookupRequestId;
    for (const view of ['registry', 'ownership'] as const) {
      const res = await readView(t, partner, id, view);
      assert.deepEqual([res.statusCode, problemOf(res).code], [409, 'INVALID_STATE']);
      assert.match(problemOf(res).detail, /PENDING/);
    }
    assert.equal(await readsSpent(t, id), 0);
    await runDueJobs(t);
    assert.equal((await readView(t, partner, id, 'registry')).statusCode, 200);
  });

  it('a FAILED lookup’s views are 409 INVALID_STATE', async () => {
    const lookup = await settledLookup(t, partner, { abn: '85 900 000 004' });
    assert.deepEqual([lookup.status, lookup.failureReason], ['FAILED', 'NOT_FOUND']);
    for (const view of ['registry', 'ownership'] as const) {
      const res = await readView(t, partner, lookup.lookupRequestId, view);
      assert.deepEqual([res.statusCode, problemOf(res).code], [409, 'INVALID_STATE']);
    }
  });

  it('another partner’s lookup is 404 NOT_FOUND on every route, exactly like an id that does not exist', async () => {
    const lookup = await settledLookup(t, partner, { abn: '54222222228' });
    const stranger = await t.f.partner({ name: 'Stranger' });
    const unknown = newId('lookup', clock.now().getTime());
    const as = (res: Response, id: string) => ({ ...problemOf(res), requestId: undefined, detail: problemOf(res).detail.replaceAll(id, '{id}') });
    for (const suffix of ['', '/registry', '/ownership']) {
      const get = (id: string) => t.app.inject({ method: 'GET', url: `/v1/business-lookups/${id}${suffix}`, headers: stranger.headers });
      const theirs = await get(lookup.lookupRequestId);
      assert.equal(theirs.statusCode, 404, suffix);
      assert.equal(problemOf(theirs).code, 'NOT_FOUND');
      assert.doesNotMatch(theirs.body, /WATTLE|KINGSLEY/);
      assert.deepEqual(as(theirs, lookup.lookupRequestId), as(await get(unknown), unknown), `${suffix || 'record'}: same answer as an unknown id`);
    }
    const list = await t.app.inject({ method: 'GET', url: '/v1/business-lookups', headers: stranger.headers });
    assert.deepEqual(list.json(), { data: [], limit: 20, from: 0, nextFrom: null });
  });

  it('lists only the partner’s own lookups, newest first, filtered by status, without individuals', async () => {
    const lister = await t.f.partner({ name: 'Lister' });
    const other = await t.f.partner({ name: 'Other' });
    const post = async (who: TestPartner, abn: string) => {
      clock.advance(1_000);
      return (await postLookup(t, who, { abn })).json<{ lookupRequestId: string }>().lookupRequestId;
    };
    const completed = await post(lister, '32111111114');
    const failed = await post(lister, '85900000004');
    await post(other, '32111111114');
    await runDueJobs(t);
    const pending = await post(lister, '54222222228');

    const list = (query = '') => t.app.inject({ method: 'GET', url: `/v1/business-lookups${query}`, headers: lister.headers });
    const page = (await list()).json<{ data: LookupSummary[]; limit: number; from: number; nextFrom: number | null }>();
    assert.deepEqual(Object.keys(page).sort(), ['data', 'from', 'limit', 'nextFrom']);
    assert.deepEqual(page.data.map((l) => [l.lookupRequestId, l.status]), [[pending, 'PENDING'], [failed, 'FAILED'], [completed, 'COMPLETED']]);
    assert.ok(page.data.every((l) => !('individuals' in l)), 'list items carry no individuals');
    assert.equal(page.data[2]!.entity?.name, 'BLUEGUM ORCHARDS PTY LTD');

    const ids = async (query: string) => (await list(query)).json<{ data: LookupSummary[] }>().data.map((l) => l.lookupRequestId);
    assert.deepEqual(await ids('?status=COMPLETED'), [completed]);
    assert.deepEqual(await ids('?status=FAILED'), [failed]);
    assert.deepEqual(await ids('?status=PENDING'), [pending]);
    const first = (await list('?limit=2')).json<{ data: LookupSummary[]; nextFrom: number | null }>();
    assert.deepEqual([first.data.map((l) => l.lookupRequestId), first.nextFrom], [[pending, failed], 2]);
    assert.deepEqual(await ids('?limit=2&from=2'), [completed]);
  });
});
