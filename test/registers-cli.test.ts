// `pvs registers import-asic` as an operator runs it: with the server stopped (the command opens the
// database itself), then while it runs (on the embedded database the command then goes through the
// server's loopback admin endpoint). One site throughout, so the second import replaces the first.
import assert from 'node:assert/strict';
import { realpathSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Database } from '../src/platform/db/database.ts';
import { tryLockDataDir } from '../src/platform/db/lock-file.ts';
import { openPglite } from '../src/platform/db/pglite.ts';
import { asicFixtureDir } from './fixtures/asic/dataset-files.ts';
import { newSite, onlyJsonObject, run, serve, type Pvs, type Site } from './helpers/cli.ts';

const fixture = (name: string) => path.join(asicFixtureDir, name);

interface StoredCompany {
  acn: string;
  name: string;
  former_names: string[];
  imported_at: string;
}

/** The table as the commands left it. On PGlite only while no server holds the data directory. */
async function storedCompanies(site: Site): Promise<StoredCompany[]> {
  const sql = `SELECT acn, name, former_names, to_char(imported_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS imported_at
                 FROM asic_companies ORDER BY acn`;
  if (site.database) return site.database.db.query<StoredCompany>(sql);
  const locked = tryLockDataDir(site.dataDir);
  assert.ok(locked.ok, `the embedded database is free (held by ${locked.ok ? '' : locked.holderPid})`);
  let db: Database | undefined;
  try {
    db = await openPglite({ dataDir: path.join(site.dataDir, 'pglite') });
    return await db.query<StoredCompany>(sql);
  } finally {
    await db?.close();
    locked.lock.release();
  }
}

describe('pvs registers import-asic', () => {
  let site: Site;
  let server: Pvs | undefined;
  let first: StoredCompany[];
  before(async () => (site = await newSite()));
  after(async () => {
    if (server?.running) await server.terminate();
  });

  it('--json loads the dataset into asic_companies and prints one JSON object with the counts', async () => {
    const result = await run(site, ['registers', 'import-asic', fixture('company-sample.tsv'), '--json']);
    assert.equal(result.code, 0, result.describe());
    const imported = onlyJsonObject(result.stdout);
    assert.match(String(imported.importedAt), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    assert.deepEqual(imported, { companies: 11, rows: 14, replaced: 0, removed: 0, importedAt: imported.importedAt });

    first = await storedCompanies(site);
    assert.equal(first.length, 11);
    assert.ok(first.every((c) => c.imported_at === imported.importedAt), 'every company carries the import\'s timestamp');
    const kookaburra = first.find((c) => c.acn === '612345678');
    assert.deepEqual(kookaburra, { ...kookaburra, name: 'KOOKABURRA CREEK HOLDINGS PTY LTD', former_names: ['A.B.C. EARLY PTY. LTD.', 'BILLABONG RIDGE PTY LTD'] });
    assert.equal(first.find((c) => c.acn === '623456780')?.name, 'WATTLE & GUM ASSOCIATES PTY LTD');
  });

  it('a malformed file exits 1 naming the line and the column, and changes nothing', async () => {
    const result = await run(site, ['registers', 'import-asic', fixture('company-bad-date.tsv')]);
    assert.equal(result.code, 1, result.describe());
    assert.equal(result.stdout, '');
    assert.match(result.stderr, /^pvs: company-bad-date\.tsv: line 13, column "Date of Registration": "31\/02\/2018" is not a date/);
    assert.match(result.stderr, /Nothing was imported; the company dataset held before stays in force\.\n$/);
    assert.deepEqual(await storedCompanies(site), first);
  });

  it('a file that does not exist exits 1 naming it, resolved from the working directory', async () => {
    const result = await run(site, ['registers', 'import-asic', 'no-such-dataset.tsv']);
    assert.equal(result.code, 1, result.describe());
    const absolute = path.join(realpathSync(site.dir), 'no-such-dataset.tsv');
    assert.equal(result.stderr, `pvs: Cannot read ${absolute}: no such file, or no permission to read it\n`);
  });

  it('while the server runs, the next file replaces the dataset and removes the companies it no longer holds', async () => {
    server = await serve(site);
    const result = await run(site, ['registers', 'import-asic', fixture('company-next.tsv')]);
    assert.equal(result.code, 0, result.describe());
    assert.equal(result.stdout, 'Imported 11 companies from 15 rows, replacing the 11 held before (removed 1 no longer in the file)\n');
    assert.ok(server.running, server.describe());
    assert.deepEqual(await server.terminate(), { code: 0, signal: null }, server.describe());

    const next = await storedCompanies(site);
    assert.equal(next.length, 11);
    assert.ok(!next.some((c) => c.acn === '623456780'), 'WATTLE & GUM, gone from the file, is removed');
    assert.equal(next.find((c) => c.acn === '613579249')?.name, 'QUOKKA ISLAND TOURS PTY LTD');
    assert.equal(next.find((c) => c.acn === '612345678')?.name, 'KOOKABURRA CREEK GROUP PTY LTD');
    assert.ok(next.every((c) => c.imported_at > first[0]!.imported_at), 'every company carries the new import\'s timestamp');
  });
});
