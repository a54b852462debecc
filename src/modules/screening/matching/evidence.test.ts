import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compareCountries, compareDateOfBirth } from './evidence.ts';

describe('date of birth and country evidence', () => {
  it('supports an exact date, and a year-only listing a little', () => {
    assert.deepEqual(compareDateOfBirth('1961-03-14', ['1961-03-14']), { evidence: 'EXACT', adjustment: 0.05 });
    assert.deepEqual(compareDateOfBirth('1961-03-14', ['1961']), { evidence: 'SAME_YEAR', adjustment: 0.02 });
    assert.deepEqual(compareDateOfBirth('1961-03-14', ['1961-03']), { evidence: 'EXACT', adjustment: 0.05 });
  });

  it('weighs another day of the same year nothing, a year or two apart a little, three or more heavily', () => {
    assert.deepEqual(compareDateOfBirth('1961-07-01', ['1961-03-14']), { evidence: 'SAME_YEAR', adjustment: 0 });
    assert.equal(compareDateOfBirth('1962-01-10', ['1961-03-14']).evidence, 'CLOSE');
    assert.ok(compareDateOfBirth('1963-01-10', ['1961-03-14']).adjustment < compareDateOfBirth('1962-01-10', ['1961-03-14']).adjustment);
    assert.deepEqual(compareDateOfBirth('1988-01-01', ['1961-03-14']), { evidence: 'CONTRADICTS', adjustment: -0.3 });
  });

  it('takes the most favourable of several listed dates, and compares nothing when either side has none', () => {
    assert.equal(compareDateOfBirth('1970-05-05', ['1969', '1970']).evidence, 'SAME_YEAR');
    assert.equal(compareDateOfBirth(undefined, ['1961']).evidence, 'NOT_COMPARED');
    assert.equal(compareDateOfBirth('1961-03-14', []).evidence, 'NOT_COMPARED');
  });

  it('counts a shared country for and a different one slightly against', () => {
    assert.equal(compareCountries(['RU'], ['UA', 'RU']).evidence, 'MATCH');
    assert.equal(compareCountries(['AU'], ['RU']).evidence, 'MISMATCH');
    assert.equal(compareCountries([], ['RU']).evidence, 'NOT_COMPARED');
    assert.ok(Math.abs(compareCountries(['AU'], ['RU']).adjustment) < 0.05);
  });
});
