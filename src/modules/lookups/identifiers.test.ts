import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { abnProblem, acnProblem, isValidAbn, isValidAcn } from './identifiers.ts';

// Every identifier of CONTRACT §13, whose check digits are valid by definition.
const sandboxAbns = ['32111111114', '54222222228', '21444444446', '55555555550', '77666666664', '10777777778', '44888888882', '66999999996', '53900000001', '34900000002', '15900000003', '85900000004', '66900000005'];
const sandboxAcns = ['111111114', '222222228', '333333332', '444444446', '555555550', '666666664', '777777778', '888888882', '999999996'];

describe('ABN and ACN check digits', () => {
  it('accepts every sandbox identifier and the ATO and ASIC examples', () => {
    for (const abn of [...sandboxAbns, '51824753556']) assert.ok(isValidAbn(abn), abn);
    for (const acn of [...sandboxAcns, '004085616', '000000019']) assert.ok(isValidAcn(acn), acn);
  });

  it('refuses a changed digit', () => {
    assert.equal(isValidAbn('51824753557'), false);
    assert.equal(isValidAcn('004085617'), false);
  });

  it('says what is wrong, tolerating spaces only', () => {
    assert.equal(abnProblem('51 824 753 556'), undefined);
    assert.equal(abnProblem('51-824-753-556'), 'must be digits (spaces allowed)');
    assert.equal(abnProblem('5182475355'), 'must be 11 digits, got 10');
    assert.match(abnProblem('51824753557')!, /check digits/);
    assert.equal(acnProblem('004 085 616'), undefined);
    assert.match(acnProblem('004085617')!, /check digit/);
    assert.equal(acnProblem('12345678'), 'must be 9 digits, got 8');
  });
});
