// What OCR does to a page that a text layer never does: stand-alone table debris, specks read as short
// non-words at a line's edge, and table cells or clause numbers run together.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { normalisePage } from './deed-text.ts';
import { debrisMask, spaceMissingBefore } from './ocr-text.ts';

// Line breaks aside (they are kept, as one `\n`): these are about debris and spaces.
const ocr = (raw: string) => normalisePage(raw, { ocr: true }).text.replace(/\n/g, ' ');
const masked = (raw: string) => [...raw].filter((_, i) => debrisMask(raw)[i]).join('');

describe('OCR debris', () => {
  it('reads stand-alone table rules and specks as spaces, and keeps punctuation that touches a word', () => {
    assert.equal(ocr('Southern Cross Unit Trust : : : : 2 Item 2 Date'), 'Southern Cross Unit Trust 2 Item 2 Date');
    assert.equal(ocr('Item 4 Trustee ~ Nguyen Custodians Pty Ltd |\n© 5. Settled Sum $10 | :'), 'Item 4 Trustee Nguyen Custodians Pty Ltd 5. Settled Sum $10');
    assert.equal(ocr('BY: Jane Doe, of 1 King St; and (the "Trustee") _ . ;'), 'BY: Jane Doe, of 1 King St; and (the "Trustee")');
    assert.equal(masked('Trust | Item'), '|');
    assert.equal(ocr('Brisbane QLD 4000 (the "Initial Trustee") ; } ] 25s'), 'Brisbane QLD 4000 (the "Initial Trustee") 25s');
    assert.equal(ocr('] 1.\'Coral Sea Management Pty Ltd'), '1. Coral Sea Management Pty Ltd');
  });

  it('drops a speck read as a short non-word at a line’s edge, never a word, an abbreviation or capitals', () => {
    assert.equal(ocr('Hamish Fairbairn (100 Units) Co\nFairbairn Investments Pty Ltd'), 'Hamish Fairbairn (100 Units) Fairbairn Investments Pty Ltd');
    assert.equal(ocr('NSW 2150; and\nj : Geoffrey Rossi of'), 'NSW 2150; and Geoffrey Rossi of');
    assert.equal(ocr('Vesting Day Co 30 June 2090 |\noo Page 8 of 8'), 'Vesting Day Co 30 June 2090 Page 8 of 8');
    assert.equal(ocr('Es : oe Sri Pty Ltd\nthe Deed iT Page 2 of 150 os) fe }'), 'Sri Pty Ltd the Deed iT Page 2 of 150');
    assert.equal(ocr('Isla\nde la Cruz of 1 King St'), 'Isla de la Cruz of 1 King St');
    assert.equal(ocr('Smith & Co\nPty Ltd of 1 King St\nMr\nJohn Smith of\nAdelaide SA\nML & WJ Taylor Trust a\nnew deed'), 'Smith & Co Pty Ltd of 1 King St Mr John Smith of Adelaide SA ML & WJ Taylor Trust a new deed');
  });

  it('leaves a text layer as it is', () => {
    assert.equal(normalisePage('Trust : | Item2 Co\nj').text, 'Trust : | Item2 Co\nj');
  });
});

describe('OCR joins', () => {
  it('puts back the space between a table cell and a number, and after a clause number', () => {
    assert.equal(ocr('Item1 Name of the Trust The Smith Family Trust\nItem2 Commencement Date 7 July 1996'), 'Item 1 Name of the Trust The Smith Family Trust Item 2 Commencement Date 7 July 1996');
    assert.equal(ocr('3.3If Kylie Smith dies'), '3.3 If Kylie Smith dies');
    assert.equal(ocr('Brisbane QLD4000'), 'Brisbane QLD 4000');
  });

  it('does not split ordinals, clause references or numbers with letters of their own', () => {
    assert.equal(ocr('the 79th anniversary, the 3rd day, Schedule 2F, clause 12(a), 3/127 Acacia St'), 'the 79th anniversary, the 3rd day, Schedule 2F, clause 12(a), 3/127 Acacia St');
    assert.equal(spaceMissingBefore('A1', 1), false);
    assert.equal(ocr('ACN lO9 654 426'), 'ACN lO9 654 426');
  });

  it('maps every character back to the page, so quotes stay verbatim', () => {
    const raw = 'Item2 Trustee : Wattle Pty Ltd';
    const n = normalisePage(raw, { ocr: true });
    assert.equal(n.text, 'Item 2 Trustee Wattle Pty Ltd');
    assert.equal(raw.slice(n.origin[n.text.indexOf('Trustee')], n.origin[n.text.length - 1]! + 1), 'Trustee : Wattle Pty Ltd');
  });
});
