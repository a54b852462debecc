// Verification requests as a partner makes them: every create row of CONTRACT §6's state table, every
// lookup binding error with its code, status and pointer, the refusal of personal data anywhere in the
// body, role mapping, structure confirmation, adding people, minting links (replacement, the URL once,
// only its HMAC kept), tenancy, lists, and the created/added events.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createKeyRing } from '../../src/platform/keys/key-ring.ts';
import { billableContact, createContact } from '../helpers/billing.ts';
import { createTestContext, testSecretKey, type TestContext, type TestPartner } from '../helpers/context.ts';
import { postLookup, settledLookup } from '../helpers/lookups.ts';

let t: TestContext;
let partner: TestPartner;
let other: TestPartner;
/** CONTRACT §13: one director who owns 100 % and a second director. */
let simpleLookup: string;
/** Three owners at 40/30/30 %. */
let layeredLookup: string;

before(async () => {
  t = await createTestContext();
  partner = await t.f.partner();
  other = await t.f.partner();
  simpleLookup = (await settledLookup(t, partner, { abn: '32 111 111 114' })).lookupRequestId;
  layeredLookup = (await settledLookup(t, partner, { abn: '54 222 222 228' })).lookupRequestId;
});
after(() => t.close());

interface Individual {
  id: string;
  externalId: string | null;
  idvEntityId: string | null;
  role: string;
  roleDescription: string | null;
  status: string;
  attemptCount: number;
  maxAttempts: number;
  manualOverride: boolean;
}
interface Verification {
  id: string;
  mode: string;
  status: string;
  lookupRequestId: string | null;
  entityName: string | null;
  contactId: string | null;
  structureConfirmed: boolean;
  riskLevel: string;
  issueList: unknown[];
  checkResults: unknown[];
  individuals: Individual[];
}

const create = (payload: Record<string, unknown>, who: TestPartner = partner) => t.app.inject({ method: 'POST', url: '/v1/verifications', headers: who.headers, payload });
const created = async (payload: Record<string, unknown>, who: TestPartner = partner) => {
  const res = await create(payload, who);
  assert.equal(res.statusCode, 201, res.body);
  return res.json<Verification>();
};
const lookupParties = async (id: string) =>
  (await t.app.inject({ method: 'GET', url: `/v1/business-lookups/${id}`, headers: partner.headers })).json<{ individuals: Array<{ idvEntityId: string; role: string }>; entity: { name: string } }>();
const events = (id: string) => t.services.db.query<{ type: string; payload: Record<string, unknown> }>('SELECT type, payload FROM events WHERE subject_id = $1 ORDER BY id', [id]);

describe('creating a request: the state table', () => {
  it('bound to a COMPLETED lookup: READY_TO_SEND, one individual per person with the most significant role', async () => {
    const lookup = await lookupParties(simpleLookup);
    const v = await created({ mode: 'AUSTRAC_CDD', lookupRequestId: simpleLookup });
    assert.equal(v.status, 'READY_TO_SEND');
    assert.equal(v.lookupRequestId, simpleLookup);
    assert.equal(v.entityName, lookup.entity.name, 'the lookup’s name by default');
    assert.equal(v.structureConfirmed, true);
    const people = new Set(lookup.individuals.map((i) => i.idvEntityId));
    assert.equal(v.individuals.length, people.size, 'one per person, not per role');
    const owner = lookup.individuals.find((i) => i.role === 'UBO')!;
    const ownerIndividual = v.individuals.find((i) => i.idvEntityId === owner.idvEntityId)!;
    assert.equal(ownerIndividual.role, 'UBO', 'UBO over DIRECTOR');
    assert.match(ownerIndividual.roleDescription ?? '', /DIRECTOR/);
    for (const i of v.individuals) {
      assert.deepEqual([i.status, i.attemptCount, i.maxAttempts, i.manualOverride], ['PENDING', 0, 3, false]);
    }
    assert.deepEqual(
      (await events(v.id)).map((e) => e.type),
      ['verification.request.created', ...v.individuals.map(() => 'verification.individual.added')],
    );
    assert.deepEqual((await events(v.id))[0]!.payload, { verificationRequestId: v.id, mode: 'AUSTRAC_CDD', status: 'READY_TO_SEND', lookupRequestId: simpleLookup });
  });

  it('bound with individuals[]: only the listed parties, with their externalId and a role of your choosing', async () => {
    const lookup = await lookupParties(layeredLookup);
    const first = lookup.individuals[0]!;
    const v = await created({ mode: 'AUSTRAC_CDD', lookupRequestId: layeredLookup, individuals: [{ idvEntityId: first.idvEntityId, externalId: 'client-42', role: 'senior_managing_official' }] });
    assert.equal(v.individuals.length, 1);
    assert.deepEqual([v.individuals[0]!.idvEntityId, v.individuals[0]!.externalId, v.individuals[0]!.role], [first.idvEntityId, 'client-42', 'SENIOR_MANAGING_OFFICIAL']);
    const added = (await events(v.id)).find((e) => e.type === 'verification.individual.added')!;
    assert.deepEqual(added.payload, { verificationRequestId: v.id, individualId: v.individuals[0]!.id, externalId: 'client-42', role: 'SENIOR_MANAGING_OFFICIAL', status: 'PENDING' });
  });

  it('hand-built AUSTRAC_CDD: UBO_REVIEW, or READY_TO_SEND when structureConfirmed; TPB_POI: DRAFT', async () => {
    const review = await created({ mode: 'AUSTRAC_CDD', entityName: 'Harbour Holdings', individuals: [{ role: 'DIRECTOR' }, { role: 'Chief Wizard', roleDescription: 'runs the place' }] });
    assert.deepEqual([review.status, review.lookupRequestId, review.entityName, review.structureConfirmed], ['UBO_REVIEW', null, 'Harbour Holdings', false]);
    assert.deepEqual(review.individuals.map((i) => [i.role, i.roleDescription, i.idvEntityId]), [
      ['DIRECTOR', null, null],
      ['OTHER', 'runs the place', null],
    ]);
    assert.equal((await created({ mode: 'AUSTRAC_CDD', structureConfirmed: true, individuals: [{ role: 'UBO' }] })).status, 'READY_TO_SEND');
    assert.equal((await created({ mode: 'TPB_POI', individuals: [{ role: 'INDIVIDUAL_OWNER' }] })).status, 'DRAFT');
    assert.equal((await created({ mode: 'TPB_POI' })).individuals.length, 0, 'mode is the only required field');
  });

  it('ignores a channelPartnerId in the body', async () => {
    const v = await created({ mode: 'TPB_POI', channelPartnerId: other.partnerId });
    assert.equal((await t.app.inject({ method: 'GET', url: `/v1/verifications/${v.id}`, headers: partner.headers })).statusCode, 200);
    assert.equal((await t.app.inject({ method: 'GET', url: `/v1/verifications/${v.id}`, headers: other.headers })).statusCode, 404);
  });
});

describe('creating a request: what is refused', () => {
  it('a name, email or phone anywhere in the body, with its pointer', async () => {
    const res = await create({ mode: 'TPB_POI', firstName: 'Jo', individuals: [{ role: 'DIRECTOR', lastName: 'Citizen', email: 'jo@example.com' }, { role: 'UBO', phone: '0400000000' }] });
    assert.equal(res.statusCode, 400);
    const problem = res.json<{ code: string; errors: Array<{ pointer: string; message: string }> }>();
    assert.equal(problem.code, 'VALIDATION_ERROR');
    assert.deepEqual(problem.errors.map((e) => e.pointer), ['/firstName', '/individuals/0/lastName', '/individuals/0/email', '/individuals/1/phone']);
    assert.match(problem.errors[0]!.message, /personal data/);
    const [count] = await t.services.db.query<{ n: number }>('SELECT count(*)::int AS n FROM verification_requests WHERE partner_id = $1 AND mode = $2 AND entity_name IS NULL', [partner.partnerId, 'x']);
    assert.equal(count!.n, 0);
  });

  it('the lookup binding errors of CONTRACT §6, each with its code, status and pointer', async () => {
    const asicOnly = (await settledLookup(t, partner, { abn: '32 111 111 114', scope: 'ASIC_ONLY' })).lookupRequestId;
    const theirs = (await settledLookup(t, other, { abn: '32 111 111 114' })).lookupRequestId;
    const failed = (await settledLookup(t, partner, { abn: '85 900 000 004' })).lookupRequestId;
    const pending = (await postLookup(t, partner, { abn: '54 222 222 228' })).json<{ lookupRequestId: string }>().lookupRequestId;
    const cases: Array<[string, number, string, string]> = [
      [asicOnly, 400, 'VALIDATION_ERROR', '/lookupRequestId'],
      [theirs, 403, 'LOOKUP_NOT_OWNED', '/lookupRequestId'],
      ['lkp_01JD0000000000000000000000', 403, 'LOOKUP_NOT_OWNED', '/lookupRequestId'],
      [failed, 409, 'LOOKUP_NOT_COMPLETED', '/lookupRequestId'],
      [pending, 409, 'LOOKUP_NOT_COMPLETED', '/lookupRequestId'],
    ];
    for (const [lookupRequestId, status, code, pointer] of cases) {
      const res = await create({ mode: 'AUSTRAC_CDD', lookupRequestId });
      assert.equal(res.statusCode, status, `${lookupRequestId}: ${res.body}`);
      assert.equal(res.json<{ code: string }>().code, code);
      assert.equal(res.json<{ errors: Array<{ pointer: string }> }>().errors[0]!.pointer, pointer);
    }
  });

  it('a party that is not on the lookup, or listed twice, at /individuals/N/idvEntityId', async () => {
    const lookup = await lookupParties(simpleLookup);
    const party = lookup.individuals[0]!.idvEntityId;
    const res = await create({
      mode: 'AUSTRAC_CDD',
      lookupRequestId: simpleLookup,
      individuals: [{ idvEntityId: party }, { idvEntityId: 'ent_01JD0000000000000000000000' }, { idvEntityId: party }, { role: 'UBO' }],
    });
    assert.equal(res.statusCode, 400);
    assert.deepEqual(res.json<{ errors: Array<{ pointer: string }> }>().errors.map((e) => e.pointer), [
      '/individuals/1/idvEntityId',
      '/individuals/2/idvEntityId',
      '/individuals/3/idvEntityId',
    ]);
    const handBuilt = await create({ mode: 'AUSTRAC_CDD', individuals: [{ idvEntityId: party }] });
    assert.equal(handBuilt.statusCode, 400);
    assert.match(handBuilt.json<{ errors: Array<{ message: string }> }>().errors[0]!.message, /only for a request bound to a lookup/);
  });

  it('a contact that cannot be billed, through the billing gate, before anything is written', async () => {
    const noCard = await createContact(t, partner);
    const res = await create({ mode: 'TPB_POI', contactId: noCard.id });
    assert.equal(res.statusCode, 402);
    assert.equal(res.json<{ code: string }>().code, 'PAYMENT_METHOD_REQUIRED');
    const billable = await billableContact(t, partner);
    assert.equal((await created({ mode: 'TPB_POI', contactId: billable.id })).contactId, billable.id);
  });
});

describe('structure confirmation and adding people', () => {
  it('UBO_REVIEW → READY_TO_SEND → (an individual added) UBO_REVIEW → READY_TO_SEND', async () => {
    const v = await created({ mode: 'AUSTRAC_CDD', individuals: [{ role: 'DIRECTOR' }] });
    const confirm = (confirmed: boolean) => t.app.inject({ method: 'PUT', url: `/v1/verifications/${v.id}/structure-confirmation`, headers: partner.headers, payload: { confirmed } });
    assert.equal((await confirm(true)).json<Verification>().status, 'READY_TO_SEND');
    const added = await t.app.inject({ method: 'POST', url: `/v1/verifications/${v.id}/individuals`, headers: partner.headers, payload: { role: 'UBO', externalId: 'owner-1' } });
    assert.equal(added.statusCode, 201, added.body);
    assert.deepEqual([added.json<Individual>().role, added.json<Individual>().externalId, added.json<Individual>().status], ['UBO', 'owner-1', 'PENDING']);
    const after = (await t.app.inject({ method: 'GET', url: `/v1/verifications/${v.id}`, headers: partner.headers })).json<Verification>();
    assert.deepEqual([after.status, after.individuals.length], ['UBO_REVIEW', 2]);
    assert.equal((await confirm(true)).json<Verification>().status, 'READY_TO_SEND');
    assert.equal((await confirm(false)).json<Verification>().status, 'UBO_REVIEW');
  });

  it('refuses names when adding, and unconfirming a lookup-bound structure', async () => {
    const v = await created({ mode: 'AUSTRAC_CDD', lookupRequestId: simpleLookup });
    const named = await t.app.inject({ method: 'POST', url: `/v1/verifications/${v.id}/individuals`, headers: partner.headers, payload: { role: 'UBO', firstName: 'Jo' } });
    assert.equal(named.statusCode, 400);
    assert.equal(named.json<{ errors: Array<{ pointer: string }> }>().errors[0]!.pointer, '/firstName');
    const unconfirm = await t.app.inject({ method: 'PUT', url: `/v1/verifications/${v.id}/structure-confirmation`, headers: partner.headers, payload: { confirmed: false } });
    assert.equal(unconfirm.statusCode, 409);
  });
});

describe('links', () => {
  it('are refused in UBO_REVIEW with STRUCTURE_NOT_CONFIRMED', async () => {
    const v = await created({ mode: 'AUSTRAC_CDD', individuals: [{ role: 'DIRECTOR' }] });
    const res = await t.app.inject({ method: 'POST', url: `/v1/verifications/${v.id}/links`, headers: partner.headers, payload: {} });
    assert.equal(res.statusCode, 409);
    assert.equal(res.json<{ code: string }>().code, 'STRUCTURE_NOT_CONFIRMED');
  });

  it('are minted for every individual (DRAFT → VERIFICATIONS_SENT), answered once, and only their HMAC is kept', async () => {
    const v = await created({ mode: 'TPB_POI', individuals: [{ role: 'INDIVIDUAL_OWNER', externalId: 'p-1' }, { role: 'AUTHORISED_REP' }] });
    const res = await t.app.inject({ method: 'POST', url: `/v1/verifications/${v.id}/links`, headers: partner.headers });
    assert.equal(res.statusCode, 200, res.body);
    const links = res.json<{ individuals: Array<{ id: string; externalId: string | null; verificationUrl: string; expiresAt: string }> }>().individuals;
    assert.deepEqual(links.map((l) => [l.id, l.externalId]), v.individuals.map((i) => [i.id, i.externalId]));
    for (const link of links) assert.match(link.verificationUrl, /^http:\/\/pvs\.test\/v\/[A-Za-z0-9_-]{43}$/);
    const read = (await t.app.inject({ method: 'GET', url: `/v1/verifications/${v.id}`, headers: partner.headers })).json<Verification>();
    assert.equal(read.status, 'VERIFICATIONS_SENT');
    assert.ok(!JSON.stringify(read).includes('/v/'), 'no URL on a read');
    const stored = await t.services.db.query<{ token_hash: string }>('SELECT token_hash FROM verification_links WHERE individual_id = $1', [links[0]!.id]);
    assert.deepEqual(stored.map((s) => s.token_hash), [createKeyRing(testSecretKey).digester('verification-link-tokens').digest(links[0]!.verificationUrl.split('/v/')[1]!)]);
    assert.ok(!(await events(v.id)).some((e) => JSON.stringify(e.payload).includes('/v/')), 'no URL in any event');
  });

  it('minting again for one individual replaces only that individual’s link', async () => {
    const v = await created({ mode: 'TPB_POI', individuals: [{ role: 'DIRECTOR' }, { role: 'DIRECTOR' }] });
    await t.app.inject({ method: 'POST', url: `/v1/verifications/${v.id}/links`, headers: partner.headers });
    const again = await t.app.inject({ method: 'POST', url: `/v1/verifications/${v.id}/links`, headers: partner.headers, payload: { individualIds: [v.individuals[0]!.id] } });
    assert.equal(again.statusCode, 200, again.body);
    const rows = await t.services.db.query<{ individual_id: string; live: boolean }>(
      'SELECT individual_id, (replaced_at IS NULL AND used_at IS NULL) AS live FROM verification_links WHERE individual_id = ANY($1::text[]) ORDER BY created_at, live',
      [v.individuals.map((i) => i.id)],
    );
    assert.equal(rows.filter((r) => r.individual_id === v.individuals[0]!.id && r.live).length, 1);
    assert.equal(rows.filter((r) => r.individual_id === v.individuals[0]!.id && !r.live).length, 1, 'the first link was replaced');
    assert.equal(rows.filter((r) => r.individual_id === v.individuals[1]!.id && r.live).length, 1, 'the other individual’s link still works');
    const unknown = await t.app.inject({ method: 'POST', url: `/v1/verifications/${v.id}/links`, headers: partner.headers, payload: { individualIds: ['ind_01JD0000000000000000000000'] } });
    assert.equal(unknown.statusCode, 400);
    assert.equal(unknown.json<{ errors: Array<{ pointer: string }> }>().errors[0]!.pointer, '/individualIds/0');
  });

  it('a request with nobody to send to is 409', async () => {
    const v = await created({ mode: 'TPB_POI' });
    const res = await t.app.inject({ method: 'POST', url: `/v1/verifications/${v.id}/links`, headers: partner.headers, payload: {} });
    assert.equal(res.statusCode, 409);
    assert.equal(res.json<{ code: string }>().code, 'INVALID_STATE');
  });
});

describe('reading and listing', () => {
  it('lists by page and status; another partner’s request is 404 everywhere', async () => {
    const fresh = await t.f.partner();
    const a = await created({ mode: 'TPB_POI' }, fresh);
    const b = await created({ mode: 'AUSTRAC_CDD', individuals: [{ role: 'UBO' }] }, fresh);
    const list = await t.app.inject({ method: 'GET', url: '/v1/verifications?limit=1', headers: fresh.headers });
    assert.deepEqual(list.json<{ data: Verification[]; nextFrom: number | null }>().data.map((v) => v.id), [a.id]);
    assert.equal(list.json<{ nextFrom: number }>().nextFrom, 1);
    const review = await t.app.inject({ method: 'GET', url: '/v1/verifications?status=UBO_REVIEW', headers: fresh.headers });
    assert.deepEqual(review.json<{ data: Verification[] }>().data.map((v) => v.id), [b.id]);
    for (const [method, url, payload] of [
      ['GET', `/v1/verifications/${a.id}`, undefined],
      ['PUT', `/v1/verifications/${b.id}/structure-confirmation`, { confirmed: true }],
      ['POST', `/v1/verifications/${b.id}/individuals`, { role: 'UBO' }],
      ['POST', `/v1/verifications/${a.id}/links`, {}],
    ] as const) {
      const res = await t.app.inject({ method, url, headers: partner.headers, ...(payload ? { payload } : {}) });
      assert.equal(res.statusCode, 404, `${method} ${url}`);
    }
  });

  it('keeps no name in the request tables', async () => {
    const dump = JSON.stringify(await t.services.db.query('SELECT r.*, i.* FROM verification_requests r JOIN verification_individuals i ON i.request_id = r.id'));
    const names = await t.services.db.query<{ given_names: string; family_name: string }>('SELECT given_names, family_name FROM idv_entities');
    for (const n of names) assert.ok(!dump.includes(n.family_name), `${n.family_name} is in a verification table`);
  });
});
