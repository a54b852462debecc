// Lookups on the live registers (REGISTERS=live): ABR ABN Lookup (a local stand-in answering JSONP as
// ABR does) and the imported ASIC company dataset; no UBO-report provider, so officers and ownership are
// reported unavailable rather than empty.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createManualClock } from '../../src/platform/clock.ts';
import { importAsicDataset } from '../../src/providers/register/asic-dataset/asic-dataset-import.ts';
import { startAbrApi, type AbrApi } from '../fixtures/abr-api.ts';
import { asicHeader, asicRow } from '../fixtures/asic/dataset-files.ts';
import { runDueJobs } from '../helpers/billing.ts';
import { createTestContext, type TestContext, type TestPartner } from '../helpers/context.ts';
import { getLookup, ownershipOf, postLookup, registryOf, settledLookup } from '../helpers/lookups.ts';

const clock = createManualClock(new Date('2026-11-21T09:00:00.000Z'));
let abr: AbrApi;
let t: TestContext;
let partner: TestPartner;

before(async () => {
  abr = await startAbrApi();
  t = await createTestContext({ clock, env: { REGISTERS: 'live', ABR_GUID: abr.guid, ABR_BASE_URL: abr.url, RATE_LIMIT_BURST: '100000' } });
  partner = await t.f.partner();
});
after(async () => {
  await t.close();
  await abr.close();
});

/** Runs the lookup job through all four attempts (5 s, 20 s, 60 s apart). */
async function throughEveryAttempt() {
  for (const wait of [0, 5_000, 20_000, 60_000]) {
    clock.advance(wait);
    await runDueJobs(t);
  }
}

describe('the live registers', () => {
  it('a company lookup needs the ASIC dataset: with none imported the company register is unavailable', async () => {
    const res = await postLookup(t, partner, { abn: '10 643 812 953' });
    const id = res.json<{ lookupRequestId: string }>().lookupRequestId;
    await throughEveryAttempt();
    const failed = await getLookup(t, partner, id);
    assert.deepEqual([failed.status, failed.failureReason], ['FAILED', 'REGISTER_UNAVAILABLE']);
  });

  it('with the dataset imported: the ASIC name and facts, the ABR record, and no ownership source', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'pvs-live-registers-'));
    const file = path.join(dir, 'COMPANY_202611.csv');
    writeFileSync(file, `${asicHeader}\n${asicRow({ name: 'HARBOURVIEW JOINERY PTY LTD', acn: '643812953', registered: '14/09/2020', abn: '10643812953' })}\n`);
    await importAsicDataset(t.services.db, file, clock);

    for (const body of [{ abn: '10643812953' }, { acn: '643 812 953' }]) {
      const lookup = await settledLookup(t, partner, body);
      assert.equal(lookup.status, 'COMPLETED', JSON.stringify(body));
      assert.deepEqual(lookup.entity, { name: 'HARBOURVIEW JOINERY PTY LTD', type: 'COMPANY' });
      assert.deepEqual(lookup.partyCounts, { beneficialOwners: 0, directors: 0, officers: 0, total: 0 });

      const registry = await registryOf(t, partner, lookup.lookupRequestId);
      assert.deepEqual(registry.abr, {
        abn: '10643812953',
        status: 'ACTIVE',
        statusFrom: '2020-09-14',
        entityName: 'HARBOURVIEW JOINERY PTY LTD',
        entityType: 'COMPANY',
        gstRegisteredFrom: '2020-10-01',
        businessNames: ['Harbourview Joinery', 'Harbourview Kitchens & Wardrobes'],
        state: 'NSW',
        postcode: '2065',
      });
      assert.deepEqual(registry.asic, {
        acn: '643812953',
        name: 'HARBOURVIEW JOINERY PTY LTD',
        type: 'APTY',
        class: 'LMSH',
        status: 'REGD',
        registeredOn: '2020-09-14',
        deregisteredOn: null,
      });
      assert.equal(registry.officersSource, 'UNAVAILABLE');
      const ownership = await ownershipOf(t, partner, lookup.lookupRequestId);
      assert.deepEqual([ownership.ownershipSource, ownership.reason, ownership.completeness], ['UNAVAILABLE', 'SOURCE_UNAVAILABLE', 'UNKNOWN']);
    }
    const asked = abr.requests.map((r) => r.path.toLowerCase());
    assert.ok(asked.includes('/json/abndetails.aspx') && asked.includes('/json/acndetails.aspx'), JSON.stringify(asked));
    assert.ok(abr.requests.every((r) => r.query.guid === abr.guid));
  });

  it('a sole trader from ABR; a number ABR does not hold is NOT_FOUND', async () => {
    const soleTrader = await settledLookup(t, partner, { abn: '29587203316' });
    assert.deepEqual(soleTrader.entity, { name: 'TANNER, ROSALIND MAE', type: 'SOLE_TRADER' });
    const missing = await settledLookup(t, partner, { abn: '51824753556' });
    assert.deepEqual([missing.status, missing.failureReason], ['FAILED', 'NOT_FOUND']);
  });

  it('an ABR outage is retried, then fails REGISTER_UNAVAILABLE; the GUID never reaches the logs', async () => {
    abr.setOutage('http500');
    try {
      const res = await postLookup(t, partner, { abn: '29587203316' });
      const id = res.json<{ lookupRequestId: string }>().lookupRequestId;
      await throughEveryAttempt();
      const failed = await getLookup(t, partner, id);
      assert.deepEqual([failed.status, failed.failureReason], ['FAILED', 'REGISTER_UNAVAILABLE']);
    } finally {
      abr.setOutage(null);
    }
    assert.ok(!t.logText().includes(abr.guid));
  });
});
