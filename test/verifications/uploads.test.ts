// The hosted flow's document and selfie steps and its submit, as the person's page calls them: files
// judged by their bytes and stripped of metadata, every problem a 400 at its pointer, forms only; the
// page's session cookie; what /v/{token} may show; and checks that never get through, which leave the
// attempt uncounted and the person free to submit again.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { createManualClock } from '../../src/platform/clock.ts';
import { cameraMake, exifSegment, sampleJpeg } from '../fixtures/images.ts';
import { runDueJobs } from '../helpers/billing.ts';
import { createTestContext, type TestContext, type TestPartner } from '../helpers/context.ts';
import { createVerification, mintLinks, openLink, passport, personDetails, photo, pngPhoto, submitAttempt, type Person } from '../helpers/verifications.ts';

const clock = createManualClock(new Date('2026-11-24T09:00:00.000Z'));
let t: TestContext;
let partner: TestPartner;

before(async () => {
  t = await createTestContext({ clock });
  partner = await t.f.partner({ name: 'Ledger Tax' });
});
after(() => t.close());
beforeEach(async () => {
  partner = await t.f.signIn(partner);
});

async function linked(): Promise<{ requestId: string; individualId: string; token: string }> {
  const created = await createVerification(t, partner, { mode: 'TPB_POI', individuals: [{ role: 'DIRECTOR' }] });
  const individualId = created.individuals[0]!.id;
  return { requestId: created.id, individualId, token: (await mintLinks(t, partner, created.id)).get(individualId)! };
}

async function opened(): Promise<Person & { individualId: string; requestId: string }> {
  const { requestId, individualId, token } = await linked();
  return { ...(await openLink(t, token)), individualId, requestId };
}

const problem = (res: { statusCode: number; json<T>(): T }) => {
  const body = res.json<{ code: string; errors?: Array<{ pointer: string; message: string }> }>();
  return [res.statusCode, body.code, body.errors?.map((e) => `${e.pointer} ${e.message}`)];
};

describe('the document step', () => {
  it('takes a passport with a JPEG front, a driver licence with both sides (PNG too), and a Medicare card', async () => {
    const p = await opened();
    assert.equal((await p.document()).statusCode, 200);
    const licence = await p.document({ type: 'DRIVER_LICENCE', number: '12 345 678', issuingCountry: 'AU', issuingState: 'NSW', cardNumber: '2073946581' }, { front: photo(), back: pngPhoto() });
    assert.equal(licence.statusCode, 200, licence.body);
    assert.deepEqual(licence.json<{ completedSteps: string[] }>().completedSteps, ['document']);
    assert.equal((await p.document({ type: 'MEDICARE', number: '2123 45670 1', issuingCountry: 'AU', cardNumber: '1', expiryDate: '2027-08-31' })).statusCode, 200);
  });

  it('refuses a file that is not an image, a file over 10 MiB, and a missing front, each at its pointer', async () => {
    const p = await opened();
    const text = { bytes: Buffer.from('these are my notes, not a photo'), filename: 'licence.jpg', contentType: 'image/jpeg' };
    assert.deepEqual(problem(await p.document(passport, { front: text })), [400, 'VALIDATION_ERROR', ['/front not a JPEG or PNG image']]);
    const huge = { bytes: Buffer.concat([sampleJpeg(), Buffer.alloc(10 * 1024 * 1024)]), filename: 'huge.jpg', contentType: 'image/jpeg' };
    assert.deepEqual(problem(await p.document(passport, { front: photo(), back: huge })), [400, 'VALIDATION_ERROR', ['/back larger than 10 MiB']]);
    const missing = problem(await p.document(passport, {}));
    assert.equal(missing[0], 400);
    assert.match(String(missing[2]), /\/front/);
    assert.deepEqual(problem(await p.document({ ...passport, front: 'a picture' }, {})), [400, 'VALIDATION_ERROR', ['/front must be a file']]);
    assert.deepEqual((await p.view()).json<{ completedSteps: string[] }>().completedSteps, [], 'nothing was saved');
  });

  it('says in words what is wrong with the fields, all at once', async () => {
    const p = await opened();
    const cases: Array<[Record<string, string>, string[]]> = [
      [{ type: 'DRIVER_LICENCE', number: '12345678', issuingCountry: 'AU' }, ['/issuingState is required for a driver licence: the state or territory that issued it']],
      [{ type: 'MEDICARE', number: '2123456701', issuingCountry: 'AU' }, ['/cardNumber is required for a Medicare card: the number beside your name']],
      [{ ...passport, expiryDate: '2020-01-01' }, ['/expiryDate has passed: the document has expired']],
      [{ ...passport, issuingCountry: 'XX' }, ['/issuingCountry must be a country code such as AU']],
      [{ type: 'DRIVER_LICENCE', number: '12345678', issuingCountry: 'NZ', issuingState: 'VIC' }, ['/issuingCountry must be AU for a driver licence or Medicare card']],
    ];
    for (const [fields, expected] of cases) assert.deepEqual(problem(await p.document(fields)), [400, 'VALIDATION_ERROR', expected], JSON.stringify(fields));
    const schema = problem(await p.document({ type: 'ID_CARD', number: 'PB7730412', issuingCountry: 'Australia', nickname: 'x' }));
    assert.equal(schema[0], 400);
    for (const pointer of ['/type', '/nickname']) assert.match(String(schema[2]), new RegExp(pointer), pointer);
  });

  it('takes forms only: JSON is 415, a field given twice or a file where text belongs is 400', async () => {
    const p = await opened();
    const json = await t.app.inject({ method: 'POST', url: '/hosted/v1/verification-session/document', headers: { authorization: `Bearer ${p.sessionToken}` }, payload: passport });
    assert.deepEqual(problem(json).slice(0, 2), [415, 'UNSUPPORTED_MEDIA_TYPE']);
    assert.deepEqual(problem(await p.document(passport, { front: photo(), notes: photo() })), [400, 'VALIDATION_ERROR', ['/notes is not a file field of this form']]);
    assert.deepEqual(problem(await p.document({ ...passport }, { front: photo(), number: photo() })), [400, 'VALIDATION_ERROR', ['/number is given twice']]);
  });

  it('strips what the photo says about where and when it was taken before the provider keeps it', async () => {
    const p = await opened();
    const withExif = sampleJpeg({ before: [exifSegment()] });
    assert.ok(withExif.includes(cameraMake));
    await p.details(personDetails('Okafor'));
    assert.equal((await p.document(passport, { front: photo(withExif) })).statusCode, 200);
    assert.equal((await p.selfie(photo(withExif))).statusCode, 200);
    assert.equal((await p.submit()).statusCode, 200);
    await runDueJobs(t);
    const [row] = await t.services.db.query<{ subject_ref: string }>('SELECT subject_ref FROM verification_individuals WHERE id = $1', [p.individualId]);
    const evidence = await t.services.identity.evidence(row!.subject_ref, { includeScans: true });
    assert.ok(evidence.ok && evidence.evidence);
    const { document, selfie } = evidence.evidence;
    for (const image of [document.front!, selfie!]) {
      assert.equal(image.contentType, 'image/jpeg');
      assert.ok(!image.bytes.includes(cameraMake) && !image.bytes.includes('Exif'), 'no EXIF left');
    }
  });
});

describe('the selfie step and submit', () => {
  it('refuses a selfie that is not an image at /image', async () => {
    const p = await opened();
    const gif = { bytes: Buffer.from('GIF89a\x01\x00\x01\x00'), filename: 'me.gif', contentType: 'image/gif' };
    assert.deepEqual(problem(await p.selfie(gif)), [400, 'VALIDATION_ERROR', ['/image not a JPEG or PNG image']]);
  });

  it('submit names the steps still missing', async () => {
    const p = await opened();
    assert.equal((await p.details(personDetails('Okafor'))).statusCode, 200);
    const res = await p.submit();
    assert.deepEqual([res.statusCode, res.json<{ detail: string }>().detail], [409, 'Not everything is there yet: add your document, selfie first']);
  });

  it('checks that never get through leave the attempt UNAVAILABLE and uncounted, with an issue, and the person may submit again', async () => {
    const p = await opened();
    await submitAttempt(p, 'Unavailable');
    // Ten tries over about 3 h 48 min; the sandbox's outage lasts an hour, so the outage here is made
    // longer by moving the subject's outage end out of reach.
    const [row] = await t.services.db.query<{ subject_ref: string }>('SELECT subject_ref FROM verification_individuals WHERE id = $1', [p.individualId]);
    await runDueJobs(t);
    await t.services.db.query("UPDATE sandbox_identity_subjects SET outage_until = now() + interval '100 years' WHERE ref = $1", [row!.subject_ref]);
    for (const wait of [30, 60, 120, 300, 600, 1800, 3600, 3600, 3600]) {
      clock.advance(wait * 1000);
      await runDueJobs(t);
    }
    const view = (await p.view()).json<{ individual: { status: string }; attempt: unknown; attemptsRemaining: number }>();
    assert.deepEqual([view.individual.status, view.attempt, view.attemptsRemaining], ['IN_PROGRESS', { number: 1, status: 'UNAVAILABLE' }, 3]);
    partner = await t.f.signIn(partner);
    const request = (await t.app.inject({ method: 'GET', url: `/v1/verifications/${p.requestId}`, headers: partner.headers })).json<{ issueList: Array<{ code: string; individualId: string }>; individuals: Array<{ attemptCount: number }> }>();
    assert.deepEqual(request.issueList.map((i) => [i.individualId, i.code]), [[p.individualId, 'IDENTITY_CHECKS_UNAVAILABLE']]);
    assert.equal(request.individuals[0]!.attemptCount, 0);
    const again = await p.submit();
    assert.deepEqual([again.statusCode, again.json()], [200, { status: 'CHECKING', attemptsRemaining: 2 }]);
    assert.equal((await t.services.db.query("SELECT 1 FROM charges WHERE reference_id = $1", [p.individualId])).length, 1, 'charged once');
  });
});

describe('the page’s session cookie and what /v/{token} may show', () => {
  it('opening sets an HttpOnly, Secure, SameSite=Lax cookie that the session calls accept instead of a bearer token', async () => {
    const { token } = await linked();
    const res = await t.app.inject({ method: 'POST', url: '/hosted/v1/verification-sessions', payload: { token } });
    const cookie = String(res.headers['set-cookie']);
    const sessionToken = res.json<{ sessionToken: string }>().sessionToken;
    assert.equal(cookie, `pvs_verification_session=${sessionToken}; Path=/; Max-Age=86400; HttpOnly; Secure; SameSite=Lax`);
    const read = await t.app.inject({ method: 'GET', url: '/hosted/v1/verification-session', headers: { cookie: `theme=dark; pvs_verification_session=${sessionToken}` } });
    assert.equal(read.statusCode, 200, read.body);
  });

  const sandboxTerms = { documentTypes: ['PASSPORT', 'DRIVER_LICENCE', 'MEDICARE'], disclosure: null };

  it('linkPage: start for a fresh link (without spending it), resume with the own session, why not otherwise', async () => {
    const { requestId, individualId, token } = await linked();
    const sessions = t.services.verificationSessions;
    assert.deepEqual(await sessions.linkPage(token, undefined), { kind: 'start', partnerName: 'Ledger Tax', role: 'DIRECTOR', roleDescription: null, entityName: null, provider: sandboxTerms });
    assert.deepEqual(await sessions.linkPage(token, undefined), { kind: 'start', partnerName: 'Ledger Tax', role: 'DIRECTOR', roleDescription: null, entityName: null, provider: sandboxTerms }, 'reading did not spend it');
    assert.deepEqual(await sessions.linkPage('B'.repeat(43), undefined), { kind: 'unknown' });
    const p = await openLink(t, token);
    assert.equal((await sessions.linkPage(token, p.sessionToken)).kind, 'resume');
    assert.deepEqual(await sessions.linkPage(token, undefined), { kind: 'invalid', reason: 'SPENT' });
    const other = await opened();
    assert.deepEqual(await sessions.linkPage(token, other.sessionToken), { kind: 'invalid', reason: 'SPENT' }, 'another individual’s session does not resume this link');
    const [newToken] = [(await mintLinks(t, partner, requestId, [individualId])).get(individualId)!];
    assert.equal((await sessions.linkPage(newToken, p.sessionToken)).kind, 'start', 'a new link ended the old session');
  });
});
