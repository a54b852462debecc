// The evidence endpoints as a partner reads them (SPEC rule 1): every status of both (before any attempt,
// after a pass, with the kill switch, with the provider down), includeScans=false, a name on the list,
// tenancy, the audit trail an operator reads, and nothing of what was read kept in any table or log line.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { sandboxScreeningFixture } from '../../src/cli/serve.ts';
import { createManualClock } from '../../src/platform/clock.ts';
import { runDueJobs } from '../helpers/billing.ts';
import { createTestContext, type TestContext, type TestOperator, type TestPartner } from '../helpers/context.ts';
import { placesHolding } from '../helpers/privacy.ts';
import { createVerification, mintLinks, openLink, passport, personDetails, photo, submitAttempt, type Person } from '../helpers/verifications.ts';

const clock = createManualClock(new Date('2026-11-24T09:00:00.000Z'));
let t: TestContext;
let partner: TestPartner;
let other: TestPartner;
let operator: TestOperator;

before(async () => {
  t = await createTestContext({ clock });
  await t.services.screening.importList({ format: 'opensanctions', filePath: sandboxScreeningFixture, list: 'sandbox-fixture' });
  partner = await t.f.partner({ name: 'Ledger Tax' });
  other = await t.f.partner({ name: 'Other Practice' });
});
after(() => t.close());
beforeEach(async () => {
  partner = await t.f.signIn(partner);
  other = await t.f.signIn(other);
  operator = await t.f.operator();
});

interface DocumentDetails {
  status: string;
  message: string | null;
  individualId: string;
  attempt: { number: number; verifiedAt: string } | null;
  claimedIdentity: { firstName: string; lastName: string; dateOfBirth: string; address: { line1: string; country: string } } | null;
  documents: Array<{ type: string; number: string; expiryDate: string | null; machineReadableZone: { found: boolean; comparisons: unknown[] } | null }>;
  images: Array<{ kind: string; contentType: string; byteLength: number; data: string }>;
  faceComparisons: Array<{ score: number; threshold: number; result: string }>;
  checks: Array<{ checkType: string; result: string; code: string }>;
}

interface AmlMatches {
  status: string;
  message: string | null;
  listVersion: number | null;
  screened: { name: string; dateOfBirth: string; countries: string[] } | null;
  matches: Array<{ entryId: string; list: string; name: string; categories: string[]; score: number; datesOfBirth: string[]; features: { dateOfBirth: string } }>;
}

/** A TPB_POI request for one person, their link opened. */
async function onePerson(): Promise<{ requestId: string; individualId: string; person: Person }> {
  const created = await createVerification(t, partner, { mode: 'TPB_POI', individuals: [{ role: 'AUTHORISED_REP', externalId: 'client-1' }] });
  const individualId = created.individuals[0]!.id;
  const tokens = await mintLinks(t, partner, created.id);
  return { requestId: created.id, individualId, person: await openLink(t, tokens.get(individualId)!) };
}

function read(kind: 'document-details' | 'aml-matches', requestId: string, individualId: string, query = '', who: TestPartner = partner) {
  return t.app.inject({ method: 'GET', url: `/v1/verifications/${requestId}/individuals/${individualId}/${kind}${query}`, headers: who.headers });
}

async function documentDetails(requestId: string, individualId: string, query = ''): Promise<DocumentDetails> {
  const res = await read('document-details', requestId, individualId, query);
  assert.equal(res.statusCode, 200, res.body);
  assert.equal(res.headers['cache-control'], 'no-store');
  return res.json();
}

async function amlMatches(requestId: string, individualId: string): Promise<AmlMatches> {
  const res = await read('aml-matches', requestId, individualId);
  assert.equal(res.statusCode, 200, res.body);
  assert.equal(res.headers['cache-control'], 'no-store');
  return res.json();
}

const statuses = async (requestId: string, individualId: string) => [(await documentDetails(requestId, individualId)).status, (await amlMatches(requestId, individualId)).status];

const setSwitch = (value: boolean | null) =>
  t.app.inject(
    value === null
      ? { method: 'DELETE', url: '/ops/v1/settings/EVIDENCE_DETAIL_ENABLED', headers: operator.headers }
      : { method: 'PUT', url: '/ops/v1/settings/EVIDENCE_DETAIL_ENABLED', headers: operator.headers, payload: { value } },
  );

describe('before the person has been checked', () => {
  it('both answer NOT_AVAILABLE with empty arrays: before the link is opened, and with steps saved but not submitted', async () => {
    const { requestId, individualId, person } = await onePerson();
    const before = await documentDetails(requestId, individualId);
    assert.deepEqual(
      [before.status, before.attempt, before.claimedIdentity, before.documents, before.images, before.faceComparisons, before.checks],
      ['NOT_AVAILABLE', null, null, [], [], [], []],
    );
    assert.match(before.message!, /not given any details/);
    assert.equal((await person.details(personDetails('Okafor'))).statusCode, 200);
    assert.deepEqual(await statuses(requestId, individualId), ['NOT_AVAILABLE', 'NOT_AVAILABLE']);
    const aml = await amlMatches(requestId, individualId);
    assert.deepEqual([aml.listVersion, aml.screened, aml.matches], [null, null, []]);
  });
});

describe('after a pass', () => {
  it('document-details answers what the person entered, the images, the face comparison and the provider’s checks; includeScans=false leaves the images out', async () => {
    const { requestId, individualId, person } = await onePerson();
    await submitAttempt(person, 'Okafor');
    await runDueJobs(t);
    const details = await documentDetails(requestId, individualId);
    assert.equal(details.status, 'OK');
    assert.equal(details.message, null);
    assert.equal(details.attempt?.number, 1);
    assert.deepEqual(
      [details.claimedIdentity?.firstName, details.claimedIdentity?.lastName, details.claimedIdentity?.dateOfBirth, details.claimedIdentity?.address.line1],
      ['Harriet', 'Okafor', '1979-02-17', '48 Banksia Parade'],
    );
    assert.deepEqual([details.documents[0]?.type, details.documents[0]?.number, details.documents[0]?.expiryDate], ['PASSPORT', passport.number, passport.expiryDate]);
    assert.equal(details.documents[0]?.machineReadableZone?.found, false, 'a photo that is not a passport page has no zone to read');
    assert.deepEqual(details.images.map((i) => [i.kind, i.contentType]), [['DOCUMENT_FRONT', 'image/jpeg'], ['SELFIE', 'image/jpeg']]);
    for (const image of details.images) {
      const bytes = Buffer.from(image.data, 'base64');
      assert.equal(bytes.length, image.byteLength);
      assert.deepEqual([...bytes.subarray(0, 3)], [0xff, 0xd8, 0xff], 'a JPEG');
    }
    assert.deepEqual(details.faceComparisons, [{ score: 0.96, threshold: 0.8, result: 'PASS' }]);
    assert.deepEqual(details.checks.map((c) => c.code), ['DOCUMENT_AUTHENTIC', 'DOCUMENT_RECORD_MATCHED', 'FACE_MATCH_SCORE_HIGH', 'NO_FRAUD_SIGNALS']);
    assert.ok(!('providerResults' in details), 'the sandbox has no reports of its own behind its checks (Onfido’s: onfido-flow.test.ts)');

    const withoutScans = await documentDetails(requestId, individualId, '?includeScans=false');
    assert.deepEqual(withoutScans.images, []);
    assert.deepEqual({ ...withoutScans, images: details.images, retrievedAt: undefined }, { ...details, retrievedAt: undefined }, 'everything else is the same');
    const bad = await read('document-details', requestId, individualId, '?includeScans=maybe');
    assert.deepEqual([bad.statusCode, bad.json<{ errors: Array<{ pointer: string }> }>().errors[0]?.pointer], [400, 'query:includeScans']);
  });

  it('aml-matches answers OK with no matches for a clear name, and each list entry’s detail for a name on the list', async () => {
    const clear = await onePerson();
    await submitAttempt(clear.person, 'Okafor');
    const listed = await onePerson();
    for (const res of [
      await listed.person.details(personDetails('Karlov', { firstName: 'Boris', middleName: 'Ivanovich', dateOfBirth: '1961-03-14' })),
      await listed.person.document(),
      await listed.person.selfie(),
      await listed.person.submit(),
    ]) {
      assert.equal(res.statusCode, 200, res.body);
    }
    await runDueJobs(t);

    const none = await amlMatches(clear.requestId, clear.individualId);
    assert.deepEqual([none.status, none.matches, none.screened], ['OK', [], { name: 'Harriet Quill Okafor', dateOfBirth: '1979-02-17', countries: ['AU'] }]);
    assert.equal(typeof none.listVersion, 'number');

    const hit = await amlMatches(listed.requestId, listed.individualId);
    assert.equal(hit.status, 'OK');
    const [match] = hit.matches;
    assert.ok(match, 'Boris Ivanovich Karlov is on the fixture list');
    assert.deepEqual([match.name, match.categories, match.list, match.datesOfBirth], ['Boris Ivanovich KARLOV', ['SANCTIONS'], 'sandbox-fixture', ['1961-03-14']]);
    assert.ok(match.score >= 0.8 && match.score <= 1, String(match.score));
    assert.equal(match.features.dateOfBirth, 'EXACT');
  });
});

describe('the kill switch', () => {
  it('an operator turns evidence off for both endpoints at once, with no restart, and back on by resetting it', async () => {
    const { requestId, individualId, person } = await onePerson();
    await submitAttempt(person, 'Okafor');
    await runDueJobs(t);
    assert.deepEqual(await statuses(requestId, individualId), ['OK', 'OK']);

    const off = await setSwitch(false);
    assert.equal(off.statusCode, 200, off.body);
    assert.deepEqual(off.json(), {
      name: 'EVIDENCE_DETAIL_ENABLED',
      value: false,
      source: 'RUNTIME',
      description: off.json<{ description: string }>().description,
      environmentValue: true,
      changedBy: operator.operatorId,
      changedAt: clock.now().toISOString(),
    });
    assert.deepEqual(await statuses(requestId, individualId), ['UPSTREAM_UNAVAILABLE', 'UPSTREAM_UNAVAILABLE']);
    const dark = await documentDetails(requestId, individualId);
    assert.deepEqual([dark.claimedIdentity, dark.images, dark.documents], [null, [], []]);
    assert.match(dark.message!, /switched off/);

    const reset = await setSwitch(null);
    assert.deepEqual([reset.statusCode, reset.json<{ value: boolean; source: string }>().source], [200, 'ENVIRONMENT']);
    assert.deepEqual(await statuses(requestId, individualId), ['OK', 'OK']);
  });

  it('EVIDENCE_DETAIL_ENABLED=false in the environment answers UPSTREAM_UNAVAILABLE until an operator turns it on', async () => {
    const dark = await createTestContext({ clock, env: { EVIDENCE_DETAIL_ENABLED: 'false' } });
    try {
      const p = await dark.f.partner();
      const created = await dark.app.inject({ method: 'POST', url: '/v1/verifications', headers: p.headers, payload: { mode: 'TPB_POI', individuals: [{ role: 'OTHER' }] } });
      const { id, individuals } = created.json<{ id: string; individuals: Array<{ id: string }> }>();
      const url = `/v1/verifications/${id}/individuals/${individuals[0]!.id}/document-details`;
      assert.equal((await dark.app.inject({ method: 'GET', url, headers: p.headers })).json<{ status: string }>().status, 'UPSTREAM_UNAVAILABLE');
      await dark.services.settings.set('EVIDENCE_DETAIL_ENABLED', true, 'cli');
      assert.equal((await dark.app.inject({ method: 'GET', url, headers: p.headers })).json<{ status: string }>().status, 'NOT_AVAILABLE', 'the switch is on: nothing checked yet');
    } finally {
      await dark.close();
    }
  });

  it('refuses a setting that does not exist and a value that is not true or false; partners cannot reach it', async () => {
    const unknown = await t.app.inject({ method: 'PUT', url: '/ops/v1/settings/EVIDENCE_DETAILS', headers: operator.headers, payload: { value: false } });
    assert.deepEqual([unknown.statusCode, unknown.json<{ code: string }>().code], [404, 'NOT_FOUND']);
    const text = await t.app.inject({ method: 'PUT', url: '/ops/v1/settings/EVIDENCE_DETAIL_ENABLED', headers: operator.headers, payload: { value: 'false' } });
    assert.deepEqual([text.statusCode, text.json<{ errors: Array<{ pointer: string }> }>().errors[0]?.pointer], [400, '/value']);
    const asPartner = await t.app.inject({ method: 'PUT', url: '/ops/v1/settings/EVIDENCE_DETAIL_ENABLED', headers: partner.headers, payload: { value: false } });
    assert.equal(asPartner.statusCode, 401);
    const listed = await t.app.inject({ method: 'GET', url: '/ops/v1/settings', headers: operator.headers });
    assert.deepEqual(listed.json<{ data: Array<{ name: string; value: boolean }> }>().data.map((s) => [s.name, s.value]), [['EVIDENCE_DETAIL_ENABLED', true]]);
  });
});

describe('the identity provider down', () => {
  it('answers UPSTREAM_UNAVAILABLE for both while the outage lasts, then OK once the checks got through', async () => {
    const { requestId, individualId, person } = await onePerson();
    await submitAttempt(person, 'Unavailable');
    await runDueJobs(t);
    const down = await documentDetails(requestId, individualId);
    assert.deepEqual([down.status, down.claimedIdentity], ['UPSTREAM_UNAVAILABLE', null]);
    assert.match(down.message!, /identity provider is not answering/);
    assert.equal((await amlMatches(requestId, individualId)).status, 'UPSTREAM_UNAVAILABLE');

    for (const wait of [30, 60, 120, 300, 600, 1800, 3600]) {
      clock.advance(wait * 1000);
      await runDueJobs(t);
    }
    partner = await t.f.signIn(partner);
    assert.deepEqual(await statuses(requestId, individualId), ['OK', 'OK']);
  });
});

describe('tenancy', () => {
  it('another partner’s individual, or an individual under another request, is 404 on both', async () => {
    const { requestId, individualId, person } = await onePerson();
    await submitAttempt(person, 'Okafor');
    await runDueJobs(t);
    const second = await onePerson();
    for (const kind of ['document-details', 'aml-matches'] as const) {
      const foreign = await read(kind, requestId, individualId, '', other);
      assert.deepEqual([foreign.statusCode, foreign.json<{ code: string }>().code], [404, 'NOT_FOUND'], kind);
      const crossed = await read(kind, second.requestId, individualId);
      assert.equal(crossed.statusCode, 404, `${kind} under another request`);
    }
  });
});

describe('the audit trail and what is kept', () => {
  it('records who read which individual and what it answered, for operators; no table and no log line holds what was read', async () => {
    const { requestId, individualId, person } = await onePerson();
    const entered = { firstName: 'Ottoline', middleName: 'Wrenfield', lastName: 'Bellweather', dateOfBirth: '1968-11-03', address: { line1: '12 Quandong Rise', locality: 'Mullumbimby', state: 'NSW', postcode: '2482', country: 'AU' }, email: 'ottoline.private@example.org' };
    const document = { ...passport, number: 'PZ4471920' };
    for (const res of [await person.details(entered), await person.document(document, { front: photo() }), await person.selfie(), await person.submit()]) assert.equal(res.statusCode, 200, res.body);
    await runDueJobs(t);

    const details = await documentDetails(requestId, individualId);
    await documentDetails(requestId, individualId, '?includeScans=false');
    await amlMatches(requestId, individualId);
    await read('document-details', requestId, individualId, '', other);

    const trail = await t.app.inject({ method: 'GET', url: `/ops/v1/evidence-reads?individualId=${individualId}`, headers: operator.headers });
    assert.equal(trail.statusCode, 200, trail.body);
    const reads = trail.json<{ data: Array<Record<string, unknown>>; nextFrom: number | null }>();
    assert.deepEqual(
      reads.data.map((r) => [r.kind, r.includeScans, r.status, r.partnerId, r.apiClientId, r.verificationRequestId]),
      [
        ['AML_MATCHES', null, 'OK', partner.partnerId, partner.clientId, requestId],
        ['DOCUMENT_DETAILS', false, 'OK', partner.partnerId, partner.clientId, requestId],
        ['DOCUMENT_DETAILS', true, 'OK', partner.partnerId, partner.clientId, requestId],
      ],
      'newest first; the other partner’s 404 read nothing',
    );
    assert.ok(reads.data.every((r) => typeof r.requestId === 'string' && r.readAt === clock.now().toISOString()));
    const byPartner = await t.app.inject({ method: 'GET', url: `/ops/v1/evidence-reads?partnerId=${partner.partnerId}&limit=1`, headers: operator.headers });
    assert.deepEqual([byPartner.json<{ data: unknown[] }>().data.length, byPartner.json<{ nextFrom: number }>().nextFrom], [1, 1]);

    const values = [entered.firstName, entered.middleName, entered.lastName, entered.dateOfBirth, entered.address.line1, entered.address.locality, entered.email, document.number];
    const fragments = details.images.map((i) => i.data.slice(200, 260));
    const { found, scanned } = await placesHolding(t, [...values, ...fragments]);
    assert.deepEqual(found, []);
    assert.ok(scanned.includes('evidence_reads') && scanned.includes('verification_individuals'), scanned.join(', '));
  });
});
