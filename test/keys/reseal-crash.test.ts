// The re-seal job killed (SIGKILL) mid-way loses nothing: what its committed batches sealed again stays
// under the new key, the rest is still under the old one and opens, and a second worker finishes the job:
// every value under the new key, each still the text it was.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, it } from 'node:test';
import { createKeyRing, keyIdOf, sealedKeyId } from '../../src/platform/keys/key-ring.ts';
import { createSharedDatabase, spawnFixture, type SharedDatabase } from '../helpers/crash.ts';

const fixture = path.resolve(import.meta.dirname, '../fixtures/reseal-worker.ts');
const keyA = 'A'.repeat(40);
const keyB = 'B'.repeat(40);
const count = 3000;
let shared: SharedDatabase;

before(async () => {
  shared = await createSharedDatabase('reseal');
  const sealer = createKeyRing(keyA).sealer('event-payloads');
  // Through the set-up connection, closed before any child opens the database (PGlite is one process).
  const { db } = shared.setup;
  await db.query("INSERT INTO partners (id, name, environment, created_at) VALUES ('par_reseal', 'Reseal', 'sandbox', now())");
  const ids = Array.from({ length: count }, (_, i) => `evt_reseal_${String(i).padStart(5, '0')}`);
  await db.query(
    `INSERT INTO events (id, partner_id, type, category, payload_sealed, occurred_at, created_at)
     SELECT id, 'par_reseal', 'payment.created', 'PAYMENTS', sealed, now(), now() FROM unnest($1::text[], $2::text[]) AS r(id, sealed)`,
    [ids, ids.map((id) => sealer.seal(JSON.stringify({ id })))],
  );
  await shared.setup.drop();
});
after(() => shared.drop());

const env = { RESEAL_KEY: keyB, RESEAL_PREVIOUS: keyA };

it('a worker killed after a batch leaves a part done; another finishes it, every value intact under the new key', async () => {
  const first = spawnFixture(fixture, { ...env, RESEAL_DB: shared.target });
  await first.waitFor(() => first.output().includes('re-sealed a batch'), 'a first batch');
  first.child.kill('SIGKILL');
  assert.deepEqual(await first.exited, { code: null, signal: 'SIGKILL' });

  const partly = await shared.withDb((db) => db.query<{ payload_sealed: string }>('SELECT payload_sealed FROM events'));
  const underB = partly.filter((r) => sealedKeyId(r.payload_sealed) === keyIdOf(keyB)).length;
  assert.ok(underB > 0 && underB < count, `killed mid-way: ${underB} of ${count} under the new key`);

  const second = spawnFixture(fixture, { ...env, RESEAL_DB: shared.target });
  await second.waitFor(() => second.output().includes('DONE'), 'DONE');
  assert.equal((await second.exited).code, 0);

  const rows = await shared.withDb((db) => db.query<{ id: string; payload_sealed: string }>('SELECT id, payload_sealed FROM events ORDER BY id'));
  assert.equal(rows.length, count);
  const onlyB = createKeyRing(keyB).sealer('event-payloads');
  for (const row of rows) {
    assert.equal(sealedKeyId(row.payload_sealed), keyIdOf(keyB));
    assert.deepEqual(JSON.parse(onlyB.open(row.payload_sealed)), { id: row.id });
  }
});
