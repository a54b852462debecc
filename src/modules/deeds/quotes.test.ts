import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { DeedExtraction } from '../../providers/extractor/deed-payload.ts';
import { quoteOnPage, quotesFound, withoutDatesOfBirth } from './quotes.ts';

const page = { number: 3, text: 'The Appointor of the Trust is\nPriscilla  Mary FAIRBAIRN of 4 Wattle Lane,\nToowong.', source: 'TEXT_LAYER' as const };

describe('quotes', () => {
  it('finds a quote on its page, line breaks and doubled spaces counting as one space', () => {
    assert.ok(quoteOnPage('Priscilla Mary FAIRBAIRN of 4 Wattle Lane, Toowong', page));
    assert.ok(quoteOnPage('The Appointor of the Trust is Priscilla', page));
  });

  it('refuses a quote changed in any letter, an empty one, and one on a page that is not there', () => {
    assert.equal(quoteOnPage('Priscilla Mary Fairbairn', page), false);
    assert.equal(quoteOnPage('   ', page), false);
    assert.equal(quoteOnPage('Priscilla', undefined), false);
  });

  it('holds an extraction only when every party’s quote is on the page it cites', () => {
    const party = { role: 'APPOINTOR' as const, partyKind: 'INDIVIDUAL' as const, businessName: null, firstName: 'Priscilla Mary', lastName: 'FAIRBAIRN', acn: null, abn: null, address: null, confidence: 'HIGH' as const, sourcePage: 3, sourceQuote: 'Priscilla Mary FAIRBAIRN' };
    const extraction: DeedExtraction = { trust: null, parties: [party], beneficiaryClasses: [] };
    assert.ok(quotesFound(extraction, [page]));
    assert.equal(quotesFound({ ...extraction, parties: [party, { ...party, sourcePage: 2 }] }, [page]), false);
    assert.ok(quotesFound({ trust: null, parties: [], beneficiaryClasses: [] }, []));
  });

  it('cuts a party’s quote where a date of birth is introduced, leaving text still verbatim on its page', () => {
    const smsf = { number: 2, text: 'Member trustees: Amelia Layla HARGREAVES, born 16 June 1950, of 3 Gum Road, Bowral NSW 2576', source: 'TEXT_LAYER' as const };
    const party = { role: 'TRUSTEE' as const, partyKind: 'INDIVIDUAL' as const, businessName: null, firstName: 'Amelia Layla', lastName: 'HARGREAVES', acn: null, abn: null, address: null, confidence: 'HIGH' as const, sourcePage: 2 };
    const quoted = (sourceQuote: string) => withoutDatesOfBirth({ trust: null, parties: [{ ...party, sourceQuote }], beneficiaryClasses: [] });
    const cut = quoted('Amelia Layla HARGREAVES, born 16 June 1950, of 3 Gum Road');
    assert.equal(cut.parties[0]!.sourceQuote, 'Amelia Layla HARGREAVES');
    assert.ok(quotesFound(cut, [smsf]));
    assert.equal(quoted('Jo Smith (date of birth: 1 May 1960)').parties[0]!.sourceQuote, 'Jo Smith');
    assert.equal(quoted('Jo Smith DOB 01/05/1960').parties[0]!.sourceQuote, 'Jo Smith');
    assert.equal(quoted('Jo Osborne of 3 Gum Road').parties[0]!.sourceQuote, 'Jo Osborne of 3 Gum Road', 'a name with born in it is not cut');
    // A quote that is only a date of birth is emptied, and an empty quote is refused: nothing is sent.
    assert.equal(quotesFound(quoted('born 16 June 1950'), [smsf]), false);
  });

  it('cuts an individual’s quote at any date after their name (a register’s column), and takes dates out of addresses', () => {
    const party = { role: 'BENEFICIARY' as const, partyKind: 'INDIVIDUAL' as const, businessName: null, firstName: 'Chloé', lastName: 'TRAN', acn: null, abn: null, confidence: 'MEDIUM' as const, sourcePage: 1 };
    const one = (sourceQuote: string, address: string | null = null) =>
      withoutDatesOfBirth({ trust: null, parties: [{ ...party, sourceQuote, address: address ? { full: address } : null }], beneficiaryClasses: [] }).parties[0]!;
    assert.equal(one('TRAN, Chloé 12 July 1971 21 Murray Street').sourceQuote, 'TRAN, Chloé');
    assert.equal(one('TRAN, Chloé 2 November 21 Murray Street').sourceQuote, 'TRAN, Chloé', 'a date whose year OCR moved away');
    assert.equal(one('Chloé Tran 03/05/1962 5/62 Jacaranda Avenue').sourceQuote, 'Chloé Tran');
    // The deed's own date, before the name, stays: it is not the person's.
    assert.equal(one('THIS DEED is made on 2 December 1998 BY: Chloé TRAN of 21 Murray Street').sourceQuote, 'THIS DEED is made on 2 December 1998 BY: Chloé TRAN of 21 Murray Street');
    assert.deepEqual(one('Chloé TRAN', '12 July 1971 21 Murray Street, Alice Springs NT 0870').address, { full: '21 Murray Street, Alice Springs NT 0870' });
    assert.equal(one('Chloé TRAN', '12 July 1971').address, null);
    assert.deepEqual(one('Chloé TRAN of 25 May Street', '25 May Street, Hobart TAS 7000').address, { full: '25 May Street, Hobart TAS 7000' }, 'a street named for a month');
    assert.equal(one('Chloé TRAN of 25 May Street').sourceQuote, 'Chloé TRAN of 25 May Street');
    // A company's quote is cut only where a date of birth is introduced: its dates are the deed's.
    const company = withoutDatesOfBirth({ trust: null, parties: [{ ...party, partyKind: 'BUSINESS', businessName: 'Tran Pty Ltd', firstName: null, lastName: null, address: null, sourceQuote: 'Tran Pty Ltd, registered 1 May 1990' }], beneficiaryClasses: [] });
    assert.equal(company.parties[0]!.sourceQuote, 'Tran Pty Ltd, registered 1 May 1990');
  });
});
