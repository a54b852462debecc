// A person through the real hosted flow with IDENTITY_PROVIDER=onfido, against the local stand-in of
// Onfido's documented API (test/helpers/onfido-stand-in, every exchange validated against Onfido's
// OpenAPI description): clear → PASSED; a face comparison to consider → MANUAL_REVIEW, then an
// operator's pass; a rejected document → a failed attempt and a retry; a suspected document → FAILED;
// an outage then recovery; a forged notification refused; no notification at all → polling finishes it;
// the evidence endpoints and the console reading Onfido live, with Onfido’s own results behind the
// checks; and nothing personal kept by PVS.
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, beforeEach, describe, it } from 'node:test';
import sharp from 'sharp';
import { sandboxScreeningFixture } from '../../src/cli/serve.ts';
import { createManualClock } from '../../src/platform/clock.ts';
import { runDueJobs } from '../helpers/billing.ts';
import { createTestContext, type TestContext, type TestOperator, type TestPartner } from '../helpers/context.ts';
import { startOnfidoStandIn, type OnfidoStandIn } from '../helpers/onfido-stand-in/index.ts';
import { placesHolding } from '../helpers/privacy.ts';
import { createVerification, mintLinks, openLink, passport, personDetails, photo, type Person } from '../helpers/verifications.ts';

const clock = createManualClock(new Date('2026-11-27T09:00:00.000Z'));
let t: TestContext;
let standIn: OnfidoStandIn;
let partner: TestPartner;
let operator: TestOperator;
let notifications: string;

before(async () => {
  standIn = await startOnfidoStandIn();
  t = await createTestContext({
    clock,
    env: { IDENTITY_PROVIDER: 'onfido', ONFIDO_API_TOKEN: standIn.apiToken, ONFIDO_REGION: 'eu', ONFIDO_WEBHOOK_TOKEN: standIn.webhookToken, ONFIDO_API_URL: standIn.url },
  });
  // Onfido's notifications reach PVS over HTTP, so the app listens as it does in production.
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  notifications = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/providers/onfido/webhooks`;
  await t.services.screening.importList({ format: 'opensanctions', filePath: sandboxScreeningFixture, list: 'sandbox-fixture' });
  partner = await t.f.partner({ name: 'Ledger Tax' });
});
after(async () => {
  await t.close();
  await standIn.close();
});
beforeEach(async () => {
  partner = await t.f.signIn(partner);
  operator = await t.f.operator();
  standIn.setWebhookUrl(notifications);
});

async function onePerson(): Promise<{ requestId: string; individualId: string; token: string; person: Person }> {
  const created = await createVerification(t, partner, { mode: 'TPB_POI', individuals: [{ role: 'AUTHORISED_REP', externalId: 'client-1' }] });
  const individualId = created.individuals[0]!.id;
  const token = (await mintLinks(t, partner, created.id)).get(individualId)!;
  return { requestId: created.id, individualId, token, person: await openLink(t, token) };
}

async function stepsSaved(p: Person, lastName: string): Promise<void> {
  for (const res of [await p.details(personDetails(lastName)), await p.document(), await p.selfie()]) assert.equal(res.statusCode, 200, res.body);
}

/** The check job's status for the attempt. */
async function checkJob(individualId: string, attempt = 1) {
  const [job] = await t.services.db.query<{ status: string; attempts: number; run_at: Date }>('SELECT status, attempts, run_at FROM jobs WHERE key = $1', [`verification-check:${individualId}:${attempt}`]);
  return job!;
}

/** Until the stand-in's notification has woken the attempt's waiting job (it runs at once then). */
async function woken(individualId: string, attempt = 1): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const job = await checkJob(individualId, attempt);
    if (job.status === 'QUEUED' && job.run_at <= clock.now()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  assert.fail('no notification woke the check job');
}

/** Submits, lets the check start (the job waits on Onfido), and runs it again once Onfido says it is done. */
async function submittedAndChecked(p: Person, individualId: string, attempt = 1) {
  const submitted = await p.submit();
  assert.equal(submitted.statusCode, 200, submitted.body);
  await runDueJobs(t);
  await woken(individualId, attempt);
  await runDueJobs(t);
  return (await p.view()).json<{ individual: { status: string }; attemptsRemaining: number; attempt: { number: number; status: string } }>();
}

const status = async (requestId: string) =>
  (await t.app.inject({ method: 'GET', url: `/v1/verifications/${requestId}`, headers: partner.headers })).json<{ status: string; individuals: Array<{ status: string; checkResults: Array<{ checkType: string; result: string; code: string }> }> }>();

describe('a person verified through Onfido', () => {
  it('names Onfido and the European Union on the consent step, and offers only what Onfido checks', async () => {
    const created = await createVerification(t, partner, { mode: 'TPB_POI', individuals: [{ role: 'AUTHORISED_REP' }] });
    const token = (await mintLinks(t, partner, created.id)).get(created.individuals[0]!.id)!;
    const page = await t.app.inject({ method: 'GET', url: `/v/${token}` });
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /Onfido processes them in the European Union, so your information leaves Australia for this check\./);
    assert.match(page.body, /and being sent to Onfido in the European Union for that\./);
    assert.doesNotMatch(page.body, /id="type-medicare"/);
  });

  it('clear: PASSED, the check started once, and the partner told', async () => {
    const { requestId, individualId, person } = await onePerson();
    await stepsSaved(person, 'Nguyen');
    const submitted = await person.submit();
    assert.equal(submitted.statusCode, 200, submitted.body);
    await runDueJobs(t);
    const waiting = await checkJob(individualId);
    assert.deepEqual([waiting.status, waiting.attempts], ['QUEUED', 0], 'waiting on Onfido, no attempt spent');
    await woken(individualId);
    await runDueJobs(t);
    const view = (await person.view()).json<{ individual: { status: string } }>();
    assert.equal(view.individual.status, 'PASSED');
    const results = (await status(requestId)).individuals[0]!.checkResults;
    // (PVS's own reading of the passport's zone is inconclusive on the small test photo: it is not Onfido's.)
    assert.ok(results.filter((c) => c.checkType !== 'DOCUMENT_MRZ').every((c) => c.result === 'PASS'), JSON.stringify(results));
    assert.deepEqual(['DOCUMENT', 'FACE_MATCH', 'FRAUD'].filter((type) => !results.some((c) => c.checkType === type)), [], 'Onfido’s reports, mapped');
    assert.equal(standIn.requests.filter((r) => r.method === 'POST' && r.path === '/v3.6/checks' && r.status === 201).length, 1, 'one check, though the job ran twice');
    const [passed] = await t.services.db.query<{ type: string }>("SELECT type FROM events WHERE subject_id = $1 AND type = 'verification.individual.passed'", [requestId]);
    assert.ok(passed, 'verification.individual.passed emitted');
  });

  it('a face comparison to consider: MANUAL_REVIEW, then an operator passes it having read the evidence live', async () => {
    const { requestId, individualId, person } = await onePerson();
    await stepsSaved(person, 'Review');
    const view = await submittedAndChecked(person, individualId);
    assert.equal(view.individual.status, 'MANUAL_REVIEW');
    const downloadsBefore = standIn.requests.filter((r) => r.path.endsWith('/download')).length;

    const evidence = await t.app.inject({ method: 'GET', url: `/v1/verifications/${requestId}/individuals/${individualId}/document-details`, headers: partner.headers });
    assert.equal(evidence.statusCode, 200, evidence.body);
    const body = evidence.json<{ status: string; claimedIdentity: { firstName: string; lastName: string }; images: Array<{ kind: string; data: string }>; faceComparisons: Array<{ result: string }> }>();
    assert.equal(body.status, 'OK');
    assert.equal(body.claimedIdentity.lastName, 'Review', 'read from Onfido');
    assert.ok(body.images.length >= 2, 'the document and the selfie, downloaded from Onfido');
    assert.equal(body.faceComparisons[0]!.result, 'REVIEW');
    assert.ok(standIn.requests.filter((r) => r.path.endsWith('/download')).length > downloadsBefore, 'images read live');

    // The console's review page reads the same evidence, live.
    const session = await t.services.webSessions.open('console', operator.operatorId, { passwordChangeRequired: false, secondFactorAt: clock.now() });
    const downloadsBeforeConsole = standIn.requests.filter((r) => r.path.endsWith('/download')).length;
    const page = await t.app.inject({ method: 'GET', url: `/console/reviews/${requestId}/${individualId}`, headers: { cookie: `pvs_console=${session.token}` } });
    assert.equal(page.statusCode, 200, page.body.slice(0, 500));
    assert.match(page.body, /Review/);
    assert.ok(standIn.requests.filter((r) => r.path.endsWith('/download')).length > downloadsBeforeConsole, 'the console read the images live');

    const decided = await t.app.inject({
      method: 'POST',
      url: `/ops/v1/verifications/${requestId}/individuals/${individualId}/decision`,
      headers: operator.headers,
      payload: { decision: 'PASS', note: 'Selfie compared with the passport photo: same person' },
    });
    assert.equal(decided.statusCode, 200, decided.body);
    assert.equal((await status(requestId)).individuals[0]!.status, 'MANUALLY_PASSED');
  });

  it('a document to look at closely: the evidence and the console say which of Onfido’s sub-checks said so, read live, and nothing personal', async () => {
    const details = personDetails('Caution', { firstName: 'Giuliana', middleName: undefined, dateOfBirth: '1979-02-13', address: { line1: '67 Kurrajong Lane', locality: 'Norwood', state: 'SA', postcode: '5067', country: 'AU' } });
    const { requestId, individualId, person } = await onePerson();
    for (const res of [await person.details(details), await person.document(), await person.selfie()]) assert.equal(res.statusCode, 200, res.body);
    assert.equal((await submittedAndChecked(person, individualId)).individual.status, 'MANUAL_REVIEW');
    const reportReads = () => standIn.requests.filter((r) => r.method === 'GET' && r.path === '/v3.6/reports').length;
    const readsBefore = reportReads();

    const evidence = await t.app.inject({ method: 'GET', url: `/v1/verifications/${requestId}/individuals/${individualId}/document-details?includeScans=false`, headers: partner.headers });
    assert.equal(evidence.statusCode, 200, evidence.body);
    type Results = { provider: string; reports: Array<{ name: string; status: string | null; result: string | null; subResult: string | null; breakdown: Array<{ item: string; result: string }> }> };
    const body = evidence.json<{ status: string; checks: Array<{ code: string }>; documents: Array<{ number: string }>; providerResults: Results }>();
    assert.equal(body.status, 'OK');
    assert.ok(body.checks.some((c) => c.code === 'DOCUMENT_CAUTION'), JSON.stringify(body.checks));
    const results = body.providerResults;
    assert.equal(results.provider, 'onfido');
    assert.deepEqual(
      results.reports.map((r) => [r.name, r.status, r.result, r.subResult]).sort(),
      [
        ['document', 'complete', 'consider', 'caution'],
        ['facial_similarity_photo', 'complete', 'clear', null],
        ['identity_enhanced', 'complete', 'clear', null],
      ],
    );
    const document = results.reports.find((r) => r.name === 'document')!;
    assert.deepEqual(document.breakdown.filter((b) => b.result !== 'clear'), [
      { item: 'data_validation', result: 'consider' },
      { item: 'data_validation.document_expiration', result: 'consider' },
    ]);
    assert.ok(document.breakdown.some((b) => b.item === 'visual_authenticity.original_document_present' && b.result === 'clear'));
    assert.equal(reportReads(), readsBefore + 1, 'from the reports the evidence read fetched, once');
    // Onfido read these off the document and holds them in its reports' properties; none reach the results.
    const text = JSON.stringify(results);
    const readByOnfido = body.documents[0]!.number;
    assert.match(readByOnfido, /^PA\d{7}$/);
    for (const value of ['Giuliana', '1979-02-13', '5067', 'Kurrajong', readByOnfido, passport.number]) assert.ok(!text.includes(value), value);

    // The console's review shows them: the sub-checks not clear, and how many others were.
    const session = await t.services.webSessions.open('console', operator.operatorId, { passwordChangeRequired: false, secondFactorAt: clock.now() });
    const page = await t.app.inject({ method: 'GET', url: `/console/reviews/${requestId}/${individualId}`, headers: { cookie: `pvs_console=${session.token}` } });
    assert.equal(page.statusCode, 200, page.body.slice(0, 500));
    const shown = page.body.replace(/<wbr>/g, '');
    assert.match(shown, /Onfido’s own results behind those checks/);
    assert.match(shown, /<span class="badge badge-warn">consider<\/span> <span class="mono">data_validation\.document_expiration<\/span>/);
    assert.doesNotMatch(shown, /<span class="mono">data_validation<\/span>/, 'the group is explained by its sub-check');
    assert.match(shown, /43 other items clear\./);
    assert.match(shown, /All 7 items clear\./, 'the face report');
    // Live again: the page's document evidence and its list screening each read the attempt's evidence.
    assert.equal(reportReads(), readsBefore + 3, 'the console read them live too');
  });

  it('a rejected document: a failed attempt the person may retry, and the retry passes', async () => {
    const { individualId, person } = await onePerson();
    await stepsSaved(person, 'Rejected');
    const first = await submittedAndChecked(person, individualId);
    assert.deepEqual([first.individual.status, first.attempt.status, first.attemptsRemaining], ['IN_PROGRESS', 'RETRY', 2]);
    // A new photo of the document, and the name corrected: the next attempt's check runs on them.
    await stepsSaved(person, 'Nguyen');
    const second = await submittedAndChecked(person, individualId, 2);
    assert.deepEqual([second.individual.status, second.attempt.number], ['PASSED', 2]);
  });

  it('a suspected document: FAILED at once, whatever attempts remain', async () => {
    const { individualId, person } = await onePerson();
    await stepsSaved(person, 'Suspected');
    const view = await submittedAndChecked(person, individualId);
    assert.equal(view.individual.status, 'FAILED');
  });

  it('Onfido answering 503 twice: the job retries, and the third try gets through', async () => {
    const { individualId, person } = await onePerson();
    await stepsSaved(person, 'Nguyen');
    assert.equal((await person.submit()).statusCode, 200);
    standIn.failNext(2, { status: 503, match: /^POST \/v3\.6\/checks$/ });
    await runDueJobs(t);
    assert.deepEqual([(await checkJob(individualId)).status, (await checkJob(individualId)).attempts], ['QUEUED', 1], 'a counted try');
    clock.advance(30_000);
    await runDueJobs(t);
    assert.equal((await checkJob(individualId)).attempts, 2);
    clock.advance(60_000);
    await runDueJobs(t);
    await woken(individualId);
    await runDueJobs(t);
    assert.equal((await person.view()).json<{ individual: { status: string } }>().individual.status, 'PASSED');
  });

  it('no notification at all: polling finishes the check', async () => {
    standIn.setWebhookUrl(null);
    const { individualId, person } = await onePerson();
    await stepsSaved(person, 'Nguyen');
    assert.equal((await person.submit()).statusCode, 200);
    await runDueJobs(t);
    assert.equal((await checkJob(individualId)).status, 'QUEUED');
    await new Promise((resolve) => setTimeout(resolve, 600)); // the stand-in completes the check meanwhile
    assert.equal(await runDueJobs(t), 0, 'nothing runs before the poll is due');
    clock.advance(31_000);
    await runDueJobs(t);
    assert.equal((await person.view()).json<{ individual: { status: string } }>().individual.status, 'PASSED');
  });

  it('a notification with a wrong or missing signature is refused, logged, and wakes nothing', async () => {
    standIn.setWebhookUrl(null);
    const { individualId, person } = await onePerson();
    await stepsSaved(person, 'Nguyen');
    assert.equal((await person.submit()).statusCode, 200);
    await runDueJobs(t);
    const waiting = await checkJob(individualId);
    const [check] = await t.services.db.query<{ check_id: string }>('SELECT check_id FROM onfido_identity_checks ORDER BY created_at DESC LIMIT 1');
    const body = JSON.stringify({ payload: { resource_type: 'check', action: 'check.completed', object: { id: check!.check_id, status: 'complete', completed_at_iso8601: clock.now().toISOString(), href: `/v3.6/checks/${check!.check_id}` } } });
    const forged = await t.app.inject({ method: 'POST', url: '/providers/onfido/webhooks', headers: { 'content-type': 'application/json', 'x-sha2-signature': 'ab'.repeat(32) }, payload: body });
    assert.equal(forged.statusCode, 401, forged.body);
    assert.equal(forged.headers['content-type'], 'application/problem+json; charset=utf-8');
    const unsigned = await t.app.inject({ method: 'POST', url: '/providers/onfido/webhooks', headers: { 'content-type': 'application/json' }, payload: body });
    assert.equal(unsigned.statusCode, 401);
    assert.deepEqual((await checkJob(individualId)).run_at, waiting.run_at, 'not woken');
    assert.ok(t.logs.some((line) => line.msg === 'identity provider notification refused: its signature does not verify'));

    const signed = await t.app.inject({ method: 'POST', url: '/providers/onfido/webhooks', headers: { 'content-type': 'application/json', 'x-sha2-signature': standIn.signature(body) }, payload: body });
    assert.equal(signed.statusCode, 200, signed.body);
    assert.ok((await checkJob(individualId)).run_at <= clock.now(), 'the signed one wakes the job');
  });

  it('refuses at the step what Onfido cannot take: a Medicare card, a selfie without a face', async () => {
    const { person } = await onePerson();
    assert.equal((await person.details(personDetails('Nguyen'))).statusCode, 200);
    const medicare = await person.document({ type: 'MEDICARE', number: '2123456701', cardNumber: '1', issuingCountry: 'AU', expiryDate: '2030-11-01' });
    assert.equal(medicare.statusCode, 400, medicare.body);
    const problem = medicare.json<{ errors: Array<{ pointer: string; message: string }> }>();
    assert.equal(problem.errors[0]!.pointer, '/type');
    assert.match(problem.errors[0]!.message, /a passport or an Australian driver licence/);
    assert.equal((await person.document(passport)).statusCode, 200);
    const blank = await sharp({ create: { width: 320, height: 320, channels: 3, background: { r: 200, g: 200, b: 200 } } }).jpeg().toBuffer();
    const faceless = await person.selfie(photo(blank));
    assert.equal(faceless.statusCode, 400, faceless.body);
    assert.equal(faceless.json<{ errors: Array<{ pointer: string }> }>().errors[0]!.pointer, '/image');
  });

  it('keeps nothing personal: no name, date of birth or address in any table, log line or of the stand-in’s exchanges', async () => {
    const details = personDetails('Marchetti-Okafor', { firstName: 'Giuliana', dateOfBirth: '1979-02-13' });
    const { person } = await onePerson();
    assert.equal((await person.details(details)).statusCode, 200);
    assert.equal((await person.document(passport)).statusCode, 200);
    const { found, scanned } = await placesHolding(t, ['Giuliana', 'Marchetti-Okafor', '1979-02-13', details.address.line1, passport.number]);
    assert.deepEqual(found, []);
    assert.ok(scanned.includes('onfido_identity_subjects'), 'the adapter’s own tables are searched too');
    assert.deepEqual(standIn.violations, [], 'every exchange matched Onfido’s published description');
  });
});
