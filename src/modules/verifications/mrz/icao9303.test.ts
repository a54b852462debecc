import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkDigit, correctTd3, formatTd3, parseTd3, td3CheckedFields, type Td3Field } from './icao9303.ts';

// ICAO Doc 9303 Part 4, Appendix A: the TD3 specimen of Utopia's passport.
const specimen = ['P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<', 'L898902C36UTO7408122F1204159ZE184226B<<<<<10'] as const;

/** The specimen's line 2 with position `at` replaced. */
const line2With = (at: number, c: string) => specimen[1].slice(0, at) + c + specimen[1].slice(at + 1);

const invalid = (lines: readonly string[]) => {
  const td3 = parseTd3(lines);
  assert.ok(td3, 'parses');
  return td3CheckedFields.filter((f) => !td3.checkDigits[f]);
};

describe('ICAO 9303 check digits', () => {
  it('computes Part 3’s worked examples: a date and a document number with fillers', () => {
    assert.equal(checkDigit('520727'), 3);
    assert.equal(checkDigit('AB2134<<<'), 5);
  });

  it('weighs < as 0, digits as themselves and A–Z as 10–35, 7 3 1 repeating', () => {
    assert.equal(checkDigit('<'), 0);
    assert.equal(checkDigit('Z'), (35 * 7) % 10);
    assert.equal(checkDigit('000A'), (10 * 7) % 10);
    assert.equal(checkDigit('L898902C3'), 6);
    assert.throws(() => checkDigit('a'), RangeError);
  });
});

describe('parseTd3', () => {
  it('reads the Part 4 specimen: every field, every check digit holding', () => {
    const td3 = parseTd3(specimen);
    assert.deepEqual(td3, {
      fields: {
        documentCode: 'P',
        issuingState: 'UTO',
        surname: 'ERIKSSON',
        givenNames: 'ANNA MARIA',
        documentNumber: 'L898902C3',
        nationality: 'UTO',
        dateOfBirth: '740812',
        sex: 'F',
        expiryDate: '120415',
        personalNumber: 'ZE184226B',
        nameMayBeTruncated: false,
      },
      checkDigits: { documentNumber: true, dateOfBirth: true, expiryDate: true, personalNumber: true, composite: true },
      valid: true,
    });
  });

  it('finds each wrong check digit, and the composite that covers it', () => {
    const cases: Array<[number, Td3Field[]]> = [
      [9, ['documentNumber', 'composite']],
      [19, ['dateOfBirth', 'composite']],
      [27, ['expiryDate', 'composite']],
      [42, ['personalNumber', 'composite']],
      [43, ['composite']],
    ];
    for (const [at, fields] of cases) {
      const wrong = String((Number(specimen[1][at]) + 3) % 10);
      assert.deepEqual(invalid([specimen[0], line2With(at, wrong)]), fields, `check digit at ${at}`);
    }
  });

  it('finds data changed under a check digit: a birth date altered by one day', () => {
    assert.deepEqual(invalid([specimen[0], line2With(18, '3')]), ['dateOfBirth', 'composite']);
  });

  it('takes < or 0 as the check digit of an unused personal number, nothing else', () => {
    const [line1, line2] = formatTd3({ issuingState: 'UTO', surname: 'ERIKSSON', givenNames: 'ANNA', documentNumber: 'L898902C3', nationality: 'UTO', dateOfBirth: '740812', sex: 'F', expiryDate: '120415' });
    assert.equal(line2.slice(28, 43), '<<<<<<<<<<<<<<<');
    assert.deepEqual(invalid([line1, line2]), []);
    const zero = formatTd3({ issuingState: 'UTO', surname: 'E', givenNames: 'A', documentNumber: 'L898902C3', nationality: 'UTO', dateOfBirth: '740812', sex: 'F', expiryDate: '120415', emptyPersonalNumberCheck: '0' });
    assert.deepEqual(invalid(zero), []);
    assert.deepEqual(invalid([zero[0], zero[1].slice(0, 42) + '1' + zero[1].slice(43)]), ['personalNumber', 'composite']);
  });

  it('flags a full name field as possibly truncated', () => {
    const full = parseTd3(['P<UTOVANDERSTEENHOVEN<ABCDEFGHIJ<<MARIA<LOUI', specimen[1]]);
    assert.equal(full?.fields.nameMayBeTruncated, true);
    assert.equal(full?.fields.givenNames, 'MARIA LOUI');
  });

  it('refuses lines that are not two of 44 zone characters', () => {
    assert.equal(parseTd3([specimen[0]]), null);
    assert.equal(parseTd3([specimen[0], specimen[1].slice(1)]), null);
    assert.equal(parseTd3([specimen[0].toLowerCase(), specimen[1]]), null);
  });
});

describe('formatTd3', () => {
  it('writes the specimen back from its fields', () => {
    const lines = formatTd3({
      issuingState: 'UTO',
      surname: 'ERIKSSON',
      givenNames: 'ANNA<MARIA',
      documentNumber: 'L898902C3',
      nationality: 'UTO',
      dateOfBirth: '740812',
      sex: 'F',
      expiryDate: '120415',
      personalNumber: 'ZE184226B',
    });
    assert.deepEqual(lines, [...specimen]);
  });
});

describe('correctTd3 (OCR text to the zone)', () => {
  it('repairs tesseract’s reading of the specimen: fillers read as K and L, O as 0, Z as 7', () => {
    const read = correctTd3(['P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<KLLLLLLLKL', 'L898902C36UT07408122F12041597E184226B<<<<<10']);
    assert.deepEqual(read?.lines, [...specimen]);
    assert.equal(read?.valid, true);
  });

  it('finds the two lines among other text, spaces and lower case', () => {
    const read = correctTd3(['EBNN', 'PASSPORT NO 4411', 'p<uto ERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<', 'L898902C36UTO 7408122F1204159ZE184226B<<<<<10', 'WWN77']);
    assert.deepEqual(read?.lines, [...specimen]);
  });

  it('puts letters where letters go and digits where digits go', () => {
    const read = correctTd3(['P<UT0ERIKSS0N<<ANNA<MAR1A<<<<<<<<<<<<<<<<<<<', 'L898902C36UTO74O8I22F12O4I59ZE184226B<<<<<1O']);
    assert.deepEqual(read?.lines, [...specimen]);
  });

  it('recounts a run of fillers read one too many or too few', () => {
    assert.deepEqual(correctTd3([specimen[0], 'L898902C36UTO7408122F1204159ZE184226B<<<<<<10'])?.lines, [...specimen]);
    assert.deepEqual(correctTd3([specimen[0], 'L898902C36UTO7408122F1204159ZE184226B<<<<10'])?.lines, [...specimen]);
    assert.deepEqual(correctTd3(['P<UTOERIKSSON<<ANNA<MARIA<<<<<<', specimen[1]])?.lines, [...specimen]);
  });

  it('lets the check digits choose between look-alikes in the document number', () => {
    const read = correctTd3([specimen[0], 'L8989O2C36UTO7408122F1204159ZE184226B<<<<<10']);
    assert.deepEqual(read?.lines, [...specimen]);
    assert.equal(read?.guesses, 1);
  });

  it('never changes a check digit: a wrong one is still wrong after correction', () => {
    const altered = line2With(9, '7');
    const read = correctTd3([specimen[0], altered]);
    assert.equal(read?.lines[1], altered);
    assert.deepEqual(
      td3CheckedFields.filter((f) => !read?.checkDigits[f]),
      ['documentNumber', 'composite'],
    );
  });

  it('leaves a number whose own check digit holds as read, whatever else is wrong on the line', () => {
    // A page whose birth date check digit was altered, its composite recomputed: the 6 in the document
    // number must not become a G (16 and 6 weigh the same, so a swap would go unnoticed).
    const [line1, line2] = formatTd3({ issuingState: 'UTO', surname: 'ERIKSSON', givenNames: 'ANNA', documentNumber: 'L8989O6C3', nationality: 'UTO', dateOfBirth: '740812', sex: 'F', expiryDate: '120415' });
    const altered = line2.slice(0, 19) + '9' + line2.slice(20, 43);
    const line = altered + checkDigit(altered.slice(0, 10) + altered.slice(13, 20) + altered.slice(21, 43));
    const read = correctTd3([line1, line]);
    assert.equal(read?.lines[1], line);
    assert.deepEqual(
      td3CheckedFields.filter((f) => !read?.checkDigits[f]),
      ['dateOfBirth'],
    );
  });

  it('swaps nothing when a check digit itself had to be guessed from a letter', () => {
    // The document number's check digit read as G (a 6): the O in the number is then left as read.
    const read = correctTd3([specimen[0], 'L8989O2C3GUTO7408122F1204159ZE184226B<<<<<10']);
    assert.equal(read?.lines[1].slice(0, 10), 'L8989O2C36');
    assert.equal(read?.checkDigits.documentNumber, false);
  });

  it('reads a filler inside a number, or alone in a date’s pair, as the 0 it weighs the same as', () => {
    const read = correctTd3([specimen[0], 'L8989<2C36UTO74<8122F1204159ZE184226B<<<<<10']);
    assert.deepEqual(read?.lines, [...specimen]);
  });

  it('keeps a name ending in K or L before its fillers', () => {
    const [line1, line2] = formatTd3({ issuingState: 'UTO', surname: 'NOVAK', givenNames: 'PAUL', documentNumber: 'L898902C3', nationality: 'UTO', dateOfBirth: '740812', sex: 'M', expiryDate: '120415' });
    assert.equal(correctTd3(['P<UTONOVAK<<PAUL<<<<<KLLLKL<<<<<<<<', line2])?.lines[0], line1);
  });

  it('answers null for text that holds no zone', () => {
    assert.equal(correctTd3(['PASSPORT', 'Given names', 'ANNA MARIA']), null);
    assert.equal(correctTd3([]), null);
  });
});
