// Payload retention: webhook payloads are held about 33 hours for retries, then nulled by the
// `webhooks.purge-payloads` job; deed analysis results are held only sealed, only until delivered,
// are never shown in the history and cannot be re-sent.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Static } from '@sinclair/typebox';
import { deedAnalysisCompleted, paymentSucceeded } from '../../src/modules/webhooks/events/index.ts';
import { paymentPayload, seconds, start, webhookHarness, type WebhookHarness } from '../fixtures/webhook-helpers.ts';
import type { TestPartner } from '../helpers/context.ts';

const hour = 3600_000;

async function retry(h: WebhookHarness, partner: TestPartner, id: string) {
  return h.ctx.app.inject({ method: 'POST', url: `/v1/webhook-notifications/${id}/retry`, headers: await h.headers(partner) });
}

async function eventRow(h: WebhookHarness, id: string) {
  const [row] = await h.ctx.services.db.query<{ payload: unknown; payload_sealed: string | null; payload_purged_at: Date | null }>(
    'SELECT payload, payload_sealed, payload_purged_at FROM events WHERE id = $1',
    [id],
  );
  assert.ok(row, `event ${id}`);
  return row;
}

/** Runs the due jobs the way a worker process does: one claim round of a fresh worker. */
async function runJobs(h: WebhookHarness): Promise<string[]> {
  const before = h.clock.now();
  await h.ctx.services.createWorker().drain();
  const ran = await h.ctx.services.db.query<{ kind: string }>("SELECT kind FROM jobs WHERE status = 'SUCCEEDED' AND updated_at >= $1", [before]);
  return ran.map((r) => r.kind);
}

describe('payload retention', () => {
  it('nulls a payload 33 hours after its event; the history shows null and a retry answers 410', async (t) => {
    const h = await webhookHarness(t);
    const partner = await h.ctx.f.partner();
    const receiver = await h.receiver();
    const destination = await h.addDestination(partner, { url: receiver.url, categories: ['PAYMENTS'] });
    receiver.setSecret(destination.secret);

    const event = await h.emit(paymentSucceeded, partner, paymentPayload('pay_keep_1'));
    assert.equal(await h.drain(), 1);
    const [row] = await h.notifications(partner);
    assert.deepEqual(row!.payload, receiver.received[0]!.body);

    // Inside the window: the job runs and keeps the payload; a retry still works.
    h.clock.set(new Date(start.getTime() + 33 * hour - seconds(60)));
    assert.ok((await runJobs(h)).includes('webhooks.purge-payloads'));
    assert.deepEqual((await h.notification(partner, row!.id)).payload, receiver.received[0]!.body);
    assert.ok((await eventRow(h, event.id)).payload);
    const early = await retry(h, partner, row!.id);
    assert.equal(early.statusCode, 202, early.body);
    assert.equal(await h.drain(), 1);
    assert.equal(receiver.received.length, 2);
    assert.equal(receiver.received[1]!.verified.ok, true);

    // Past 33 hours: the next run of the job nulls it.
    h.clock.set(new Date(start.getTime() + 33 * hour + seconds(1)));
    assert.ok((await runJobs(h)).includes('webhooks.purge-payloads'));
    const stored = await eventRow(h, event.id);
    assert.equal(stored.payload, null);
    assert.equal(stored.payload_sealed, null);
    assert.deepEqual(stored.payload_purged_at, h.clock.now());

    const gone = await h.notification(partner, row!.id);
    assert.equal(gone.payload, null);
    assert.equal(gone.status, 'DELIVERED', 'the record stays, only the payload goes');
    assert.equal(gone.attempts.length, 1);
    assert.ok((await h.notifications(partner)).every((n) => n.payload === null), 'every notification of the event, the retry included');

    const late = await retry(h, partner, row!.id);
    assert.equal(late.statusCode, 410, late.body);
    assert.equal((late.json() as { code: string }).code, 'PAYLOAD_EXPIRED');
    assert.equal((await h.notifications(partner)).length, 2, 'nothing was queued');
  });

  it('fails a pending notification whose payload is gone without sending anything', async (t) => {
    const h = await webhookHarness(t);
    const partner = await h.ctx.f.partner();
    const receiver = await h.receiver();
    await h.addDestination(partner, { url: receiver.url, categories: ['PAYMENTS'] });
    await h.emit(paymentSucceeded, partner, paymentPayload('pay_purged_1'));
    const [row] = await h.notifications(partner);

    h.clock.set(new Date(start.getTime() + 34 * hour));
    await h.ctx.services.jobDefinitions.find((d) => d.kind === 'webhooks.purge-payloads')!.handler({ slot: h.clock.now().toISOString() }, undefined as never);
    await h.drain();
    assert.equal(receiver.received.length, 0);
    const detail = await h.notification(partner, row!.id);
    assert.equal(detail.status, 'FAILED');
    assert.equal(detail.payload, null);
    assert.equal(detail.webhookAttempts, 0);
  });
});

describe('deed analysis results', () => {
  const payload: Static<typeof deedAnalysisCompleted.payload> = {
    deedAnalysisId: 'dda_01JD0000000000000000000042',
    verificationRequestId: null,
    trust: { name: 'QUILLFEATHER FAMILY TRUST', abn: null, trustType: 'DISCRETIONARY', jurisdiction: 'Victoria', establishedDate: '3 May 2011', vestingDate: null },
    parties: [
      {
        role: 'APPOINTOR',
        partyKind: 'INDIVIDUAL',
        businessName: null,
        firstName: 'Zebedee',
        lastName: 'Quuxworth',
        acn: null,
        abn: null,
        address: { full: '9 Nowhere Lane, Hobart TAS 7000' },
        confidence: 'HIGH',
        sourcePage: 2,
        sourceQuote: 'ZEBEDEE QUUXWORTH shall be the Appointor',
      },
      {
        role: 'TRUSTEE',
        partyKind: 'BUSINESS',
        businessName: 'BRAMBLEWICK NOMINEES PTY LTD',
        firstName: null,
        lastName: null,
        acn: '111111114',
        abn: null,
        address: null,
        confidence: 'HIGH',
        sourcePage: 1,
        sourceQuote: 'BRAMBLEWICK NOMINEES PTY LTD as trustee',
      },
    ],
    beneficiaryClasses: ['General Beneficiaries'],
  };
  const names = /zebedee|quuxworth|bramblewick|quillfeather|nowhere lane/i;

  it('are stored sealed, shown as payload null, delivered in full once, then deleted; a retry answers 410', async (t) => {
    const h = await webhookHarness(t);
    const partner = await h.ctx.f.partner();
    const [one, two] = [await h.receiver(), await h.receiver()];
    const first = await h.addDestination(partner, { url: one.url, categories: ['DEED_ANALYSIS'] });
    const second = await h.addDestination(partner, { url: two.url, categories: ['DEED_ANALYSIS', 'PAYMENTS'] });
    one.setSecret(first.secret);
    two.setSecret(second.secret);
    const answers = [503, 200];
    two.respond((d, res) => res.writeHead(d.verified.ok ? answers.shift()! : 401).end());

    const event = await h.emit(deedAnalysisCompleted, partner, payload);

    // The events row never holds the plaintext.
    const sealed = await eventRow(h, event.id);
    assert.equal(sealed.payload, null);
    assert.ok(sealed.payload_sealed, 'held sealed until delivered');
    assert.doesNotMatch(sealed.payload_sealed, names);
    assert.doesNotMatch(JSON.stringify(await h.ctx.services.db.query('SELECT * FROM events WHERE id = $1', [event.id])), names);

    // The history never shows it, and it cannot be re-sent, even before delivery.
    const rows = await h.notifications(partner);
    assert.equal(rows.length, 2);
    assert.ok(rows.every((n) => n.payload === null && n.category === 'DEED_ANALYSIS'));
    assert.equal((await h.notification(partner, rows[0]!.id)).payload, null);
    const before = await retry(h, partner, rows[0]!.id);
    assert.equal(before.statusCode, 410, before.body);
    assert.equal((before.json() as { code: string }).code, 'PAYLOAD_EXPIRED');

    // The receivers get the full body, signed.
    assert.equal(await h.drain(), 2);
    const expected = { type: 'deed-analysis.completed', eventId: event.id, ...payload, occurredAt: start.toISOString() };
    assert.equal(one.received.length, 1);
    assert.equal(one.received[0]!.verified.ok, true);
    assert.deepEqual(one.received[0]!.body, expected);
    assert.match(one.received[0]!.rawBody, names);

    // One destination still pending: the sealed payload stays for its retry.
    assert.ok((await eventRow(h, event.id)).payload_sealed);
    h.clock.advance(seconds(30));
    assert.equal(await h.drain(), 1);
    assert.equal(two.received.length, 2);
    assert.ok(two.received.every((d) => d.verified.ok));
    assert.deepEqual(two.received[1]!.body, expected);

    // Delivered everywhere: the sealed payload is deleted.
    const after = await eventRow(h, event.id);
    assert.equal(after.payload, null);
    assert.equal(after.payload_sealed, null);
    assert.deepEqual(after.payload_purged_at, h.clock.now());

    for (const n of await h.notifications(partner)) {
      const detail = await h.notification(partner, n.id);
      assert.equal(detail.status, 'DELIVERED');
      assert.equal(detail.payload, null);
      const res = await retry(h, partner, n.id);
      assert.equal(res.statusCode, 410, res.body);
      assert.equal((res.json() as { code: string }).code, 'PAYLOAD_EXPIRED');
    }
    assert.doesNotMatch(h.ctx.logText(), names, 'nothing of it reached the logs');
  });
});
