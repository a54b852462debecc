// The list of sealed and digest columns (src/platform/keys/key-usage.ts) is what `pvs keys status` counts,
// what the start-up check guards and what the re-seal job seals again: a column of the schema that holds a
// sealed value or a token digest and is not listed would stay under an old key for ever.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { digestColumns, sealedColumns } from '../../src/platform/keys/key-usage.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { migrate } from '../../src/platform/db/migrate.ts';

let database: TestDatabase;
before(async () => {
  database = await createTestDatabase();
  await migrate(database.db);
});
after(() => database.drop());

it('lists every column of the schema named *_sealed, *token_hash or *code_hash', async () => {
  const columns = await database.db.query<{ table_name: string; column_name: string }>(
    "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = current_schema() AND (column_name LIKE '%sealed' OR column_name LIKE '%token_hash' OR column_name LIKE '%code_hash') ORDER BY 1, 2",
  );
  assert.ok(columns.length >= 10, 'the schema was read');
  const listed = new Set([...sealedColumns, ...digestColumns].map((c) => `${c.table}.${c.column}`));
  // web_sessions.token_hash is a plain SHA-256 of a random token: no key makes it, none can rotate it;
  // webauthn_challenges.token_hash is that session's.
  const unkeyed = new Set(['web_sessions.token_hash', 'webauthn_challenges.token_hash']);
  const missing = columns.map((c) => `${c.table_name}.${c.column_name}`).filter((place) => !listed.has(place) && !unkeyed.has(place));
  assert.deepEqual(missing, []);
  // And what is listed exists.
  const present = new Set(columns.map((c) => `${c.table_name}.${c.column_name}`));
  for (const place of listed) if (place !== 'payments.prn') assert.ok(present.has(place), `${place} is listed but not in the schema`);
});
