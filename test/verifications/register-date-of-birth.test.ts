// A lookup-bound person's date of birth against the register's (decision 122), end to end through the
// hosted JSON API and the check job: the same date passes as before, with a PASS check saying so; another
// date sends what would pass to MANUAL_REVIEW (never FAILED) with a REVIEW check whose words carry neither
// date, an event without personal data and the reason in the operators' queue; a register that holds no
// date, and a hand-built person, are unchanged; a register that does not answer holds the checks back and
// they are retried. The dates are never in a table, an event or a log line. The reports and the operator's
// review set both dates side by side (the review page's browser test: test/web/console-register.test.ts).
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { sandboxScreeningFixture } from '../../src/cli/serve.ts';
import { createManualClock } from '../../src/platform/clock.ts';
import type { Registers } from '../../src/providers/register/index.ts';
import { documentEvidence } from '../../src/web/console/review-evidence.ts';
import { runDueJobs } from '../helpers/billing.ts';
import { createTestContext, type TestContext, type TestOperator, type TestPartner } from '../helpers/context.ts';
import { anotherDate, createVerification, lookupBoundKingsley, mintLinks, openLink, passport, personDetails, verificationEvents, type Person } from '../helpers/verifications.ts';

const clock = createManualClock(new Date('2026-11-24T09:00:00.000Z'));
let t: TestContext;
let partner: TestPartner;
let operator: TestOperator;

/** How the register's UBO report answers for people's details: as the sandbox does, without dates, or not at all. */
let register: 'answers' | 'no-dates' | 'down' = 'answers';
const personDetailsCalls: string[][] = [];

function wrapRegisters(registers: Registers): Registers {
  return {
    ...registers,
    reports: {
      ...registers.reports,
      async personDetails(partyRefs) {
        personDetailsCalls.push(partyRefs);
        if (register === 'down') return { ok: false, reason: 'UNAVAILABLE', detail: 'the UBO report is down (test)' };
        const read = await registers.reports.personDetails(partyRefs);
        return register === 'no-dates' && read.ok ? { ok: true, value: read.value.map((d) => ({ ...d, dateOfBirth: null })) } : read;
      },
    },
  };
}

before(async () => {
  t = await createTestContext({ clock, wrapRegisters });
  await t.services.screening.importList({ format: 'opensanctions', filePath: sandboxScreeningFixture, list: 'sandbox-fixture' });
  partner = await t.f.partner({ name: 'Ledger Tax' });
});
after(() => t.close());
beforeEach(async () => {
  register = 'answers';
  partner = await t.f.signIn(partner);
  operator = await t.f.operator();
});

interface CheckResult {
  name: string;
  checkType: string;
  result: string;
  code: string;
  message?: string;
}
interface Read {
  status: string;
  riskLevel: string;
  issueList: Array<{ code: string }>;
  individuals: Array<{ id: string; idvEntityId: string | null; status: string; checkResults: CheckResult[] }>;
}

async function read(requestId: string): Promise<Read> {
  partner = await t.f.signIn(partner);
  const res = await t.app.inject({ method: 'GET', url: `/v1/verifications/${requestId}`, headers: partner.headers });
  assert.equal(res.statusCode, 200, res.body);
  return res.json();
}

const kingsley = () => lookupBoundKingsley(t, partner);

/** Every step saved as an ordinary name with this date of birth, submitted, and the check job run. */
async function checked(person: Person, dateOfBirth: string, lastName = 'Kingsley'): Promise<void> {
  for (const res of [await person.details(personDetails(lastName, { firstName: 'Oliver', middleName: 'James', dateOfBirth })), await person.document(passport), await person.selfie()]) {
    assert.equal(res.statusCode, 200, res.body);
  }
  assert.equal((await person.submit()).statusCode, 200);
  await runDueJobs(t);
}

const registerCheck = (individual: Read['individuals'][number]) => individual.checkResults.find((c) => c.checkType === 'REGISTER_DATE_OF_BIRTH');

/** Another date: a year earlier, the same day and month (an easy slip, or a parent's). */
describe('a lookup-bound person’s date of birth against the register’s', () => {
  it('the same date passes as before, with a check that says it is the register’s', async () => {
    const { requestId, person, registerBorn } = await kingsley();
    await checked(person, registerBorn);
    const request = await read(requestId);
    assert.equal(request.individuals[0]!.status, 'PASSED');
    assert.equal(request.riskLevel, 'LOW');
    assert.deepEqual(registerCheck(request.individuals[0]!), {
      name: 'Date of birth against the register',
      checkType: 'REGISTER_DATE_OF_BIRTH',
      result: 'PASS',
      code: 'REGISTER_DATE_OF_BIRTH_MATCHES',
      message: 'The date of birth entered is the one the register holds for this party.',
    });
  });

  it('another date sends what would pass to MANUAL_REVIEW with the reason, never FAILED; an operator decides', async () => {
    const { requestId, individualId, person, registerBorn } = await kingsley();
    const entered = anotherDate(registerBorn);
    await checked(person, entered);
    const request = await read(requestId);
    const individual = request.individuals[0]!;
    assert.deepEqual([individual.status, request.riskLevel], ['MANUAL_REVIEW', 'MEDIUM']);
    // The passport's machine-readable zone of a sample photo cannot be read: INCONCLUSIVE, which decides nothing.
    assert.ok(individual.checkResults.filter((c) => c !== registerCheck(individual)).every((c) => c.result === 'PASS' || c.result === 'INCONCLUSIVE'), 'every other check would pass');
    assert.deepEqual(registerCheck(individual), {
      name: 'Date of birth against the register',
      checkType: 'REGISTER_DATE_OF_BIRTH',
      result: 'REVIEW',
      code: 'REGISTER_DATE_OF_BIRTH_DIFFERS',
      message:
        'The date of birth entered is not the one the register holds for this party: the register is wrong, or someone other than the party completed the link. An operator compares the two dates.',
    });
    // SPEC's event shape: ids and the status, nothing of the person.
    const events = (await verificationEvents(t, requestId)).filter((e) => e.type === 'verification.individual.manual_review');
    assert.deepEqual(events, [{ type: 'verification.individual.manual_review', payload: { verificationRequestId: requestId, individualId, status: 'MANUAL_REVIEW' } }]);
    // The operators' queue says why.
    const queued = (await t.services.verificationChecks.reviewQueue({ limit: 100, from: 0 })).data.find((i) => i.individualId === individualId);
    assert.deepEqual(queued?.reasons.map((r) => r.code), ['REGISTER_DATE_OF_BIRTH_DIFFERS']);
    // The register can be wrong: an operator may pass.
    const decided = await t.app.inject({
      method: 'POST',
      url: `/ops/v1/verifications/${requestId}/individuals/${individualId}/decision`,
      headers: operator.headers,
      payload: { decision: 'PASS', note: 'The passport shows the date entered; the register is out of date.' },
    });
    assert.equal(decided.statusCode, 200, decided.body);
    assert.equal((await read(requestId)).individuals[0]!.status, 'MANUALLY_PASSED');

    // Neither date is kept or logged: the check's words, the events and the log name neither.
    const stored = JSON.stringify(await t.services.db.query('SELECT check_results FROM verification_individuals WHERE id = $1', [individualId]));
    const sent = JSON.stringify(await verificationEvents(t, requestId));
    for (const date of [entered, registerBorn]) {
      assert.ok(!stored.includes(date), `${date} is not in the individual’s row`);
      assert.ok(!sent.includes(date), `${date} is in no event`);
      assert.ok(!t.logText().includes(date), `${date} is in no log line`);
    }
  });

  it('another date with a check that fails is still a failed attempt to retry, not a review', async () => {
    const { requestId, person, registerBorn } = await kingsley();
    await checked(person, anotherDate(registerBorn), 'Fail');
    const individual = (await read(requestId)).individuals[0]!;
    assert.equal(individual.status, 'IN_PROGRESS');
    assert.equal(registerCheck(individual)?.result, 'REVIEW', 'the difference is recorded all the same');
  });

  it('a register that holds no date of birth compares as nothing: the outcome is unchanged, with no register check', async () => {
    const { requestId, person, registerBorn } = await kingsley();
    register = 'no-dates';
    await checked(person, anotherDate(registerBorn));
    const individual = (await read(requestId)).individuals[0]!;
    assert.equal(individual.status, 'PASSED');
    assert.equal(registerCheck(individual), undefined);
  });

  it('a hand-built person is not compared, and the register is not asked', async () => {
    const created = await createVerification(t, partner, { mode: 'TPB_POI', individuals: [{ role: 'DIRECTOR' }] });
    const individualId = created.individuals[0]!.id;
    const person = await openLink(t, (await mintLinks(t, partner, created.id)).get(individualId)!);
    const calls = personDetailsCalls.length;
    await checked(person, '1979-02-17');
    const individual = (await read(created.id)).individuals[0]!;
    assert.equal(individual.status, 'PASSED');
    assert.equal(registerCheck(individual), undefined);
    assert.equal(personDetailsCalls.length, calls);
  });

  it('a register that does not answer holds the checks back and they are retried: nothing passes uncompared', async () => {
    const { requestId, person, registerBorn } = await kingsley();
    register = 'down';
    await checked(person, anotherDate(registerBorn));
    assert.equal((await read(requestId)).individuals[0]!.status, 'IN_PROGRESS');
    assert.deepEqual((await person.view()).json<{ attempt: unknown }>().attempt, { number: 1, status: 'CHECKING' });
    register = 'answers';
    clock.advance(30_000);
    await runDueJobs(t);
    const individual = (await read(requestId)).individuals[0]!;
    assert.deepEqual([individual.status, registerCheck(individual)?.code], ['MANUAL_REVIEW', 'REGISTER_DATE_OF_BIRTH_DIFFERS']);
    assert.ok(!t.logText().includes(registerBorn), 'the register’s date is in no log line');
  });
});

describe('the reports of a lookup-bound person', () => {
  it('answer 503 with Retry-After while the register cannot give the date of birth to set beside theirs, recorded so', async () => {
    const { requestId, individualId, person, registerBorn } = await kingsley();
    await checked(person, anotherDate(registerBorn));
    register = 'down';
    for (const path of [`/v1/verifications/${requestId}/report`, `/v1/verifications/${requestId}/individuals/${individualId}/report`]) {
      const issued = await t.app.inject({ method: 'POST', url: path, headers: partner.headers });
      assert.equal(issued.statusCode, 200, issued.body);
      const res = await t.app.inject({ method: 'GET', url: issued.json<{ url: string }>().url.replace(/^https?:\/\/[^/]+/, '') });
      assert.deepEqual([res.statusCode, res.json<{ code: string }>().code, res.headers['retry-after']], [503, 'SERVICE_UNAVAILABLE', '60'], path);
      assert.match(res.json<{ detail: string }>().detail, /register is not answering/);
    }
    const reads = await t.services.db.query<{ kind: string; status: string }>('SELECT kind, status FROM evidence_reads WHERE verification_request_id = $1 ORDER BY id', [requestId]);
    assert.deepEqual(reads.map((r) => [r.kind, r.status]), [['ENTITY_REPORT', 'UPSTREAM_UNAVAILABLE'], ['INDIVIDUAL_REPORT', 'UPSTREAM_UNAVAILABLE']]);
    register = 'answers';
  });
});

describe('the operator’s review of a lookup-bound person', () => {
  const readerOf = () => ({ operatorId: operator.operatorId, httpRequestId: 'req-test' });

  it('reads the register’s record of the party live, and the review page sets it beside what was entered', async () => {
    const { requestId, individualId, person, registerBorn } = await kingsley();
    const entered = anotherDate(registerBorn);
    await checked(person, entered);
    const reader = readerOf();
    const record = await t.services.evidence.registerRecord(reader, requestId, individualId);
    assert.deepEqual(record, { status: 'OK', name: { givenNames: 'Oliver James', familyName: 'KINGSLEY' }, dateOfBirth: registerBorn });
    const document = await t.services.evidence.documentDetails(reader, requestId, individualId, { includeScans: false });
    const page = documentEvidence(document, record).text;
    assert.match(page, new RegExp(`${entered} <span class="badge badge-bad">MISMATCH</span><br><span class="muted">Register: ${registerBorn}</span>`));
    assert.match(page, /<h2 id="against-register">Against the register<\/h2>/);
    assert.match(page, /The date of birth entered is not the register’s\./);
    assert.match(page, new RegExp(`<td data-label="Entered" class=""><div>${entered}</div></td><td data-label="On the register" class=""><div>${registerBorn}</div></td>`));

    register = 'down';
    const down = await t.services.evidence.registerRecord(reader, requestId, individualId);
    assert.equal(down.status, 'UPSTREAM_UNAVAILABLE');
    assert.match(documentEvidence(document, down).text, /The register’s record cannot be shown right now\./);
    register = 'answers';
  });

  it('has no register record for a hand-built person, and the page shows none', async () => {
    const created = await createVerification(t, partner, { mode: 'TPB_POI', individuals: [{ role: 'DIRECTOR' }] });
    const individualId = created.individuals[0]!.id;
    await checked(await openLink(t, (await mintLinks(t, partner, created.id)).get(individualId)!), '1979-02-17', 'Review');
    const reader = readerOf();
    const record = await t.services.evidence.registerRecord(reader, created.id, individualId);
    assert.deepEqual(record, { status: 'NOT_BOUND' });
    const page = documentEvidence(await t.services.evidence.documentDetails(reader, created.id, individualId, { includeScans: false }), record).text;
    assert.doesNotMatch(page, /Against the register|MISMATCH|Register: /);
  });
});
