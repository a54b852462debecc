// ICAO 9303's published examples, and the OCR confusions the reading undoes without ever fixing a check digit.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { allValid, checkDigit, parseTd3, readTd3 } from './icao9303.ts';
import { compareWithEntered, findingsOf, mrzCheckOf, mrzName } from './mrz-compare.ts';

// ICAO 9303 Part 4, Appendix A: the specimen passport of Anna Maria Eriksson of Utopia.
const specimen: [string, string] = ['P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<', 'L898902C36UTO7408122F1204159ZE184226B<<<<<10'];

describe('check digits (ICAO 9303 Part 3, 4.9)', () => {
  it('computes the published examples', () => {
    assert.equal(checkDigit('520727'), 3, 'the date example');
    assert.equal(checkDigit('AB2134<<<'), 5, 'the document number example');
    assert.equal(checkDigit('L898902C3'), 6);
    assert.equal(checkDigit('740812'), 2);
    assert.equal(checkDigit('120415'), 9);
    assert.equal(checkDigit('ZE184226B<<<<<'), 1);
    assert.equal(checkDigit('L898902C36' + '7408122' + '1204159' + 'ZE184226B<<<<<1'), 0, 'the composite');
  });

  it('parses the specimen with every check digit valid', () => {
    const td3 = parseTd3(specimen);
    assert.deepEqual(
      [td3.documentCode, td3.issuingState, td3.surname, td3.givenNames, td3.documentNumber, td3.nationality, td3.dateOfBirth, td3.sex, td3.expiryDate, td3.personalNumber],
      ['P', 'UTO', 'ERIKSSON', 'ANNA MARIA', 'L898902C3', 'UTO', '740812', 'F', '120415', 'ZE184226B'],
    );
    assert.ok(allValid(td3));
  });

  it('finds each wrong check digit, and never corrects one', () => {
    const wrong = (at: number) => [specimen[0], `${specimen[1].slice(0, at)}${(Number(specimen[1][at]) + 1) % 10}${specimen[1].slice(at + 1)}`] as [string, string];
    const invalid = (at: number) => parseTd3(wrong(at)).checkDigits.filter((c) => !c.valid).map((c) => c.field);
    assert.deepEqual(invalid(9), ['documentNumber', 'composite']);
    assert.deepEqual(invalid(19), ['dateOfBirth', 'composite']);
    assert.deepEqual(invalid(27), ['expiryDate', 'composite']);
    assert.deepEqual(invalid(43), ['composite']);
  });
});

describe('reading OCR text', () => {
  it('undoes the usual confusions: fillers read as K and L, O for 0, Z for 7, a miscounted filler run', () => {
    const td3 = readTd3('PASSPORT No\nP<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<KLLLLLLLKL\nL898902C36UT07408122F12041597E184226B<<<<K<<10\n');
    assert.deepEqual(td3?.lines, specimen);
    assert.ok(td3 && allValid(td3));
  });

  it('finds no zone in text without one', () => {
    assert.equal(readTd3('PASSPORT\nSURNAME ERIKSSON\n'), undefined);
    assert.equal(readTd3(''), undefined);
  });
});

describe('comparing with what the person entered', () => {
  const entered = { firstName: 'Anna', middleName: 'Maria', lastName: 'Eriksson', dateOfBirth: '1974-08-12', document: { number: 'L898902C3', expiryDate: '2012-04-15', issuingCountry: 'SE' } };

  it('transliterates names as ICAO does', () => {
    assert.equal(mrzName('Zoë Müller-Lüdenscheidt'), 'ZOE<MULLER<LUDENSCHEIDT');
    assert.equal(mrzName('O’Connor'), 'OCONNOR');
    assert.equal(mrzName('Nguyễn'), 'NGUYEN');
  });

  it('matches every field but the issuing state (UTO is not Sweden); the check names fields, never values', () => {
    const comparisons = compareWithEntered(parseTd3(specimen), entered);
    assert.deepEqual(comparisons.map((c) => [c.field, c.result]), [
      ['documentNumber', 'MATCH'],
      ['surname', 'MATCH'],
      ['givenNames', 'MATCH'],
      ['dateOfBirth', 'MATCH'],
      ['expiryDate', 'MATCH'],
      ['issuingCountry', 'MISMATCH'],
    ]);
    const item = mrzCheckOf(findingsOf(parseTd3(specimen), { ...entered, lastName: 'Andersson', dateOfBirth: '1975-08-12' }));
    assert.deepEqual([item.result, item.code], ['REVIEW', 'MRZ_DETAILS_MISMATCH']);
    assert.match(item.message!, /surname, date of birth and issuing country differ/);
    for (const value of ['ERIKSSON', 'Andersson', '1975', '740812', 'L898902C3']) assert.ok(!item.message!.includes(value), value);
  });

  it('is INCONCLUSIVE when a check digit is wrong or nothing was read, PASS when all is right', () => {
    const wrong: [string, string] = [specimen[0], specimen[1].replace('7408122', '7408123')];
    assert.deepEqual(Object.values(mrzCheckOf(findingsOf(parseTd3(wrong), entered))).slice(2, 4), ['INCONCLUSIVE', 'MRZ_CHECK_DIGIT_INVALID']);
    assert.deepEqual(Object.values(mrzCheckOf(findingsOf(undefined, entered))).slice(2, 4), ['INCONCLUSIVE', 'MRZ_NOT_READ']);
    const utopian = { ...entered, document: { ...entered.document, issuingCountry: 'UTO' } };
    assert.equal(mrzCheckOf(findingsOf(parseTd3(specimen), utopian)).result, 'PASS');
  });
});
