// ACN and ABN digits with OCR's look-alike letters, read back only when the check digit then validates.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isValidAbn, isValidAcn } from '../../platform/business-numbers.ts';
import { crossCheckNumbers, readDigits, withinOneEdit } from './ocr-digits.ts';
import { parseParty } from './party-parse.ts';

describe('readDigits', () => {
  it('reads digits as printed, valid or not', () => {
    assert.equal(readDigits('123 456 780', 9, isValidAcn), '123456780');
    assert.equal(readDigits('123.456.789', 9, isValidAcn), '123456789');
    assert.equal(readDigits('123 456 78', 9, isValidAcn), null);
  });

  it('reads O, I, l, S, B, Z as 0, 1, 1, 5, 8, 2 when the check digit then validates', () => {
    assert.equal(readDigits('I23 456 78O', 9, isValidAcn), '123456780');
    assert.equal(readDigits('l23 4S6 780', 9, isValidAcn), '123456780');
    assert.equal(readDigits('89 0O0 000 0l9', 11, isValidAbn), '89000000019');
    assert.equal(readDigits('1Z3 456 7B0', 9, () => true), '123456780');
  });

  it('refuses look-alikes whose reading fails the check digit, and a word after the number', () => {
    assert.equal(readDigits('123 456 78O', 9, isValidAcn), '123456780');
    assert.equal(readDigits('123 456 7B9', 9, isValidAcn), null);
    assert.equal(readDigits('12345678 o', 9, () => true), null);
    assert.equal(readDigits('89 OOO OOO Ol9', 11, () => true), null);
  });
});

describe('crossCheckNumbers', () => {
  const checks = { acn: isValidAcn, abn: isValidAbn };

  it('puts right an ACN with a digit misread, dropped or doubled from the company’s valid ABN', () => {
    for (const printed of ['123456789', '12345678', '1234567880', '1234567800']) {
      assert.deepEqual(crossCheckNumbers({ acn: null, abn: '11123456780' }, { acn: printed, abn: '11123456780' }, checks), { acn: '123456780', abn: '11123456780' }, printed);
    }
  });

  it('puts right an ABN from a valid ACN and the ABN’s printed first digits', () => {
    assert.deepEqual(crossCheckNumbers({ acn: '123456780', abn: null }, { acn: '123456780', abn: '1112345678' }, checks), { acn: '123456780', abn: '11123456780' });
  });

  it('leaves alone numbers more than one digit apart, or with nothing to vouch for them', () => {
    assert.deepEqual(crossCheckNumbers({ acn: null, abn: '11123456780' }, { acn: '123456799', abn: '11123456780' }, checks), { acn: null, abn: '11123456780' });
    assert.deepEqual(crossCheckNumbers({ acn: null, abn: null }, { acn: '123456789', abn: '11123456781' }, checks), { acn: null, abn: null });
    assert.equal(withinOneEdit('123', '1234'), true);
    assert.equal(withinOneEdit('123', '132'), false);
  });
});

describe('parseParty with OCR’d numbers', () => {
  it('reads a misread ACN and ABN when they validate, and drops them when they do not', () => {
    const p = parseParty('Wattle Nominees Pty Ltd ACN l23 456 78O ABN 89 0O0 000 0l9 of 1 King St, Sydney NSW 2000')!;
    assert.deepEqual([p.businessName, p.acn, p.abn, p.address], ['Wattle Nominees Pty Ltd', '123456780', '89000000019', '1 King St, Sydney NSW 2000']);
    const wrong = parseParty('Wattle Nominees Pty Ltd ACN 123 456 7B9 of 1 King St, Sydney NSW 2000')!;
    assert.deepEqual([wrong.businessName, wrong.acn, wrong.address], ['Wattle Nominees Pty Ltd', null, '1 King St, Sydney NSW 2000']);
  });
});
