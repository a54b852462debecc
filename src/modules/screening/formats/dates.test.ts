import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatCellDate, formatCellNumber, parseIsoPartialDate, parseLooseDates } from './dates.ts';

describe('reading dates of birth as lists write them', () => {
  it('reads day-first numeric dates, month names and ISO dates to YYYY-MM-DD', () => {
    for (const text of ['14/03/1961', '14.03.1961', '14-03-1961', '14 Mar. 1961', '14 March 1961', '14th March, 1961', 'March 14, 1961', '1961-03-14', '1961-03-14 00:00:00']) {
      assert.deepEqual(parseLooseDates(text), { dates: ['1961-03-14'] }, text);
    }
  });

  it('keeps only the precision the source gives, ignoring qualifiers', () => {
    assert.deepEqual(parseLooseDates('1961').dates, ['1961']);
    assert.deepEqual(parseLooseDates('circa 1961').dates, ['1961']);
    assert.deepEqual(parseLooseDates('Approximately 1961').dates, ['1961']);
    assert.deepEqual(parseLooseDates('ca. 1961').dates, ['1961']);
    assert.deepEqual(parseLooseDates('March 1961').dates, ['1961-03']);
    assert.deepEqual(parseLooseDates('Sept 1961').dates, ['1961-09']);
    assert.deepEqual(parseLooseDates('03/1961').dates, ['1961-03']);
  });

  it('reads several dates separated by ";" or by a) b) markers, without repeats', () => {
    assert.deepEqual(parseLooseDates('a) 15/08/1967 b) 15 Aug. 1968').dates, ['1967-08-15', '1968-08-15']);
    assert.deepEqual(parseLooseDates('(a) 1961 (b) 1963').dates, ['1961', '1963']);
    assert.deepEqual(parseLooseDates('1961; 1962-04; 1961').dates, ['1961', '1962-04']);
    assert.deepEqual(parseLooseDates('between 1960 and 1962').dates, ['1960', '1962']);
    assert.deepEqual(parseLooseDates('1960-1962').dates, ['1960', '1962']);
  });

  it('falls back to the month or the year when the day or month cannot be', () => {
    assert.deepEqual(parseLooseDates('31/02/1961').dates, ['1961-02']);
    assert.deepEqual(parseLooseDates('14/13/1961').dates, ['1961']);
  });

  it('reports text with no four-digit year as unreadable, and treats empty words as no date', () => {
    assert.deepEqual(parseLooseDates('14 March'), { dates: [], unreadable: '14 March' });
    assert.deepEqual(parseLooseDates('1961; sometime'), { dates: ['1961'], unreadable: 'sometime' });
    for (const text of ['', ' ', 'unknown', 'N/A', '-']) assert.deepEqual(parseLooseDates(text), { dates: [] }, text);
  });

  it('accepts only real dates in the strict ISO form', () => {
    assert.equal(parseIsoPartialDate('1961-03-14'), '1961-03-14');
    assert.equal(parseIsoPartialDate('1961-03'), '1961-03');
    assert.equal(parseIsoPartialDate('1961'), '1961');
    assert.equal(parseIsoPartialDate('1960-02-29'), '1960-02-29');
    for (const text of ['1961-02-29', '1961-13', '1961-3-14', '14/03/1961', '61', '1961-03-14T00:00']) assert.equal(parseIsoPartialDate(text), undefined, text);
  });

  it('reads spreadsheet date cells and numbers', () => {
    assert.equal(formatCellDate(new Date(Date.UTC(1961, 2, 14))), '1961-03-14');
    assert.equal(formatCellNumber(1961), '1961');
    assert.equal(formatCellNumber(22354), '1961-03-14');
    assert.equal(formatCellNumber(0), undefined);
  });
});
