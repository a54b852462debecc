// Crash safety of a list version's re-screen: a worker process killed (SIGKILL) while it commits the
// second batch leaves the first batch's alerts and cursor committed and nothing of the second. Once its
// lease runs out another worker resumes after the cursor: every new match raised once, with one event,
// and the contacts before the cursor not screened again.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, it } from 'node:test';
import type { Database } from '../../src/platform/db/database.ts';
import { createContact, runDueJobs } from '../helpers/billing.ts';
import { createTestContext } from '../helpers/context.ts';
import { createSharedDatabase, spawnFixture, type SharedDatabase } from '../helpers/crash.ts';
import { enable, importList, listRows } from '../helpers/monitoring.ts';

const fixture = path.resolve(import.meta.dirname, '../fixtures/rescreen-crash-worker.ts');

/** Twelve contacts in id order, batches of five: new matches in the first batch (two), the second and the third. */
const names = [
  'Dunmore Shipping Holdings Pty Ltd',
  'Wattle Street Physiotherapy',
  'Banksia Ridge Orchards',
  'Kestrel Maritime Logistics Pty Ltd',
  'Paperbark Joinery',
  'Lorikeet Lane Childcare',
  'Orlov Metals Trading Pty Ltd',
  'Saltbush Surveying',
  'Ironbark Electrical',
  'Mallee Fowl Printing',
  'Sapphire Gulf Petroleum Pty Ltd',
  'Coolabah Tree Nursery',
];
const newEntries = [
  'fx-dunmore,business,Dunmore Shipping Holdings LLC,,,RU,SANCTIONS,Test sanctions',
  'fx-kestrel,business,Kestrel Maritime Logistics FZE,,,AE,SANCTIONS,Test sanctions',
  'fx-orlov,business,Orlov Metals Trading OOO,,,RU,SANCTIONS,Test sanctions',
  'fx-sapphire,business,Sapphire Gulf Petroleum LLC,,,IR,SANCTIONS,Test sanctions',
];

let shared: SharedDatabase;
let partnerId: string;
let version: number;
const contactIds: string[] = [];

const runWorker = (mode: 'hang' | 'finish') => spawnFixture(fixture, { CRASH_DB: shared.target, CRASH_MODE: mode });

async function stateOf(db: Database) {
  const alerts = await db.query<{ contact_id: string; entry_id: string }>('SELECT contact_id, entry_id FROM monitoring_alerts WHERE partner_id = $1 ORDER BY contact_id', [partnerId]);
  const [events] = await db.query<{ n: number }>("SELECT count(*)::int AS n FROM events WHERE partner_id = $1 AND type = 'monitoring.alert.created'", [partnerId]);
  const [progress] = await db.query<{ after_contact_id: string | null; screened: number; alerts: number; finished_at: Date | null }>(
    'SELECT after_contact_id, screened, alerts, finished_at FROM monitoring_rescreens WHERE version = $1',
    [version],
  );
  const versions = await db.query<{ screened_version: number }>('SELECT screened_version FROM monitoring_subscriptions WHERE partner_id = $1 ORDER BY contact_id', [partnerId]);
  return { alerts: alerts.map((a) => `${a.contact_id} ${a.entry_id}`), events: events!.n, progress, versions: versions.map((v) => v.screened_version) };
}

before(async () => {
  shared = await createSharedDatabase('rescreen-crash');
  const ctx = await createTestContext({ database: shared.setup });
  try {
    const partner = await ctx.f.partner({ monitoring: true });
    partnerId = partner.partnerId;
    await importList(ctx, [listRows.karlov, listRows.unrelated]);
    for (const name of names) {
      const contact = await createContact(ctx, partner, { name });
      contactIds.push(contact.id);
      await enable(ctx, partner, contact.id);
    }
    await runDueJobs(ctx);
    // The new version; its re-screen job waits for the worker processes.
    version = await importList(ctx, [listRows.karlov, listRows.unrelated, ...newEntries]);
  } finally {
    await ctx.close();
    await shared.setup.drop();
  }
});

after(() => shared.drop());

it('a re-screen killed mid-batch resumes after its last committed batch and raises each new match once', async () => {
  const first = runWorker('hang');
  await first.waitFor(() => first.output().includes('BATCH_HELD'), 'BATCH_HELD');
  first.child.kill('SIGKILL');
  await first.exited;

  const afterCrash = await shared.withDb(stateOf);
  assert.deepEqual(afterCrash.alerts, [`${contactIds[0]} fx-dunmore`, `${contactIds[3]} fx-kestrel`], 'the first batch committed, the second did not');
  assert.equal(afterCrash.events, 2);
  assert.deepEqual(
    { after: afterCrash.progress?.after_contact_id, screened: afterCrash.progress?.screened, finished: afterCrash.progress?.finished_at },
    { after: contactIds[4], screened: 5, finished: null },
  );

  const second = runWorker('finish');
  await second.waitFor(() => second.output().includes('DONE'), 'DONE', 1200);
  await second.exited;

  const done = await shared.withDb(stateOf);
  assert.deepEqual(done.alerts, [`${contactIds[0]} fx-dunmore`, `${contactIds[3]} fx-kestrel`, `${contactIds[6]} fx-orlov`, `${contactIds[10]} fx-sapphire`]);
  assert.equal(done.events, 4, 'one alert.created per alert');
  assert.equal(done.progress?.screened, 12, 'the first five were not screened again');
  assert.equal(done.progress?.alerts, 4);
  assert.ok(done.progress?.finished_at);
  assert.deepEqual(done.versions, names.map(() => version));
});
