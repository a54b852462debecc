// Deed analyses as a partner drives them (SPEC "Deed analysis", CONTRACT §7), on local storage: create
// and its signed upload, start's checks in their order, the analysis to REVIEW_READY with its sealed
// event and its charge, discard, expiry of an upload never started, and tenancy.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { createManualClock } from '../../src/platform/clock.ts';
import { billableContact, runDueJobs } from '../helpers/billing.ts';
import { createTestContext, type TestContext, type TestPartner } from '../helpers/context.ts';
import { typesetPdf } from '../helpers/deed-scans.ts';
import { createDeed, deedOf, shortDeedPages, start, upload } from '../helpers/deeds.ts';
import { createVerification } from '../helpers/verifications.ts';

const clock = createManualClock(new Date('2026-11-24T09:00:00.000Z'));
let t: TestContext;
let partner: TestPartner;
let other: TestPartner;
let deed: Buffer;

before(async () => {
  t = await createTestContext({ clock });
  partner = await t.f.partner({ name: 'Ledger Tax' });
  other = await t.f.partner({ name: 'Other Practice' });
  deed = await typesetPdf(shortDeedPages());
});
after(() => t.close());
beforeEach(async () => {
  partner = await t.f.signIn(partner);
  other = await t.f.signIn(other);
});

async function eventsOf(id: string) {
  return t.services.db.query<{ type: string; payload: Record<string, unknown> | null; payload_sealed: string | null }>(
    'SELECT type, payload, payload_sealed FROM events WHERE subject_id = $1 ORDER BY id',
    [id],
  );
}

const storageHolds = async (id: string) => (await t.services.storage.stat(`deeds/${id}.pdf`)) !== null;

describe('create', () => {
  it('answers 201 with a signed upload that lasts 15 minutes and asks for Content-Type application/pdf', async () => {
    const created = await createDeed(t, partner);
    assert.match(created.deedAnalysis.id, /^dda_/);
    assert.equal(created.deedAnalysis.status, 'AWAITING_UPLOAD');
    assert.equal(created.upload.headers['Content-Type'], 'application/pdf');
    assert.ok(Object.keys(created.upload.headers).length >= 2, 'at least one more signed header binds the object');
    assert.equal(created.upload.expiresAt, new Date(clock.now().getTime() + 15 * 60_000).toISOString());
    const view = await deedOf(t, partner, created.deedAnalysis.id);
    assert.deepEqual([view.status, view.partyCount, view.documentPurgedAt], ['AWAITING_UPLOAD', null, null]);
  });

  it('takes a verification request of the partner’s own, refuses another’s, and refuses unknown fields', async () => {
    const own = await createVerification(t, partner, { mode: 'AUSTRAC_CDD', structureConfirmed: true, entityName: 'Trust Co', individuals: [{ role: 'TRUSTEE' }] });
    await createDeed(t, partner, { verificationRequestId: own.id });
    const theirs = await createVerification(t, other, { mode: 'AUSTRAC_CDD', structureConfirmed: true, entityName: 'Trust Co', individuals: [{ role: 'TRUSTEE' }] });
    for (const [body, pointer] of [
      [{ verificationRequestId: theirs.id }, '/verificationRequestId'],
      [{ filename: 'deed.pdf' }, '/filename'],
    ] as const) {
      const res = await t.app.inject({ method: 'POST', url: '/v1/deed-analyses', headers: partner.headers, payload: body });
      assert.equal(res.statusCode, 400, res.body);
      assert.equal(res.json<{ errors: Array<{ pointer: string }> }>().errors[0]!.pointer, pointer);
    }
  });
});

describe('start', () => {
  it('checks in CONTRACT §7’s order, answers 422 with the code, and keeps AWAITING_UPLOAD so the file can be uploaded again', async () => {
    const created = await createDeed(t, partner);
    const id = created.deedAnalysis.id;
    const expectCode = async (code: string) => {
      const res = await start(t, partner, id);
      assert.equal(res.statusCode, 422, res.body);
      assert.equal(res.json<{ code: string }>().code, code);
      assert.equal((await deedOf(t, partner, id)).status, 'AWAITING_UPLOAD');
    };
    await expectCode('UPLOAD_NOT_FOUND');
    // Too large and not a PDF: the size is checked first.
    const tooLarge = Buffer.alloc(26_214_401, 0x20);
    assert.equal((await upload(t, created, tooLarge)).statusCode, 200);
    await expectCode('FILE_TOO_LARGE');
    assert.equal((await upload(t, created, Buffer.from('PK\u0003\u0004 a zip file, not a deed'))).statusCode, 200);
    await expectCode('NOT_A_PDF');
    assert.equal((await upload(t, created, await typesetPdf(['secret'], { userPassword: 'letmein' }))).statusCode, 200);
    await expectCode('NOT_A_PDF');
    assert.equal((await upload(t, created, await typesetPdf(Array.from({ length: 151 }, (_, i) => `Page ${i + 1}`)))).statusCode, 200);
    await expectCode('TOO_MANY_PAGES');
    assert.equal((await upload(t, created, deed)).statusCode, 200);
    const started = await start(t, partner, id);
    assert.equal(started.statusCode, 202, started.body);
    assert.deepEqual(started.json(), { deedAnalysis: { id, status: 'PROCESSING' } });
    const again = await start(t, partner, id);
    assert.deepEqual([again.statusCode, again.json<{ code: string }>().code], [409, 'INVALID_STATE']);
    await runDueJobs(t);
  });

  it('refuses a start more than 2 hours after creation, and the sweep expires the upload and removes it', async () => {
    const created = await createDeed(t, partner);
    assert.equal((await upload(t, created, deed)).statusCode, 200);
    clock.advance(2 * 3600_000 + 1000);
    partner = await t.f.signIn(partner);
    const late = await start(t, partner, created.deedAnalysis.id);
    assert.equal(late.json<{ code: string }>().code, 'UPLOAD_NOT_FOUND');
    await t.services.deedProcessing.sweep();
    const view = await deedOf(t, partner, created.deedAnalysis.id);
    assert.equal(view.status, 'EXPIRED');
    assert.ok(view.documentPurgedAt);
    assert.equal(await storageHolds(created.deedAnalysis.id), false);
  });
});

describe('the analysis', () => {
  it('ends REVIEW_READY with the parties sent once, sealed, the document deleted and the analysis billed', async () => {
    const contact = await billableContact(t, partner);
    const created = await createDeed(t, partner, { contactId: contact.id });
    const id = created.deedAnalysis.id;
    await upload(t, created, deed);
    assert.equal((await start(t, partner, id)).statusCode, 202);
    await runDueJobs(t);
    const view = await deedOf(t, partner, id);
    assert.equal(view.status, 'REVIEW_READY', JSON.stringify(view));
    assert.equal(view.pageCount, 2);
    assert.ok(view.partyCount! >= 3, `${view.partyCount} parties`);
    assert.ok(view.documentPurgedAt);
    assert.equal(await storageHolds(id), false);
    const [event] = await eventsOf(id);
    assert.equal(event?.type, 'deed-analysis.completed');
    assert.equal(event?.payload, null, 'the payload is never stored in the clear');
    assert.ok(event?.payload_sealed, 'it is held sealed until delivered');
    const charges = await t.app.inject({ method: 'GET', url: `/v1/charges?contactId=${contact.id}`, headers: partner.headers });
    assert.deepEqual(
      charges.json<{ data: Array<{ product: string; referenceId: string }> }>().data.map((c) => [c.product, c.referenceId]),
      [['DEED_ANALYSIS', id]],
    );
    // Nothing of the deed in the record.
    const raw = JSON.stringify((await t.app.inject({ method: 'GET', url: `/v1/deed-analyses/${id}`, headers: partner.headers })).json());
    for (const word of ['Fairbairn', 'WATTLE', 'Banksia', 'deed.pdf']) assert.ok(!raw.includes(word), word);
  });

  it('sends nothing and charges nothing for an analysis discarded while it ran; the document goes at once', async () => {
    const created = await createDeed(t, partner);
    const id = created.deedAnalysis.id;
    await upload(t, created, deed);
    await start(t, partner, id);
    const discarded = await t.app.inject({ method: 'DELETE', url: `/v1/deed-analyses/${id}`, headers: partner.headers });
    assert.equal(discarded.statusCode, 200, discarded.body);
    assert.equal(discarded.json<{ status: string }>().status, 'DISCARDED');
    assert.ok(discarded.json<{ documentPurgedAt: string | null }>().documentPurgedAt);
    assert.equal(await storageHolds(id), false);
    await runDueJobs(t);
    assert.equal((await deedOf(t, partner, id)).status, 'DISCARDED');
    assert.deepEqual(await eventsOf(id), []);
  });
});

describe('tenancy', () => {
  it('another partner’s analysis is 404 to read, start, discard and list', async () => {
    const created = await createDeed(t, partner);
    const id = created.deedAnalysis.id;
    for (const [method, url] of [
      ['GET', `/v1/deed-analyses/${id}`],
      ['POST', `/v1/deed-analyses/${id}/start`],
      ['DELETE', `/v1/deed-analyses/${id}`],
    ] as const) {
      const res = await t.app.inject({ method, url, headers: other.headers });
      assert.equal(res.statusCode, 404, `${method} ${url}: ${res.body}`);
    }
    const list = await t.app.inject({ method: 'GET', url: '/v1/deed-analyses?limit=100', headers: other.headers });
    assert.ok(!list.json<{ data: Array<{ id: string }> }>().data.some((d) => d.id === id));
    assert.equal((await deedOf(t, partner, id)).status, 'AWAITING_UPLOAD');
  });
});
