import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { readSheet } from 'read-excel-file/node';
import { fixtureDir, fixtureFiles, loadFixtureList, writeScreeningFixtures } from '../../../../scripts/generate-screening-fixtures.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'pvs-fixtures-'));
after(() => rmSync(dir, { recursive: true, force: true }));

describe('the shipped fixture screening list', () => {
  it('is what the generator writes from fixture-list.json now', async () => {
    await writeScreeningFixtures(dir);
    for (const file of [fixtureFiles.openSanctions, fixtureFiles.simple]) {
      assert.equal(readFileSync(path.join(fixtureDir, file), 'utf8'), readFileSync(path.join(dir, file), 'utf8'), `${file} is out of date: run node --import tsx scripts/generate-screening-fixtures.ts`);
    }
    // An .xlsx carries the time it was written, so the workbooks are compared cell by cell.
    assert.deepEqual(await readSheet(path.join(fixtureDir, fixtureFiles.dfat)), await readSheet(path.join(dir, fixtureFiles.dfat)), `${fixtureFiles.dfat} is out of date`);
  });

  it('has the entries CONTRACT §11 promises', () => {
    const entries = loadFixtureList();
    const pick = (name: string) => entries.find((entry) => entry.name === name);
    assert.deepEqual(
      (({ kind, aliases, datesOfBirth, countries, categories }) => ({ kind, aliases, datesOfBirth, countries, categories }))(pick('Boris Ivanovich KARLOV')!),
      { kind: 'person', aliases: ['Boris Karlof'], datesOfBirth: ['1961-03-14'], countries: ['RU'], categories: ['SANCTIONS'] },
    );
    assert.deepEqual(
      (({ kind, datesOfBirth, countries, categories }) => ({ kind, datesOfBirth, countries, categories }))(pick('Amira Hassan EL-SAYED')!),
      { kind: 'person', datesOfBirth: ['1975-09-02'], countries: ['AU'], categories: ['PEP'] },
    );
    assert.deepEqual(
      (({ kind, countries, categories }) => ({ kind, countries, categories }))(pick('Northwind Trading FZE')!),
      { kind: 'business', countries: ['AE'], categories: ['SANCTIONS'] },
    );
  });

  it('has unique ids and references, a programme on every sanctions entry, and no sandbox trigger surnames', () => {
    const entries = loadFixtureList();
    assert.equal(new Set(entries.map((entry) => entry.id)).size, entries.length);
    assert.equal(new Set(entries.map((entry) => entry.dfatReference)).size, entries.length);
    for (const entry of entries) {
      assert.match(entry.id, /^pvs-fx-[a-z0-9-]+$/);
      assert.match(entry.dfatReference, /^9\d{3}$/);
      assert.equal(Boolean(entry.sanctions), entry.categories.includes('SANCTIONS'), entry.id);
      // Hosted verification reads these surnames as sandbox instructions (CONTRACT §13).
      for (const name of [entry.name, ...entry.aliases]) assert.doesNotMatch(name, /\b(review|fail|fraud|unavailable)\b/i, name);
    }
  });
});
