import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { allAliases, fixtureDir, fixtureFiles, loadFixtureList } from '../../../../scripts/generate-screening-fixtures.ts';
import { formatErrorOf, readEntries } from './read-test-helpers.ts';
import { readSimpleCsv } from './simple-csv.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'pvs-simple-csv-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const header = 'id,kind,name,aliases,dateOfBirth,countries,categories,source';

let files = 0;
function csvFile(...lines: string[]): string {
  const file = path.join(dir, `list-${++files}.csv`);
  writeFileSync(file, lines.join('\r\n') + '\r\n');
  return file;
}

const readAll = (file: string) => readEntries(readSimpleCsv, file);
const formatError = (file: string) => formatErrorOf(readSimpleCsv, file);

describe('reading the simple CSV list format', () => {
  it('reads the shipped fixture', async () => {
    const entries = await readAll(path.join(fixtureDir, fixtureFiles.simple));
    const expected = loadFixtureList().map((entry) => ({
      entryId: entry.id,
      kind: entry.kind,
      name: entry.name,
      aliases: allAliases(entry),
      datesOfBirth: entry.datesOfBirth,
      countries: entry.countries,
      identifiers: [],
      categories: entry.categories,
      source: entry.source,
    }));
    assert.deepEqual(entries, expected);
  });

  it('accepts columns in any order, a BOM, CRLF, lower-case countries, and tidies names and lists', async () => {
    const file = csvFile(
      '\uFEFFsource,categories,countries,dateOfBirth,aliases,name,kind,id',
      'Our list,SANCTIONS;PEP;SANCTIONS,ru;UA;RU,1961-03-14;1961,"Boris  Karlof ; boris ivanovich karlov;Boris Karlof;",  Boris Ivanovich   KARLOV ,person, x-1 ',
      'Our list,ADVERSE_MEDIA,ae,,,Northwind Trading FZE,business,x-2',
    );
    assert.deepEqual(await readAll(file), [
      {
        entryId: 'x-1',
        kind: 'person',
        name: 'Boris Ivanovich KARLOV',
        aliases: ['Boris Karlof'],
        datesOfBirth: ['1961-03-14', '1961'],
        countries: ['RU', 'UA'],
        identifiers: [],
        categories: ['SANCTIONS', 'PEP'],
        source: 'Our list',
      },
      { entryId: 'x-2', kind: 'business', name: 'Northwind Trading FZE', aliases: [], datesOfBirth: [], countries: ['AE'], identifiers: [], categories: ['ADVERSE_MEDIA'], source: 'Our list' },
    ]);
  });

  it('requires exactly its header columns', async () => {
    const missing = await formatError(csvFile('id,kind,name,aliases,dateOfBirth,countries,source'));
    assert.deepEqual([missing.row, missing.column], [1, 'categories']);
    const extra = await formatError(csvFile(`${header},identifiers`));
    assert.deepEqual([extra.row, extra.column], [1, 'identifiers']);
    const twice = await formatError(csvFile(`${header},name`));
    assert.deepEqual([twice.row, twice.column], [1, 'name']);
    const empty = await formatError(csvFile(''));
    assert.equal(empty.row, 1);
  });

  // Each bad row comes after a good one, so the line reported is not just "the first data row".
  const good = 'ok-1,person,Ossian VEY,,1960,SE,PEP,Our list';
  const cases: Array<[string, string, string | undefined, RegExp]> = [
    ['an unknown category', 'x,person,Pelle ARNKVIST,,,,SANCTION,Our list', 'categories', /"SANCTION" is not a category/],
    ['no category', 'x,person,Pelle ARNKVIST,,,,,Our list', 'categories', /no category/],
    ['a lower-case category', 'x,person,Pelle ARNKVIST,,,,pep,Our list', 'categories', /"pep" is not a category/],
    ['an unknown kind', 'x,individual,Pelle ARNKVIST,,,,PEP,Our list', 'kind', /expected person or business/],
    ['an invalid country', 'x,person,Pelle ARNKVIST,,,Sweden,PEP,Our list', 'countries', /"Sweden" is not an ISO 3166-1 alpha-2/],
    ['a made-up country code', 'x,person,Pelle ARNKVIST,,,EU,PEP,Our list', 'countries', /"EU"/],
    ['an impossible date', 'x,person,Pelle ARNKVIST,,1961-02-29,,PEP,Our list', 'dateOfBirth', /"1961-02-29" is not a date/],
    ['a date in another form', 'x,person,Pelle ARNKVIST,,14/03/1961,,PEP,Our list', 'dateOfBirth', /expected YYYY, YYYY-MM or YYYY-MM-DD/],
    ['a business with a date of birth', 'x,business,Harrow Vale Ltd,,1999,,PEP,Our list', 'dateOfBirth', /a business has no date of birth/],
    ['an empty name', 'x,person, ,,,,PEP,Our list', 'name', /the name is empty/],
    ['an empty id', ',person,Pelle ARNKVIST,,,,PEP,Our list', 'id', /the id is empty/],
    ['an empty source', 'x,person,Pelle ARNKVIST,,,,PEP,', 'source', /the source is empty/],
    ['a duplicate id', 'ok-1,person,Pelle ARNKVIST,,,,PEP,Our list', 'id', /duplicate id "ok-1" \(first at row 2\)/],
    ['a ragged row', 'x,person,Pelle ARNKVIST,,,,PEP', undefined, /expected 8 fields like the header, found 7/],
  ];
  for (const [what, line, column, reason] of cases) {
    it(`rejects ${what} with its line and column`, async () => {
      const error = await formatError(csvFile(header, good, line));
      assert.equal(error.row, 3);
      assert.equal(error.column, column);
      assert.match(error.reason, reason);
      assert.match(error.message, /^row 3/);
    });
  }

  // Text PostgreSQL cannot store (NUL) or that would corrupt a name (control characters): refused, not cleaned.
  const unreadable: Array<[string, string, string, string]> = [
    ['a NUL in a name', 'x,person,Pelle\u0000ARNKVIST,,,,PEP,Our list', 'name', 'contains a NUL character (U+0000) at position 6'],
    ['a control character in an alias', 'x,person,Pelle ARNKVIST,P. Arn\u0001kvist,,,PEP,Our list', 'aliases', 'contains a control character (U+0001) at position 7'],
    ['a C1 control character in the source', 'x,person,Pelle ARNKVIST,,,,PEP,Our\u0085list', 'source', 'contains a control character (U+0085) at position 4'],
    ['an escape in the id', '\u001b[2Jx,person,Pelle ARNKVIST,,,,PEP,Our list', 'id', 'contains a control character (U+001B) at position 1'],
  ];
  for (const [what, line, column, reason] of unreadable) {
    it(`rejects ${what} with its line and column`, async () => {
      const error = await formatError(csvFile(header, good, line));
      assert.equal(error.message, `row 3, column "${column}": ${reason}`);
    });
  }

  it('rejects bytes that are not UTF-8 (a Windows-1252 export, a lone surrogate as CESU-8), naming the row and column', async () => {
    const latin1 = path.join(dir, 'latin1.csv');
    // "Pelle ÅRNKVIST" with Å as the single byte 0xC5.
    writeFileSync(latin1, Buffer.concat([Buffer.from(`${header}\n${good}\nx,person,Pelle `), Buffer.from([0xc5]), Buffer.from('RNKVIST,,,,PEP,Our list\n')]));
    const cesu = path.join(dir, 'cesu.csv');
    // U+D83D alone, as a careless encoder writes it (ED A0 BD): not UTF-8.
    writeFileSync(cesu, Buffer.concat([Buffer.from(`${header}\n${good}\nx,person,Pelle ARNKVIST,Pelle `), Buffer.from([0xed, 0xa0, 0xbd]), Buffer.from(',,,PEP,Our list\n')]));
    for (const [file, column, at] of [[latin1, 'name', 7], [cesu, 'aliases', 7]] as const) {
      const error = await formatError(file);
      assert.deepEqual([error.row, error.column], [3, column], error.message);
      assert.equal(error.reason, `contains bytes that are not valid UTF-8 at position ${at}; was the file saved in another encoding? Save it as UTF-8`);
    }
  });

  it('finds bytes that are not UTF-8 far into a file, where a character is cut across read chunks', async () => {
    // 20 000 rows of two-byte characters (a few read chunks, which end mid-character), then a bad byte.
    const rows = Array.from({ length: 20_000 }, (_, i) => `ok-${i},person,Åsa Öberg-Ärlig ${i},,,,PEP,Our list`);
    const file = path.join(dir, 'long.csv');
    writeFileSync(file, Buffer.concat([Buffer.from(`${header}\n${rows.join('\n')}\nbad,person,Pelle `), Buffer.from([0xc5]), Buffer.from('RNKVIST,,,,PEP,Our list\n')]));
    const bytes = readFileSync(file);
    const chunkEnds = Array.from({ length: Math.floor(bytes.length / 65_536) }, (_, i) => (i + 1) * 65_536);
    assert.ok(chunkEnds.some((end) => (bytes[end]! & 0xc0) === 0x80), 'a 64 KiB read chunk ends inside a character');
    const error = await formatError(file);
    assert.deepEqual([error.row, error.column], [20_002, 'name']);
  });

  it('accepts a U+FFFD the file really holds, a quoted name across lines and a tab, which become spaces', async () => {
    const entries = await readAll(csvFile(header, 'x,person,"Pelle\t\r\nARNKVIST",P\uFFFDlle,,,PEP,Our list'));
    assert.deepEqual([entries[0]?.name, entries[0]?.aliases], ['Pelle ARNKVIST', ['P\uFFFDlle']]);
  });

  it('rejects a control character in a header column name', async () => {
    const error = await formatError(csvFile(header.replace('kind', 'ki\u0002nd'), good));
    assert.deepEqual([error.row, error.column, error.reason], [1, undefined, 'header column 2 contains a control character (U+0002) at position 3']);
  });
});
