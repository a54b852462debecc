// The sandbox identity provider on a real database (PGlite or PostgreSQL per TEST_DATABASE): every
// last-name outcome of CONTRACT §13, steps replaced and missing, an attempt answered once, evidence,
// what a raw read of its tables shows (nothing personal in the clear), and forgetting a subject.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sampleJpeg, samplePng } from '../../../test/fixtures/images.ts';
import { createTestDatabase, type TestDatabase } from '../../../test/helpers/database.ts';
import { createManualClock } from '../../platform/clock.ts';
import { createKeyRing } from '../../platform/keys/key-ring.ts';
import type { IdentityDocument, IdentityImage, IdentityProvider, PersonDetails, Verification } from './identity-provider.ts';
import { createSandboxIdentity, sandboxOutageMs } from './sandbox-identity.ts';

let database: TestDatabase;
let identity: IdentityProvider;
const clock = createManualClock(new Date('2026-03-01T00:00:00.000Z'));

before(async () => {
  database = await createTestDatabase();
  identity = createSandboxIdentity({ db: database.db, clock, sealer: createKeyRing('s'.repeat(32)).sealer('sandbox-identity') });
});
after(() => database.drop());

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

// Distinct bytes per image, so a raw read can be searched for each.
const image = (marker: string, type: 'jpeg' | 'png' = 'jpeg'): IdentityImage =>
  type === 'jpeg'
    ? { contentType: 'image/jpeg', bytes: Buffer.concat([sampleJpeg().subarray(0, -2), Buffer.from(marker), Buffer.from([0xff, 0xd9])]) }
    : { contentType: 'image/png', bytes: Buffer.concat([samplePng(), Buffer.from(marker)]) };

function passport(number = 'PA4471923', overrides: Partial<IdentityDocument> = {}): IdentityDocument {
  return { type: 'PASSPORT', number, issuingCountry: 'AU', expiryDate: '2031-05-01', front: image(`front-${number}`), ...overrides };
}

async function subject(): Promise<string> {
  const created = await identity.createSubject();
  assert.ok(created.ok);
  return created.subjectRef;
}

/** A subject with every step saved under this last name. */
async function completeSubject(lastName: string, document = passport()): Promise<string> {
  const ref = await subject();
  assert.deepEqual(await identity.saveDetails(ref, details(lastName)), { ok: true, missing: ['document', 'selfie'] });
  assert.deepEqual(await identity.saveDocument(ref, document), { ok: true, missing: ['selfie'] });
  assert.deepEqual(await identity.saveSelfie(ref, image('selfie-of-olivia', 'png')), { ok: true, missing: [] });
  return ref;
}

async function verified(ref: string, attempt = 1): Promise<Verification> {
  const result = await identity.verify(ref, { attempt });
  assert.ok(result.ok, `expected results, got ${JSON.stringify(result)}`);
  return result;
}

const summary = (v: Verification) => v.checks.map((c) => `${c.checkType} ${c.result} ${c.code}`);

describe('sandbox identity: outcomes by last name', () => {
  it('passes every check for any other name, and returns the claimed identity live', async () => {
    const result = await verified(await completeSubject('Nguyen'));
    assert.deepEqual(summary(result), [
      'DOCUMENT PASS DOCUMENT_AUTHENTIC',
      'DOCUMENT PASS DOCUMENT_RECORD_MATCHED',
      'FACE_MATCH PASS FACE_MATCH_SCORE_HIGH',
      'FRAUD PASS NO_FRAUD_SIGNALS',
    ]);
    assert.equal(result.hardFailure, false);
    assert.equal(result.attempt, 1);
    assert.deepEqual(result.faceMatch, { score: 0.96, threshold: 0.8, result: 'PASS' });
    assert.deepEqual(result.claimed, { fullName: 'Olivia Grace Nguyen', dateOfBirth: '1988-07-21', country: 'AU', residenceCountry: 'AU' });
    assert.match(result.checks[2]!.message!, /score 0\.96, pass mark 0\.80/);
  });

  it('Review: an inconclusive face match, for an operator', async () => {
    const result = await verified(await completeSubject('Review'));
    assert.deepEqual(
      result.checks.filter((c) => c.result !== 'PASS').map((c) => [c.checkType, c.result, c.code]),
      [['FACE_MATCH', 'REVIEW', 'FACE_MATCH_SCORE_INCONCLUSIVE']],
    );
    assert.equal(result.hardFailure, false);
    assert.deepEqual(result.faceMatch, { score: 0.64, threshold: 0.8, result: 'REVIEW' });
  });

  it('Fail: a failed attempt that is not a hard failure', async () => {
    const result = await verified(await completeSubject('Fail', passport('DL0098', { type: 'DRIVER_LICENCE', issuingState: 'NSW', cardNumber: 'C123' })));
    assert.deepEqual(
      result.checks.filter((c) => c.result !== 'PASS').map((c) => [c.checkType, c.code]),
      [
        ['DOCUMENT', 'DOCUMENT_RECORD_NOT_MATCHED'],
        ['FACE_MATCH', 'FACE_MATCH_SCORE_LOW'],
      ],
    );
    assert.ok(result.checks.every((c) => c.result !== 'REVIEW'));
    assert.equal(result.hardFailure, false);
    assert.match(result.checks[1]!.message!, /driver licence/);
  });

  it('Fraud: a fraud signal that fails at once', async () => {
    const result = await verified(await completeSubject('Fraud'));
    assert.deepEqual(
      result.checks.filter((c) => c.result !== 'PASS').map((c) => [c.checkType, c.result, c.code]),
      [['FRAUD', 'FAIL', 'IDENTITY_FRAUD_SUSPECTED']],
    );
    assert.equal(result.hardFailure, true);
  });

  it('Unavailable: the provider is down for this person for an hour from their first check, for verify and evidence alike, then recovers', async () => {
    const ref = await completeSubject('Unavailable');
    const before = await identity.evidence(ref, { includeScans: false });
    assert.ok(!before.ok && before.kind === 'unavailable', 'down before any check too');
    for (let call = 0; call < 3; call++) {
      const result = await identity.verify(ref, { attempt: 1 });
      assert.ok(!result.ok && result.kind === 'unavailable', JSON.stringify(result));
      assert.match(result.message, /unavailable/);
      clock.advance(10 * 60_000);
    }
    const evidence = await identity.evidence(ref, { includeScans: false });
    assert.ok(!evidence.ok && evidence.kind === 'unavailable');
    clock.advance(sandboxOutageMs - 30 * 60_000 - 1);
    assert.ok(!(await identity.verify(ref, { attempt: 1 })).ok, 'still down a millisecond before the hour');
    clock.advance(1);
    const recovered = await verified(ref);
    assert.ok(recovered.checks.every((c) => c.result === 'PASS'), 'then every check passes');
    const after = await identity.evidence(ref, { includeScans: false });
    assert.ok(after.ok && after.evidence?.attempt === 1);
  });

  it('reads the last name trimmed and in any case', async () => {
    assert.equal((await verified(await completeSubject('  rEvIeW '))).faceMatch.result, 'REVIEW');
    assert.equal((await verified(await completeSubject('FRAUD'))).hardFailure, true);
    assert.equal((await verified(await completeSubject('Reviewer'))).faceMatch.result, 'PASS');
    const down = await identity.verify(await completeSubject(' unavailable'), { attempt: 1 });
    assert.ok(!down.ok);
  });

  it('never puts a personal detail in a check code or message', async () => {
    for (const name of ['Nguyen', 'Review', 'Fail', 'Fraud']) {
      const text = JSON.stringify((await verified(await completeSubject(name))).checks);
      for (const personal of ['Olivia', 'Grace', name === 'Nguyen' ? 'Nguyen' : 'Olivia', '1988', 'PA4471923', 'Wattle']) assert.ok(!text.includes(personal), `${name}: ${personal}`);
    }
  });
});

describe('sandbox identity: steps and attempts', () => {
  it('says which steps are missing, in flow order, and refuses to verify until none are', async () => {
    const ref = await subject();
    assert.deepEqual(await identity.missing(ref), { ok: true, missing: ['details', 'document', 'selfie'] });
    await identity.saveSelfie(ref, image('selfie'));
    assert.deepEqual(await identity.missing(ref), { ok: true, missing: ['details', 'document'] });
    await identity.saveDetails(ref, details('Nguyen'));
    assert.deepEqual(await identity.missing(ref), { ok: true, missing: ['document'] });
    await assert.rejects(identity.verify(ref, { attempt: 1 }), /cannot be verified without its document/);
    await identity.saveDocument(ref, passport());
    assert.deepEqual(await identity.missing(ref), { ok: true, missing: [] });
    assert.equal((await verified(ref)).faceMatch.result, 'PASS');
  });

  it('replaces a step saved again: the checks run on the latest', async () => {
    const ref = await completeSubject('Fail');
    await identity.saveDetails(ref, details('Review', { middleName: undefined }));
    await identity.saveDocument(ref, passport('PB0000001', { type: 'MEDICARE', cardNumber: '2' }));
    const result = await verified(ref);
    assert.equal(result.faceMatch.result, 'REVIEW');
    assert.equal(result.claimed.fullName, 'Olivia Review');
    assert.match(result.checks[0]!.message!, /Medicare card/);
    // One current row per step: the replaced ones are gone, since no attempt used them.
    const rows = await database.db.query<{ step: string; n: string }>(
      'SELECT step, count(*)::text AS n FROM sandbox_identity_steps WHERE subject_ref = $1 GROUP BY step ORDER BY step',
      [ref],
    );
    assert.deepEqual(rows.map((r) => [r.step, r.n]), [['details', '1'], ['document', '1'], ['selfie', '1']]);
  });

  it('answers an attempt asked again with its first answer; a later attempt runs on the steps saved since', async () => {
    const ref = await completeSubject('Fail');
    const first = await verified(ref, 1);
    await identity.saveDetails(ref, details('Nguyen'));
    assert.deepEqual(await verified(ref, 1), first);
    const second = await verified(ref, 2);
    assert.equal(second.attempt, 2);
    assert.equal(second.faceMatch.result, 'PASS');
    assert.equal(second.claimed.fullName, 'Olivia Grace Nguyen');
    // Attempt 1's details are kept as its evidence, beside the current ones.
    const [{ n }] = (await database.db.query<{ n: string }>("SELECT count(*)::text AS n FROM sandbox_identity_steps WHERE subject_ref = $1 AND step = 'details'", [ref])) as [{ n: string }];
    assert.equal(n, '2');
  });

  it('treats a step for a subject never created, or a bad attempt number, as a bug', async () => {
    await assert.rejects(identity.saveDetails('sbx_subject_nobody', details('Nguyen')), /no subject sbx_subject_nobody/);
    await assert.rejects(identity.missing('sbx_subject_nobody'), /no subject/);
    await assert.rejects(identity.verify(await completeSubject('Nguyen'), { attempt: 0 }), /not a positive integer/);
  });
});

describe('sandbox identity: evidence', () => {
  it('gives the fields, claimed identity, face comparison and, when asked, the scans of the last verified attempt', async () => {
    const ref = await subject();
    assert.deepEqual(await identity.evidence(ref, { includeScans: true }), { ok: true, evidence: null });
    await identity.saveDetails(ref, details('Fail'));
    const back = image('back-of-licence', 'png');
    await identity.saveDocument(ref, passport('DL7731', { type: 'DRIVER_LICENCE', issuingState: 'VIC', back }));
    await identity.saveSelfie(ref, image('selfie-1'));
    await verified(ref, 1);
    await identity.saveDetails(ref, details('Review'));
    clock.advance(60_000);
    await verified(ref, 2);
    // Saved after the last attempt: not part of its evidence.
    await identity.saveSelfie(ref, image('selfie-after'));

    const withScans = await identity.evidence(ref, { includeScans: true });
    assert.ok(withScans.ok && withScans.evidence);
    const evidence = withScans.evidence;
    assert.equal(evidence.attempt, 2);
    assert.equal(evidence.verifiedAt.toISOString(), clock.now().toISOString());
    assert.deepEqual(evidence.details, details('Review'));
    assert.equal(evidence.document.number, 'DL7731');
    assert.equal(evidence.document.issuingState, 'VIC');
    assert.deepEqual(evidence.document.front, image('front-DL7731'));
    assert.deepEqual(evidence.document.back, back);
    assert.deepEqual(evidence.selfie, image('selfie-1'));
    assert.equal(evidence.claimed.fullName, 'Olivia Grace Review');
    assert.equal(evidence.faceMatch.result, 'REVIEW');
    assert.equal(evidence.checks.length, 4);

    const withoutScans = await identity.evidence(ref, { includeScans: false });
    assert.ok(withoutScans.ok && withoutScans.evidence);
    assert.equal(withoutScans.evidence.selfie, undefined);
    assert.equal(withoutScans.evidence.document.front, undefined);
    assert.equal(withoutScans.evidence.document.back, undefined);
    assert.equal(withoutScans.evidence.document.number, 'DL7731');
  });
});

describe('sandbox identity: at rest', () => {
  it('keeps no name, date of birth, contact, document number or image bytes in the clear', async () => {
    const ref = await completeSubject('Karlovski', passport('PX9981234', { back: image('back-bytes-PX9981234') }));
    await verified(ref);
    const tables = ['sandbox_identity_subjects', 'sandbox_identity_steps', 'sandbox_identity_images', 'sandbox_identity_attempts'];
    // Every column as text, bytea as hex: what a database dump would show.
    const raw = (await Promise.all(tables.map((t) => database.db.query<{ row: string }>(`SELECT t::text AS row FROM ${t} t`)))).flat().map((r) => r.row).join('\n');
    assert.ok(raw.includes(ref), 'the dump holds the subject');
    const secrets = ['Olivia', 'Karlovski', '1988-07-21', 'olivia.g@example.com', '+61400111222', 'Wattle', 'PX9981234', 'selfie-of-olivia', 'back-bytes'];
    for (const secret of secrets) {
      assert.ok(!raw.includes(secret), `${secret} in the clear`);
      assert.ok(!raw.includes(Buffer.from(secret).toString('hex')), `${secret} in the clear as bytea`);
    }
    // Image bytes: the JPEG's own structure would show in hex if it were stored as it is.
    const jpegTables = sampleJpeg().subarray(2, 40).toString('hex');
    assert.ok(!raw.includes(jpegTables), 'image bytes in the clear');
    const [{ images }] = (await database.db.query<{ images: string }>('SELECT count(*)::text AS images FROM sandbox_identity_images i JOIN sandbox_identity_steps s ON s.id = i.step_id WHERE s.subject_ref = $1', [ref])) as [{ images: string }];
    assert.equal(images, '3');
  });

  it('cannot open an image moved to another row (the step and side are sealed with it)', async () => {
    const ref = await completeSubject('Nguyen', passport('PC1', { back: image('back-PC1') }));
    await verified(ref);
    await database.db.query(
      `UPDATE sandbox_identity_images i SET sealed = (SELECT sealed FROM sandbox_identity_images j WHERE j.step_id = i.step_id AND j.side = 'back')
       WHERE i.side = 'front' AND i.step_id IN (SELECT id FROM sandbox_identity_steps WHERE subject_ref = $1)`,
      [ref],
    );
    await assert.rejects(identity.evidence(ref, { includeScans: true }), /Unsupported state or unable to authenticate data/);
  });
});

describe('sandbox identity: forget', () => {
  it('deletes everything held on the subject, and forgetting again succeeds', async () => {
    const ref = await completeSubject('Fail');
    await verified(ref, 1);
    await identity.saveDetails(ref, details('Nguyen'));
    await verified(ref, 2);
    const other = await completeSubject('Nguyen');

    assert.deepEqual(await identity.forget(ref), { ok: true });
    for (const [table, column] of [
      ['sandbox_identity_subjects', 'ref'],
      ['sandbox_identity_steps', 'subject_ref'],
      ['sandbox_identity_attempts', 'subject_ref'],
    ] as const) {
      assert.deepEqual(await database.db.query(`SELECT 1 FROM ${table} WHERE ${column} = $1`, [ref]), [], table);
    }
    assert.deepEqual(await database.db.query('SELECT 1 FROM sandbox_identity_images i LEFT JOIN sandbox_identity_steps s ON s.id = i.step_id WHERE s.id IS NULL'), []);
    const gone = await identity.evidence(ref, { includeScans: false });
    assert.ok(!gone.ok && gone.kind === 'not_found');
    assert.deepEqual(await identity.forget(ref), { ok: true });
    // Another person's data is untouched.
    assert.deepEqual(await identity.missing(other), { ok: true, missing: [] });
  });
});
