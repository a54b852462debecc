import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { DeedExtraction } from '../../providers/extractor/deed-payload.ts';
import { quoteOnPage, quotesFound } from './quotes.ts';

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
});
