import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { acnCheckDigit, isValidAbn, isValidAcn } from '../../../platform/business-numbers.ts';
import { normaliseAbn, normaliseAcn, parseAsicDate } from './asic-fields.ts';

describe('ACNs', () => {
  it("computes ASIC's check digit (its worked example 004 085 616, and the sandbox numbers)", () => {
    assert.equal(acnCheckDigit('00408561'), 6);
    for (const acn of ['004085616', '000000019', '111111114', '222222228', '999999996']) assert.ok(isValidAcn(acn), acn);
    // A remainder of 0 complements to 10, written 0.
    assert.equal(acnCheckDigit('62345678'), 0);
    assert.ok(!isValidAcn('004085617'));
    assert.ok(!isValidAcn('04085616'));
  });

  it('normalises spaces and missing leading zeros to 9 digits', () => {
    assert.deepEqual(normaliseAcn('004 085 616'), { ok: true, value: '004085616' });
    assert.deepEqual(normaliseAcn('4085616'), { ok: true, value: '004085616' });
    assert.deepEqual(normaliseAcn(' 19 '), { ok: true, value: '000000019' });
  });

  it('refuses a wrong check digit, too many digits, other characters and an empty value, saying why', () => {
    assert.deepEqual(normaliseAcn('004 085 617'), { ok: false, reason: '"004 085 617" is not a valid ACN: the check digit is 7, expected 6' });
    assert.deepEqual(normaliseAcn('1004085616'), { ok: false, reason: '"1004085616" is not an ACN: 10 digits, at most 9' });
    assert.deepEqual(normaliseAcn('004-085-616'), { ok: false, reason: '"004-085-616" is not an ACN: only digits and spaces are allowed' });
    assert.deepEqual(normaliseAcn(''), { ok: false, reason: 'the ACN is empty' });
  });
});

describe('ABNs', () => {
  it("validates the ATO's check digits (its example 51 824 753 556)", () => {
    assert.ok(isValidAbn('51824753556'));
    assert.ok(!isValidAbn('51824753557'));
    assert.deepEqual(normaliseAbn('51 824 753 556'), { ok: true, value: '51824753556' });
  });

  it("reads empty and ASIC's 0 as no ABN", () => {
    assert.deepEqual(normaliseAbn(''), { ok: true, value: null });
    assert.deepEqual(normaliseAbn('0'), { ok: true, value: null });
  });

  it('refuses a wrong length or wrong check digits', () => {
    assert.equal(normaliseAbn('5182475355').ok, false);
    assert.deepEqual(normaliseAbn('51824753557'), { ok: false, reason: '"51824753557" is not a valid ABN: the check digits do not add up' });
  });
});

describe('dates', () => {
  it('reads DD/MM/YYYY to YYYY-MM-DD, and empty to null', () => {
    assert.deepEqual(parseAsicDate('08/01/1990'), { ok: true, value: '1990-01-08' });
    assert.deepEqual(parseAsicDate('8/1/1990'), { ok: true, value: '1990-01-08' });
    assert.deepEqual(parseAsicDate('29/02/2024'), { ok: true, value: '2024-02-29' });
    assert.deepEqual(parseAsicDate(' '), { ok: true, value: null });
  });

  it('refuses other formats and days that do not exist', () => {
    assert.deepEqual(parseAsicDate('1990-01-08'), { ok: false, reason: '"1990-01-08" is not a date; expected DD/MM/YYYY' });
    assert.deepEqual(parseAsicDate('01/08/90'), { ok: false, reason: '"01/08/90" is not a date; expected DD/MM/YYYY' });
    assert.deepEqual(parseAsicDate('29/02/2023'), { ok: false, reason: '"29/02/2023" is not a date: there is no such day' });
    assert.deepEqual(parseAsicDate('08/13/1990'), { ok: false, reason: '"08/13/1990" is not a date: there is no such day' });
  });
});
