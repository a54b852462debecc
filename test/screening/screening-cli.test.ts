// `pvs screening import | search | status` as an operator runs them: before any list, with the server
// stopped, and while it runs (on the embedded database the commands then go through the server).
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { newSite, onlyJsonObject, run, serve, type Pvs, type Site } from '../helpers/cli.ts';

const fixtures = fileURLToPath(new URL('../../fixtures/screening/', import.meta.url));

describe('pvs screening with the server stopped', () => {
  let site: Site;
  before(async () => (site = await newSite()));

  it('status and search say that no list is loaded', async () => {
    const status = await run(site, ['screening', 'status', '--json']);
    assert.equal(status.code, 0, status.stderr);
    assert.deepEqual(onlyJsonObject(status.stdout), { version: null, lists: [] });
    const search = await run(site, ['screening', 'search', '--name', 'Boris Karlov', '--json']);
    assert.equal(search.code, 0, search.stderr);
    assert.deepEqual(onlyJsonObject(search.stdout), { outcome: 'UNAVAILABLE', listVersion: null, matches: [] });
  });

  it('import --json loads a list and prints one JSON object', async () => {
    const result = await run(site, ['screening', 'import', '--format', 'csv', path.join(fixtures, 'simple-list.csv'), '--json']);
    assert.equal(result.code, 0, result.stderr);
    const imported = onlyJsonObject(result.stdout);
    assert.equal(imported.list, 'csv');
    assert.equal(imported.version, 1);
    assert.equal(imported.unchanged, false);
  });

  it('search --json prints the outcome and the matches, best first, with the source ids', async () => {
    const result = await run(site, ['screening', 'search', '--name', 'Karlov Boris', '--dob', '1961-03-14', '--country', 'ru', '--json']);
    assert.equal(result.code, 0, result.stderr);
    const output = onlyJsonObject(result.stdout) as { outcome: string; listVersion: number; matches: Array<Record<string, unknown>> };
    assert.equal(output.outcome, 'POSSIBLE_MATCH');
    assert.equal(output.listVersion, 1);
    const [best] = output.matches;
    assert.deepEqual(Object.keys(best!).sort(), ['categories', 'entryId', 'features', 'list', 'matchedName', 'name', 'score']);
    assert.equal(best!.entryId, 'pvs-fx-karlov-boris');
    assert.equal(best!.name, 'Boris Ivanovich KARLOV');
    assert.deepEqual(best!.categories, ['SANCTIONS']);
    assert.ok((best!.score as number) >= 0.8 && (best!.score as number) <= 1);
    assert.equal((best!.features as Record<string, unknown>).dateOfBirth, 'EXACT');

    const business = await run(site, ['screening', 'search', '--kind', 'business', '--name', 'Northwind Trading Pty Ltd', '--json']);
    assert.equal((onlyJsonObject(business.stdout) as { matches: Array<{ name: string }> }).matches[0]!.name, 'Northwind Trading FZE');
    const clear = await run(site, ['screening', 'search', '--name', 'Margaret Olive Thompson']);
    assert.match(clear.stdout, /^CLEAR against list version 1\n$/);
  });

  it('a malformed file exits 1 naming the row, the column and the reason, and the version stays', async () => {
    const bad = path.join(site.dir, 'bad.csv');
    writeFileSync(bad, 'id,kind,name,aliases,dateOfBirth,countries,categories,source\nx1,person,Ivan SIDOROV,,1970-01-01,Russia,SANCTIONS,test\n');
    const result = await run(site, ['screening', 'import', '--format', 'csv', bad]);
    assert.equal(result.code, 1);
    assert.match(result.stderr, /bad\.csv: row 2, column "countries"/);
    assert.match(result.stderr, /Nothing was imported; list version 1 stays in force/);
    assert.equal(onlyJsonObject((await run(site, ['screening', 'status', '--json'])).stdout).version, 1);
  });

  it('refuses a bad date of birth or format before touching anything', async () => {
    const dob = await run(site, ['screening', 'search', '--name', 'Boris Karlov', '--dob', '1961-13-01']);
    assert.equal(dob.code, 1);
    assert.match(dob.stderr, /dateOfBirth/);
    const format = await run(site, ['screening', 'import', '--format', 'xls', 'list.xls']);
    assert.notEqual(format.code, 0);
    assert.match(format.stderr, /--format.*xls.*(dfat|choices)/s);
  });
});

describe('pvs screening while the server runs', () => {
  let site: Site;
  let server: Pvs;
  before(async () => {
    site = await newSite();
    server = await serve(site);
  });
  after(async () => {
    if (server?.running) await server.terminate();
  });

  it('the sandbox starts with the fixture list loaded and the sandbox registers, and says so', async () => {
    assert.match(server.stdout, /Screening: the sandbox fixture list \(\d+ entries\) was loaded as list version 1/);
    assert.match(server.stdout, /Registers: sandbox \(the test numbers in docs\/lookups.md, and a synthetic business for any other valid number\)/);
    const status = onlyJsonObject((await run(site, ['screening', 'status', '--json'])).stdout) as { version: number; lists: Array<{ list: string }> };
    assert.deepEqual([status.version, status.lists.map((l) => l.list)], [1, ['sandbox-fixture']]);
  });

  it('search and import work beside the running server, and the new version is screened at once', async () => {
    const elSayed = onlyJsonObject((await run(site, ['screening', 'search', '--name', 'Amira Hassan El-Sayed', '--json'])).stdout) as { matches: Array<{ categories: string[] }> };
    assert.deepEqual(elSayed.matches[0]!.categories, ['PEP']);

    const imported = await run(site, ['screening', 'import', '--format', 'dfat', path.join(fixtures, 'dfat-consolidated-list.xlsx')]);
    assert.equal(imported.code, 0, imported.stderr);
    assert.match(imported.stdout, /Imported \d+ entries into list "dfat": list version 2 is now in force \(was 1\)/);

    const search = await run(site, ['screening', 'search', '--name', 'Boris Karlov']);
    assert.match(search.stdout, /^POSSIBLE_MATCH against list version 2\n/);
    assert.match(search.stdout, /Boris Ivanovich KARLOV .*SANCTIONS {2}dfat:9001/);
    assert.ok(server.running);
  });
});
