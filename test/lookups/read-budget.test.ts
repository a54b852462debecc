// The registry and ownership views' caching and the per-lookup daily read budget: ETag and If-None-Match
// (a 304 is free), Cache-Control, no HEAD, an answer missing the owners' live details never kept, and
// LOOKUP_READ_BUDGET per UTC day.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createManualClock } from '../../src/platform/clock.ts';
import type { Registers } from '../../src/providers/register/index.ts';
import type { SandboxRegister } from '../../src/providers/register/sandbox-register.ts';
import { runDueJobs } from '../helpers/billing.ts';
import { createTestContext, type TestContext, type TestPartner } from '../helpers/context.ts';
import { postLookup, readView, settledLookup } from '../helpers/lookups.ts';

type Response = Awaited<ReturnType<typeof readView>>;

const clock = createManualClock(new Date('2026-11-21T09:00:00.000Z'));
let t: TestContext;
let partner: TestPartner;
/** Set to make the owners' personal details unavailable, as a register provider that is down would. */
let detailsDown = false;

function withFailingDetails(registers: Registers): Registers {
  const reports = registers.reports;
  return {
    ...registers,
    reports: {
      officers: (acn) => reports.officers(acn),
      ownership: (acn) => reports.ownership(acn),
      personDetails: (refs) => (detailsDown ? Promise.resolve({ ok: false, reason: 'UNAVAILABLE', detail: 'down' }) : reports.personDetails(refs)),
      calls: () => (reports as SandboxRegister).calls(),
    } as SandboxRegister,
  };
}

before(async () => {
  t = await createTestContext({ clock, wrapRegisters: withFailingDetails });
  partner = await t.f.partner({ name: 'Cache & Co' });
});
after(() => t.close());

async function readsSpent(context: TestContext, lookupId: string): Promise<number> {
  const rows = await context.services.db.query<{ reads: number }>('SELECT coalesce(sum(reads), 0)::int AS reads FROM lookup_reads WHERE lookup_id = $1', [lookupId]);
  return rows[0]!.reads;
}

function problemOf(res: Response) {
  assert.match(String(res.headers['content-type']), /^application\/problem\+json/);
  return res.json<{ code: string; status: number }>();
}

describe('caching', () => {
  it('answers ETag and Cache-Control; a matching If-None-Match is 304 with no body, no live read and no budget', async () => {
    const lookup = await settledLookup(t, partner, { abn: '32 111 111 114' });
    const id = lookup.lookupRequestId;
    const sandbox = t.services.registers.reports as SandboxRegister;
    for (const view of ['registry', 'ownership'] as const) {
      const first = await readView(t, partner, id, view);
      assert.equal(first.statusCode, 200);
      assert.match(String(first.headers.etag), /^(W\/)?"[^"]+"$/);
      assert.equal(first.headers['cache-control'], 'private, max-age=300');
      const spent = await readsSpent(t, id);
      const liveReads = sandbox.calls().length;
      for (const tags of [String(first.headers.etag), `"something-else", ${String(first.headers.etag)}`]) {
        const again = await readView(t, partner, id, view, { 'if-none-match': tags });
        assert.equal(again.statusCode, 304, `${view} with If-None-Match: ${tags}`);
        assert.equal(again.body, '');
        assert.equal(again.headers.etag, first.headers.etag);
        assert.equal(again.headers['cache-control'], 'private, max-age=300');
      }
      assert.equal(await readsSpent(t, id), spent, `${view}: the 304s spent nothing`);
      assert.equal(sandbox.calls().length, liveReads, `${view}: the 304s read nothing live`);
      const other = await readView(t, partner, id, view, { 'if-none-match': '"not-this-one"' });
      assert.equal(other.statusCode, 200);
      assert.equal(await readsSpent(t, id), spent + 1);
    }
    assert.notEqual((await readView(t, partner, id, 'registry')).headers.etag, (await readView(t, partner, id, 'ownership')).headers.etag);
  });

  it('HEAD is not answered: it would spend a read for no body', async () => {
    const id = (await settledLookup(t, partner, { abn: '32 111 111 114' })).lookupRequestId;
    for (const view of ['registry', 'ownership']) {
      const head = await t.app.inject({ method: 'HEAD', url: `/v1/business-lookups/${id}/${view}`, headers: partner.headers });
      assert.notEqual(head.statusCode, 200, view);
    }
    assert.equal(await readsSpent(t, id), 0);
  });

  it('an ownership answer without the owners’ live details is not to be kept, and its tag never earns a 304', async () => {
    const id = (await settledLookup(t, partner, { abn: '54 222 222 228' })).lookupRequestId;
    detailsDown = true;
    let gap: Response;
    try {
      gap = await readView(t, partner, id, 'ownership');
    } finally {
      detailsDown = false;
    }
    assert.equal(gap.statusCode, 200);
    const body = gap.json<{ personalDetails: string; beneficialOwners: Array<{ dateOfBirth: string | null; address: unknown }> }>();
    assert.equal(body.personalDetails, 'UNAVAILABLE');
    assert.ok(body.beneficialOwners.every((o) => o.dateOfBirth === null && o.address === null));
    assert.equal(gap.headers['cache-control'], 'no-store');

    const again = await readView(t, partner, id, 'ownership', { 'if-none-match': String(gap.headers.etag) });
    assert.equal(again.statusCode, 200, 'the details are read again');
    assert.equal(again.json<{ personalDetails: string }>().personalDetails, 'AVAILABLE');
    assert.equal(again.headers['cache-control'], 'private, max-age=300');
    assert.notEqual(again.headers.etag, gap.headers.etag);
  });
});

describe('the daily read budget (LOOKUP_READ_BUDGET 3)', () => {
  // 22:30:15.250 UTC: 5384.75 s to midnight, so Retry-After rounds up to 5385.
  const budgetClock = createManualClock(new Date('2026-11-21T22:30:15.250Z'));
  let b: TestContext;
  let reader: TestPartner;
  before(async () => {
    b = await createTestContext({ clock: budgetClock, env: { LOOKUP_READ_BUDGET: '3' } });
    reader = await b.f.partner({ name: 'Budget Reader' });
  });
  after(() => b.close());

  const record = (id: string) => b.app.inject({ method: 'GET', url: `/v1/business-lookups/${id}`, headers: reader.headers });

  it('three reads a day shared by both views; then 429 until UTC midnight, with 304s and the record still free', async () => {
    const id = (await settledLookup(b, reader, { abn: '54222222228' })).lookupRequestId;
    const neighbour = (await settledLookup(b, reader, { abn: '32111111114' })).lookupRequestId;
    for (let i = 0; i < 3; i++) assert.equal((await record(id)).statusCode, 200, 'the record spends nothing');

    const registry = await readView(b, reader, id, 'registry');
    const ownership = await readView(b, reader, id, 'ownership');
    assert.deepEqual([registry.statusCode, ownership.statusCode], [200, 200]);
    for (let i = 0; i < 3; i++) assert.equal((await readView(b, reader, id, 'registry', { 'if-none-match': String(registry.headers.etag) })).statusCode, 304);
    assert.equal((await readView(b, reader, id, 'ownership')).statusCode, 200, 'the third read');
    assert.equal(await readsSpent(b, id), 3);

    for (const view of ['registry', 'ownership'] as const) {
      const refused = await readView(b, reader, id, view);
      assert.equal(refused.statusCode, 429, view);
      assert.deepEqual([problemOf(refused).code, problemOf(refused).status], ['READ_BUDGET_EXHAUSTED', 429]);
      assert.equal(refused.headers['retry-after'], '5385');
    }
    assert.equal((await readView(b, reader, id, 'registry', { 'if-none-match': String(registry.headers.etag) })).statusCode, 304, 'a 304 works when exhausted');
    assert.equal((await readView(b, reader, id, 'ownership', { 'if-none-match': String(ownership.headers.etag) })).statusCode, 304);
    assert.equal((await record(id)).statusCode, 200);
    assert.equal((await readView(b, reader, neighbour, 'registry')).statusCode, 200, 'another lookup has its own budget');

    budgetClock.set(new Date('2026-11-21T23:59:59.999Z'));
    reader = await b.f.signIn(reader);
    const lastMillisecond = await readView(b, reader, id, 'ownership');
    assert.deepEqual([lastMillisecond.statusCode, lastMillisecond.headers['retry-after']], [429, '1']);

    budgetClock.set(new Date('2026-11-22T00:00:00.000Z'));
    assert.equal((await readView(b, reader, id, 'registry')).statusCode, 200, 'a new UTC day, a new budget');
    assert.equal((await readView(b, reader, id, 'ownership')).statusCode, 200);
  });

  it('refusing a PENDING lookup spends none of its budget', async () => {
    const id = (await postLookup(b, reader, { abn: '21444444446' })).json<{ lookupRequestId: string }>().lookupRequestId;
    for (let i = 0; i < 3; i++) {
      for (const view of ['registry', 'ownership'] as const) assert.equal((await readView(b, reader, id, view)).statusCode, 409);
    }
    await runDueJobs(b);
    const reads = [];
    for (const view of ['registry', 'ownership', 'registry', 'ownership'] as const) reads.push((await readView(b, reader, id, view)).statusCode);
    assert.deepEqual(reads, [200, 200, 200, 429]);
  });
});
