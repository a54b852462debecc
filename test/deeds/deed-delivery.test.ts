// What a partner receives for a deed, exactly, and that it is received once: the completed event's body
// at a real receiver, the sealed payload gone once delivered, the notification's payload null, a manual
// retry 410; and failures (an extractor that is down, one that invents a quote) sent without detail.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { createManualClock } from '../../src/platform/clock.ts';
import { runDueJobs } from '../helpers/billing.ts';
import { createTestContext, type TestContext, type TestPartner } from '../helpers/context.ts';
import { typesetPdf } from '../helpers/deed-scans.ts';
import { createDeed, deedOf, shortDeedPages, start, upload } from '../helpers/deeds.ts';
import { startReceiver, type Receiver } from '../helpers/receiver.ts';
import { createVerification } from '../helpers/verifications.ts';

const clock = createManualClock(new Date('2026-11-24T09:00:00.000Z'));

async function analysed(t: TestContext, partner: TestPartner, body: Record<string, unknown> = {}) {
  const created = await createDeed(t, partner, body);
  assert.equal((await upload(t, created, await typesetPdf(shortDeedPages()))).statusCode, 200);
  assert.equal((await start(t, partner, created.deedAnalysis.id)).statusCode, 202);
  await runDueJobs(t);
  return created.deedAnalysis.id;
}

async function subscribe(t: TestContext, partner: TestPartner, receiver: Receiver) {
  const res = await t.app.inject({ method: 'POST', url: '/v1/webhook-destinations', headers: partner.headers, payload: { url: receiver.url, categories: ['DEED_ANALYSIS'] } });
  assert.equal(res.statusCode, 201, res.body);
  receiver.setSecret(res.json<{ secret: string }>().secret);
}

describe('deed-analysis.completed', () => {
  let t: TestContext;
  let partner: TestPartner;
  let receiver: Receiver;
  before(async () => {
    t = await createTestContext({ clock });
    partner = await t.f.partner();
    receiver = await startReceiver({ now: () => clock.now() });
    await subscribe(t, partner, receiver);
  });
  after(async () => {
    await receiver.close();
    await t.close();
  });

  it('reaches the receiver signed, with the trust, each party and the classes exactly; then nothing of it is held', async () => {
    const verification = await createVerification(t, partner, { mode: 'AUSTRAC_CDD', structureConfirmed: true, entityName: 'Wattle Creek Family Trust', individuals: [{ role: 'TRUSTEE' }] });
    const id = await analysed(t, partner, { verificationRequestId: verification.id });
    await t.services.createDispatcher().drain();
    assert.equal(receiver.received.length, 1);
    const [delivery] = receiver.received;
    assert.ok(delivery!.verified.ok, 'signed as SPEC says');
    const { occurredAt, eventId, ...body } = delivery!.body;
    assert.ok(typeof occurredAt === 'string' && typeof eventId === 'string');
    const person = (role: string, firstName: string, lastName: string, page: number, quote: string, address: string | null) => ({
      role,
      partyKind: 'INDIVIDUAL',
      businessName: null,
      firstName,
      lastName,
      acn: null,
      abn: null,
      address: address && { full: address },
      confidence: 'HIGH',
      sourcePage: page,
      sourceQuote: quote,
    });
    assert.deepEqual(body, {
      type: 'deed-analysis.completed',
      deedAnalysisId: id,
      verificationRequestId: verification.id,
      trust: {
        name: 'Wattle Creek Family Trust',
        abn: null,
        trustType: 'DISCRETIONARY',
        jurisdiction: 'Queensland',
        establishedDate: '1 July 2012',
        vestingDate: 'the day before the eightieth anniversary of the date of this deed',
      },
      parties: [
        person('SETTLOR', 'Margaret Anne', 'Fairbairn', 1, 'Margaret Anne Fairbairn of 4 Wattle Lane, Toowong QLD 4066 (the Settlor)', '4 Wattle Lane, Toowong QLD 4066'),
        {
          role: 'TRUSTEE',
          partyKind: 'BUSINESS',
          businessName: 'WATTLE CREEK NOMINEES PTY LTD',
          firstName: null,
          lastName: null,
          acn: '111111114',
          abn: null,
          address: { full: '12 Banksia Parade, Toowong QLD 4066' },
          confidence: 'HIGH',
          sourcePage: 1,
          // Verbatim: the line breaks where the page breaks it.
          sourceQuote: 'WATTLE CREEK NOMINEES PTY LTD ACN 111 111 114 of 12 Banksia Parade,\nToowong QLD 4066 (the Trustee)',
        },
        person('APPOINTOR', 'Priscilla Mary', 'Fairbairn', 2, 'Item 3. Appointor: Priscilla Mary Fairbairn of 4 Wattle Lane, Toowong QLD 4066', '4 Wattle Lane, Toowong QLD 4066'),
        person('BENEFICIARY', 'Daniel Hugh', 'Merriweather', 2, 'Item 4. Primary Beneficiaries: Daniel Hugh Merriweather', null),
      ],
      beneficiaryClasses: ['General Beneficiaries'],
    });

    const [event] = await t.services.db.query<{ id: string; payload: unknown; payload_sealed: string | null; payload_purged_at: Date | null }>(
      'SELECT id, payload, payload_sealed, payload_purged_at FROM events WHERE subject_id = $1',
      [id],
    );
    assert.deepEqual([event!.payload, event!.payload_sealed], [null, null], 'delivered: the sealed payload is gone');
    assert.ok(event!.payload_purged_at);
    const notifications = await t.app.inject({ method: 'GET', url: '/v1/webhook-notifications?category=DEED_ANALYSIS', headers: partner.headers });
    const [notification] = notifications.json<{ data: Array<{ id: string; status: string; payload: unknown }> }>().data;
    assert.deepEqual([notification!.status, notification!.payload], ['DELIVERED', null]);
    const retry = await t.app.inject({ method: 'POST', url: `/v1/webhook-notifications/${notification!.id}/retry`, headers: partner.headers });
    assert.deepEqual([retry.statusCode, retry.json<{ code: string }>().code], [410, 'PAYLOAD_EXPIRED']);
    assert.equal((await deedOf(t, partner, id)).partyCount, 4);
  });
});

describe('an LLM extractor', () => {
  let llm: Server;
  let answer: (pages: string) => { status: number; body: string };
  before(async () => {
    llm = createServer((req, res) => {
      let text = '';
      req.on('data', (c: Buffer) => (text += c.toString()));
      req.on('end', () => {
        const { status, body } = answer(JSON.parse(text).messages[1].content as string);
        res.writeHead(status, { 'content-type': 'application/json' }).end(body);
      });
    });
    await new Promise<void>((resolve) => llm.listen(0, '127.0.0.1', resolve));
  });
  after(() => new Promise<void>((resolve) => llm.close(() => resolve())));

  const invented = {
    trust: null,
    parties: [{ role: 'TRUSTEE', partyKind: 'INDIVIDUAL', businessName: null, firstName: 'Invented', lastName: 'Person', acn: null, abn: null, address: null, confidence: 'HIGH', sourcePage: 1, sourceQuote: 'Invented Person (the Trustee)' }],
    beneficiaryClasses: [],
  };

  for (const [name, reply, reason] of [
    ['that does not answer fails ANALYSIS_UNAVAILABLE after the job’s three tries', () => ({ status: 503, body: '{}' }), 'ANALYSIS_UNAVAILABLE'],
    ['that quotes what the page does not say fails EXTRACTION_INVALID_OUTPUT', () => ({ status: 200, body: JSON.stringify({ choices: [{ message: { content: JSON.stringify(invented) } }] }) }), 'EXTRACTION_INVALID_OUTPUT'],
  ] as const) {
    it(name, async () => {
      answer = reply;
      const t = await createTestContext({ clock, env: { DEED_EXTRACTOR: 'llm', DEED_LLM_URL: `http://127.0.0.1:${(llm.address() as AddressInfo).port}/v1`, DEED_LLM_MODEL: 'deed-reader' } });
      try {
        const partner = await t.f.partner();
        const id = await analysed(t, partner);
        for (let i = 0; i < 3 && (await deedOf(t, partner, id)).status === 'PROCESSING'; i++) {
          clock.advance(121_000);
          await runDueJobs(t);
        }
        const view = await deedOf(t, partner, id);
        assert.deepEqual([view.status, view.failureReason, view.partyCount], ['FAILED', reason, null]);
        assert.ok(view.documentPurgedAt);
        const events = await t.services.db.query<{ type: string }>('SELECT type FROM events WHERE subject_id = $1', [id]);
        assert.deepEqual(events.map((e) => e.type), ['deed-analysis.failed']);
        const charges = await t.app.inject({ method: 'GET', url: '/v1/charges', headers: (await t.f.signIn(partner)).headers });
        assert.deepEqual(charges.json<{ data: unknown[] }>().data, [], 'a failure is not billed');
      } finally {
        await t.close();
      }
    });
  }
});
