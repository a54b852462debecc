// Crash safety of business lookups: a worker process killed (SIGKILL) while it settles lookups, after
// every write of the settlement and right before its COMMIT, leaves them PENDING with nothing written.
// Once its leases run out another worker process settles each lookup once: one record, one idv entity
// per party, one event and one notification each, and the one charge made at creation (BILLED, or VOID
// for the lookup that failed).
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, it } from 'node:test';
import type { Database } from '../../src/platform/db/database.ts';
import type { Settling } from '../fixtures/lookup-crash-worker.ts';
import { createTestContext } from '../helpers/context.ts';
import { createSharedDatabase, spawnFixture, type SharedDatabase } from '../helpers/crash.ts';
import { postLookup } from '../helpers/lookups.ts';

const fixture = path.resolve(import.meta.dirname, '../fixtures/lookup-crash-worker.ts');

/**
 * CONTRACT §13 businesses, and what settling each writes. Four, the lookup job's concurrency: the worker
 * that dies claims them all in its first round.
 */
const businesses = [
  { abn: '54 222 222 228', status: 'COMPLETED', event: 'business-lookup.completed', charge: 'BILLED', idvEntities: 3, individuals: 6 },
  { abn: '32 111 111 114', status: 'COMPLETED', event: 'business-lookup.completed', charge: 'BILLED', idvEntities: 2, individuals: 3 },
  { abn: '44 888 888 882', status: 'COMPLETED', event: 'business-lookup.completed', charge: 'BILLED', idvEntities: 6, individuals: 6 },
  // Not on the register: the settlement fails the lookup and voids its charge, which must happen once too.
  { abn: '85 900 000 004', status: 'FAILED', event: 'business-lookup.failed', charge: 'VOID', idvEntities: 0, individuals: 0 },
] as const;

let shared: SharedDatabase;
let partnerId: string;
/** Lookup id → what settling it writes. */
const lookups = new Map<string, (typeof businesses)[number]>();

function runWorker(mode: 'hang' | 'finish') {
  return spawnFixture(fixture, { CRASH_DB: shared.target, CRASH_MODE: mode });
}

const withDb = <T>(fn: (db: Database) => Promise<T>) => shared.withDb(fn);

/** Per lookup of the partner: how many rows of each kind it has. */
async function countsOf(db: Database) {
  return db.query<{ id: string; status: string; idv_entities: number; individuals: number; events: number; notifications: number }>(
    `SELECT l.id, l.status,
       (SELECT count(*)::int FROM idv_entities e WHERE e.lookup_id = l.id) AS idv_entities,
       (SELECT count(*)::int FROM lookup_individuals i WHERE i.lookup_id = l.id) AS individuals,
       (SELECT count(*)::int FROM events v WHERE v.payload ->> 'lookupRequestId' = l.id) AS events,
       (SELECT count(*)::int FROM webhook_notifications n JOIN events v ON v.id = n.event_id WHERE v.payload ->> 'lookupRequestId' = l.id) AS notifications
     FROM business_lookups l WHERE l.partner_id = $1 ORDER BY l.id`,
    [partnerId],
  );
}

async function chargesOf(db: Database) {
  return db.query<{ reference_id: string; status: string }>('SELECT reference_id, status FROM charges WHERE partner_id = $1 ORDER BY reference_id', [partnerId]);
}

async function jobsOf(db: Database) {
  return db.query<{ key: string; status: string; attempts: number; lease_owner: string | null }>(
    "SELECT key, status, attempts, lease_owner FROM jobs WHERE kind = 'lookups.process' ORDER BY key",
  );
}

const ids = () => [...lookups.keys()].sort();

before(async () => {
  // The service takes the lookups (each with its charge and job) and a webhook destination for their
  // events, then lets go of the database for the worker processes.
  shared = await createSharedDatabase('lookup-crash');
  const ctx = await createTestContext({ database: shared.setup });
  try {
    const partner = await ctx.f.partner();
    partnerId = partner.partnerId;
    const destination = await ctx.app.inject({
      method: 'POST',
      url: '/v1/webhook-destinations',
      headers: partner.headers,
      // Never called: no dispatcher runs here; the notifications are rows to count.
      payload: { url: 'http://127.0.0.1:9/lookups', categories: ['BUSINESS_LOOKUPS'] },
    });
    assert.equal(destination.statusCode, 201, destination.body);
    for (const business of businesses) {
      const res = await postLookup(ctx, partner, { abn: business.abn });
      assert.equal(res.statusCode, 202, res.body);
      lookups.set(res.json<{ lookupRequestId: string }>().lookupRequestId, business);
    }
  } finally {
    await ctx.close();
  }
});

after(async () => {
  await shared.drop();
});

it('a worker killed mid-lookup leaves it PENDING; another settles each lookup once, charged once', async () => {
  const first = runWorker('hang');
  await first.waitFor(() => first.output().includes('SETTLING'), 'a lookup settling');
  first.child.kill('SIGKILL');
  assert.deepEqual(await first.exited, { code: null, signal: 'SIGKILL' });

  // It died with the whole settlement written, the job's success included, and only the COMMIT to go
  // (on PGlite, whose transactions are serialised, one lookup got that far; on PostgreSQL perhaps all).
  const settling = first
    .output()
    .split('\n')
    .filter((line) => line.startsWith('SETTLING '))
    .map((line) => JSON.parse(line.slice('SETTLING '.length)) as Settling);
  assert.ok(settling.length >= 1);
  for (const s of settling) {
    const business = lookups.get(s.lookupId);
    assert.ok(business, s.lookupId);
    assert.deepEqual(s, {
      lookupId: s.lookupId,
      status: business.status,
      idvEntities: business.idvEntities,
      individuals: business.individuals,
      events: 1,
      notifications: 1,
      job: 'SUCCEEDED',
    });
  }

  // None of it committed: every lookup is as it was created, its one charge still BILLED, its job
  // held by the dead worker (claimed once).
  await withDb(async (db) => {
    assert.deepEqual(
      await countsOf(db),
      ids().map((id) => ({ id, status: 'PENDING', idv_entities: 0, individuals: 0, events: 0, notifications: 0 })),
    );
    assert.deepEqual(
      await chargesOf(db),
      ids().map((id) => ({ reference_id: id, status: 'BILLED' })),
    );
    const jobs = await jobsOf(db);
    assert.deepEqual(
      jobs.map((j) => [j.key, j.status, j.attempts]),
      ids().map((id) => [`lookup:${id}`, 'RUNNING', 1]),
    );
  });

  // The second process waits out the dead one's leases (2 s), claims each job again and settles it.
  const second = runWorker('finish');
  await second.waitFor(() => second.output().includes('DONE'), 'DONE');
  assert.equal((await second.exited).code, 0);

  await withDb(async (db) => {
    assert.deepEqual(
      await countsOf(db),
      ids().map((id) => {
        const b = lookups.get(id)!;
        return { id, status: b.status, idv_entities: b.idvEntities, individuals: b.individuals, events: 1, notifications: 1 };
      }),
    );
    assert.deepEqual(
      await chargesOf(db),
      ids().map((id) => ({ reference_id: id, status: lookups.get(id)!.charge })),
      'one charge per lookup, made at creation: billed once, or voided once when the lookup failed',
    );
    assert.deepEqual(
      (await jobsOf(db)).map((j) => [j.key, j.status, j.attempts, j.lease_owner]),
      ids().map((id) => [`lookup:${id}`, 'SUCCEEDED', 2, null]),
      'the killed attempt and the one that settled',
    );

    // The event names exactly the idv entities that were stored: both come from the one settlement.
    const events = await db.query<{ type: string; payload: { lookupRequestId: string; individuals?: Array<{ idvEntityId: string }> } }>(
      "SELECT type, payload FROM events WHERE partner_id = $1 AND type LIKE 'business-lookup.%' ORDER BY payload ->> 'lookupRequestId'",
      [partnerId],
    );
    assert.deepEqual(
      events.map((e) => [e.payload.lookupRequestId, e.type]),
      ids().map((id) => [id, lookups.get(id)!.event]),
    );
    for (const event of events.filter((e) => e.type === 'business-lookup.completed')) {
      const entities = await db.query<{ id: string }>('SELECT id FROM idv_entities WHERE lookup_id = $1 ORDER BY id', [event.payload.lookupRequestId]);
      assert.deepEqual(event.payload.individuals!.map((i) => i.idvEntityId).sort(), entities.map((e) => e.id));
    }
  });
});
