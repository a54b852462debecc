import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readPrn } from './prn.ts';

describe('PRN', () => {
  it('takes 12 to 18 digits, with the spaces of a printed notice removed', () => {
    assert.deepEqual(readPrn('551234567890'), { ok: true, prn: '551234567890' });
    assert.deepEqual(readPrn('0015 1234 5678 9127 60'), { ok: true, prn: '001512345678912760' });
  });

  it('says what is wrong in words', () => {
    assert.deepEqual(readPrn('   '), { ok: false, message: 'must hold the payment reference number' });
    assert.deepEqual(readPrn('5512-3456-7890'), { ok: false, message: 'must be digits only (spaces between groups are allowed)' });
    assert.deepEqual(readPrn('５５１２３４５６７８９０'), { ok: false, message: 'must be digits only (spaces between groups are allowed)' });
    assert.deepEqual(readPrn('12345678901'), { ok: false, message: 'must be 12 to 18 digits long; this one has 11' });
    assert.deepEqual(readPrn('1234567890123456789'), { ok: false, message: 'must be 12 to 18 digits long; this one has 19' });
    assert.deepEqual(readPrn('000000000000'), { ok: false, message: 'cannot be all zeros' });
  });
});
