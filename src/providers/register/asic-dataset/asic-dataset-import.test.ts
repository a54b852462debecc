// Importing the dataset into asic_companies on a real database (PGlite or PostgreSQL per TEST_DATABASE):
// former names merged even when a company's rows are split, a re-import replacing the data, a bad file
// changing nothing, and a generated file of 20 000 rows written in batches.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { asicFixtureDir, asicHeader, asicRow, withAcnCheckDigit, writeGeneratedDataset } from '../../../../test/fixtures/asic/dataset-files.ts';
import { backend, createTestDatabase, type TestDatabase } from '../../../../test/helpers/database.ts';
import { createManualClock } from '../../../platform/clock.ts';
import type { Database, Tx } from '../../../platform/db/database.ts';
import { AppError } from '../../../platform/errors.ts';
import type { AsicCompanyRow } from './asic-companies.repository.ts';
import { AsicDatasetError } from './asic-company.ts';
import { asicImportBatchSize, importAsicDataset } from './asic-dataset-import.ts';
import { createAsicDatasetRegister } from './asic-dataset-register.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'pvs-asic-import-'));
const opened: TestDatabase[] = [];
after(async () => {
  for (const database of opened) await database.drop();
  rmSync(dir, { recursive: true, force: true });
});

async function freshDatabase(): Promise<Database> {
  const database = await createTestDatabase();
  opened.push(database);
  return database.db;
}

const fixture = (name: string) => path.join(asicFixtureDir, name);

let files = 0;
function tsvFile(...lines: string[]): string {
  const file = path.join(dir, `company-${++files}.tsv`);
  writeFileSync(file, [asicHeader, ...lines].join('\n') + '\n');
  return file;
}

async function stored(db: Database): Promise<AsicCompanyRow[]> {
  return db.query<AsicCompanyRow>(
    `SELECT acn, name, type, class, sub_class, status, to_char(registered_on, 'YYYY-MM-DD') AS registered_on,
            to_char(deregistered_on, 'YYYY-MM-DD') AS deregistered_on, abn, former_names, imported_at
       FROM asic_companies ORDER BY acn`,
  );
}

async function storedByAcn(db: Database): Promise<Map<string, AsicCompanyRow>> {
  return new Map((await stored(db)).map((c) => [c.acn, c]));
}

/** A digest of the whole table, to tell that a failed import changed nothing. */
async function tableDigest(db: Database): Promise<{ rows: number; digest: string }> {
  const [row] = await db.query<{ rows: number; digest: string }>(
    `SELECT count(*)::integer AS rows,
            md5(coalesce(string_agg(concat_ws('|', acn, name, type, class, sub_class, status, registered_on, deregistered_on, abn, former_names::text, imported_at), E'\\n' ORDER BY acn), '')) AS digest
       FROM asic_companies`,
  );
  return row!;
}

async function importError(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  assert.fail('expected the import to fail');
}

describe('importing the ASIC company dataset', () => {
  const clock = createManualClock(new Date('2026-02-03T01:00:00.000Z'));
  let db: Database;

  it('loads the sample, merging the former names of a company whose rows are split', async () => {
    db = await freshDatabase();
    const result = await importAsicDataset(db, fixture('company-sample.tsv'), clock);
    assert.deepEqual(result, { companies: 11, rows: 14, replaced: 0, removed: 0, importedAt: clock.now() });

    const companies = await storedByAcn(db);
    assert.equal(companies.size, 11);
    assert.deepEqual(companies.get('612345678'), {
      acn: '612345678',
      name: 'KOOKABURRA CREEK HOLDINGS PTY LTD',
      type: 'APTY',
      class: 'LMSH',
      sub_class: 'PROP',
      status: 'REGD',
      registered_on: '1990-01-08',
      deregistered_on: null,
      abn: '10612345678',
      former_names: ['A.B.C. EARLY PTY. LTD.', 'BILLABONG RIDGE PTY LTD'],
      imported_at: clock.now(),
    });
    const nugget = companies.get('634567892')!;
    assert.deepEqual(
      [nugget.name, nugget.type, nugget.class, nugget.status, nugget.registered_on, nugget.deregistered_on, nugget.abn],
      ['OLD "NUGGET" MINING NL', 'APUB', 'NLIA', 'DRGD', '1985-03-02', '2024-06-15', null],
    );
    const harbour = companies.get('678901230')!;
    assert.deepEqual([harbour.name, harbour.former_names, harbour.deregistered_on], ['HARBOUR LIGHTS ENTERPRISES PTY LTD', ['HARBOUR LIGHTS TRADING PTY LTD'], '2025-02-19']);
    assert.deepEqual([companies.get('645678904')?.name, companies.get('645678904')?.status], ['SOLITARY TRADING PTY LTD', 'SOFF']);
    assert.equal(companies.get('007123453')?.name, 'MURRAY RIVER PADDLE CO PTY LTD', 'an ACN written without its leading zeros');
    assert.equal(companies.get('667890128')?.name, 'GLASSHOUSE MOUNTAINS COFFEE PTY LTD', 'an ACN written with spaces');
    assert.deepEqual(companies.get('656789016')?.former_names, ['SOUTHERN CROSS FREIGHT LIMITED']);
  });

  it('refuses a file with a bad row and leaves the previous data as it was, still served', async () => {
    const before = await tableDigest(db);
    clock.advance(7 * 86_400_000);
    const error = await importError(importAsicDataset(db, fixture('company-bad-date.tsv'), clock));
    assert.equal(error.code, 'VALIDATION_ERROR');
    assert.equal(
      error.message,
      'company-bad-date.tsv: line 13, column "Date of Registration": "31/02/2018" is not a date: there is no such day. Nothing was imported; the company dataset held before stays in force.',
    );
    assert.deepEqual(error.extensions, { line: 13, column: 'Date of Registration' });
    assert.ok(error.cause instanceof AsicDatasetError);

    assert.deepEqual(await tableDigest(db), before);
    const wattle = await createAsicDatasetRegister(db).findCompany('623456780');
    assert.ok(wattle.ok && wattle.value.name === 'WATTLE & GUM ASSOCIATES PTY LTD');
  });

  it('refuses a file with a NUL, a control character or bytes that are not UTF-8 in a name, and changes nothing', async () => {
    const before = await tableDigest(db);
    const good = asicRow({ name: 'GOOD PTY LTD', acn: '000000019' });
    const latin1 = path.join(dir, 'company-latin1.tsv');
    writeFileSync(latin1, Buffer.concat([Buffer.from(`${asicHeader}\n${good}\nCAF`), Buffer.from([0xc9]), Buffer.from(`${asicRow({ name: ' PTY LTD', acn: '004085616' })}\n`)]));
    const files: Array<[string, string]> = [
      [tsvFile(good, asicRow({ name: 'NUL\u0000 PTY LTD', acn: '004085616' })), 'line 3, column "Company Name": contains a NUL character (U+0000) at position 4'],
      [tsvFile(good, asicRow({ name: 'BELL\u0007 PTY LTD', acn: '004085616' })), 'line 3, column "Company Name": contains a control character (U+0007) at position 5'],
      [latin1, 'line 3, column "Company Name": contains bytes that are not valid UTF-8 at position 4'],
    ];
    for (const [file, message] of files) {
      const error = await importError(importAsicDataset(db, file, clock));
      assert.equal(error.code, 'VALIDATION_ERROR');
      assert.ok(error.message.startsWith(`${path.basename(file)}: ${message}`), error.message);
      assert.match(error.message, /Nothing was imported; the company dataset held before stays in force\.$/);
      assert.deepEqual(error.extensions, { line: 3, column: 'Company Name' });
    }
    assert.deepEqual(await tableDigest(db), before);
  });

  it('replaces the data with the next file: a company missing from it is gone, renames and status changes land', async () => {
    const result = await importAsicDataset(db, fixture('company-next.tsv'), clock);
    assert.deepEqual(result, { companies: 11, rows: 15, replaced: 11, removed: 1, importedAt: clock.now() });

    const companies = await storedByAcn(db);
    assert.equal(companies.has('623456780'), false, 'WATTLE & GUM is no longer in the dataset');
    const kookaburra = companies.get('612345678')!;
    assert.equal(kookaburra.name, 'KOOKABURRA CREEK GROUP PTY LTD');
    assert.deepEqual(kookaburra.former_names, ['A.B.C. EARLY PTY. LTD.', 'BILLABONG RIDGE PTY LTD', 'KOOKABURRA CREEK HOLDINGS PTY LTD']);
    const solitary = companies.get('645678904')!;
    assert.deepEqual([solitary.status, solitary.deregistered_on], ['DRGD', '2026-02-03']);
    assert.equal(companies.get('613579249')?.name, 'QUOKKA ISLAND TOURS PTY LTD');
    assert.ok([...companies.values()].every((c) => c.imported_at.getTime() === clock.now().getTime()));

    const gone = await createAsicDatasetRegister(db).findCompany('623 456 780');
    assert.deepEqual(gone, { ok: false, reason: 'NOT_FOUND', detail: 'ACN 623456780 is not in the imported ASIC company dataset.' });
  });

  it('replaces the data even when the clock has not moved since the last import', async () => {
    const result = await importAsicDataset(db, tsvFile(asicRow({ name: 'LAST ONE STANDING PTY LTD', acn: '004085616' })), clock);
    assert.deepEqual([result.companies, result.replaced, result.removed], [1, 11, 11]);
    assert.ok(result.importedAt > clock.now());
    assert.deepEqual(
      (await stored(db)).map((c) => c.name),
      ['LAST ONE STANDING PTY LTD'],
    );
  });

  it('refuses a file with no companies, which would remove every company', async () => {
    const before = await tableDigest(db);
    const error = await importError(importAsicDataset(db, tsvFile(), clock));
    assert.deepEqual(error.extensions, { line: 1 });
    assert.match(error.message, /the file holds no companies; importing it would remove every company/);
    assert.deepEqual(await tableDigest(db), before);
  });

  it('refuses a file that does not exist, or a directory', async () => {
    const missing = await importError(importAsicDataset(db, path.join(dir, 'nowhere.tsv'), clock));
    assert.match(missing.message, /^Cannot read .*nowhere\.tsv: no such file, or no permission to read it$/);
    const directory = await importError(importAsicDataset(db, dir, clock));
    assert.match(directory.message, /: not a file$/);
  });
});

describe('merging a company whose rows are split in the file', () => {
  const clock = createManualClock(new Date('2026-03-01T00:00:00.000Z'));
  const others = Array.from({ length: 3 }, (_, i) => asicRow({ name: `OTHER ${i} PTY LTD`, acn: ['111111114', '222222228', '333333332'][i]! }));

  for (const [order, rows] of [
    ['the current row last', [asicRow({ name: 'FIRST NAME PTY LTD', acn: '004085616', current: '', status: 'SOFF' }), ...others, asicRow({ name: 'NEW NAME PTY LTD', acn: '004085616', status: 'REGD' })]],
    ['the current row first', [asicRow({ name: 'NEW NAME PTY LTD', acn: '004085616', status: 'REGD' }), ...others, asicRow({ name: 'FIRST NAME PTY LTD', acn: '004085616', current: '', status: 'SOFF' })]],
  ] as const) {
    it(`takes the name and facts of the row marked current, with ${order}`, async () => {
      const db = await freshDatabase();
      const result = await importAsicDataset(db, tsvFile(...rows), clock);
      assert.deepEqual([result.companies, result.rows], [4, 5]);
      const company = (await storedByAcn(db)).get('004085616')!;
      assert.deepEqual([company.name, company.status, company.former_names], ['NEW NAME PTY LTD', 'REGD', ['FIRST NAME PTY LTD']]);
    });
  }

  it('merges parts that fall into different batches, and keeps no repeated former name', async () => {
    const db = await freshDatabase();
    const filler = Array.from({ length: asicImportBatchSize + 5 }, (_, i) => asicRow({ name: `FILLER ${i} PTY LTD`, acn: withAcnCheckDigit(String(70_000_000 + i)) }));
    const file = tsvFile(
      asicRow({ name: 'ANCIENT PTY LTD', acn: '004085616', current: '', currentName: 'MODERN PTY LTD' }),
      ...filler,
      asicRow({ name: 'ANCIENT PTY LTD', acn: '004085616', current: '', currentName: 'MODERN PTY LTD' }),
      asicRow({ name: 'MIDDLE PTY LTD', acn: '004085616', current: '', currentName: 'MODERN PTY LTD' }),
      ...others,
      asicRow({ name: 'MODERN PTY LTD', acn: '004085616' }),
    );
    const result = await importAsicDataset(db, file, clock);
    assert.equal(result.companies, asicImportBatchSize + 5 + 4);
    const company = (await storedByAcn(db)).get('004085616')!;
    assert.deepEqual([company.name, company.former_names], ['MODERN PTY LTD', ['ANCIENT PTY LTD', 'MIDDLE PTY LTD']]);
  });
});

/** The database with every upsert statement counted, and the largest batch seen. */
function countingStatements(db: Database) {
  const seen = { upserts: 0, largestBatch: 0 };
  const counted: Database = {
    ...db,
    transaction: (fn) =>
      db.transaction((tx) => {
        const countingTx: Tx = {
          ...tx,
          query: (sql, params) => {
            if (sql.trimStart().startsWith('INSERT INTO asic_companies')) {
              seen.upserts++;
              seen.largestBatch = Math.max(seen.largestBatch, (params?.[1] as unknown[]).length);
            }
            return tx.query(sql, params);
          },
        };
        return fn(countingTx);
      }),
  };
  return { db: counted, seen };
}

describe(`a generated dataset of 20 000 rows (${backend})`, () => {
  const clock = createManualClock(new Date('2026-04-01T00:00:00.000Z'));

  it('is imported in batches, all companies and former names in place', async (t) => {
    const db = await freshDatabase();
    const dataset = await writeGeneratedDataset(dir, 20_000);
    const { db: counted, seen } = countingStatements(db);

    let peakHeap = 0;
    const heapAtStart = process.memoryUsage().heapUsed;
    const sampler = setInterval(() => (peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed)), 20);
    const started = performance.now();
    const result = await importAsicDataset(counted, dataset.file, clock);
    const seconds = (performance.now() - started) / 1000;
    clearInterval(sampler);

    assert.deepEqual([result.rows, result.companies, result.replaced, result.removed], [20_000, dataset.companies, 0, 0]);
    assert.equal(seen.upserts, Math.ceil(dataset.companies / asicImportBatchSize));
    assert.equal(seen.largestBatch, asicImportBatchSize);
    const companies = await storedByAcn(db);
    assert.equal(companies.size, dataset.companies);
    const fourth = companies.get(dataset.acnOf(3))!;
    assert.deepEqual([fourth.name, fourth.former_names], ['GENERATED COMPANY 3 PTY LTD', ['FORMERLY 3 PTY LTD']]);
    assert.deepEqual([companies.get(dataset.acnOf(9))?.status, companies.get(dataset.acnOf(9))?.deregistered_on], ['DRGD', '2025-06-30']);

    t.diagnostic(
      `${backend}: ${result.rows} rows (${result.companies} companies) in ${seconds.toFixed(2)} s: ${Math.round(result.rows / seconds)} rows/s; ` +
        `${seen.upserts} upserts; heap grew at most ${Math.max(0, Math.round((peakHeap - heapAtStart) / 1024 / 1024))} MB`,
    );
  });

  it('fails on a bad last row after many batches were written, and changes nothing', async (t) => {
    const db = await freshDatabase();
    await importAsicDataset(db, fixture('company-sample.tsv'), clock);
    const before = await tableDigest(db);
    const dataset = await writeGeneratedDataset(dir, 20_000, { badLastRow: true, name: 'company-generated-bad.tsv' });
    const { db: counted, seen } = countingStatements(db);

    clock.advance(86_400_000);
    const error = await importError(importAsicDataset(counted, dataset.file, clock));
    assert.deepEqual(error.extensions, { line: 20_001, column: 'ACN' });
    assert.ok(seen.upserts >= 10, `${seen.upserts} batches were written before the bad row`);
    assert.deepEqual(await tableDigest(db), before);
    t.diagnostic(`${seen.upserts} batches rolled back`);
  });
});
