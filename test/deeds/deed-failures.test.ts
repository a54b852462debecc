// Every way a started analysis fails, end to end through the API, the job and the real pipeline: a TFN on
// a born-digital page and one only on a scanned page (the document deleted at once, the digits nowhere
// afterwards: no table, no log), a blank scan (OCR_FAILED), a deadline of one second (TIMED_OUT).
// Failures send deed-analysis.failed with the reason only, and are not billed.
// The scanned cases run OCR, which needs no database: they run in the PGlite pass only.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createManualClock } from '../../src/platform/clock.ts';
import { runDueJobs } from '../helpers/billing.ts';
import { createTestContext, type TestContext, type TestPartner } from '../helpers/context.ts';
import { scanPdf, typesetPdf } from '../helpers/deed-scans.ts';
import { createDeed, deedOf, shortDeedPages, start, upload } from '../helpers/deeds.ts';
import { placesHolding } from '../helpers/privacy.ts';
import { captureSpans, type SpanCapture } from '../helpers/span-capture.ts';

const skip = process.env.TEST_DATABASE === 'postgres' ? 'OCR needs no database: it runs in the PGlite pass only' : false;
const clock = createManualClock(new Date('2026-11-24T09:00:00.000Z'));
// A valid TFN (the check digits hold), printed as a deed might carry it by mistake.
const tfn = { printed: '123 456 782', digits: '123456782' };

async function failedWith(t: TestContext, partner: TestPartner, pdf: Buffer) {
  const created = await createDeed(t, partner);
  const id = created.deedAnalysis.id;
  assert.equal((await upload(t, created, pdf)).statusCode, 200);
  const started = await start(t, partner, id);
  assert.equal(started.statusCode, 202, started.body);
  await runDueJobs(t);
  const view = await deedOf(t, partner, id);
  assert.equal(view.status, 'FAILED', JSON.stringify(view));
  assert.ok(view.documentPurgedAt, 'the document is gone');
  assert.equal(await t.services.storage.stat(`deeds/${id}.pdf`), null);
  const events = await t.services.db.query<{ type: string }>('SELECT type FROM events WHERE subject_id = $1', [id]);
  assert.deepEqual(events.map((e) => e.type), ['deed-analysis.failed']);
  return view.failureReason;
}

async function assertTfnNowhere(t: TestContext, spans: SpanCapture) {
  const { found, scanned } = await placesHolding(t, [tfn.digits, tfn.printed], { spans });
  assert.ok(scanned.includes('deed_analyses') && scanned.includes('events') && scanned.includes('spans'));
  assert.ok((await spans.spans()).some((s) => s.name === 'job deeds.analyse'), 'the deed run was traced');
  assert.deepEqual(found, []);
}

describe('a deed that holds a Tax File Number', () => {
  let t: TestContext;
  let partner: TestPartner;
  let spans: SpanCapture;
  before(async () => {
    // Traced, so that the spans of each run are searched for the number too.
    spans = await captureSpans();
    t = await createTestContext({ clock });
    partner = await t.f.partner();
  });
  after(async () => {
    await t.close();
    await spans.stop();
  });

  it('on a born-digital page: TFN_CONTENT_DETECTED, the document deleted, the digits in no table, log line or span', async () => {
    const pages = shortDeedPages(`The Settlor's tax file number is ${tfn.printed}.`);
    assert.equal(await failedWith(t, partner, await typesetPdf(pages)), 'TFN_CONTENT_DETECTED');
    await assertTfnNowhere(t, spans);
  });

  it('only on a scanned page: found by OCR, with the same outcome', { skip }, async () => {
    const digital = await typesetPdf([...shortDeedPages(), `SCHEDULE 2\nTax File Number of the Settlor: ${tfn.printed}\nSigned by the Settlor.`], { fontSize: 14 });
    const scanned = await scanPdf(digital, { seed: 7, noise: 0.02, skewDegrees: 0.6 });
    assert.equal(await failedWith(t, partner, scanned), 'TFN_CONTENT_DETECTED');
    await assertTfnNowhere(t, spans);
  });

  it('a blank scan: OCR_FAILED', { skip }, async () => {
    const blank = await scanPdf(await typesetPdf([' ', ' ']), { seed: 3, noise: 0.01 });
    assert.equal(await failedWith(t, partner, blank), 'OCR_FAILED');
  });

  it('failures are not billed', async () => {
    const charges = await t.app.inject({ method: 'GET', url: '/v1/charges', headers: (await t.f.signIn(partner)).headers });
    assert.deepEqual(charges.json<{ data: unknown[] }>().data, []);
  });
});

describe('a deadline of one second', () => {
  let t: TestContext;
  before(async () => {
    t = await createTestContext({ clock, env: { DEED_DEADLINE_SECONDS: '1' } });
  });
  after(() => t.close());

  it('fails a scanned deed TIMED_OUT', { skip }, async () => {
    const partner = await t.f.partner();
    const scanned = await scanPdf(await typesetPdf(Array.from({ length: 8 }, () => shortDeedPages().join('\n'))), { seed: 11 });
    assert.equal(await failedWith(t, partner, scanned), 'TIMED_OUT');
  });
});
