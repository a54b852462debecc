// Identity retention (decision 132): the hourly `verifications.identity-retention` job has the identity
// provider forget a person and records on the individual when and why. Someone who gave something but
// never submitted is forgotten 30 days after their last link and session stopped working (a live one
// holds them); a finished individual seven years (2557 days) after the outcome, and one who submitted and
// then stopped seven years after going quiet; nobody in MANUAL_REVIEW or being checked, ever. A provider
// outage leaves the individual for the next run. A link sent after a forget starts the person afresh, and
// the evidence endpoints, the report and the console's review answer for a forgotten individual.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sandboxScreeningFixture } from '../../src/cli/serve.ts';
import { createIdentityRetention } from '../../src/modules/verifications/identity-retention.ts';
import { recordForgotten } from '../../src/modules/verifications/identity-retention.repository.ts';
import { createManualClock } from '../../src/platform/clock.ts';
import { slotKey } from '../../src/platform/jobs/queue.ts';
import { runDueJobs } from '../helpers/billing.ts';
import { createTestContext, type TestContext, type TestPartner } from '../helpers/context.ts';
import { attemptChecked, createVerification, mintLinks, openLink, personDetails, photo, submitAttempt } from '../helpers/verifications.ts';

const minute = 60_000;
const hour = 60 * minute;
const day = 24 * hour;
const retentionDays = 2557;

const clock = createManualClock(new Date('2026-11-24T09:00:00.000Z'));
let t: TestContext;
let partner: TestPartner;

before(async () => {
  t = await createTestContext({ clock });
  await t.services.screening.importList({ format: 'opensanctions', filePath: sandboxScreeningFixture, list: 'sandbox-fixture' });
  partner = await t.f.partner({ name: 'Ledger Tax' });
});
after(() => t.close());

/** Each test starts on a whole hour after the last one, so `runAt` a minute either side of a boundary runs two different slots. */
async function startNextHour(): Promise<Date> {
  clock.set(new Date((Math.floor(clock.now().getTime() / hour) + 2) * hour));
  partner = await t.f.signIn(partner);
  return clock.now();
}

/** Moves the clock to `at` and runs what is due, the retention job's slot for that hour among it. */
async function runAt(at: Date): Promise<void> {
  clock.set(at);
  await runDueJobs(t);
  const key = slotKey('verifications.identity-retention', new Date(Math.floor(at.getTime() / hour) * hour));
  const [job] = await t.services.db.query<{ status: string }>('SELECT status FROM jobs WHERE key = $1', [key]);
  assert.equal(job?.status, 'SUCCEEDED', `the retention job ran for ${at.toISOString()}`);
  partner = await t.f.signIn(partner);
}

const later = (from: Date, ms: number) => new Date(from.getTime() + ms);

interface IndividualState {
  status: string;
  subject_ref: string | null;
  subject_forgotten_at: Date | null;
  subject_forgotten_reason: string | null;
}

async function stateOf(individualId: string): Promise<IndividualState> {
  const [row] = await t.services.db.query<IndividualState>(
    'SELECT status, subject_ref, subject_forgotten_at, subject_forgotten_reason FROM verification_individuals WHERE id = $1',
    [individualId],
  );
  return row!;
}

/** Everything the sandbox provider's own tables hold on a subject: its row, steps, images and verified attempts. */
async function sandboxHolds(subjectRef: string): Promise<{ subjects: number; steps: number; images: number; attempts: number }> {
  const count = async (sql: string) => Number((await t.services.db.query<{ n: string | number }>(sql, [subjectRef]))[0]!.n);
  return {
    subjects: await count('SELECT count(*) AS n FROM sandbox_identity_subjects WHERE ref = $1'),
    steps: await count('SELECT count(*) AS n FROM sandbox_identity_steps WHERE subject_ref = $1'),
    images: await count('SELECT count(*) AS n FROM sandbox_identity_images WHERE step_id IN (SELECT id FROM sandbox_identity_steps WHERE subject_ref = $1)'),
    attempts: await count('SELECT count(*) AS n FROM sandbox_identity_attempts WHERE subject_ref = $1'),
  };
}

const nothing = { subjects: 0, steps: 0, images: 0, attempts: 0 };

/** Every image the sandbox holds: a forgotten subject's must leave with it, not stay behind unreachable. */
const imageCount = async () => Number((await t.services.db.query<{ n: string | number }>('SELECT count(*) AS n FROM sandbox_identity_images'))[0]!.n);

/** A TPB_POI request for `n` people, each link opened. */
async function people(n: number) {
  const created = await createVerification(t, partner, { mode: 'TPB_POI', individuals: Array.from({ length: n }, (_, i) => ({ role: 'OTHER', externalId: `client-${i}` })) });
  const tokens = await mintLinks(t, partner, created.id);
  const opened = [];
  for (const { id } of created.individuals) opened.push({ individualId: id, person: await openLink(t, tokens.get(id)!) });
  return { requestId: created.id, opened };
}

const readEvidence = (kind: 'document-details' | 'aml-matches', requestId: string, individualId: string) =>
  t.app.inject({ method: 'GET', url: `/v1/verifications/${requestId}/individuals/${individualId}/${kind}`, headers: partner.headers });

describe('abandoned before any check', () => {
  let forgotten: { requestId: string; individualId: string; subjectRef: string };

  it('forgets a person who never submitted 30 days after their last link and session stopped working, not a minute before; a live link holds another', async () => {
    const t0 = await startNextHour();
    const { requestId, opened } = await people(2);
    const [a, b] = opened as [(typeof opened)[0], (typeof opened)[0]];
    for (const { person } of opened) {
      assert.equal((await person.details(personDetails('Okafor'))).statusCode, 200);
      assert.equal((await person.document()).statusCode, 200);
    }
    const subjectA = (await stateOf(a.individualId)).subject_ref!;
    const subjectB = (await stateOf(b.individualId)).subject_ref!;
    assert.deepEqual(await sandboxHolds(subjectA), { subjects: 1, steps: 2, images: 1, attempts: 0 });

    // Day 25: the partner sends b a new link, which works until day 32.
    clock.set(later(t0, 25 * day));
    partner = await t.f.signIn(partner);
    await mintLinks(t, partner, requestId, [b.individualId]);

    // a's link was spent at once, but the session it opened worked for a day: 30 days from that, not from the link.
    await runAt(later(t0, 30 * day + hour));
    await runAt(later(t0, 31 * day - minute));
    assert.equal((await stateOf(a.individualId)).subject_ref, subjectA, 'a minute short of 30 days: kept');

    const imagesBefore = await imageCount();
    await runAt(later(t0, 31 * day + minute));
    assert.deepEqual(await stateOf(a.individualId), { status: 'IN_PROGRESS', subject_ref: null, subject_forgotten_at: clock.now(), subject_forgotten_reason: 'ABANDONED' });
    assert.deepEqual(await sandboxHolds(subjectA), nothing, 'the provider holds nothing on a any more');
    assert.equal(await imageCount(), imagesBefore - 1, 'its document image went with it');
    assert.equal((await stateOf(b.individualId)).subject_ref, subjectB, 'b’s new link is live: kept');

    // b's link expired unopened on day 32: b goes 30 days later.
    await runAt(later(t0, 62 * day - minute));
    assert.equal((await stateOf(b.individualId)).subject_ref, subjectB);
    await runAt(later(t0, 62 * day + minute));
    assert.deepEqual(await stateOf(b.individualId), { status: 'IN_PROGRESS', subject_ref: null, subject_forgotten_at: clock.now(), subject_forgotten_reason: 'ABANDONED' });
    assert.deepEqual(await sandboxHolds(subjectB), nothing);
    forgotten = { requestId, individualId: a.individualId, subjectRef: subjectA };
  });

  it('document-details and aml-matches answer NOT_AVAILABLE for a forgotten person, with nothing in them', async () => {
    const details = await readEvidence('document-details', forgotten.requestId, forgotten.individualId);
    assert.equal(details.statusCode, 200, details.body);
    const body = details.json<{ status: string; message: string; attempt: unknown; claimedIdentity: unknown; documents: unknown[]; images: unknown[] }>();
    assert.deepEqual([body.status, body.attempt, body.claimedIdentity, body.documents, body.images], ['NOT_AVAILABLE', null, null, [], []]);
    assert.match(body.message, /^The identity provider was told to delete this person’s details and documents on \d{4}-\d{2}-\d{2}, under PVS’s retention rules/, 'says why, not that the person never began');
    const aml = await readEvidence('aml-matches', forgotten.requestId, forgotten.individualId);
    assert.deepEqual([aml.statusCode, aml.json<{ status: string }>().status], [200, 'NOT_AVAILABLE']);
  });

  it('a link sent afterwards starts the person afresh: no steps saved, a new subject at their first step, and on to a pass', async () => {
    const tokens = await mintLinks(t, partner, forgotten.requestId, [forgotten.individualId]);
    const person = await openLink(t, tokens.get(forgotten.individualId)!);
    const view = await person.view();
    assert.deepEqual(view.json<{ completedSteps: string[] }>().completedSteps, []);
    assert.equal((await person.details(personDetails('Okafor'))).statusCode, 200);
    const state = await stateOf(forgotten.individualId);
    assert.ok(state.subject_ref && state.subject_ref !== forgotten.subjectRef, 'a new subject');
    assert.equal(state.subject_forgotten_reason, 'ABANDONED', 'the earlier forgetting stays recorded');
    assert.deepEqual(await sandboxHolds(state.subject_ref), { subjects: 1, steps: 1, images: 0, attempts: 0 });
    const checked = await attemptChecked(t, person, 'Okafor');
    assert.deepEqual([checked.individual.status, checked.completedSteps], ['PASSED', ['details', 'document', 'selfie']]);
  });
});

describe('kept for the retention period after the outcome', () => {
  it('forgets a finished person 2557 days after the outcome, not a day before, and one who submitted and stopped 2557 days after going quiet; never one in MANUAL_REVIEW or being checked', async () => {
    const t1 = await startNextHour();
    const { requestId, opened } = await people(4);
    const [passed, stopped, review, checking] = opened.map((o) => o.individualId) as [string, string, string, string];
    await submitAttempt(opened[0]!.person, 'Okafor');
    await submitAttempt(opened[1]!.person, 'Fail');
    await submitAttempt(opened[2]!.person, 'Review');
    await runDueJobs(t);
    // The fourth submits with its check held back: an attempt that stays CHECKING.
    await submitAttempt(opened[3]!.person, 'Okafor');
    await t.services.db.query("UPDATE jobs SET run_at = '9999-01-01' WHERE kind = 'verifications.check' AND status = 'QUEUED'");
    assert.deepEqual(
      await Promise.all([passed, stopped, review, checking].map(async (id) => (await stateOf(id)).status)),
      ['PASSED', 'IN_PROGRESS', 'MANUAL_REVIEW', 'IN_PROGRESS'],
    );
    const subjects = new Map(await Promise.all([passed, stopped, review, checking].map(async (id) => [id, (await stateOf(id)).subject_ref!] as const)));
    const before = await readEvidence('document-details', requestId, passed);
    assert.equal(before.json<{ status: string }>().status, 'OK');

    // Past the 30 days: those who submitted are not abandoned.
    await runAt(later(t1, 31 * day + minute));
    await runAt(later(t1, (retentionDays - 1) * day));
    for (const [id, ref] of subjects) assert.equal((await stateOf(id)).subject_ref, ref, `${id} kept a day before`);

    await runAt(later(t1, retentionDays * day + minute));
    assert.deepEqual(await stateOf(passed), { status: 'PASSED', subject_ref: null, subject_forgotten_at: clock.now(), subject_forgotten_reason: 'RETENTION' });
    assert.deepEqual(await sandboxHolds(subjects.get(passed)!), nothing, 'details, images and the verified attempt are gone');
    // The one who stopped went quiet when its session ended, a day after its attempt was checked.
    assert.equal((await stateOf(stopped)).subject_ref, subjects.get(stopped));

    await runAt(later(t1, (retentionDays + 1) * day + minute));
    assert.deepEqual(await stateOf(stopped), { status: 'IN_PROGRESS', subject_ref: null, subject_forgotten_at: clock.now(), subject_forgotten_reason: 'RETENTION' });
    assert.deepEqual(await sandboxHolds(subjects.get(stopped)!), nothing);

    await runAt(later(t1, (retentionDays + 400) * day));
    for (const id of [review, checking]) {
      assert.equal((await stateOf(id)).subject_ref, subjects.get(id), `${id} is never forgotten`);
      assert.equal((await sandboxHolds(subjects.get(id)!)).subjects, 1);
    }

    // The forgotten one still answers: evidence NOT_AVAILABLE, its report, the console's review.
    const details = await readEvidence('document-details', requestId, passed);
    assert.equal(details.statusCode, 200, details.body);
    assert.deepEqual(
      (({ status, attempt, images, faceComparisons, checks }) => ({ status, attempt, images, faceComparisons, checks }))(details.json<Record<string, unknown>>()),
      { status: 'NOT_AVAILABLE', attempt: null, images: [], faceComparisons: [], checks: [] },
    );
    const report = await t.app.inject({ method: 'POST', url: `/v1/verifications/${requestId}/individuals/${passed}/report`, headers: partner.headers });
    assert.equal(report.statusCode, 200, report.body);
    const pdf = await t.app.inject({ method: 'GET', url: report.json<{ url: string }>().url.replace('http://pvs.test', '') });
    assert.deepEqual([pdf.statusCode, pdf.headers['content-type']], [200, 'application/pdf']);
    const operator = await t.f.operator();
    const session = await t.services.webSessions.open('console', operator.operatorId, { passwordChangeRequired: false, secondFactorAt: clock.now() });
    const page = await t.app.inject({ method: 'GET', url: `/console/reviews/${requestId}/${passed}`, headers: { cookie: `pvs_console=${session.token}` } });
    assert.equal(page.statusCode, 200, page.body);
    assert.match(page.body, /There is nothing to decide: this individual is <strong>PASSED<\/strong>/);
  });
});

describe('the provider and the run', () => {
  it('leaves an individual for the next run while the provider is unavailable, and logs its id only', async () => {
    const t2 = await startNextHour();
    const { opened } = await people(1);
    const { individualId, person } = opened[0]!;
    assert.equal((await person.details(personDetails('Wetherell', { firstName: 'Ottoline' }))).statusCode, 200);
    const subjectRef = (await stateOf(individualId)).subject_ref!;

    clock.set(later(t2, 31 * day + minute));
    const down = createIdentityRetention({
      db: t.services.db,
      clock,
      identity: { forget: async () => ({ ok: false, kind: 'unavailable', message: 'The identity provider did not answer' }) },
      logger: t.services.logger,
      abandonedDays: 30,
      retentionDays,
    });
    const run = await down.run();
    assert.ok(run.unavailable >= 1 && run.forgotten === 0, JSON.stringify(run));
    assert.deepEqual(await stateOf(individualId), { status: 'IN_PROGRESS', subject_ref: subjectRef, subject_forgotten_at: null, subject_forgotten_reason: null });
    assert.equal((await sandboxHolds(subjectRef)).subjects, 1);
    const warning = t.logs.find((l) => l.individualId === individualId && l.level === 'warn');
    assert.ok(warning, 'a warning names the individual');
    assert.ok(!/Wetherell|Ottoline/i.test(t.logText()), 'no log line names the person');
    assert.ok(!t.logText().includes(subjectRef), 'nor their subject');

    await runAt(later(t2, 31 * day + hour));
    assert.equal((await stateOf(individualId)).subject_forgotten_reason, 'ABANDONED');
    assert.deepEqual(await sandboxHolds(subjectRef), nothing);
  });

  it('keeps a person sent a new link while the run is under way: each is read again just before the provider is asked', async () => {
    const t4 = await startNextHour();
    const created = await createVerification(t, partner, { mode: 'TPB_POI', individuals: [{ role: 'OTHER' }, { role: 'OTHER' }] });
    const [first, second] = created.individuals.map((i) => i.id) as [string, string];
    const tokens = await mintLinks(t, partner, created.id);
    assert.equal((await (await openLink(t, tokens.get(first)!)).details(personDetails('Okafor'))).statusCode, 200);
    // The second opens two hours later, so it comes second in the run.
    clock.set(later(t4, 2 * hour));
    assert.equal((await (await openLink(t, tokens.get(second)!)).details(personDetails('Okafor'))).statusCode, 200);
    const secondSubject = (await stateOf(second)).subject_ref!;

    clock.set(later(t4, 31 * day + 3 * hour));
    partner = await t.f.signIn(partner);
    const asked: string[] = [];
    const retention = createIdentityRetention({
      db: t.services.db,
      clock,
      identity: {
        async forget(subjectRef) {
          // While the provider forgets the first, the partner sends the second a new link.
          if (asked.push(subjectRef) === 1) await mintLinks(t, partner, created.id, [second]);
          return t.services.identity.forget(subjectRef);
        },
      },
      logger: t.services.logger,
      abandonedDays: 30,
      retentionDays,
    });
    await retention.run();
    assert.equal((await stateOf(first)).subject_forgotten_reason, 'ABANDONED');
    assert.ok(!asked.includes(secondSubject), 'the provider was never asked about the second');
    assert.equal((await stateOf(second)).subject_ref, secondSubject);
    assert.equal((await sandboxHolds(secondSubject)).subjects, 1);
  });

  it('forgets again when a run stopped between the provider and the record, and records only over the subject it forgot', async () => {
    const t3 = await startNextHour();
    const { opened } = await people(1);
    const { individualId, person } = opened[0]!;
    assert.equal((await person.details(personDetails('Okafor'))).statusCode, 200);
    assert.equal((await person.selfie(photo())).statusCode, 200);
    const subjectRef = (await stateOf(individualId)).subject_ref!;

    // As if a run had the provider forget, then died before recording it.
    assert.deepEqual(await t.services.identity.forget(subjectRef), { ok: true });
    assert.equal(await recordForgotten(t.services.db, individualId, 'sbx_subject_someone_else', 'ABANDONED', clock.now()), false, 'another subject: nothing recorded');
    assert.equal((await stateOf(individualId)).subject_ref, subjectRef);

    await runAt(later(t3, 31 * day + minute));
    assert.deepEqual(await stateOf(individualId), { status: 'IN_PROGRESS', subject_ref: null, subject_forgotten_at: clock.now(), subject_forgotten_reason: 'ABANDONED' });
  });
});
