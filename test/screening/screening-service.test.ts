// The screening engine inside the service: list versions imported all or nothing, screening against
// the current version, every node picking up a new version, and re-screening that reports only what
// a new version added.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import writeExcelFile from 'write-excel-file/node';
import { createManualClock } from '../../src/platform/clock.ts';
import type { Database } from '../../src/platform/db/database.ts';
import { createScreeningService } from '../../src/modules/screening/screening.service.ts';
import { createServices, type Services } from '../../src/services.ts';
import { createTestContext, testConfig, type TestContext } from '../helpers/context.ts';

const fixtures = fileURLToPath(new URL('../../fixtures/screening/', import.meta.url));
const openSanctionsFixture = path.join(fixtures, 'opensanctions-targets.simple.csv');
const dfatFixture = path.join(fixtures, 'dfat-consolidated-list.xlsx');
const simpleFixture = path.join(fixtures, 'simple-list.csv');
const dir = mkdtempSync(path.join(os.tmpdir(), 'pvs-screening-'));
const header = 'id,kind,name,aliases,dateOfBirth,countries,categories,source';

function writeList(name: string, rows: string[]): string {
  const file = path.join(dir, name);
  writeFileSync(file, `${[header, ...rows].join('\n')}\n`);
  return file;
}

async function tableCounts(services: Services) {
  const [row] = await services.db.query<{ imports: number; entries: number; versions: number }>(
    `SELECT (SELECT count(*)::int FROM screening_imports) AS imports, (SELECT count(*)::int FROM screening_entries) AS entries,
            (SELECT count(*)::int FROM screening_list_versions) AS versions`,
  );
  return row!;
}

describe('the screening engine with no list', () => {
  let t: TestContext;
  before(async () => (t = await createTestContext()));
  after(() => t.close());

  it('answers UNAVAILABLE, never CLEAR', async () => {
    assert.deepEqual(await t.services.screening.screenPerson({ names: ['Boris Karlov'] }), { outcome: 'UNAVAILABLE', listVersion: null, matches: [] });
    assert.equal((await t.services.screening.status()).version, null);
  });
});

describe('importing lists', () => {
  let t: TestContext;
  before(async () => (t = await createTestContext()));
  after(() => t.close());

  it('loads the OpenSanctions fixture as version 1 and screens the CONTRACT people and business', async () => {
    const imported = await t.services.screening.importList({ format: 'opensanctions', filePath: openSanctionsFixture });
    assert.deepEqual({ ...imported, entries: imported.entries > 30 }, { list: 'opensanctions', version: 1, previousVersion: null, entries: true, unchanged: false });

    const karlov = await t.services.screening.screenPerson({ names: ['Boris Karlov'], dateOfBirth: '1961-03-14', countries: ['RU'] });
    assert.equal(karlov.outcome, 'POSSIBLE_MATCH');
    assert.equal(karlov.listVersion, 1);
    assert.equal(karlov.matches[0]!.entry.name, 'Boris Ivanovich KARLOV');
    assert.deepEqual(karlov.matches[0]!.entry.categories, ['SANCTIONS']);

    const elSayed = await t.services.screening.screenPerson({ names: ['Amira El Sayed'], dateOfBirth: '1975-09-02' });
    assert.deepEqual(elSayed.matches[0]!.entry.categories, ['PEP']);

    const northwind = await t.services.screening.screenBusiness({ name: 'NORTHWIND TRADING PTY LTD' });
    assert.equal(northwind.matches[0]!.entry.name, 'Northwind Trading FZE');

    assert.equal((await t.services.screening.screenPerson({ names: ['Margaret Olive Thompson'] })).outcome, 'CLEAR');
  });

  it('adds the DFAT workbook as a second list in version 2, keeping the first', async () => {
    const imported = await t.services.screening.importList({ format: 'dfat', filePath: dfatFixture });
    assert.equal(imported.version, 2);
    assert.equal(imported.list, 'dfat');
    const status = await t.services.screening.status();
    assert.equal(status.version, 2);
    assert.deepEqual(status.lists.map((l) => [l.list, l.format, l.fileName]), [
      ['dfat', 'dfat', 'dfat-consolidated-list.xlsx'],
      ['opensanctions', 'opensanctions', 'opensanctions-targets.simple.csv'],
    ]);
    const karlov = await t.services.screening.screenPerson({ names: ['Karlov, Boris Ivanovich'] });
    assert.deepEqual(karlov.matches.map((m) => m.entry.list).sort(), ['dfat', 'opensanctions']);
    assert.equal(karlov.listVersion, 2);
  });

  it('makes no new version for the file already in force', async () => {
    const again = await t.services.screening.importList({ format: 'dfat', filePath: dfatFixture });
    assert.equal(again.unchanged, true);
    assert.equal(again.version, 2);
    assert.equal((await t.services.screening.status()).version, 2);
  });

  it('loads the simple CSV under a list name of its own', async () => {
    const imported = await t.services.screening.importList({ format: 'csv', filePath: simpleFixture, list: 'internal' });
    assert.equal(imported.version, 3);
    assert.equal((await t.services.screening.status()).lists.length, 3);
  });

  it('refuses a bad row, naming the row, the column and the reason, and changes nothing', async () => {
    const before = await tableCounts(t.services);
    const file = writeList('bad-category.csv', [
      'x1,person,Ivan Petrovich SIDOROV,,1970-01-01,RU,SANCTIONS,test',
      'x2,person,Olga SIDOROVA,,1971-01-01,RU,SANCTIONED,test',
    ]);
    await assert.rejects(t.services.screening.importList({ format: 'csv', filePath: file, list: 'internal' }), (error: Error & { code?: string }) => {
      assert.equal(error.code, 'VALIDATION_ERROR');
      assert.match(error.message, /bad-category\.csv: row 3, column "categories"/);
      assert.match(error.message, /SANCTIONED/);
      assert.match(error.message, /Nothing was imported; list version 3 stays in force/);
      return true;
    });
    assert.deepEqual(await tableCounts(t.services), before);
    assert.equal((await t.services.screening.screenPerson({ names: ['Ivan Sidorov'] })).outcome, 'CLEAR');
  });

  it('rolls back rows already written when the bad row comes after several batches', async () => {
    const before = await tableCounts(t.services);
    const rows = Array.from({ length: 1200 }, (_, i) => `bulk-${i},person,Person Number${i} BULKOVSKY,,1960-01-01,RU,SANCTIONS,test`);
    rows.push('bulk-bad,person,Last Person,,1960-02-30,RU,SANCTIONS,test');
    const file = writeList('late-error.csv', rows);
    await assert.rejects(t.services.screening.importList({ format: 'csv', filePath: file, list: 'bulk' }), /row 1202, column "dateOfBirth"/);
    assert.deepEqual(await tableCounts(t.services), before);
  });

  it('refuses an empty list and a missing file', async () => {
    await assert.rejects(t.services.screening.importList({ format: 'csv', filePath: writeList('empty.csv', []) }), /holds no entries/);
    await assert.rejects(t.services.screening.importList({ format: 'csv', filePath: path.join(dir, 'missing.csv') }), /Cannot read .*missing\.csv/);
    await assert.rejects(t.services.screening.importList({ format: 'dfat', filePath: simpleFixture }), /not an \.xlsx workbook|xlsx/i);
    assert.equal((await t.services.screening.status()).version, 3);
  });
});

describe('a malformed file in each format', () => {
  let t: TestContext;
  before(async () => {
    t = await createTestContext();
    await t.services.screening.importList({ format: 'opensanctions', filePath: openSanctionsFixture });
  });
  after(() => t.close());

  const dfatHeader = ['Reference', 'Name of Individual or Entity', 'Type', 'Name Type', 'Date of Birth', 'Citizenship', 'Address'];
  const malformed: Array<[string, 'dfat' | 'opensanctions' | 'csv', () => Promise<string>, RegExp]> = [
    [
      'a DFAT listing with no Primary Name row',
      'dfat',
      async () => {
        const file = path.join(dir, 'no-primary.xlsx');
        await writeExcelFile([
          dfatHeader,
          [1, 'Ivan SIDOROV', 'Individual', 'Primary Name', '01/01/1970', 'Russian', null],
          [2, 'Olga Sidorova', 'Individual', 'aka', null, null, null],
        ]).toFile(file);
        return file;
      },
      /no-primary\.xlsx: row 3, column "Name Type"/,
    ],
    [
      'an OpenSanctions row with fewer fields than the header',
      'opensanctions',
      async () => {
        const file = path.join(dir, 'ragged.csv');
        writeFileSync(file, 'id,schema,name,aliases,birth_date,countries,identifiers,sanctions,dataset\nos-1,Person,Ivan Sidorov,,1970,ru,,Sanctioned,Test\nos-2,Person,Olga Sidorova\n');
        return file;
      },
      /ragged\.csv: row 3/,
    ],
    ['a simple CSV with an unknown kind', 'csv', async () => writeList('bad-kind.csv', ['k1,vessel,Sea Star,,,PA,SANCTIONS,test']), /bad-kind\.csv: row 2, column "kind"/],
    [
      'a simple CSV with a NUL in a name',
      'csv',
      async () => writeList('nul.csv', ['n1,person,Ivan SIDOROV,,,RU,SANCTIONS,test', 'n2,person,Olga\u0000SIDOROVA,,,RU,SANCTIONS,test']),
      /nul\.csv: row 3, column "name": contains a NUL character \(U\+0000\) at position 5\./,
    ],
    [
      'an OpenSanctions export with bytes that are not UTF-8',
      'opensanctions',
      async () => {
        const file = path.join(dir, 'latin1.csv');
        const head = 'id,schema,name,aliases,birth_date,countries,identifiers,sanctions,dataset\nos-1,Person,Ivan Sidorov,,1970,ru,,Sanctioned,Test\nos-2,Person,Ren';
        writeFileSync(file, Buffer.concat([Buffer.from(head), Buffer.from([0xe9]), Buffer.from(' Sidorov,,1971,ru,,Sanctioned,Test\n')]));
        return file;
      },
      /latin1\.csv: row 3, column "name": contains bytes that are not valid UTF-8 at position 4;/,
    ],
    [
      'a DFAT workbook with a control character in a name',
      'dfat',
      async () => {
        const file = path.join(dir, 'control.xlsx');
        await writeExcelFile([dfatHeader, [1, 'Ivan_x0007_SIDOROV', 'Individual', 'Primary Name', '01/01/1970', 'Russian', null]]).toFile(file);
        return file;
      },
      /control\.xlsx: row 2, column "Name of Individual or Entity": contains a control character \(U\+0007\) at position 5\./,
    ],
  ];

  for (const [what, format, write, message] of malformed) {
    it(`refuses ${what} and changes nothing`, async () => {
      const before = await tableCounts(t.services);
      await assert.rejects(t.services.screening.importList({ format, filePath: await write() }), (error: Error) => {
        assert.match(error.message, message);
        assert.match(error.message, /Nothing was imported; list version 1 stays in force/);
        return true;
      });
      assert.deepEqual(await tableCounts(t.services), before);
      assert.equal((await t.services.screening.screenPerson({ names: ['Boris Karlov'] })).listVersion, 1);
    });
  }
});

describe('a database that cannot be read', () => {
  let t: TestContext;
  let failing = false;
  before(async () => (t = await createTestContext()));
  after(() => t.close());

  // The test database, failing every query while `failing` is set, as when PostgreSQL is unreachable.
  const flaky = (db: Database): Database =>
    new Proxy(db, {
      get(target, key, receiver) {
        if (key !== 'query') return Reflect.get(target, key, receiver);
        return (...args: Parameters<Database['query']>) => (failing ? Promise.reject(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })) : target.query(...args));
      },
    });

  it('answers UNAVAILABLE on a node holding no version, and keeps screening on one that holds one', async () => {
    const clock = createManualClock(new Date());
    const screening = createScreeningService({ db: flaky(t.database.db), clock, logger: t.services.logger, threshold: 0.8, refreshSeconds: 10 });
    failing = true;
    assert.equal((await screening.screenPerson({ names: ['Boris Karlov'] })).outcome, 'UNAVAILABLE');

    failing = false;
    await t.services.screening.importList({ format: 'opensanctions', filePath: openSanctionsFixture });
    clock.advance(10_000);
    assert.equal((await screening.screenPerson({ names: ['Boris Karlov'] })).outcome, 'POSSIBLE_MATCH');

    failing = true;
    clock.advance(10_000);
    const held = await screening.screenPerson({ names: ['Boris Karlov'] });
    assert.deepEqual([held.outcome, held.listVersion], ['POSSIBLE_MATCH', 1]);
    assert.ok(t.logs.some((l) => l.msg === 'screening index refresh failed; still using the loaded version'));
  });
});

describe('the threshold', () => {
  it('comes from configuration', async () => {
    const strict = await createTestContext({ env: { SCREENING_MATCH_THRESHOLD: '0.99' } });
    try {
      await strict.services.screening.importList({ format: 'opensanctions', filePath: openSanctionsFixture });
      // A missing middle name scores below 0.99 and above the default 0.80.
      const result = await strict.services.screening.screenPerson({ names: ['Boris Karlov'] });
      assert.equal(result.outcome, 'CLEAR');
      assert.equal((await strict.services.screening.screenPerson({ names: ['Boris Ivanovich Karlov'] })).outcome, 'POSSIBLE_MATCH');
    } finally {
      await strict.close();
    }
  });
});

describe('several nodes', () => {
  let t: TestContext;
  let other: Services;
  const otherClock = createManualClock(new Date());
  before(async () => {
    t = await createTestContext();
    // A second node: its own services and in-memory index, the same database.
    other = await createServices(testConfig({ SCREENING_REFRESH_SECONDS: '10' }), { db: t.database.db, clock: otherClock, logger: t.services.logger });
  });
  after(async () => {
    await other.close();
    await t.close();
  });

  it('picks up a version imported elsewhere within the refresh interval', async () => {
    await t.services.screening.importList({ format: 'opensanctions', filePath: openSanctionsFixture });
    assert.equal((await other.screening.screenPerson({ names: ['Ivan Petrovich Sidorov'] })).listVersion, 1);

    await t.services.screening.importList({ format: 'csv', filePath: writeList('sidorov.csv', ['s1,person,Ivan Petrovich SIDOROV,,1970-01-01,RU,SANCTIONS,test']) });
    // Within the interval the other node still answers from the version it holds, and says which.
    const stale = await other.screening.screenPerson({ names: ['Ivan Petrovich Sidorov'] });
    assert.deepEqual([stale.outcome, stale.listVersion], ['CLEAR', 1]);

    otherClock.advance(10_000);
    const fresh = await other.screening.screenPerson({ names: ['Ivan Petrovich Sidorov'] });
    assert.deepEqual([fresh.outcome, fresh.listVersion], ['POSSIBLE_MATCH', 2]);
  });
});

describe('re-screening after a new version', () => {
  let t: TestContext;
  before(async () => (t = await createTestContext()));
  after(() => t.close());

  const subjects = [
    { subjectId: 'karlov', kind: 'person' as const, person: { names: ['Boris Karlov'], dateOfBirth: '1961-03-14' } },
    { subjectId: 'sidorov', kind: 'person' as const, person: { names: ['Ivan Sidorov'] } },
    { subjectId: 'olga', kind: 'person' as const, person: { names: ['Olga Markovna Lebedeva'] } },
    { subjectId: 'clear', kind: 'person' as const, person: { names: ['Margaret Olive Thompson'] } },
    { subjectId: 'northwind', kind: 'business' as const, business: { name: 'Northwind Trading' } },
  ];
  const collect = async (iterable: AsyncIterable<{ subjectId: string; matches: Array<{ entry: { entryId: string } }> }>) => {
    const out: Record<string, string[]> = {};
    for await (const r of iterable) out[r.subjectId] = r.matches.map((m) => m.entry.entryId);
    return out;
  };

  it('reports everything against the first version', async () => {
    await t.services.screening.importList({ format: 'csv', filePath: writeList('v1.csv', [
      'k1,person,Boris Ivanovich KARLOV,,1961-03-14,RU,SANCTIONS,test',
      'n1,business,Northwind Trading FZE,,,AE,SANCTIONS,test',
      'o1,person,Olga Petrovna LEBEDEVA,,1980-01-01,RU,PEP,test',
    ]), list: 'rescreen' });
    assert.deepEqual(await collect(t.services.screening.rescreenAll(subjects)), { karlov: ['k1'], northwind: ['n1'] });
  });

  it('then only entries the new version added or changed', async () => {
    await t.services.screening.importList({ format: 'csv', filePath: writeList('v2.csv', [
      'k1,person,Boris Ivanovich KARLOV,,1961-03-14,RU,SANCTIONS,test',
      'n1,business,Northwind Trading FZE,,,AE,SANCTIONS,test',
      // Changed: an alias that now matches "Olga Markovna Lebedeva"; and a new entry.
      'o1,person,Olga Petrovna LEBEDEVA,Olga Markovna LEBEDEVA,1980-01-01,RU,PEP,test',
      's1,person,Ivan SIDOROV,,,RU,SANCTIONS,test',
    ]), list: 'rescreen' });
    assert.deepEqual(await collect(t.services.screening.rescreenAll(subjects)), { sidorov: ['s1'], olga: ['o1'] });
    assert.deepEqual(await collect(t.services.screening.rescreenAll(subjects, { sinceVersion: 2 })), {});
  });
});
