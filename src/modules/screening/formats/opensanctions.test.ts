import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { allAliases, fixtureDir, fixtureFiles, loadFixtureList } from '../../../../scripts/generate-screening-fixtures.ts';
import { openSanctionsCategories, readOpenSanctionsCsv } from './opensanctions.ts';
import { formatErrorOf, readEntries } from './read-test-helpers.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'pvs-opensanctions-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const modernHeader = 'id,schema,name,aliases,birth_date,countries,addresses,identifiers,sanctions,phones,emails,program_ids,dataset,first_seen,last_seen,last_change';
const olderHeader = 'id,schema,name,aliases,birth_date,countries,addresses,identifiers,sanctions,dataset,first_seen,last_seen,last_change';

let files = 0;
function csvFile(text: string): string {
  const file = path.join(dir, `targets-${++files}.csv`);
  writeFileSync(file, text);
  return file;
}

const readAll = (file: string) => readEntries(readOpenSanctionsCsv, file);
const formatError = (file: string) => formatErrorOf(readOpenSanctionsCsv, file);

describe('reading the OpenSanctions targets.simple.csv export', () => {
  it('reads the shipped fixture with the categories each dataset implies', async () => {
    const entries = await readAll(path.join(fixtureDir, fixtureFiles.openSanctions));
    const expected = loadFixtureList().map((entry) => ({
      entryId: entry.id,
      kind: entry.kind,
      name: entry.name,
      aliases: allAliases(entry),
      datesOfBirth: entry.datesOfBirth,
      countries: entry.countries,
      identifiers: entry.identifiers ?? [],
      categories: entry.categories,
      source: entry.source,
    }));
    assert.deepEqual(entries, expected);
  });

  it('reads an older export without phones, emails and program_ids, and a BOM', async () => {
    const file = csvFile(
      `\uFEFF${olderHeader}\n` +
        'NK-abc,Person, Ilse  VORNHOLT ,Ilse Vornholt;Ilse Vornholt-Beck;ilse vornholt-beck,1970-05-06;1970;1971-02,de;at;suhh;eu;xk,,DE-ID-1;DE-ID-1,,Every Politician,2024-01-01,2024-02-01,2024-01-15\n',
    );
    assert.deepEqual(await readAll(file), [
      {
        entryId: 'NK-abc',
        kind: 'person',
        name: 'Ilse VORNHOLT',
        aliases: ['Ilse Vornholt-Beck'],
        datesOfBirth: ['1970-05-06', '1970', '1971-02'],
        countries: ['DE', 'AT', 'XK'],
        identifiers: ['DE-ID-1'],
        categories: ['PEP'],
        source: 'Every Politician',
      },
    ]);
  });

  it('keeps people and businesses and leaves vessels, aircraft and wallets out', async () => {
    const rows = ['Person', 'Organization', 'Company', 'LegalEntity', 'PublicBody', 'Vessel', 'Airplane', 'CryptoWallet', 'Address'].map(
      (schema, i) => `id-${i},${schema},Name ${i},,,,,,sanction,,,,Some List,,,`,
    );
    const entries = await readAll(csvFile([modernHeader, ...rows].join('\n')));
    assert.deepEqual(entries.map((entry) => [entry.entryId, entry.kind]), [['id-0', 'person'], ['id-1', 'business'], ['id-2', 'business'], ['id-3', 'business'], ['id-4', 'business']]);
  });

  it('reads a multi-line quoted field and reports the line a later bad row starts on', async () => {
    const file = csvFile(`${modernHeader}\nid-1,Company,"Harrow\nVale Ltd",,,,"1 Quay St,\nLimassol",,,,,,Some List,,,\nid-1,Company,Harrow Vale,,,,,,,,,,Some List,,,\n`);
    const error = await formatError(file);
    assert.deepEqual([error.row, error.column], [5, 'id']);
    assert.match(error.reason, /duplicate id "id-1" \(first at row 2\)/);
  });

  it('names a missing required column on line 1', async () => {
    const error = await formatError(csvFile('id,schema,name,aliases,birth_date,countries,sanctions,dataset\n'));
    assert.deepEqual([error.row, error.column], [1, 'identifiers']);
  });

  it('rejects a ragged row, an empty name and an unreadable date with their lines', async () => {
    const ragged = await formatError(csvFile(`${modernHeader}\nid-1,Person,Ossian Vey,,,,,,,,,,Some List,,,\nid-2,Person,Pelle Arnkvist,,,\n`));
    assert.equal(ragged.row, 3);
    assert.match(ragged.reason, /expected 16 fields.*found 6/);
    const noName = await formatError(csvFile(`${modernHeader}\nid-1,Person,  ,,,,,,,,,,Some List,,,\n`));
    assert.deepEqual([noName.row, noName.column], [2, 'name']);
    const badDate = await formatError(csvFile(`${modernHeader}\nid-1,Person,Ossian Vey,,03-14,,,,,,,,Some List,,,\n`));
    assert.deepEqual([badDate.row, badDate.column], [2, 'birth_date']);
  });

  it('reports broken quoting as a format error with its line', async () => {
    const error = await formatError(csvFile(`${modernHeader}\nid-1,Person,"Ossian Vey,,,,,,,,,,Some List,,,\n`));
    assert.equal(error.row, 2);
    assert.match(error.reason, /not readable as CSV: Quote Not Closed/);
  });

  it('rejects a NUL or a control character in a column it reads, with the line and column', async () => {
    const cases: Array<[string, string, string]> = [
      ['id-1,Person,Ossian\u0000Vey,,,,,,,,,,Some List,,,', 'name', 'contains a NUL character (U+0000) at position 7'],
      ['id-1,Person,Ossian Vey,O. Vey;Os\u0008sian,,,,,,,,,Some List,,,', 'aliases', 'contains a control character (U+0008) at position 10'],
      ['id-1,Person,Ossian Vey,,,,,,,,,,Some\u009bList,,,', 'dataset', 'contains a control character (U+009B) at position 5'],
    ];
    for (const [row, column, reason] of cases) {
      const error = await formatError(csvFile(`${modernHeader}\nid-0,Person,Pelle Arnkvist,,,,,,,,,,Some List,,,\n${row}\n`));
      assert.equal(error.message, `row 3, column "${column}": ${reason}`);
    }
  });

  it('leaves control characters alone in the columns it does not read', async () => {
    const entries = await readAll(csvFile(`${modernHeader}\nid-1,Person,Ossian Vey,,,,"1 Quay St\u0001",,,+46\u0000,,,Some List,,,\n`));
    assert.deepEqual(entries.map((entry) => entry.name), ['Ossian Vey']);
  });

  it('rejects bytes that are not UTF-8 anywhere in the file, naming the row and the column that holds them', async () => {
    const latin1 = (before: string, after: string) => {
      const file = path.join(dir, `targets-${++files}.csv`);
      writeFileSync(file, Buffer.concat([Buffer.from(`${modernHeader}\nid-0,Person,Pelle Arnkvist,,,,,,,,,,Some List,,,\n${before}`), Buffer.from([0xe9]), Buffer.from(`${after}\n`)]));
      return file;
    };
    const inName = await formatError(latin1('id-1,Person,Ren', ' Vey,,,,,,,,,,Some List,,,'));
    assert.equal(inName.message, 'row 3, column "name": contains bytes that are not valid UTF-8 at position 4; was the file saved in another encoding? Save it as UTF-8');
    // A file with bytes that are not UTF-8 was saved in another encoding: what it says elsewhere cannot be trusted either.
    const inAddress = await formatError(latin1('id-1,Person,Ossian Vey,,,,"Caf', ', Limassol",,,,,,Some List,,,'));
    assert.deepEqual([inAddress.row, inAddress.column], [3, 'addresses']);
    const inHeader = path.join(dir, 'targets-header.csv');
    const [start, end] = modernHeader.split('addresses');
    writeFileSync(inHeader, Buffer.concat([Buffer.from(`${start}addr`), Buffer.from([0xe9]), Buffer.from(`sses${end}\nid-1,Person,Ossian Vey,,,,,,,,,,Some List,,,\n`)]));
    const header = await formatError(inHeader);
    assert.deepEqual([header.row, header.column], [1, undefined]);
    assert.match(header.reason, /^header column 7 contains bytes that are not valid UTF-8 at position 5;/);
  });

  it('fails on a missing file instead of waiting, and stops reading when the consumer stops', async () => {
    await assert.rejects(readAll(path.join(dir, 'missing.csv')), { code: 'ENOENT' });
    const rows = Array.from({ length: 5000 }, (_, i) => `id-${i},Person,Name ${i},,,,,,,,,,Some List,,,`);
    for await (const entry of readOpenSanctionsCsv(csvFile([modernHeader, ...rows].join('\n')))) {
      assert.equal(entry.entryId, 'id-0');
      break;
    }
  });

  it('maps datasets and the sanctions field to categories, with ADVERSE_MEDIA as the watchlist catch-all', () => {
    assert.deepEqual(openSanctionsCategories('Autonomous Sanctions (Russia)', ['Some Registry']), ['SANCTIONS']);
    assert.deepEqual(openSanctionsCategories('', ['Australian Sanctions Consolidated List']), ['SANCTIONS']);
    assert.deepEqual(openSanctionsCategories('', ['US OFAC Specially Designated Nationals (SDN) List']), ['SANCTIONS']);
    for (const title of ['Every Politician', 'Wikidata Politically Exposed Persons', 'Ukraine PEP database', 'CIA World Leaders']) {
      assert.deepEqual(openSanctionsCategories('', [title]), ['PEP'], title);
    }
    for (const title of ['Interpol Red Notices', 'FBI Most Wanted', 'World Bank Debarred Providers', 'ASIC Investor Alert List', 'Regulatory Warnings']) {
      assert.deepEqual(openSanctionsCategories('', [title]), ['ADVERSE_MEDIA'], title);
    }
    assert.deepEqual(openSanctionsCategories('Venezuela-related', ['US OFAC Specially Designated Nationals (SDN) List', 'Every Politician']), ['SANCTIONS', 'PEP']);
    assert.deepEqual(openSanctionsCategories('', ['Company Registry of Somewhere']), ['ADVERSE_MEDIA']);
  });
});
