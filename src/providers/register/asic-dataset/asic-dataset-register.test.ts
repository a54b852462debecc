// The company register served from the imported dataset: found, not found, not an ACN, nothing imported
// yet, and a database that cannot be reached.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { asicFixtureDir } from '../../../../test/fixtures/asic/dataset-files.ts';
import { createTestDatabase, type TestDatabase } from '../../../../test/helpers/database.ts';
import { createManualClock } from '../../../platform/clock.ts';
import type { Executor } from '../../../platform/db/database.ts';
import { openPostgres } from '../../../platform/db/postgres.ts';
import type { CompanyRegister } from '../register.ts';
import { importAsicDataset } from './asic-dataset-import.ts';
import { createAsicDatasetRegister } from './asic-dataset-register.ts';

let database: TestDatabase;
let register: CompanyRegister;

before(async () => {
  database = await createTestDatabase();
  register = createAsicDatasetRegister(database.db);
});
after(() => database.drop());

describe('the company register served from the ASIC dataset', () => {
  it('answers UNAVAILABLE while no dataset has been imported, rather than NOT_FOUND for every company', async () => {
    assert.deepEqual(await register.findCompany('612345678'), {
      ok: false,
      reason: 'UNAVAILABLE',
      detail: 'No ASIC company dataset has been imported yet (pvs registers import-asic FILE).',
    });
  });

  it('finds a company by its ACN, dates as YYYY-MM-DD', async () => {
    await importAsicDataset(database.db, path.join(asicFixtureDir, 'company-sample.tsv'), createManualClock());
    assert.deepEqual(await register.findCompany('612345678'), {
      ok: true,
      value: {
        acn: '612345678',
        name: 'KOOKABURRA CREEK HOLDINGS PTY LTD',
        type: 'APTY',
        class: 'LMSH',
        subClass: 'PROP',
        status: 'REGD',
        registeredOn: '1990-01-08',
        deregisteredOn: null,
        abn: '10612345678',
      },
    });
  });

  it('finds a deregistered company with both dates, and no ABN where ASIC has none', async () => {
    assert.deepEqual(await register.findCompany('634 567 892'), {
      ok: true,
      value: {
        acn: '634567892',
        name: 'OLD "NUGGET" MINING NL',
        type: 'APUB',
        class: 'NLIA',
        subClass: 'LIST',
        status: 'DRGD',
        registeredOn: '1985-03-02',
        deregisteredOn: '2024-06-15',
        abn: null,
      },
    });
  });

  it('finds a company whose ACN the file wrote without leading zeros, by its 9 digits', async () => {
    const found = await register.findCompany('007123453');
    assert.ok(found.ok);
    assert.equal(found.value.name, 'MURRAY RIVER PADDLE CO PTY LTD');
  });

  it('answers NOT_FOUND for a valid ACN the dataset does not hold', async () => {
    assert.deepEqual(await register.findCompany('624680137'), {
      ok: false,
      reason: 'NOT_FOUND',
      detail: 'ACN 624680137 is not in the imported ASIC company dataset.',
    });
  });

  it('answers NOT_FOUND for something that is not an ACN, without a query', async () => {
    for (const acn of ['612345679', '7123453', '6123456789', 'abc']) {
      const result = await register.findCompany(acn);
      assert.deepEqual(result, { ok: false, reason: 'NOT_FOUND', detail: `'${acn}' is not a valid 9-digit ACN.` });
    }
  });

  it('answers UNAVAILABLE when the database cannot be reached', async () => {
    // Nothing listens on port 1: the connection is refused, as when PostgreSQL is down.
    const unreachable = openPostgres('postgres://postgres@127.0.0.1:1/pvs');
    try {
      assert.deepEqual(await createAsicDatasetRegister(unreachable).findCompany('612345678'), {
        ok: false,
        reason: 'UNAVAILABLE',
        detail: 'The ASIC company dataset cannot be read: the database is unavailable.',
      });
    } finally {
      await unreachable.close();
    }
  });

  it('throws on a query error that is not about the connection (a bug, not an outage)', async () => {
    const broken: Executor = {
      query: () => Promise.reject(Object.assign(new Error('relation "asic_companies" does not exist'), { code: '42P01' })),
      exec: () => Promise.resolve(),
      write: () => Promise.resolve(),
    };
    await assert.rejects(createAsicDatasetRegister(broken).findCompany('612345678'), /does not exist/);
  });
});
