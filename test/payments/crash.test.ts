// Money moves once: a service process killed (SIGKILL) after the gateway charged the payer's card and
// before PVS recorded it leaves the payment PROCESSING with its attempt CHARGING and one charge at the
// gateway. Another process's settle job finds that charge in the gateway's record under the attempt's key
// and ends the payment SUCCEEDED once: one gateway charge, one payment.succeeded.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, it } from 'node:test';
import type { Database } from '../../src/platform/db/database.ts';
import { cards, tokenise } from '../helpers/billing.ts';
import { createTestContext } from '../helpers/context.ts';
import { createSharedDatabase, spawnFixture, type SharedDatabase } from '../helpers/crash.ts';
import { createPayment } from '../helpers/payments.ts';

const fixture = path.resolve(import.meta.dirname, '../fixtures/payment-crash-server.ts');

let shared: SharedDatabase;
let paymentId: string;
let linkToken: string;
let paymentToken: string;

const withDb = <T>(fn: (db: Database) => Promise<T>) => shared.withDb(fn);

async function stateOf(db: Database) {
  const [payment] = await db.query<{ status: string; attempts: number; gateway_charge_ref: string | null }>(
    'SELECT status, attempts, gateway_charge_ref FROM payments WHERE id = $1',
    [paymentId],
  );
  const attempts = await db.query<{ attempt: number; status: string; gateway_charge_ref: string | null }>(
    'SELECT attempt, status, gateway_charge_ref FROM payment_attempts WHERE payment_id = $1 ORDER BY attempt',
    [paymentId],
  );
  const charges = await db.query<{ id: string; status: string; amount: number }>(
    'SELECT id, status, amount FROM sandbox_gateway_charges WHERE description = $1',
    [`ATO payment ${paymentId}`],
  );
  const events = await db.query<{ type: string }>('SELECT type FROM events WHERE subject_id = $1 ORDER BY id', [paymentId]);
  return { payment: payment!, attempts, charges, events: events.map((e) => e.type) };
}

before(async () => {
  // The payment and the payer's tokenised card are made here; then the database is let go for the
  // service processes.
  shared = await createSharedDatabase('payment-crash');
  const ctx = await createTestContext({ database: shared.setup });
  try {
    const partner = await ctx.f.partner();
    const payment = await createPayment(ctx, partner, { amount: 48_200 });
    paymentId = payment.id;
    linkToken = payment.token;
    const tokenised = await tokenise(ctx, cards.succeeds);
    paymentToken = tokenised.json<{ token: string }>().token;
  } finally {
    await ctx.close();
  }
});

after(async () => {
  await shared.drop();
});

it('a process killed after the gateway charged and before PVS recorded it charges once and ends SUCCEEDED once', async () => {
  const server = spawnFixture(fixture, { CRASH_DB: shared.target, CRASH_MODE: 'hang' });
  await server.waitFor(() => server.output().includes('LISTENING'), 'the server listening');
  const port = /LISTENING (\d+)/.exec(server.output())![1];
  // The payer's submit: it never gets an answer, because the process dies under it.
  const submit = fetch(`http://127.0.0.1:${port}/hosted/v1/payment-links/${linkToken}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ paymentToken }),
  }).then(
    (res) => `answered ${res.status}`,
    () => 'no answer',
  );
  await server.waitFor(() => server.output().includes('CHARGED'), 'the gateway charging the card');
  server.child.kill('SIGKILL');
  assert.deepEqual(await server.exited, { code: null, signal: 'SIGKILL' });
  assert.equal(await submit, 'no answer');
  const chargeRef = /CHARGED (\S+)/.exec(server.output())![1];

  // The gateway took the money; PVS had only begun the attempt.
  await withDb(async (db) => {
    assert.deepEqual(await stateOf(db), {
      payment: { status: 'PROCESSING', attempts: 1, gateway_charge_ref: null },
      attempts: [{ attempt: 1, status: 'CHARGING', gateway_charge_ref: null }],
      charges: [{ id: chargeRef, status: 'succeeded', amount: 48_200 }],
      events: ['payment.created', 'payment.processing'],
    });
  });

  // Another process: its settle job finds the charge under the attempt's key and records it.
  const worker = spawnFixture(fixture, { CRASH_DB: shared.target, CRASH_MODE: 'finish' });
  await worker.waitFor(() => worker.output().includes('DONE'), 'DONE');
  assert.equal((await worker.exited).code, 0);

  await withDb(async (db) => {
    assert.deepEqual(await stateOf(db), {
      payment: { status: 'SUCCEEDED', attempts: 1, gateway_charge_ref: chargeRef },
      attempts: [{ attempt: 1, status: 'SUCCEEDED', gateway_charge_ref: chargeRef }],
      charges: [{ id: chargeRef, status: 'succeeded', amount: 48_200 }],
      events: ['payment.created', 'payment.processing', 'payment.succeeded'],
    });
    const [asked] = await db.query<{ n: number }>("SELECT count(*)::int AS n FROM sandbox_gateway_requests WHERE idempotency_key = $1 AND operation = 'pay'", [
      `${paymentId}:attempt:1`,
    ]);
    assert.equal(asked!.n, 1, 'one request at the gateway for the attempt: the card was asked once');
  });
});
