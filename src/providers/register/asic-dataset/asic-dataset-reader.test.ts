// Reading the dataset file: the sample fixtures (BOM and CRLF, LF without BOM), how names are told apart,
// and every row the reader refuses, with its line and column.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { asicFixtureDir as fixtureDir, asicHeader as header, asicRow as row } from '../../../../test/fixtures/asic/dataset-files.ts';
import { type AsicCompany, AsicDatasetError } from './asic-company.ts';
import { readAsicDataset } from './asic-dataset-reader.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'pvs-asic-reader-'));
after(() => rmSync(dir, { recursive: true, force: true }));

let files = 0;
function tsvFile(...lines: string[]): string {
  const file = path.join(dir, `company-${++files}.tsv`);
  writeFileSync(file, lines.join('\n') + '\n');
  return file;
}

async function readAll(file: string): Promise<AsicCompany[]> {
  const companies: AsicCompany[] = [];
  for await (const company of readAsicDataset(file)) companies.push(company);
  return companies;
}

async function datasetError(file: string): Promise<AsicDatasetError> {
  try {
    await readAll(file);
  } catch (error) {
    if (error instanceof AsicDatasetError) return error;
    throw error;
  }
  assert.fail('expected an AsicDatasetError');
}

const company = (c: Partial<AsicCompany> & Pick<AsicCompany, 'acn' | 'name' | 'line'>): AsicCompany => ({
  nameStated: true,
  formerNames: [],
  type: 'APTY',
  class: 'LMSH',
  subClass: 'PROP',
  status: 'REGD',
  registeredOn: null,
  deregisteredOn: null,
  abn: null,
  rows: 1,
  ...c,
});

describe('reading the ASIC company dataset', () => {
  it('reads the sample (BOM, CRLF, sorted by name): split companies come out once per run of rows', async () => {
    const file = path.join(fixtureDir, 'company-sample.tsv');
    const bytes = readFileSync(file);
    // The fixture must keep what this test is about: a checkout that normalised it would hide a bug.
    assert.deepEqual([...bytes.subarray(0, 3)], [0xef, 0xbb, 0xbf], 'the sample starts with a BOM');
    assert.ok(bytes.includes('\r\n'), 'the sample has CRLF line ends');

    const kookaburra = { type: 'APTY', class: 'LMSH', subClass: 'PROP', registeredOn: '1990-01-08', abn: '10612345678' };
    assert.deepEqual(await readAll(file), [
      company({ acn: '612345678', name: 'KOOKABURRA CREEK HOLDINGS PTY LTD', ...kookaburra, formerNames: ['A.B.C. EARLY PTY. LTD.', 'BILLABONG RIDGE PTY LTD'], line: 2, rows: 2 }),
      company({ acn: '667890128', name: 'GLASSHOUSE MOUNTAINS COFFEE PTY LTD', registeredOn: '2018-11-22', abn: '75667890128', line: 4 }),
      company({
        acn: '678901230',
        name: 'HARBOUR LIGHTS ENTERPRISES PTY LTD',
        formerNames: ['HARBOUR LIGHTS TRADING PTY LTD'],
        status: 'DRGD',
        registeredOn: '2001-05-03',
        deregisteredOn: '2025-02-19',
        abn: '82678901230',
        line: 5,
      }),
      company({ acn: '612345678', name: 'KOOKABURRA CREEK HOLDINGS PTY LTD', ...kookaburra, line: 6 }),
      company({ acn: '601234566', name: 'MERCANTILE SERVICES PTY', class: 'UNLM', registeredOn: '1979-03-14', abn: '36601234566', line: 7 }),
      company({ acn: '007123453', name: 'MURRAY RIVER PADDLE CO PTY LTD', subClass: 'PSTC', registeredOn: '1986-07-01', abn: '45007123453', line: 8 }),
      company({ acn: '689012342', name: 'NORTHERN BEACHES BOWLING CLUB LTD', type: 'RACN', class: 'LMGT', subClass: 'RACO', registeredOn: '1994-06-30', abn: '57689012342', line: 9 }),
      company({
        acn: '634567892',
        name: 'OLD "NUGGET" MINING NL',
        type: 'APUB',
        class: 'NLIA',
        subClass: 'LIST',
        status: 'DRGD',
        registeredOn: '1985-03-02',
        deregisteredOn: '2024-06-15',
        line: 10,
      }),
      company({ acn: '645678904', name: 'SOLITARY TRADING PTY LTD', nameStated: false, status: 'SOFF', registeredOn: '2015-07-01', line: 11 }),
      company({
        acn: '656789016',
        name: 'SOUTHERN CROSS LOGISTICS LIMITED',
        formerNames: ['SOUTHERN CROSS FREIGHT LIMITED'],
        type: 'APUB',
        subClass: 'ULST',
        status: 'EXAD',
        registeredOn: '2003-09-19',
        abn: '60656789016',
        line: 12,
        rows: 2,
      }),
      company({ acn: '690123454', name: 'TASMANIAN WILDLIFE RESCUE LTD', type: 'APUB', class: 'LMGT', subClass: 'ULSN', registeredOn: '2010-08-05', abn: '12690123454', line: 14 }),
      company({ acn: '623456780', name: 'WATTLE & GUM ASSOCIATES PTY LTD', subClass: 'PSTC', registeredOn: '1987-09-15', abn: '85623456780', line: 15 }),
    ]);
  });

  it('reads a file with LF and no BOM, sorted by ACN, gathering each company once', async () => {
    const companies = await readAll(path.join(fixtureDir, 'company-next.tsv'));
    assert.equal(companies.length, 11);
    assert.equal(new Set(companies.map((c) => c.acn)).size, 11);
    assert.deepEqual(
      companies.find((c) => c.acn === '612345678'),
      company({
        acn: '612345678',
        name: 'KOOKABURRA CREEK GROUP PTY LTD',
        formerNames: ['A.B.C. EARLY PTY. LTD.', 'BILLABONG RIDGE PTY LTD', 'KOOKABURRA CREEK HOLDINGS PTY LTD'],
        registeredOn: '1990-01-08',
        abn: '10612345678',
        line: 4,
        rows: 4,
      }),
    );
  });

  it('takes the facts of the current row, and an unmarked single row as current', async () => {
    const file = tsvFile(
      header,
      row({ name: 'OLD NAME PTY LTD', acn: '613579249', status: 'REGD', current: '', currentName: 'NEW NAME PTY LTD' }),
      row({ name: 'NEW NAME PTY LTD', acn: '613579249', status: 'EXAD', current: 'Y' }),
      row({ name: 'ONLY NAME PTY LTD', acn: '624680137', current: '' }),
      row({ name: 'MARKED N PTY LTD', acn: '004085616', current: 'n' }),
    );
    const [renamed, single, markedN] = await readAll(file);
    assert.deepEqual([renamed?.name, renamed?.formerNames, renamed?.status, renamed?.nameStated], ['NEW NAME PTY LTD', ['OLD NAME PTY LTD'], 'EXAD', true]);
    assert.deepEqual([single?.name, single?.formerNames, single?.nameStated], ['ONLY NAME PTY LTD', [], false]);
    assert.deepEqual([markedN?.name, markedN?.nameStated], ['MARKED N PTY LTD', false]);
  });

  it('accepts the columns in another order, and extra columns', async () => {
    const columns = header.split('\t');
    const reordered = [...columns].reverse();
    const values = row({ name: 'REORDERED PTY LTD', acn: '004085616', abn: '' }).split('\t');
    const reorderedValues = columns.map((_, i) => values[columns.length - 1 - i]);
    const file = tsvFile([...reordered, 'Something New'].join('\t'), [...reorderedValues, 'x'].join('\t'));
    const [read] = await readAll(file);
    assert.deepEqual([read?.acn, read?.name, read?.registeredOn], ['004085616', 'REORDERED PTY LTD', '2003-02-01']);
  });

  it('skips blank lines and counts them in line numbers', async () => {
    const file = tsvFile(header, '', row({ name: 'A PTY LTD', acn: '004085616' }), '', row({ name: 'B PTY LTD', acn: '624680137' }));
    assert.deepEqual(
      (await readAll(file)).map((c) => [c.line, c.name]),
      [
        [3, 'A PTY LTD'],
        [5, 'B PTY LTD'],
      ],
    );
  });

  describe('refuses, naming the line, the column and the reason', () => {
    it('a date that does not exist (fixture)', async () => {
      const error = await datasetError(path.join(fixtureDir, 'company-bad-date.tsv'));
      assert.deepEqual([error.line, error.column, error.reason], [13, 'Date of Registration', '"31/02/2018" is not a date: there is no such day']);
      assert.equal(error.message, 'line 13, column "Date of Registration": "31/02/2018" is not a date: there is no such day');
    });

    it('an ACN with a wrong check digit', async () => {
      const error = await datasetError(tsvFile(header, row({ name: 'GOOD PTY LTD', acn: '004085616' }), row({ name: 'BAD PTY LTD', acn: '004 085 617' })));
      assert.deepEqual([error.line, error.column, error.reason], [3, 'ACN', '"004 085 617" is not a valid ACN: the check digit is 7, expected 6']);
    });

    it('an ACN of more than 9 digits, and an empty one', async () => {
      const long = await datasetError(tsvFile(header, row({ name: 'LONG PTY LTD', acn: '1004085616' })));
      assert.deepEqual([long.line, long.column], [2, 'ACN']);
      const empty = await datasetError(tsvFile(header, row({ name: 'EMPTY PTY LTD', acn: '' })));
      assert.deepEqual([empty.line, empty.column, empty.reason], [2, 'ACN', 'the ACN is empty']);
    });

    it('a date in another format', async () => {
      const error = await datasetError(tsvFile(header, row({ name: 'ISO PTY LTD', acn: '004085616', deregistered: '2024-06-15', status: 'DRGD' })));
      assert.deepEqual([error.line, error.column, error.reason], [2, 'Date of Deregistration', '"2024-06-15" is not a date; expected DD/MM/YYYY']);
    });

    it('an ABN with wrong check digits', async () => {
      const error = await datasetError(tsvFile(header, row({ name: 'ABN PTY LTD', acn: '004085616', abn: '51824753557' })));
      assert.deepEqual([error.line, error.column], [2, 'ABN']);
    });

    it('an empty name, type or status', async () => {
      const name = await datasetError(tsvFile(header, row({ name: ' ', acn: '004085616' })));
      assert.deepEqual([name.line, name.column, name.reason], [2, 'Company Name', 'the company name is empty']);
      const status = await datasetError(tsvFile(header, row({ name: 'X PTY LTD', acn: '004085616', status: '' })));
      assert.deepEqual([status.column, status.reason], ['Status', 'the status is empty']);
      const type = await datasetError(tsvFile(header, row({ name: 'X PTY LTD', acn: '004085616', type: '' })));
      assert.deepEqual([type.column, type.reason], ['Type', 'the company type is empty']);
    });

    it('a current name indicator other than Y, N or empty', async () => {
      const error = await datasetError(tsvFile(header, row({ name: 'X PTY LTD', acn: '004085616', current: 'Yes' })));
      assert.deepEqual([error.line, error.column, error.reason], [2, 'Current Name Indicator', '"Yes" is not Y, N or empty']);
    });

    it('two different current names for one company', async () => {
      const error = await datasetError(tsvFile(header, row({ name: 'FIRST PTY LTD', acn: '004085616' }), row({ name: 'SECOND PTY LTD', acn: '4085616' })));
      assert.deepEqual(
        [error.line, error.column, error.reason],
        [3, 'Current Name Indicator', 'ACN 004085616 has a second current name "SECOND PTY LTD"; line 2 marks "FIRST PTY LTD" as current'],
      );
    });

    it('a row with another number of fields than the header', async () => {
      const error = await datasetError(tsvFile(header, row({ name: 'X PTY LTD', acn: '004085616' }), 'SHORT PTY LTD\t004085616\tAPTY'));
      assert.deepEqual([error.line, error.column, error.reason], [3, undefined, 'expected 15 tab-separated fields like the header, found 3']);
    });

    it('a header without a required column', async () => {
      const error = await datasetError(tsvFile(header.replace('\tABN\t', '\tABN Number\t'), row({ name: 'X PTY LTD', acn: '004085616' })));
      assert.deepEqual([error.line, error.column, error.reason], [1, 'ABN', 'required column missing from the header']);
    });

    it('a comma-separated file', async () => {
      const error = await datasetError(tsvFile(header.replaceAll('\t', ','), 'X PTY LTD,004085616'));
      assert.equal(error.line, 1);
      assert.match(error.reason, /the header has no tab in it/);
    });

    it('a name that is not UTF-8 (a Windows-1252 export), naming its column', async () => {
      const file = path.join(dir, 'latin1.tsv');
      // "CAFÉ PTY LTD" with É as the single byte 0xC9.
      writeFileSync(file, Buffer.concat([Buffer.from(`${header}\nCAF`), Buffer.from([0xc9]), Buffer.from(`${row({ name: ' PTY LTD', acn: '004085616' })}\n`)]));
      const error = await datasetError(file);
      assert.deepEqual(
        [error.line, error.column, error.reason],
        [2, 'Company Name', 'contains bytes that are not valid UTF-8 at position 4; was the file saved in another encoding? Save it as UTF-8'],
      );
    });

    it('bytes that are not UTF-8 in a column the reader leaves alone', async () => {
      const file = path.join(dir, 'latin1-unread.tsv');
      const good = row({ name: 'X PTY LTD', acn: '004085616' }).split('\t');
      const [before, after] = [good.slice(0, 9).join('\t'), good.slice(10).join('\t')];
      // `Previous State of Registration` (column 9) holds 0xC9.
      writeFileSync(file, Buffer.concat([Buffer.from(`${header}\n${before}\t`), Buffer.from([0xc9]), Buffer.from(`\t${after}\n`)]));
      const error = await datasetError(file);
      assert.deepEqual([error.line, error.column, error.reason], [2, undefined, 'the row is not valid UTF-8 text (was the file saved in another encoding?)']);
    });

    // A field is one line of a tab-separated file: no control character has a place in it.
    const unreadable: Array<[string, Partial<Parameters<typeof row>[0]>, string, string]> = [
      ['a NUL in a name', { name: 'NUL\u0000 PTY LTD' }, 'Company Name', 'contains a NUL character (U+0000) at position 4'],
      ['a control character in the current name', { name: 'OLD PTY LTD', current: 'N', currentName: 'NEW\u001b PTY LTD' }, 'Current Name', 'contains a control character (U+001B) at position 4'],
      ['a C1 control character in the status', { status: 'RE\u0085GD' }, 'Status', 'contains a control character (U+0085) at position 3'],
      ['a NUL in the ACN', { acn: '004085616\u0000' }, 'ACN', 'contains a NUL character (U+0000) at position 10'],
    ];
    for (const [what, fields, column, reason] of unreadable) {
      it(what, async () => {
        const error = await datasetError(tsvFile(header, row({ name: 'GOOD PTY LTD', acn: '000000019' }), row({ name: 'X PTY LTD', acn: '004085616', ...fields })));
        assert.deepEqual([error.line, error.column, error.reason], [3, column, reason]);
        assert.equal(error.message, `line 3, column "${column}": ${reason}`);
      });
    }

    it('a lone surrogate, written as UTF-8 (CESU-8) bytes', async () => {
      const file = path.join(dir, 'cesu.tsv');
      // U+D83D alone, as a careless encoder writes it: ED A0 BD, which is not UTF-8.
      writeFileSync(file, Buffer.concat([Buffer.from(`${header}\nSMILE `), Buffer.from([0xed, 0xa0, 0xbd]), Buffer.from(`${row({ name: ' PTY LTD', acn: '004085616' })}\n`)]));
      const error = await datasetError(file);
      assert.deepEqual([error.line, error.column], [2, 'Company Name']);
      assert.match(error.reason, /^contains bytes that are not valid UTF-8 at position 7;/);
    });

    it('a control character in the header', async () => {
      const error = await datasetError(tsvFile(header.replace('Status', 'Sta\u0007tus'), row({ name: 'X PTY LTD', acn: '004085616' })));
      assert.deepEqual([error.line, error.column, error.reason], [1, undefined, 'header column 6 contains a control character (U+0007) at position 4']);
    });

    it('a blank first line', async () => {
      const error = await datasetError(tsvFile('', header, row({ name: 'X PTY LTD', acn: '004085616' })));
      assert.deepEqual([error.line, error.reason], [1, 'the first line is empty; the file must start with its header row']);
    });

    it('an empty file', async () => {
      const file = path.join(dir, 'empty.tsv');
      writeFileSync(file, '');
      const error = await datasetError(file);
      assert.deepEqual([error.line, error.reason], [1, 'the file is empty: no header row']);
    });
  });

  it('reads a header-only file as no companies (the importer refuses it)', async () => {
    assert.deepEqual(await readAll(tsvFile(header)), []);
  });

  it('fails on a file that cannot be read, without hanging', async () => {
    await assert.rejects(readAll(path.join(dir, 'missing.tsv')), /ENOENT/);
  });
});
