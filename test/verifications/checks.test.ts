// Each sandbox outcome of CONTRACT §13 end to end through the hosted JSON API, as a person's phone drives
// it: submit answers CHECKING, the check job records the outcome with its event, and the request
// completes when every individual is terminal. Pass; review then an operator's pass; fail three times
// then locked out; fraud; a name on the screening list; the provider unavailable, then recovered. Every
// event payload exactly, the per-individual charge once, and an operator's decision recorded.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { sandboxScreeningFixture } from '../../src/cli/serve.ts';
import { createManualClock } from '../../src/platform/clock.ts';
import { billableContact, runDueJobs } from '../helpers/billing.ts';
import { createTestContext, type TestContext, type TestOperator, type TestPartner } from '../helpers/context.ts';
import { attemptChecked, createVerification, mintLinks, openLink, personDetails, submitAttempt, verificationEvents, type Person } from '../helpers/verifications.ts';

const clock = createManualClock(new Date('2026-11-24T09:00:00.000Z'));
let t: TestContext;
let partner: TestPartner;
let operator: TestOperator;

before(async () => {
  t = await createTestContext({ clock });
  await t.services.screening.importList({ format: 'opensanctions', filePath: sandboxScreeningFixture, list: 'sandbox-fixture' });
  partner = await t.f.partner({ name: 'Ledger Tax' });
  operator = await t.f.operator();
});
after(() => t.close());
// Tokens last minutes; several tests move the clock by hours.
beforeEach(async () => {
  partner = await t.f.signIn(partner);
  operator = await t.f.operator();
});

interface VerificationBody {
  status: string;
  riskLevel: string;
  completedAt: string | null;
  issueList: Array<{ individualId?: string; code: string; message: string }>;
  checkResults: Array<{ checkType: string; result: string; code: string }>;
  individuals: Array<{ id: string; status: string; attemptCount: number; maxAttempts: number; manualOverride: boolean; completedAt: string | null; checkResults: Array<{ checkType: string; result: string; code: string }> }>;
}

async function read(requestId: string): Promise<VerificationBody> {
  const res = await t.app.inject({ method: 'GET', url: `/v1/verifications/${requestId}`, headers: partner.headers });
  assert.equal(res.statusCode, 200, res.body);
  return res.json();
}

/** A TPB_POI request for one person (externalId `client-1`), its link opened. */
async function onePerson(body: Record<string, unknown> = {}): Promise<{ requestId: string; individualId: string; person: Person }> {
  const created = await createVerification(t, partner, { mode: 'TPB_POI', individuals: [{ role: 'AUTHORISED_REP', externalId: 'client-1' }], ...body });
  const tokens = await mintLinks(t, partner, created.id);
  const individualId = created.individuals[0]!.id;
  return { requestId: created.id, individualId, person: await openLink(t, tokens.get(individualId)!) };
}

const outcomeEvents = async (requestId: string) =>
  (await verificationEvents(t, requestId)).filter((e) => !['verification.request.created', 'verification.individual.added', 'verification.individual.in_progress'].includes(e.type));

const charges = (individualId: string) =>
  t.services.db.query<{ billed_to: string; contact_id: string | null; amount: number }>("SELECT billed_to, contact_id, amount FROM charges WHERE product = 'VERIFICATION_INDIVIDUAL' AND reference_id = $1", [
    individualId,
  ]);

const decide = (requestId: string, individualId: string, body: unknown, headers: Record<string, string> = operator.headers) =>
  t.app.inject({ method: 'POST', url: `/ops/v1/verifications/${requestId}/individuals/${individualId}/decision`, headers, payload: body as object });

describe('an ordinary name passes', () => {
  it('submit answers CHECKING; the job passes the individual, completes the request (risk LOW), with each event exactly, and charges the partner once', async () => {
    const { requestId, individualId, person } = await onePerson();
    const submitted = await submitAttempt(person, 'Okafor');
    assert.deepEqual(submitted, { status: 'CHECKING', attemptsRemaining: 2 });
    const checking = (await person.view()).json<{ attempt: unknown; completedSteps: string[] }>();
    assert.deepEqual([checking.attempt, checking.completedSteps], [{ number: 1, status: 'CHECKING' }, ['details', 'document', 'selfie']]);
    const busy = await person.selfie();
    assert.deepEqual([busy.statusCode, busy.json<{ code: string }>().code], [409, 'INVALID_STATE'], 'no step changes while the checks run');
    assert.equal((await person.submit()).statusCode, 409, 'nor a second submit');
    assert.deepEqual(await outcomeEvents(requestId), [], 'nothing is decided in the request');

    await runDueJobs(t);
    const view = (await person.view()).json<{ individual: { status: string }; attempt: unknown; attemptsRemaining: number }>();
    assert.deepEqual([view.individual.status, view.attempt, view.attemptsRemaining], ['PASSED', { number: 1, status: 'PASSED' }, 2]);

    const request = await read(requestId);
    const now = clock.now().toISOString();
    assert.deepEqual([request.status, request.riskLevel, request.completedAt, request.issueList], ['COMPLETED', 'LOW', now, []]);
    const [individual] = request.individuals;
    assert.deepEqual([individual!.status, individual!.attemptCount, individual!.maxAttempts, individual!.manualOverride, individual!.completedAt], ['PASSED', 1, 3, false, now]);
    assert.deepEqual(
      individual!.checkResults.map((c) => [c.checkType, c.result, c.code]),
      [
        ['DOCUMENT', 'PASS', 'DOCUMENT_AUTHENTIC'],
        ['DOCUMENT', 'PASS', 'DOCUMENT_RECORD_MATCHED'],
        ['FACE_MATCH', 'PASS', 'FACE_MATCH_SCORE_HIGH'],
        ['FRAUD', 'PASS', 'NO_FRAUD_SIGNALS'],
        // The test photo is no passport page: PVS's own reading finds no zone, which decides nothing.
        ['DOCUMENT_MRZ', 'INCONCLUSIVE', 'MRZ_NOT_READ'],
        ['AML', 'PASS', 'AML_CLEAR'],
      ],
    );
    assert.deepEqual(request.checkResults, individual!.checkResults);
    assert.deepEqual(await outcomeEvents(requestId), [
      {
        type: 'verification.individual.passed',
        payload: { verificationRequestId: requestId, individualId, externalId: 'client-1', status: 'PASSED', manualOverride: false, attemptCount: 1, completedAt: now },
      },
      { type: 'verification.request.completed', payload: { verificationRequestId: requestId, status: 'COMPLETED', riskLevel: 'LOW', completedAt: now } },
    ]);
    assert.deepEqual(await charges(individualId), [{ billed_to: 'PARTNER', contact_id: null, amount: t.config.PRICE_VERIFICATION_INDIVIDUAL }]);

    const late = await person.details(personDetails('Okafor'));
    assert.deepEqual([late.statusCode, late.json<{ code: string }>().code], [409, 'INVALID_STATE'], 'a finished verification takes no more steps');
  });

  it('a request with a contact charges the contact at the first submit, not at create', async () => {
    const contact = await billableContact(t, partner);
    const { individualId, person } = await onePerson({ contactId: contact.id });
    assert.deepEqual(await charges(individualId), [], 'nothing charged before the person submits');
    await submitAttempt(person, 'Okafor');
    assert.deepEqual(await charges(individualId), [{ billed_to: 'CONTACT', contact_id: contact.id, amount: t.config.PRICE_VERIFICATION_INDIVIDUAL }]);
  });

  it('a contact whose card was removed after create is still charged at submit: the person is not told about billing', async () => {
    const contact = await billableContact(t, partner);
    const { individualId, person } = await onePerson({ contactId: contact.id });
    const removed = await t.app.inject({ method: 'DELETE', url: `/v1/contacts/${contact.id}/card`, headers: partner.headers });
    assert.ok(removed.statusCode < 300, removed.body);
    assert.deepEqual(await submitAttempt(person, 'Okafor'), { status: 'CHECKING', attemptsRemaining: 2 });
    assert.deepEqual(await charges(individualId), [{ billed_to: 'CONTACT', contact_id: contact.id, amount: t.config.PRICE_VERIFICATION_INDIVIDUAL }]);
  });
});

describe('Review: manual review, then an operator decides', () => {
  it('MANUAL_REVIEW with its event; the operator’s PASS makes it MANUALLY_PASSED with manualOverride, recorded with who and when, and completes the request', async () => {
    const { requestId, individualId, person } = await onePerson();
    const view = await attemptChecked(t, person, 'Review');
    assert.deepEqual([view.individual.status, view.attempt?.status], ['MANUAL_REVIEW', 'MANUAL_REVIEW']);
    const reviewing = await read(requestId);
    assert.deepEqual([reviewing.status, reviewing.riskLevel, reviewing.completedAt], ['VERIFICATIONS_SENT', 'MEDIUM', null]);
    assert.ok(reviewing.individuals[0]!.checkResults.some((c) => c.checkType === 'FACE_MATCH' && c.result === 'REVIEW'));
    assert.deepEqual(await outcomeEvents(requestId), [
      { type: 'verification.individual.manual_review', payload: { verificationRequestId: requestId, individualId, externalId: 'client-1', status: 'MANUAL_REVIEW' } },
    ]);

    assert.equal((await decide(requestId, individualId, { decision: 'PASS', note: 'Compared in person' }, partner.headers)).statusCode, 401, 'a partner token is not an operator');
    const wrong = await decide(requestId, individualId, { decision: 'MAYBE', note: 'x' });
    assert.deepEqual([wrong.statusCode, wrong.json<{ errors: Array<{ pointer: string }> }>().errors[0]!.pointer], [400, '/decision']);
    assert.equal((await decide('ver_unknown', individualId, { decision: 'PASS', note: 'x' })).statusCode, 404);

    clock.advance(60_000);
    const decided = await decide(requestId, individualId, { decision: 'PASS', note: 'Selfie compared with the passport photo: same person' });
    assert.equal(decided.statusCode, 200, decided.body);
    const now = clock.now().toISOString();
    assert.deepEqual(decided.json(), {
      individualId,
      status: 'MANUALLY_PASSED',
      manualOverride: true,
      decidedBy: operator.operatorId,
      decidedAt: now,
      note: 'Selfie compared with the passport photo: same person',
    });
    const [recorded] = await t.services.db.query('SELECT operator_id, decision, note, decided_at FROM verification_decisions WHERE individual_id = $1', [individualId]);
    assert.deepEqual(recorded, { operator_id: operator.operatorId, decision: 'PASS', note: 'Selfie compared with the passport photo: same person', decided_at: clock.now() });

    const done = await read(requestId);
    assert.deepEqual([done.status, done.riskLevel, done.individuals[0]!.status, done.individuals[0]!.manualOverride], ['COMPLETED', 'MEDIUM', 'MANUALLY_PASSED', true]);
    assert.deepEqual((await outcomeEvents(requestId)).slice(1), [
      {
        type: 'verification.individual.passed',
        payload: { verificationRequestId: requestId, individualId, externalId: 'client-1', status: 'MANUALLY_PASSED', manualOverride: true, attemptCount: 1, completedAt: now },
      },
      { type: 'verification.request.completed', payload: { verificationRequestId: requestId, status: 'COMPLETED', riskLevel: 'MEDIUM', completedAt: now } },
    ]);
    const again = await decide(requestId, individualId, { decision: 'FAIL', note: 'changed my mind' });
    assert.deepEqual([again.statusCode, again.json<{ detail: string }>().detail], [409, `Individual ${individualId} is MANUALLY_PASSED; only an individual in MANUAL_REVIEW can be decided`]);
  });

  it('an operator’s FAIL emits failed with manualOverride, risk HIGH', async () => {
    const { requestId, individualId, person } = await onePerson();
    await attemptChecked(t, person, 'Review');
    assert.equal((await decide(requestId, individualId, { decision: 'FAIL', note: 'Not the same person' })).statusCode, 200);
    const [failed] = (await outcomeEvents(requestId)).filter((e) => e.type === 'verification.individual.failed');
    assert.deepEqual(failed!.payload, { verificationRequestId: requestId, individualId, externalId: 'client-1', status: 'FAILED', manualOverride: true, attemptCount: 1, completedAt: clock.now().toISOString() });
    assert.equal((await read(requestId)).riskLevel, 'HIGH');
  });

  it('a name on the screening list goes to MANUAL_REVIEW with an AML check, never to a pass; risk HIGH', async () => {
    const { requestId, person } = await onePerson();
    await person.details(personDetails('Karlov', { firstName: 'Boris', middleName: 'Ivanovich', dateOfBirth: '1961-03-14' }));
    await person.document({ type: 'PASSPORT', number: 'RU7123456', issuingCountry: 'RU' });
    await person.selfie();
    assert.equal((await person.submit()).statusCode, 200);
    await runDueJobs(t);
    const request = await read(requestId);
    assert.deepEqual([request.individuals[0]!.status, request.riskLevel], ['MANUAL_REVIEW', 'HIGH']);
    const aml = request.individuals[0]!.checkResults.find((c) => c.checkType === 'AML');
    assert.deepEqual([aml?.result, aml?.code], ['REVIEW', 'AML_POSSIBLE_MATCH']);
    assert.ok(!JSON.stringify(request).includes('Karlov') && !JSON.stringify(request).includes('KARLOV'), 'the request names nobody');
  });
});

describe('Fail: failed attempts, then locked out', () => {
  it('the first two failures return the person to IN_PROGRESS with no event; the third locks out with its event; charged once', async () => {
    const { requestId, individualId, person } = await onePerson();
    const first = await attemptChecked(t, person, 'Fail');
    assert.deepEqual([first.individual.status, first.attempt, first.attemptsRemaining], ['IN_PROGRESS', { number: 1, status: 'RETRY' }, 2]);
    assert.deepEqual(await outcomeEvents(requestId), [], 'no .failed while attempts remain');
    const second = await attemptChecked(t, person, 'Fail');
    assert.deepEqual([second.individual.status, second.attempt, second.attemptsRemaining], ['IN_PROGRESS', { number: 2, status: 'RETRY' }, 1]);
    const third = await attemptChecked(t, person, 'Fail');
    assert.deepEqual([third.individual.status, third.attempt, third.attemptsRemaining], ['LOCKED_OUT', { number: 3, status: 'LOCKED_OUT' }, 0]);

    assert.deepEqual(await outcomeEvents(requestId), [
      { type: 'verification.individual.locked_out', payload: { verificationRequestId: requestId, individualId, externalId: 'client-1', status: 'LOCKED_OUT', attemptCount: 3, maxAttempts: 3 } },
      { type: 'verification.request.completed', payload: { verificationRequestId: requestId, status: 'COMPLETED', riskLevel: 'HIGH', completedAt: clock.now().toISOString() } },
    ]);
    const request = await read(requestId);
    assert.deepEqual([request.individuals[0]!.attemptCount, request.individuals[0]!.status], [3, 'LOCKED_OUT']);
    assert.equal((await charges(individualId)).length, 1, 'the price is charged at the first submit only');
    assert.equal((await person.submit()).statusCode, 409);
  });
});

describe('Fraud: a hard failure', () => {
  it('fails at once, whatever attempts remain', async () => {
    const { requestId, individualId, person } = await onePerson();
    const view = await attemptChecked(t, person, 'Fraud');
    assert.deepEqual([view.individual.status, view.attempt?.status], ['FAILED', 'FAILED']);
    const [failed, completed] = await outcomeEvents(requestId);
    assert.deepEqual(failed, {
      type: 'verification.individual.failed',
      payload: { verificationRequestId: requestId, individualId, externalId: 'client-1', status: 'FAILED', manualOverride: false, attemptCount: 1, completedAt: clock.now().toISOString() },
    });
    assert.equal(completed!.type, 'verification.request.completed');
    assert.ok((await read(requestId)).individuals[0]!.checkResults.some((c) => c.code === 'IDENTITY_FRAUD_SUSPECTED'));
  });
});

describe('Unavailable: the checks are retried, an issue is raised, and they recover', () => {
  it('retries while the provider is down, says so on issueList from the third try, then passes once it is back and clears the issue', async () => {
    const { requestId, individualId, person } = await onePerson();
    await submitAttempt(person, 'Unavailable');
    await runDueJobs(t);
    const waits = [30, 60, 120, 300, 600, 1800];
    for (const [n, wait] of waits.entries()) {
      clock.advance(wait * 1000);
      await runDueJobs(t);
      partner = await t.f.signIn(partner);
      const request = await read(requestId);
      assert.equal(request.individuals[0]!.status, 'IN_PROGRESS', `still checking after try ${n + 2}`);
      const tries = n + 2;
      assert.deepEqual(
        request.issueList.map((i) => [i.individualId, i.code]),
        tries >= 3 ? [[individualId, 'IDENTITY_CHECKS_DELAYED']] : [],
        `issueList after try ${tries}`,
      );
    }
    assert.deepEqual((await person.view()).json<{ attempt: unknown }>().attempt, { number: 1, status: 'CHECKING' });
    clock.advance(3600_000);
    await runDueJobs(t);
    partner = await t.f.signIn(partner);
    const recovered = await read(requestId);
    assert.deepEqual([recovered.individuals[0]!.status, recovered.issueList, recovered.status], ['PASSED', [], 'COMPLETED']);
  });
});

describe('sessions act for their own individual only', () => {
  it('one person’s session submits only their own attempt, and another partner cannot read the request', async () => {
    const created = await createVerification(t, partner, { mode: 'TPB_POI', individuals: [{ role: 'DIRECTOR' }, { role: 'DIRECTOR' }] });
    const tokens = await mintLinks(t, partner, created.id);
    const [a, b] = created.individuals.map((i) => i.id);
    const first = await openLink(t, tokens.get(a!)!);
    await attemptChecked(t, first, 'Okafor');
    const request = await read(created.id);
    assert.deepEqual(
      request.individuals.map((i) => [i.id, i.status]),
      [
        [a, 'PASSED'],
        [b, 'PENDING'],
      ],
    );
    assert.equal(request.status, 'VERIFICATIONS_SENT', 'not complete while one is open');
    const other = await t.f.partner();
    assert.equal((await t.app.inject({ method: 'GET', url: `/v1/verifications/${created.id}`, headers: other.headers })).statusCode, 404);
    assert.equal((await decide(created.id, b!, { decision: 'PASS', note: 'x' })).statusCode, 409, 'PENDING cannot be decided');
  });
});
