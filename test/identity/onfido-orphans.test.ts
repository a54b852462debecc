// No Onfido applicant is left that PVS does not know of (audit 32): details saved again after an attempt
// make a new applicant, which holds the person's name, date of birth and address. PVS records it as
// Onfido answers the create; when the subject does not move to it (the copy of the steps hits an outage
// or a refusal, or another save got there first) it is deleted at once, and if that delete fails too the
// record stays, so that forget deletes it. Against the local stand-in of Onfido's API, on a real database.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { sampleJpeg } from '../fixtures/images.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { cleaned, png } from '../helpers/identity-images.ts';
import { startOnfidoStandIn, type OnfidoStandIn } from '../helpers/onfido-stand-in/index.ts';
import { createManualClock } from '../../src/platform/clock.ts';
import type { IdentityProvider, PersonDetails } from '../../src/providers/identity/identity-provider.ts';
import { createOnfidoIdentity } from '../../src/providers/identity/onfido/onfido-identity.ts';

let database: TestDatabase;
let onfido: OnfidoStandIn;
let identity: IdentityProvider;
const clock = createManualClock(new Date('2026-03-01T00:00:00.000Z'));

before(async () => {
  database = await createTestDatabase();
  onfido = await startOnfidoStandIn({ completeAfterMs: 50 });
  identity = createOnfidoIdentity({ db: database.db, clock, apiToken: onfido.apiToken, region: 'eu', webhookToken: onfido.webhookToken, apiUrl: onfido.url });
});
after(async () => {
  await onfido.close();
  await database.drop();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function details(lastName: string): PersonDetails {
  return {
    firstName: 'Olivia',
    lastName,
    dateOfBirth: '1988-07-21',
    address: { line1: '12 Wattle Street', locality: 'Fitzroy', state: 'VIC', postcode: '3065', country: 'AU' },
    email: 'olivia.g@example.com',
    phone: '+61400111222',
  };
}



/**
 * A subject whose first attempt has run (so its applicant takes no more changes), and a way to tell the
 * applicants made at Onfido since it was started: the stand-in serves every test of the file.
 */
async function attemptedSubject(): Promise<{ ref: string; first: string; madeSince(): string[] }> {
  const before = new Set(onfido.applicants().map((a) => a.id));
  const created = await identity.createSubject();
  assert.ok(created.ok);
  const ref = created.subjectRef;
  assert.ok((await identity.saveDetails(ref, details('Rejected'))).ok);
  assert.ok((await identity.saveDocument(ref, { type: 'PASSPORT', number: 'PA4471923', issuingCountry: 'AU', expiryDate: '2031-05-01', front: png(1) })).ok);
  assert.ok((await identity.saveSelfie(ref, cleaned(sampleJpeg({ jfif: 'plain' })))).ok);
  for (let i = 0; ; i++) {
    const verified = await identity.verify(ref, { attempt: 1 });
    if (verified.ok) break;
    assert.equal(verified.kind, 'pending', JSON.stringify(verified));
    assert.ok(i < 100, 'the check never completed');
    await sleep(50);
  }
  return { ref, first: await currentApplicant(ref), madeSince: () => onfido.applicants().map((a) => a.id).filter((id) => !before.has(id)) };
}

const currentApplicant = async (ref: string) => (await database.db.query<{ applicant_id: string }>('SELECT applicant_id FROM onfido_identity_subjects WHERE ref = $1', [ref]))[0]!.applicant_id;
const recorded = async (ref: string) =>
  (await database.db.query<{ applicant_id: string }>('SELECT applicant_id FROM onfido_identity_applicants WHERE subject_ref = $1 ORDER BY applicant_id', [ref])).map((r) => r.applicant_id);
const deletedAtOnfido = (id: string) => onfido.applicants().find((a) => a.id === id)!.deleted;
const liveAtOnfido = (ids: string[]) => ids.filter((id) => !deletedAtOnfido(id));

describe('onfido identity: no applicant PVS does not know of', () => {
  it('the copy to a new applicant hits an outage and so does its delete: the applicant stays recorded, and forget deletes it', async () => {
    const { ref, first, madeSince } = await attemptedSubject();
    onfido.failNext(1, { status: 503, match: /download$/ });
    onfido.failNext(1, { status: 503, match: /^DELETE / });
    const saved = await identity.saveDetails(ref, details('Nguyen'));
    assert.ok(!saved.ok && saved.kind === 'unavailable', JSON.stringify(saved));
    const made = madeSince();
    assert.equal(made.length, 2, 'the first applicant and the one the copy was for');
    const orphan = made.find((id) => id !== first)!;
    assert.equal(deletedAtOnfido(orphan), false, 'the clean-up delete hit the outage');
    assert.equal(await currentApplicant(ref), first, 'the subject stays on its applicant');
    assert.deepEqual(await recorded(ref), [first, orphan].sort(), 'the applicant its delete missed stays recorded');

    assert.deepEqual(await identity.forget(ref), { ok: true });
    assert.deepEqual(liveAtOnfido(made), [], 'Onfido holds no applicant of the forgotten subject');
    assert.deepEqual(await recorded(ref), []);
  });

  it('the copy hits an outage and the delete goes through: the applicant is deleted at once, and its record with it', async () => {
    const { ref, first, madeSince } = await attemptedSubject();
    onfido.failNext(1, { status: 503, match: /download$/ });
    const saved = await identity.saveDetails(ref, details('Nguyen'));
    assert.ok(!saved.ok && saved.kind === 'unavailable', JSON.stringify(saved));
    const orphan = madeSince().find((id) => id !== first)!;
    assert.equal(deletedAtOnfido(orphan), true);
    assert.deepEqual(await recorded(ref), [first]);
    assert.deepEqual(await identity.forget(ref), { ok: true });
    assert.deepEqual(liveAtOnfido(madeSince()), []);
  });

  it('a copy Onfido refuses (the live photo not found: 404) is thrown, after the new applicant is deleted', async () => {
    const { ref, first, madeSince } = await attemptedSubject();
    // The live photo gone at Onfido (deleted by hand there): reading it for the copy answers 404.
    await database.db.query('UPDATE onfido_identity_subjects SET live_photo_id = $2 WHERE ref = $1', [ref, randomUUID()]);
    await assert.rejects(identity.saveDetails(ref, details('Nguyen')), /Onfido live photo download: not found/);
    const made = madeSince();
    assert.equal(made.length, 2);
    const orphan = made.find((id) => id !== first)!;
    assert.equal(deletedAtOnfido(orphan), true, 'the new applicant, with the document already copied to it, is deleted');
    assert.deepEqual(await recorded(ref), [first]);
    assert.equal(await currentApplicant(ref), first);
  });

  it('a copy Onfido refuses while its delete hits an outage: thrown, and the applicant left recorded for forget', async () => {
    const { ref, first, madeSince } = await attemptedSubject();
    await database.db.query('UPDATE onfido_identity_subjects SET live_photo_id = $2 WHERE ref = $1', [ref, randomUUID()]);
    onfido.failNext(1, { status: 503, match: /^DELETE / });
    await assert.rejects(identity.saveDetails(ref, details('Nguyen')), /Onfido live photo download: not found/, 'the refusal is reported, not the clean-up’s outage');
    const orphan = madeSince().find((id) => id !== first)!;
    assert.equal(deletedAtOnfido(orphan), false);
    assert.deepEqual(await recorded(ref), [first, orphan].sort());
    assert.deepEqual(await identity.forget(ref), { ok: true });
    assert.deepEqual(liveAtOnfido(madeSince()), []);
  });

  it('two saves of the details at once: the one that loses deletes its applicant, or leaves it recorded when that delete fails', async () => {
    const { ref, first, madeSince } = await attemptedSubject();
    onfido.failNext(1, { status: 503, match: /^DELETE / });
    const [one, two] = await Promise.all([identity.saveDetails(ref, details('Nguyen')), identity.saveDetails(ref, details('Nguyen'))]);
    assert.ok(one.ok && two.ok, JSON.stringify([one, two]));
    const made = madeSince();
    assert.equal(made.length, 3, 'the first applicant and one for each save');
    const current = await currentApplicant(ref);
    const loser = made.find((id) => id !== first && id !== current)!;
    assert.equal(deletedAtOnfido(loser), false, 'the losing save’s delete hit the outage');
    assert.deepEqual(await recorded(ref), [first, current, loser].sort());
    assert.deepEqual(await identity.forget(ref), { ok: true });
    assert.deepEqual(liveAtOnfido(made), []);
  });

  it('records each applicant made, the first and the one moved to, and forget deletes every one and the records', async () => {
    const created = await identity.createSubject();
    assert.ok(created.ok);
    assert.deepEqual(await recorded(created.subjectRef), [], 'nothing made at Onfido for a new subject');
    const { ref, first, madeSince } = await attemptedSubject();
    assert.deepEqual(await recorded(ref), [first]);
    assert.deepEqual(await identity.saveDetails(ref, details('Nguyen')), { ok: true, missing: [] });
    const second = await currentApplicant(ref);
    assert.notEqual(second, first);
    assert.deepEqual(await recorded(ref), [first, second].sort());
    assert.deepEqual(madeSince().sort(), [first, second].sort());

    assert.deepEqual(await identity.forget(ref), { ok: true });
    assert.deepEqual(liveAtOnfido([first, second]), []);
    assert.deepEqual(await recorded(ref), []);
  });

  it('sent Onfido nothing outside its published API', () => {
    assert.deepEqual(onfido.violations, []);
  });
});
