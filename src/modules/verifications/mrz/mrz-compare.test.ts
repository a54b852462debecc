import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatTd3, parseTd3, type Td3Input } from './icao9303.ts';
import { judgeMrz } from './mrz-check.ts';
import { alpha2OfState, compareWithEntered, enteredOf, zoneSpellings, type ComparedField, type ComparisonResult, type EnteredDetails } from './mrz-compare.ts';
import type { MrzRead } from './mrz-reader.ts';

const specimen: Td3Input = {
  issuingState: 'UTO',
  surname: 'ERIKSSON',
  givenNames: 'ANNA<MARIA',
  documentNumber: 'L898902C3',
  nationality: 'UTO',
  dateOfBirth: '740812',
  sex: 'F',
  expiryDate: '120415',
  personalNumber: 'ZE184226B',
};

const entered: EnteredDetails = {
  firstName: 'Anna',
  middleName: 'Maria',
  lastName: 'Eriksson',
  dateOfBirth: '1974-08-12',
  document: { number: 'L898902C3', expiryDate: '2012-04-15', issuingCountry: 'SE' },
};

/** A reading of the zone these fields make, as the reader answers it. */
function readOf(fields: Partial<Td3Input>, lines?: [string, string]): MrzRead {
  const zone = lines ?? formatTd3({ ...specimen, ...fields });
  const td3 = parseTd3(zone);
  assert.ok(td3);
  return { found: true, lines: zone, ...td3 };
}

function resultsOf(read: MrzRead, details: EnteredDetails): Record<ComparedField, ComparisonResult> {
  assert.ok(read.found);
  return Object.fromEntries(compareWithEntered(read.fields, details).map((c) => [c.field, c.result])) as Record<ComparedField, ComparisonResult>;
}

// Sweden's code, so that the issuing country matches what `entered` says.
const swedish = readOf({ issuingState: 'SWE', nationality: 'SWE' });

describe('comparing the zone with what the person entered', () => {
  it('matches every field of a zone that says what was entered, with the number typed in lower case and spaced', () => {
    assert.deepEqual(resultsOf(swedish, { ...entered, document: { ...entered.document, number: 'l898 902c3' } }), {
      documentNumber: 'MATCH',
      surname: 'MATCH',
      givenNames: 'MATCH',
      dateOfBirth: 'MATCH',
      expiryDate: 'MATCH',
      issuingCountry: 'MATCH',
    });
  });

  it('transliterates names as ICAO 9303 does: diacritics, hyphens and apostrophes', () => {
    const read = readOf({ surname: 'MULLER<LUDENSCHEIDT', givenNames: 'ZOE' });
    const zoe = { ...entered, firstName: 'Zoë', middleName: undefined, lastName: 'Müller-Lüdenscheidt' };
    assert.equal(resultsOf(read, zoe).surname, 'MATCH');
    assert.equal(resultsOf(read, zoe).givenNames, 'MATCH');
    // States may write Ü as UE and Ø as OE (or Å as AA): both spellings match.
    const german = readOf({ surname: 'SCHROEDER', givenNames: 'JUERGEN' });
    assert.equal(resultsOf(german, { ...entered, firstName: 'Jürgen', middleName: undefined, lastName: 'Schröder' }).surname, 'MATCH');
    assert.equal(resultsOf(german, { ...entered, firstName: 'Jürgen', middleName: undefined, lastName: 'Schröder' }).givenNames, 'MATCH');
    for (const zone of ['OEDEGAARD', 'ODEGARD']) assert.equal(resultsOf(readOf({ surname: zone }), { ...entered, lastName: 'Ødegård' }).surname, 'MATCH', zone);
    assert.equal(resultsOf(readOf({ surname: 'OCONNOR' }), { ...entered, lastName: 'O’Connor' }).surname, 'MATCH');
    assert.equal(resultsOf(readOf({ surname: 'VAN<DER<BERG' }), { ...entered, lastName: 'van der Berg' }).surname, 'MATCH');
  });

  it('spells a name every way the zone may', () => {
    assert.deepEqual(zoneSpellings('Zoë Müller-Lüdenscheidt').sort(), ['ZOE<MUELLER<LUDENSCHEIDT', 'ZOE<MUELLER<LUEDENSCHEIDT', 'ZOE<MULLER<LUDENSCHEIDT', 'ZOE<MULLER<LUEDENSCHEIDT']);
    assert.deepEqual(zoneSpellings(" D'Arcy-Ann  Smith "), ['DARCY<ANN<SMITH']);
  });

  it('matches a truncated name in a full name field, and only then', () => {
    // 39 characters of name: the zone's name field is full, ending in a letter.
    const full = readOf({ surname: 'VANDERSTEENHOVEN<DE<GROOT', givenNames: 'ALEXANDRA<MA' });
    assert.equal(full.found && full.fields.nameMayBeTruncated, true);
    const alexandra = { ...entered, firstName: 'Alexandra', middleName: 'Marguerite', lastName: 'Vandersteenhoven de Groot' };
    assert.equal(resultsOf(full, alexandra).surname, 'MATCH');
    assert.equal(resultsOf(full, alexandra).givenNames, 'MATCH');
    assert.equal(resultsOf(full, { ...alexandra, middleName: 'Louise' }).givenNames, 'MISMATCH');
    // Room to spare: ANNA is all of the given name, not the start of Annabel.
    assert.equal(resultsOf(readOf({ givenNames: 'ANNA' }), { ...entered, firstName: 'Annabel', middleName: undefined }).givenNames, 'MISMATCH');
  });

  it('accepts given names with the middle names left out, but not different ones', () => {
    assert.equal(resultsOf(swedish, { ...entered, middleName: undefined }).givenNames, 'MATCH');
    assert.equal(resultsOf(swedish, { ...entered, middleName: 'Louise' }).givenNames, 'MISMATCH');
    assert.equal(resultsOf(swedish, { ...entered, firstName: 'Maria', middleName: undefined }).givenNames, 'MISMATCH');
    assert.equal(resultsOf(swedish, { ...entered, lastName: 'Eriksen' }).surname, 'MISMATCH');
  });

  it('compares dates as YYMMDD, and says NOT_GIVEN for an expiry nobody entered', () => {
    assert.equal(resultsOf(swedish, { ...entered, dateOfBirth: '1975-08-12' }).dateOfBirth, 'MISMATCH');
    assert.equal(resultsOf(swedish, { ...entered, dateOfBirth: '1874-08-12' }).dateOfBirth, 'MATCH', 'no century in the zone');
    assert.equal(resultsOf(swedish, { ...entered, document: { ...entered.document, expiryDate: undefined } }).expiryDate, 'NOT_GIVEN');
    assert.equal(resultsOf(swedish, { ...entered, document: { ...entered.document, expiryDate: '2012-04-16' } }).expiryDate, 'MISMATCH');
    // A birth date whose day the issuing state did not know.
    assert.equal(resultsOf(readOf({ dateOfBirth: '7408<<' }), entered).dateOfBirth, 'MATCH');
  });

  it('compares document numbers without fillers, spaces or case', () => {
    const short = readOf({ documentNumber: 'KM257217' });
    assert.equal(short.found && short.lines[1].slice(0, 9), 'KM257217<');
    assert.equal(resultsOf(short, { ...entered, document: { ...entered.document, number: 'km 257 217' } }).documentNumber, 'MATCH');
    assert.equal(resultsOf(short, { ...entered, document: { ...entered.document, number: 'KM2572170' } }).documentNumber, 'MISMATCH');
  });

  it('compares the issuing state with the alpha-2 entered, with ICAO’s own codes', () => {
    const country = (state: string, typed: string) => resultsOf(readOf({ issuingState: state }), { ...entered, document: { ...entered.document, issuingCountry: typed } }).issuingCountry;
    assert.equal(country('AUS', 'AU'), 'MATCH');
    assert.equal(country('D', 'DE'), 'MATCH');
    assert.equal(country('GBR', 'gb'), 'MATCH');
    assert.equal(country('GBD', 'GB'), 'MATCH');
    assert.equal(country('NZL', 'AU'), 'MISMATCH');
    assert.equal(country('UTO', 'SE'), 'MISMATCH');
    assert.equal(alpha2OfState('D<<'), 'DE');
    assert.equal(alpha2OfState('UTO'), null);
    assert.equal(alpha2OfState('XXA'), null);
  });
});

describe('the check item and the finding', () => {
  const personal = ['L898902C3', 'L898902C4', 'ERIKSSON', 'Eriksson', 'ANNA', 'Anna', 'MARIA', 'Maria', '740812', '1974', '1975', '120415', '2012', 'UTO', 'SWE', 'ZE184226B'];
  const noValuesIn = (message: string | undefined) => {
    assert.ok(message);
    for (const value of personal) assert.ok(!message.includes(value), `"${message}" holds ${value}`);
  };

  it('passes a zone whose check digits hold and that matches', () => {
    const { check, finding } = judgeMrz(swedish, entered);
    assert.deepEqual({ ...check, message: undefined }, { name: 'Passport machine-readable zone', checkType: 'DOCUMENT_MRZ', result: 'PASS', code: 'MRZ_VALID_AND_MATCHING', message: undefined });
    noValuesIn(check.message);
    assert.deepEqual(finding.lines, swedish.found && swedish.lines);
    assert.deepEqual(
      finding.checkDigits.map((c) => c.field),
      ['documentNumber', 'dateOfBirth', 'expiryDate', 'personalNumber', 'composite'],
    );
    assert.ok(finding.checkDigits.every((c) => c.valid));
    assert.equal(finding.comparisons.length, 6);
  });

  it('sends a zone that differs from what was entered to review, naming the fields and nothing else', () => {
    const { check } = judgeMrz(swedish, { ...entered, dateOfBirth: '1975-08-12', document: { ...entered.document, number: 'L898902C4' } });
    assert.equal(check.result, 'REVIEW');
    assert.equal(check.code, 'MRZ_DETAILS_MISMATCH');
    assert.equal(check.message, 'In the machine-readable zone, the document number and date of birth differ from what the person entered.');
    noValuesIn(check.message);
    const one = judgeMrz(swedish, { ...entered, lastName: 'Erikson' }).check;
    assert.equal(one.message, 'In the machine-readable zone, the surname differs from what the person entered.');
  });

  it('compares only what the person typed: a provider’s own reading of the document is not theirs (Onfido)', () => {
    // Onfido's evidence gives the person's details but the document as Onfido read it: a reading that
    // differs from PVS's is not the person's difference, and the zone's names and date still are compared.
    const { number, issuingCountry, expiryDate } = { number: 'PA1234567', issuingCountry: 'GB', expiryDate: '2031-06-30' };
    const { firstName, middleName, lastName, dateOfBirth } = entered;
    const read = enteredOf({ firstName, middleName, lastName, dateOfBirth, address: { line1: '1 A St', locality: 'X', country: 'SE' } }, { type: 'PASSPORT', number, issuingCountry, expiryDate }, 'READ');
    assert.deepEqual(read.document, { number: '', issuingCountry: '' });
    const { check, finding } = judgeMrz(swedish, read);
    assert.equal(check.result, 'PASS');
    assert.deepEqual(
      finding.comparisons.map((c) => `${c.field} ${c.result}`),
      ['documentNumber NOT_GIVEN', 'surname MATCH', 'givenNames MATCH', 'dateOfBirth MATCH', 'expiryDate NOT_GIVEN', 'issuingCountry NOT_GIVEN'],
    );
    const typed = enteredOf({ ...read, address: { line1: '1 A St', locality: 'X', country: 'SE' } }, { type: 'PASSPORT', number, issuingCountry, expiryDate }, 'ENTERED');
    assert.equal(judgeMrz(swedish, typed).check.code, 'MRZ_DETAILS_MISMATCH');
  });

  it('calls a wrong check digit inconclusive, naming the digit, whatever the fields say', () => {
    const zone = formatTd3({ ...specimen, issuingState: 'SWE' });
    const altered: [string, string] = [zone[0], zone[1].slice(0, 19) + '9' + zone[1].slice(20)];
    const { check, finding } = judgeMrz(readOf({}, altered), { ...entered, lastName: 'Someone' });
    assert.equal(check.result, 'INCONCLUSIVE');
    assert.equal(check.code, 'MRZ_CHECK_DIGIT_INVALID');
    assert.match(check.message ?? '', /the check digits of the date of birth and composite do not match/);
    noValuesIn(check.message);
    assert.deepEqual(
      finding.checkDigits.filter((c) => !c.valid).map((c) => c.field),
      ['dateOfBirth', 'composite'],
    );
    const composite: [string, string] = [zone[0], zone[1].slice(0, 43) + String((Number(zone[1][43]) + 1) % 10)];
    assert.match(judgeMrz(readOf({}, composite), entered).check.message ?? '', /the composite check digit does not match/);
  });

  it('calls a zone not read inconclusive, saying why, with an empty finding', () => {
    const { check, finding } = judgeMrz({ found: false, reason: 'NO_ZONE' }, entered);
    assert.deepEqual(finding, { found: false, lines: [], checkDigits: [], comparisons: [] });
    assert.deepEqual(check, {
      name: 'Passport machine-readable zone',
      checkType: 'DOCUMENT_MRZ',
      result: 'INCONCLUSIVE',
      code: 'MRZ_NOT_READ',
      message: "The passport's machine-readable zone was not read: no machine-readable zone was found on the front image.",
    });
  });
});
