// The Onfido identity provider against the local stand-in of Onfido's API (test/helpers/onfido-stand-in,
// which refuses and records any request outside Onfido's published spec), on a real database: every
// scenario through verify, pending checks, one check per attempt (also after a crash), outages, refusals
// at a step, evidence, forgetting, webhooks, and what PVS's own tables hold.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { createServer as createHttpServer } from 'node:http';
import { createServer as createTcpServer, type AddressInfo, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { deflateSync } from 'node:zlib';
import { exifSegment, pngChunk, pngSignature, sampleJpeg } from '../fixtures/images.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { cleaned, png } from '../helpers/identity-images.ts';
import { startOnfidoStandIn, type OnfidoStandIn } from '../helpers/onfido-stand-in/index.ts';
import { outcomeOf } from '../../src/modules/verifications/outcomes.ts';
import { createManualClock } from '../../src/platform/clock.ts';
import type { IdentityDocument, IdentityImage, IdentityProvider, PersonDetails, Verification } from '../../src/providers/identity/identity-provider.ts';
import { checkGiveUpMs } from '../../src/providers/identity/onfido/onfido-checks.ts';
import { createOnfidoIdentity, type OnfidoIdentityOptions } from '../../src/providers/identity/onfido/onfido-identity.ts';

let database: TestDatabase;
let onfido: OnfidoStandIn;
let identity: IdentityProvider;
const clock = createManualClock(new Date('2026-03-01T00:00:00.000Z'));

function provider(overrides: Partial<OnfidoIdentityOptions> = {}): IdentityProvider {
  return createOnfidoIdentity({ db: database.db, clock, apiToken: onfido.apiToken, region: 'eu', webhookToken: onfido.webhookToken, apiUrl: onfido.url, ...overrides });
}

before(async () => {
  database = await createTestDatabase();
  onfido = await startOnfidoStandIn({ completeAfterMs: 150 });
  identity = provider();
});
after(async () => {
  await onfido.close();
  await database.drop();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function details(lastName: string, overrides: Partial<PersonDetails> = {}): PersonDetails {
  return {
    firstName: 'Olivia',
    middleName: 'Grace',
    lastName,
    dateOfBirth: '1988-07-21',
    address: { line1: '12 Wattle Street', locality: 'Fitzroy', state: 'VIC', postcode: '3065', country: 'AU' },
    email: 'olivia.g@example.com',
    phone: '+61400111222',
    ...overrides,
  };
}


/** A PNG of random pixels: as large as its pixels, since noise does not compress. */
function noisePng(width: number, height: number): IdentityImage {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const rows = randomBytes((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) rows[y * (width * 3 + 1)] = 0;
  return cleaned(Buffer.concat([pngSignature, pngChunk('IHDR', header), pngChunk('IDAT', deflateSync(rows)), pngChunk('IEND')]));
}

const selfieJpeg = () => cleaned(sampleJpeg({ jfif: 'plain', before: [exifSegment()] }));

function passport(overrides: Partial<IdentityDocument> = {}): IdentityDocument {
  return { type: 'PASSPORT', number: 'PA4471923', issuingCountry: 'AU', expiryDate: '2031-05-01', front: png(1), ...overrides };
}
const licence = (overrides: Partial<IdentityDocument> = {}): IdentityDocument =>
  passport({ type: 'DRIVER_LICENCE', number: 'DL0098321', issuingState: 'NSW', cardNumber: 'C1234567', front: png(2), back: png(3), ...overrides });

async function subject(using = identity): Promise<string> {
  const created = await using.createSubject();
  assert.ok(created.ok);
  return created.subjectRef;
}

async function completeSubject(lastName: string, document = passport(), person = details(lastName)): Promise<string> {
  const ref = await subject();
  assert.deepEqual(await identity.saveDetails(ref, person), { ok: true, missing: ['document', 'selfie'] });
  assert.deepEqual(await identity.saveDocument(ref, document), { ok: true, missing: ['selfie'] });
  assert.deepEqual(await identity.saveSelfie(ref, selfieJpeg()), { ok: true, missing: [] });
  return ref;
}

/** Asks until the check completes, as the job would (but without waiting retryInSeconds). */
async function verified(ref: string, attempt = 1): Promise<Verification> {
  for (let i = 0; i < 100; i++) {
    const result = await identity.verify(ref, { attempt });
    if (result.ok) return result;
    assert.equal(result.kind, 'pending', JSON.stringify(result));
    await sleep(50);
  }
  assert.fail('the check never completed');
}

const applicantOf = async (ref: string) => (await database.db.query<{ applicant_id: string }>('SELECT applicant_id FROM onfido_identity_subjects WHERE ref = $1', [ref]))[0]!.applicant_id;
const checksAt = (applicantId: string) => onfido.applicants().find((a) => a.id === applicantId)!.checks;
const summary = (v: Verification) => v.checks.map((c) => `${c.checkType} ${c.result} ${c.code}`);
const statusOf = (v: Verification) => outcomeOf({ checks: v.checks, hardFailure: v.hardFailure, amlMatches: 0 }, { attemptCount: 1, maxAttempts: 3 }).status;

describe('onfido identity: what it is', () => {
  it('checks passports and driver licences, names Onfido and the region as the recipient, and sends nothing for a new subject', async () => {
    assert.equal(identity.name, 'onfido');
    assert.deepEqual(identity.documentTypes, ['PASSPORT', 'DRIVER_LICENCE']);
    assert.deepEqual(identity.disclosure, { recipient: 'Onfido', location: 'the European Union' });
    assert.deepEqual(provider({ region: 'ca' }).disclosure, { recipient: 'Onfido', location: 'Canada' });
    assert.deepEqual(provider({ region: 'us' }).disclosure?.location, 'the United States');
    const before = onfido.requests.length;
    const ref = await subject();
    assert.match(ref, /^onf_[A-Za-z0-9_-]{22}$/);
    assert.equal(onfido.requests.length, before);
    assert.deepEqual(await identity.missing(ref), { ok: true, missing: ['details', 'document', 'selfie'] });
  });
});

describe('onfido identity: scenarios through verify', () => {
  const scenarios: Array<[lastName: string, notPassing: string[], hard: boolean, status: string]> = [
    ['Nguyen', [], false, 'PASSED'],
    ['Review', ['FACE_MATCH REVIEW FACE_MATCH_INCONCLUSIVE'], false, 'MANUAL_REVIEW'],
    ['Rejected', ['DOCUMENT FAIL DOCUMENT_REJECTED'], false, 'IN_PROGRESS'],
    ['Suspected', ['FRAUD FAIL DOCUMENT_SUSPECTED'], true, 'FAILED'],
    ['Caution', ['DOCUMENT REVIEW DOCUMENT_CAUTION'], false, 'MANUAL_REVIEW'],
    ['Spoof', ['FRAUD FAIL SELFIE_SPOOF_SUSPECTED'], true, 'FAILED'],
    ['Unidentified', ['DOCUMENT REVIEW IDENTITY_RECORD_NOT_FOUND'], false, 'MANUAL_REVIEW'],
    ['Consider', ['DOCUMENT REVIEW DOCUMENT_CAUTION', 'DOCUMENT REVIEW IDENTITY_RECORD_NOT_MATCHED', 'FACE_MATCH REVIEW FACE_MATCH_INCONCLUSIVE'], false, 'MANUAL_REVIEW'],
  ];
  for (const [lastName, notPassing, hard, status] of scenarios) {
    it(`${lastName}: ${notPassing.join(', ') || 'every check passes'} → ${status}`, async () => {
      const result = await verified(await completeSubject(lastName));
      assert.deepEqual(summary(result).filter((s) => !s.includes(' PASS ')), notPassing);
      assert.equal(result.hardFailure, hard);
      assert.equal(statusOf(result), status);
      assert.equal(summary(result).includes('FRAUD PASS NO_FRAUD_SIGNALS'), !hard);
      for (const personal of ['Olivia', lastName === 'Nguyen' ? 'Nguyen' : 'Olivia', '1988', 'Wattle', 'PA4471923']) assert.ok(!JSON.stringify(result.checks).includes(personal), personal);
    });
  }

  it('all clear: an Australian resident gets the identity record check, and the claimed identity comes from the applicant and the document report', async () => {
    const result = await verified(await completeSubject('Nguyen', licence()));
    assert.deepEqual(summary(result), ['DOCUMENT PASS DOCUMENT_AUTHENTIC', 'DOCUMENT PASS IDENTITY_RECORD_MATCHED', 'FACE_MATCH PASS FACE_MATCH_SCORE_HIGH', 'FRAUD PASS NO_FRAUD_SIGNALS']);
    assert.deepEqual(result.claimed, { fullName: 'Olivia Grace Nguyen', dateOfBirth: '1988-07-21', country: 'AU', residenceCountry: 'AU' });
    assert.deepEqual(result.faceMatch, { score: 0.93, threshold: 0.5, result: 'PASS' });
    assert.equal(result.attempt, 1);
  });

  it('a resident elsewhere gets no identity record check; an address without a postcode goes as the country of residence', async () => {
    const nz = await verified(await completeSubject('Nguyen', passport({ issuingCountry: 'NZ' }), details('Nguyen', { address: { line1: '1 Queen St', locality: 'Auckland', postcode: '1010', country: 'NZ' } })));
    assert.ok(!summary(nz).some((s) => s.includes('IDENTITY_RECORD')));
    assert.deepEqual(nz.claimed, { fullName: 'Olivia Grace Nguyen', dateOfBirth: '1988-07-21', country: 'NZ', residenceCountry: 'NZ' });
    const hk = await verified(await completeSubject('Nguyen', passport({ issuingCountry: 'GB' }), details('Nguyen', { middleName: undefined, address: { line1: '8 Finance St', locality: 'Central', country: 'HK' } })));
    assert.deepEqual(hk.claimed, { fullName: 'Olivia Nguyen', dateOfBirth: '1988-07-21', country: 'GB', residenceCountry: 'HK' });
  });
});

describe('onfido identity: steps', () => {
  it('says which steps are missing from its own record, and refuses to verify until none are', async () => {
    const ref = await subject();
    assert.deepEqual(await identity.saveSelfie(ref, selfieJpeg()), { ok: false, kind: 'rejected', pointer: '/image', message: 'cannot be saved before your details: enter your details first' });
    assert.equal((await identity.saveDocument(ref, passport())).ok, false);
    await identity.saveDetails(ref, details('Nguyen'));
    assert.deepEqual(await identity.missing(ref), { ok: true, missing: ['document', 'selfie'] });
    await identity.saveSelfie(ref, selfieJpeg());
    const before = onfido.requests.length;
    assert.deepEqual(await identity.missing(ref), { ok: true, missing: ['document'] });
    assert.equal(onfido.requests.length, before, 'missing asks Onfido nothing');
    await assert.rejects(identity.verify(ref, { attempt: 1 }), /cannot be verified before every step is saved/);
    await identity.saveDocument(ref, licence());
    assert.deepEqual(await identity.missing(ref), { ok: true, missing: [] });
  });

  it('refuses a Medicare card at /type without asking Onfido', async () => {
    const ref = await completeSubject('Nguyen');
    const before = onfido.requests.length;
    const answer = await identity.saveDocument(ref, passport({ type: 'MEDICARE', cardNumber: '2' }));
    assert.ok(!answer.ok && answer.kind === 'rejected');
    assert.equal(answer.pointer, '/type');
    assert.equal(onfido.requests.length, before);
  });

  it('answers a flat selfie or document image with Onfido’s refusal at its field, in the person’s words', async () => {
    const ref = await completeSubject('Nguyen');
    const selfie = await identity.saveSelfie(ref, png(0, true));
    assert.ok(!selfie.ok && selfie.kind === 'rejected');
    assert.equal(selfie.pointer, '/image');
    assert.match(selfie.message, /no face/);
    const front = await identity.saveDocument(ref, passport({ front: png(0, true) }));
    assert.ok(!front.ok && front.kind === 'rejected' && front.pointer === '/front');
    assert.match(front.message, /no identity document/);
    const back = await identity.saveDocument(ref, licence({ back: png(0, true) }));
    assert.ok(!back.ok && back.kind === 'rejected' && back.pointer === '/back');
    // Larger than the 3 MB Onfido takes for a document (PVS takes up to 10 MiB).
    const large = await identity.saveDocument(ref, passport({ front: noisePng(1100, 1000) }));
    assert.deepEqual(large, { ok: false, kind: 'rejected', pointer: '/front', message: 'could not be used: upload a JPEG or PNG photo of at most 3 MB' });
    // The refused saves changed nothing: the document saved before is still the current one.
    const rows = await database.db.query<{ document_type: string }>('SELECT document_type FROM onfido_identity_documents WHERE subject_ref = $1', [ref]);
    assert.deepEqual(rows.map((r) => r.document_type), ['PASSPORT']);
  });

  it('replaces a document saved again, sides and all', async () => {
    const ref = await completeSubject('Nguyen', licence());
    await identity.saveDocument(ref, passport());
    const rows = await database.db.query<{ side: string; document_type: string }>('SELECT side, document_type FROM onfido_identity_documents WHERE subject_ref = $1', [ref]);
    assert.deepEqual(rows, [{ side: 'front', document_type: 'PASSPORT' }]);
  });

  it('details saved again after an attempt go to a new applicant, with the document and selfie copied, and only change later attempts', async () => {
    const ref = await completeSubject('Rejected');
    const first = await verified(ref, 1);
    assert.equal(statusOf(first), 'IN_PROGRESS');
    const firstApplicant = await applicantOf(ref);
    assert.deepEqual(await identity.saveDetails(ref, details('Nguyen')), { ok: true, missing: [] });
    const secondApplicant = await applicantOf(ref);
    assert.notEqual(secondApplicant, firstApplicant);
    assert.deepEqual(await identity.missing(ref), { ok: true, missing: [] });
    const second = await verified(ref, 2);
    assert.equal(statusOf(second), 'PASSED');
    assert.equal(second.claimed.fullName, 'Olivia Grace Nguyen');
    assert.deepEqual(await identity.verify(ref, { attempt: 1 }), first, 'attempt 1 reads its own check, on its own applicant');
    const atOnfido = onfido.applicants().find((a) => a.id === secondApplicant)!;
    assert.deepEqual([atOnfido.documents, atOnfido.livePhotos, atOnfido.checks], [1, 1, 1]);
  });
});

describe('onfido identity: one check per attempt', () => {
  it('answers pending while the check runs, then its results; asked again, it reads the same check', async () => {
    const ref = await completeSubject('Nguyen');
    const pending = await identity.verify(ref, { attempt: 1 });
    assert.ok(!pending.ok && pending.kind === 'pending', JSON.stringify(pending));
    assert.equal(pending.retryInSeconds, 30);
    const result = await verified(ref);
    assert.deepEqual(await identity.verify(ref, { attempt: 1 }), result);
    assert.equal(checksAt(await applicantOf(ref)), 1);
  });

  it('after a crash between Onfido making the check and PVS recording it, finds the check by its tag instead of paying for a second', async () => {
    const ref = await completeSubject('Review');
    const first = await verified(ref);
    await database.db.query('DELETE FROM onfido_identity_checks WHERE subject_ref = $1', [ref]);
    assert.deepEqual(await verified(ref), first);
    assert.equal(checksAt(await applicantOf(ref)), 1);
    const second = await verified(ref, 2);
    assert.equal(checksAt(await applicantOf(ref)), 2, 'a new attempt is a new check');
    assert.equal(second.attempt, 2);
  });

  it('asks again less often as a check ages, and gives up on one still running after 24 hours', async () => {
    const ref = await completeSubject('Slow');
    const waits: Array<[number, number | string]> = [];
    for (const [at, label] of [[0, 0], [6 * 60_000, 6], [20 * 60_000, 20], [2 * 3600_000, 120]] as const) {
      clock.set(new Date(Date.parse('2026-03-01T00:00:00.000Z') + at));
      const answer = await identity.verify(ref, { attempt: 1 });
      assert.ok(!answer.ok && answer.kind === 'pending', JSON.stringify(answer));
      waits.push([label, answer.retryInSeconds]);
    }
    assert.deepEqual(waits, [[0, 30], [6, 120], [20, 600], [120, 1800]]);
    clock.set(new Date(Date.parse('2026-03-01T00:00:00.000Z') + checkGiveUpMs));
    const late = await identity.verify(ref, { attempt: 1 });
    assert.ok(!late.ok && late.kind === 'unavailable', JSON.stringify(late));
    assert.match(late.message, /after 24 hours/);
    clock.set(new Date('2026-03-01T00:00:00.000Z'));
  });
});

describe('onfido identity: Onfido down', () => {
  it('answers 5xx and 429 as unavailable, and gets through once Onfido answers again', async () => {
    const ref = await completeSubject('Nguyen');
    onfido.failNext(1, { status: 503, match: /^POST \/checks$/ });
    const down = await identity.verify(ref, { attempt: 1 });
    assert.ok(!down.ok && down.kind === 'unavailable');
    assert.equal(down.message, 'Onfido check create: 503 service_unavailable');
    assert.equal(checksAt(await applicantOf(ref)), 0);
    onfido.failNext(1, { status: 429, match: /^POST \/live_photos$/ });
    assert.deepEqual(await identity.saveSelfie(ref, selfieJpeg()), { ok: false, kind: 'unavailable', message: 'Onfido live photo upload: 429 rate_limit' });
    onfido.failNext(1, { status: 500, match: /^GET \/reports$/ });
    const started = await identity.verify(ref, { attempt: 1 });
    assert.ok(!started.ok && started.kind === 'pending');
    await sleep(300);
    const reports = await identity.verify(ref, { attempt: 1 });
    assert.ok(!reports.ok && reports.kind === 'unavailable' && /report list: 500/.test(reports.message), JSON.stringify(reports));
    assert.equal(statusOf(await verified(ref)), 'PASSED');
    onfido.failNext(2, { status: 502 });
    assert.deepEqual(await identity.evidence(ref, { includeScans: false }), { ok: false, kind: 'unavailable', message: 'Onfido report list: 502 bad_gateway' });
  });

  it('answers no answer in time, or no connection, as unavailable', async () => {
    const sockets = new Set<Socket>();
    const silent = createTcpServer((socket) => sockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as AddressInfo).port;
    try {
      const stalled = provider({ apiUrl: `http://127.0.0.1:${port}/v3.6`, timeoutMs: 200 });
      const ref = await subject(stalled);
      const started = Date.now();
      assert.deepEqual(await stalled.saveDetails(ref, details('Nguyen')), { ok: false, kind: 'unavailable', message: 'Onfido applicant create: no answer in time' });
      assert.ok(Date.now() - started < 2000);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
    const closed = provider({ apiUrl: `http://127.0.0.1:${port}/v3.6`, timeoutMs: 200 });
    const answer = await closed.saveDetails(await subject(closed), details('Nguyen'));
    assert.deepEqual(answer, { ok: false, kind: 'unavailable', message: 'Onfido applicant create: no answer (ECONNREFUSED)' });
  });

  it('throws for a token Onfido refuses: that is configuration, not an outage', async () => {
    const wrong = provider({ apiToken: 'api_live.not-the-token-0000' });
    await assert.rejects(wrong.saveDetails(await subject(wrong), details('Nguyen')), /Onfido applicant create: 401 authorization_error \(check ONFIDO_API_TOKEN and ONFIDO_REGION\)/);
  });
});

describe('onfido identity: evidence', () => {
  it('has none before a verified attempt; then the last completed attempt’s details, document fields and, when asked, exactly the images it ran on', async () => {
    const ref = await subject();
    assert.deepEqual(await identity.evidence(ref, { includeScans: true }), { ok: true, evidence: null });
    await identity.saveDetails(ref, details('Nguyen'));
    const document = licence();
    const selfie = selfieJpeg();
    await identity.saveDocument(ref, document);
    await identity.saveSelfie(ref, selfie);
    assert.deepEqual(await identity.evidence(ref, { includeScans: false }), { ok: true, evidence: null });
    const result = await verified(ref);
    // Saved after the attempt: not its evidence.
    await identity.saveSelfie(ref, png(9));

    const withScans = await identity.evidence(ref, { includeScans: true });
    assert.ok(withScans.ok && withScans.evidence);
    const evidence = withScans.evidence;
    assert.equal(evidence.attempt, 1);
    assert.equal(evidence.verifiedAt.toISOString(), clock.now().toISOString());
    assert.deepEqual(evidence.details, {
      firstName: 'Olivia Grace',
      lastName: 'Nguyen',
      dateOfBirth: '1988-07-21',
      address: { line1: '12 Wattle Street', locality: 'Fitzroy', state: 'VIC', postcode: '3065', country: 'AU' },
    });
    assert.equal(evidence.document.type, 'DRIVER_LICENCE');
    assert.match(evidence.document.number, /^PA\d{7}$/, 'the number Onfido read');
    assert.equal(evidence.document.issuingCountry, 'AU');
    assert.match(evidence.document.expiryDate!, /^\d{4}-06-30$/);
    assert.deepEqual(evidence.document.front, document.front);
    assert.deepEqual(evidence.document.back, document.back);
    assert.deepEqual(evidence.selfie, selfie);
    assert.deepEqual([evidence.claimed, evidence.faceMatch, evidence.checks], [result.claimed, result.faceMatch, result.checks]);

    const without = await identity.evidence(ref, { includeScans: false });
    assert.ok(without.ok && without.evidence);
    assert.equal(without.evidence.selfie, undefined);
    assert.equal(without.evidence.document.front, undefined);
    assert.equal(without.evidence.document.number, evidence.document.number);
  });

  it('shows the last attempt whose check completed, not one still running', async () => {
    const ref = await completeSubject('Nguyen');
    await verified(ref, 1);
    await identity.saveDetails(ref, details('Slow'));
    assert.equal((await identity.verify(ref, { attempt: 2 })).ok, false);
    const evidence = await identity.evidence(ref, { includeScans: false });
    assert.ok(evidence.ok && evidence.evidence);
    assert.equal(evidence.evidence.attempt, 1);
    assert.equal(evidence.evidence.details.lastName, 'Nguyen');
  });
});

describe('onfido identity: forget', () => {
  it('deletes every applicant made for the subject and PVS’s record; forgetting again, or an unknown subject, succeeds', async () => {
    const ref = await completeSubject('Rejected');
    await verified(ref, 1);
    await identity.saveDetails(ref, details('Nguyen'));
    const applicants = (await database.db.query<{ applicant_id: string }>('SELECT applicant_id FROM onfido_identity_checks WHERE subject_ref = $1 UNION SELECT applicant_id FROM onfido_identity_subjects WHERE ref = $1', [ref])).map((r) => r.applicant_id);
    assert.equal(applicants.length, 2);
    const other = await completeSubject('Nguyen');

    onfido.failNext(1, { status: 503, match: /^DELETE / });
    assert.equal((await identity.forget(ref)).ok, false, 'Onfido down: nothing forgotten yet');
    assert.ok(await applicantOf(ref));
    assert.deepEqual(await identity.forget(ref), { ok: true });
    for (const id of applicants) assert.equal(onfido.applicants().find((a) => a.id === id)!.deleted, true);
    for (const table of ['onfido_identity_subjects WHERE ref = $1', 'onfido_identity_documents WHERE subject_ref = $1', 'onfido_identity_checks WHERE subject_ref = $1']) {
      assert.deepEqual(await database.db.query(`SELECT 1 FROM ${table}`, [ref]), [], table);
    }
    const gone = await identity.evidence(ref, { includeScans: false });
    assert.ok(!gone.ok && gone.kind === 'not_found');
    assert.deepEqual(await identity.forget(ref), { ok: true });
    assert.deepEqual(await identity.forget('onf_never_made'), { ok: true });
    assert.deepEqual(await identity.missing(other), { ok: true, missing: [] });
  });

  it('takes an applicant Onfido already deleted as forgotten, and its evidence as not found', async () => {
    const ref = await completeSubject('Nguyen');
    await verified(ref);
    const applicantId = await applicantOf(ref);
    // Deleted at Onfido behind PVS's back (its own retention, or by hand in its dashboard).
    const res = await fetch(`${onfido.url}/applicants/${applicantId}`, { method: 'DELETE', headers: { Authorization: `Token token=${onfido.apiToken}` } });
    assert.equal(res.status, 204);
    await database.db.query('UPDATE onfido_identity_checks SET completed_at = NULL WHERE subject_ref = $1', [ref]);
    const gone = await identity.evidence(ref, { includeScans: false });
    assert.ok(!gone.ok && gone.kind === 'not_found', JSON.stringify(gone));
    assert.deepEqual(await identity.forget(ref), { ok: true });
  });
});

describe('onfido identity: notifications', () => {
  it('turns Onfido’s signed check.completed into the subject and attempt, and refuses a missing or wrong signature', async () => {
    const received: Array<Awaited<ReturnType<NonNullable<IdentityProvider['notification']>>>> = [];
    const server = createHttpServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        void identity.notification!(Buffer.concat(chunks), req.headers).then((n) => {
          received.push(n);
          res.writeHead(n.ok ? 200 : 401).end();
        });
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    onfido.setWebhookUrl(`http://127.0.0.1:${(server.address() as AddressInfo).port}/providers/onfido/webhooks`);
    try {
      const ref = await completeSubject('Nguyen');
      assert.equal((await identity.verify(ref, { attempt: 1 })).ok, false);
      for (let i = 0; i < 50 && received.length === 0; i++) await sleep(50);
      assert.deepEqual(received, [{ ok: true, kind: 'checks_finished', subjectRef: ref, attempt: 1 }]);
    } finally {
      onfido.setWebhookUrl(null);
      await new Promise((resolve) => server.close(resolve));
    }

    const body = Buffer.from(JSON.stringify({ payload: { resource_type: 'check', action: 'check.completed', object: { id: 'not-ours', status: 'complete' } } }));
    assert.deepEqual(await identity.notification!(body, { 'x-sha2-signature': onfido.signature(body) }), { ok: true, kind: 'ignored', reason: 'a check PVS has no record of' });
    const other = Buffer.from(JSON.stringify({ payload: { resource_type: 'report', action: 'report.completed', object: { id: 'r1' } } }));
    assert.deepEqual(await identity.notification!(other, { 'x-sha2-signature': onfido.signature(other) }), { ok: true, kind: 'ignored', reason: 'event report.completed' });
    const forged = await identity.notification!(body, { 'x-sha2-signature': onfido.signature(other) });
    assert.ok(!forged.ok && forged.kind === 'bad_signature');
    assert.ok(!forged.message.includes('not-ours'), 'no body in the message');
    const missing = await identity.notification!(body, {});
    assert.ok(!missing.ok && missing.kind === 'bad_signature');
    const short = await identity.notification!(body, { 'x-sha2-signature': 'abc' });
    assert.ok(!short.ok && short.kind === 'bad_signature');
  });
});

describe('onfido identity: at rest and on the wire', () => {
  it('keeps no name, date of birth, contact, address or document number in PVS’s tables', async () => {
    const ref = await completeSubject('Karlovski', licence({ number: 'DL7731999' }));
    const result = await verified(ref);
    const evidence = await identity.evidence(ref, { includeScans: false });
    assert.ok(evidence.ok && evidence.evidence);
    const read = evidence.evidence.document.number;
    const tables = ['onfido_identity_subjects', 'onfido_identity_documents', 'onfido_identity_checks'];
    const raw = (await Promise.all(tables.map((t) => database.db.query<{ row: string }>(`SELECT t::text AS row FROM ${t} t`)))).flat().map((r) => r.row).join('\n');
    assert.ok(raw.includes(ref));
    for (const secret of ['Olivia', 'Karlovski', '1988-07-21', 'olivia.g@example.com', '+61400111222', 'Wattle', 'Fitzroy', 'DL7731999', 'C1234567', read, result.claimed.fullName]) {
      assert.ok(!raw.includes(secret), `${secret} in PVS's tables`);
    }
    // The postcode as a value of its own: four digits also turn up by chance inside ids (a UUID group) and timestamps.
    const postcode = /(?<![0-9A-Za-z-])3065(?![0-9A-Za-z-])/;
    assert.match('"postcode": "3065"', postcode, 'the search finds the postcode on its own');
    assert.doesNotMatch(raw, postcode, "the postcode in PVS's tables");
  });

  it('sent Onfido nothing outside its published API', () => {
    assert.deepEqual(onfido.violations, []);
  });
});

describe('onfido identity: details Onfido refuses', () => {
  it('answers a refused field at the person’s field, without echoing it', async () => {
    // Its own stand-in: a name Onfido's spec forbids is a request outside the spec, recorded as such.
    const strict = await startOnfidoStandIn();
    try {
      const using = provider({ apiUrl: strict.url, apiToken: strict.apiToken, webhookToken: strict.webhookToken });
      const answer = await using.saveDetails(await subject(using), details('Nguyen', { firstName: 'Olivia{1}' }));
      assert.deepEqual(answer, { ok: false, kind: 'rejected', pointer: '/firstName', message: 'was not accepted: use letters, spaces, hyphens and apostrophes only' });
      assert.deepEqual(strict.violations.map((v) => v.replace(/ .*first_name.*/, ' first_name')), ['POST first_name']);
    } finally {
      await strict.close();
    }
  });
});
