import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import writeExcelFile, { type SheetData } from 'write-excel-file/node';
import { fixtureDir, fixtureFiles, loadFixtureList } from '../../../../scripts/generate-screening-fixtures.ts';
import { formatErrorOf, readEntries } from './read-test-helpers.ts';
import { readDfatWorkbook } from './dfat.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'pvs-dfat-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const header = ['Reference', 'Name of Individual or Entity', 'Type', 'Name Type', 'Date of Birth', 'Place of Birth', 'Citizenship', 'Address', 'Additional Information', 'Listing Information', 'Committees', 'Control Date'];
const row = (reference: string | number, name: string, type: string | null, nameType: string, dateOfBirth: SheetData[number][number] = null, citizenship: string | null = null, address: string | null = null) =>
  [reference, name, type, nameType, dateOfBirth, null, citizenship, address, null, null, null, null];

let files = 0;
async function workbook(rows: SheetData): Promise<string> {
  const file = path.join(dir, `list-${++files}.xlsx`);
  await writeExcelFile(rows).toFile(file);
  return file;
}

const readAll = (file: string) => readEntries(readDfatWorkbook, file);
const formatError = (file: string) => formatErrorOf(readDfatWorkbook, file);

describe('reading the DFAT Consolidated List workbook', () => {
  it('reads the shipped fixture into one entry per listing, aliases grouped under the numeric reference', async () => {
    const entries = await readAll(path.join(fixtureDir, fixtureFiles.dfat));
    const expected = loadFixtureList()
      .filter((entry) => entry.categories.includes('SANCTIONS'))
      .map((entry) => ({
        entryId: entry.dfatReference,
        kind: entry.kind,
        name: entry.name,
        aliases: [...entry.aliases, ...entry.originalScript],
        datesOfBirth: entry.datesOfBirth,
        countries: entry.countries,
        identifiers: [],
        categories: ['SANCTIONS'],
        source: 'DFAT Consolidated List',
      }));
    assert.deepEqual(entries, expected);
    const karlov = entries.find((entry) => entry.entryId === '9001');
    assert.deepEqual(karlov?.aliases, ['Boris Karlof', 'Борис Иванович Карлов']);
  });

  it('finds columns by name in any order and case, ignoring extra columns and blank rows', async () => {
    const file = await workbook([
      ['  name of individual OR entity', 'Alias Strength', 'REFERENCE', 'type', 'NameType', 'Citizenship', 'Address', 'date of birth'],
      ['Ilse VORNHOLT', null, 12, 'Individual', 'Primary Name', 'German', null, { value: new Date('1970-05-06T00:00:00Z'), type: Date, format: 'dd/mm/yyyy' }],
      [null, null, null, null, null, null, null, null],
      ['Ilse  Vornholt-Beck ', 'Weak', '12a', null, 'aka', null, null, '1970'],
      ['ILSE VORNHOLT', 'Strong', '12b', 'Individual', 'aka', 'a) German b) Austrian', null, null],
      [null, null, null, null, null, null, null, null],
    ]);
    assert.deepEqual(await readAll(file), [
      {
        entryId: '12',
        kind: 'person',
        name: 'Ilse VORNHOLT',
        aliases: ['Ilse Vornholt-Beck'],
        datesOfBirth: ['1970-05-06', '1970'],
        countries: ['DE', 'AT'],
        identifiers: [],
        categories: ['SANCTIONS'],
        source: 'DFAT Consolidated List',
      },
    ]);
  });

  it('takes an entity country from its address and leaves vessels out', async () => {
    const file = await workbook([
      header,
      row(20, 'Ostrava Bay Freight Ltd', 'Entity', 'Primary Name', null, null, 'Port Road, Limassol, Cyprus'),
      row(21, 'MV Quiet Heron', 'Vessel', 'Primary Name'),
    ]);
    const entries = await readAll(file);
    assert.deepEqual(entries.map((entry) => [entry.entryId, entry.kind, entry.countries, entry.datesOfBirth]), [['20', 'business', ['CY'], []]]);
  });

  it('rejects a file that is not an .xlsx workbook on row 0', async () => {
    const text = path.join(dir, 'not-a-workbook.xlsx');
    writeFileSync(text, 'Reference,Name\n1,Someone\n');
    const legacy = path.join(dir, 'legacy.xls');
    writeFileSync(legacy, Buffer.from('d0cf11e0a1b11ae1000000000000000000', 'hex'));
    for (const file of [text, legacy]) {
      const error = await formatError(file);
      assert.equal(error.row, 0);
      assert.match(error.reason, /not an \.xlsx workbook/);
    }
    assert.match((await formatError(legacy)).reason, /legacy \.xls/);
  });

  it('names a missing required column on row 1', async () => {
    const error = await formatError(await workbook([header.filter((title) => title !== 'Name Type'), ['1', 'Someone', 'Individual', null]]));
    assert.equal(error.row, 1);
    assert.equal(error.column, 'Name Type');
  });

  it('rejects a listing with no Primary Name row, naming its first row', async () => {
    const error = await formatError(await workbook([header, row(30, 'Pelle ARNKVIST', 'Individual', 'Primary Name'), row('31a', 'Ossian Vey', 'Individual', 'aka'), row('31b', 'Ossian Veigh', 'Individual', 'aka')]));
    assert.deepEqual([error.row, error.column], [3, 'Name Type']);
    assert.match(error.reason, /reference 31 has no Primary Name/);
  });

  it('rejects a second Primary Name for one reference as a duplicate', async () => {
    const error = await formatError(await workbook([header, row(40, 'Ossian VEY', 'Individual', 'Primary Name'), row('40', 'Someone ELSE', 'Individual', 'Primary Name')]));
    assert.deepEqual([error.row, error.column], [3, 'Reference']);
    assert.match(error.reason, /duplicate reference 40.*first is row 2/);
  });

  it('rejects a listing whose rows disagree on its type, and an unknown type', async () => {
    const mixed = await formatError(await workbook([header, row(50, 'Harrow Vale Ltd', 'Entity', 'Primary Name'), row('50a', 'Harrow Vale', 'Individual', 'aka')]));
    assert.deepEqual([mixed.row, mixed.column], [3, 'Type']);
    const unknown = await formatError(await workbook([header, row(51, 'Someone', 'Person', 'Primary Name')]));
    assert.deepEqual([unknown.row, unknown.column], [2, 'Type']);
    assert.match(unknown.reason, /unknown type "Person"/);
  });

  it('reports an unreadable date of birth with its row, column and text', async () => {
    const error = await formatError(await workbook([header, row(60, 'Ossian VEY', 'Individual', 'Primary Name', '1960'), row(60, 'Ossian Veigh', 'Individual', 'aka', 'mid sixties')]));
    assert.deepEqual([error.row, error.column], [3, 'Date of Birth']);
    assert.match(error.reason, /"mid sixties"/);
  });

  // A workbook holds characters XML cannot as `_xHHHH_` (as Excel writes them); the reader decodes them.
  it('rejects a NUL, a control character or a lone surrogate in a cell it reads, with the row and column', async () => {
    const cases: Array<[SheetData[number], string, string]> = [
      [row(80, 'Ossian_x0000_VEY', 'Individual', 'Primary Name'), 'Name of Individual or Entity', 'contains a NUL character (U+0000) at position 7'],
      [row(80, 'Ossian VEY', 'Individual', 'Primary Name', null, 'Swed_x001B_ish'), 'Citizenship', 'contains a control character (U+001B) at position 5'],
      [row('80_x0085_', 'Ossian VEY', 'Individual', 'Primary Name'), 'Reference', 'contains a control character (U+0085) at position 3'],
      [row(80, 'Ossian VEY', 'Individual', 'Primary Name', null, null, 'Main St_xD800_, Stockholm'), 'Address', 'contains an unpaired UTF-16 surrogate (U+D800) at position 8; send well-formed Unicode'],
    ];
    for (const [bad, column, reason] of cases) {
      const error = await formatError(await workbook([header, row(79, 'Pelle ARNKVIST', 'Individual', 'Primary Name'), bad]));
      assert.equal(error.message, `row 3, column "${column}": ${reason}`);
    }
  });

  it('takes a line break or a tab in a cell as a space, and ignores the columns it does not read', async () => {
    const cells = row(81, 'Ossian_x000D__x000A_VEY', 'Individual', 'Primary Name', null, 'Swedish\t');
    cells[9] = 'Listed_x0001_ 2022'; // Listing Information
    const entries = await readAll(await workbook([header, cells]));
    assert.deepEqual(entries.map((entry) => [entry.name, entry.countries]), [['Ossian VEY', ['SE']]]);
  });

  it('rejects an empty name, name type or reference', async () => {
    const noName = await formatError(await workbook([header, row(70, ' ', 'Individual', 'Primary Name')]));
    assert.deepEqual([noName.row, noName.column], [2, 'Name of Individual or Entity']);
    const noNameType = await formatError(await workbook([header, row(71, 'Ossian VEY', 'Individual', '')]));
    assert.deepEqual([noNameType.row, noNameType.column], [2, 'Name Type']);
    const noReference = await formatError(await workbook([header, row('', 'Ossian VEY', 'Individual', 'Primary Name')]));
    assert.deepEqual([noReference.row, noReference.column], [2, 'Reference']);
  });
});
