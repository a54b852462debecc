// The rules extractor on pages as OCR reads a scanned deed (not a text layer broken into lines): table
// rules and specks read as stray punctuation or short non-words, table cells run together (`Item2`), a
// garbled label, a lost capital, look-alike letters in an ACN, a comma glued to the year. What is read
// must be what the deed says, and every quote must still be the page's own text.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { extract, roster } from '../../../test/helpers/extraction.ts';

const extractOcr = (texts: string[]) => extract(texts, 'OCR');

const itemTable = `SOUTHERN CROSS UNIT TRUST |
: Unit Trust Deed
THE SCHEDULE EE
Item1 Name of Trust Southern Cross Unit Trust : : : :
Item2 Date of this Deed November 24,2017 |
Item 3 Trustee ~ Southern Cross Nominees Pty Ltd ACN lO9 654 426 of Level 2,
: 10 Queen Street, Brisbane QLD 4000 |
Item4 Specifed Benefciares Matilda Anne Tran
Item 5 Appointors Oliver Rossi of 216 Collins Terrace, Parramatta NSW 21 50; and
j : Geoffrey Rossi of 87 Ironbark Road, Brighton VIC 3186 |
Item 6 Initial Unitholders Hamish Fairbairn (100 Units) Co
Fairbairn Investments Pty Ltd (50 Units)
Item 7 Vesting Day Co 30 June 2090 | : :
oo
EXECUTED as a deed`;

describe('rules extractor on OCR’d pages', () => {
  it('reads a schedule table through debris, joined cells, specks and a garbled label', async () => {
    const e = await extractOcr([itemTable]);
    assert.deepEqual(roster(e), [
      'APPOINTOR INDIVIDUAL Geoffrey Rossi',
      'APPOINTOR INDIVIDUAL Oliver Rossi',
      'BENEFICIARY BUSINESS Fairbairn Investments Pty Ltd',
      'BENEFICIARY INDIVIDUAL Hamish Fairbairn',
      'TRUSTEE BUSINESS Southern Cross Nominees Pty Ltd',
    ]);
    const trustee = e.parties.find((p) => p.role === 'TRUSTEE')!;
    assert.equal(trustee.acn, '109654426');
    assert.equal(trustee.address?.full, 'Level 2, 10 Queen Street, Brisbane QLD 4000');
    assert.equal(trustee.sourceQuote, 'Item 3 Trustee ~ Southern Cross Nominees Pty Ltd ACN lO9 654 426 of Level 2,\n: 10 Queen Street, Brisbane QLD 4000');
    assert.deepEqual(e.trust && [e.trust.name, e.trust.trustType, e.trust.establishedDate, e.trust.vestingDate], ['Southern Cross Unit Trust', 'UNIT', 'November 24, 2017', '30 June 2090']);
  });

  it('reads a numbered schedule whose item number became a comma and whose label lost its capital', async () => {
    const e = await extractOcr([
      `Reference Schedule\n1. Name of Trust Wilson Family Trust\n2. Settlor : Lukasz Lefevre of 2/61 Acacia Road, Melbourne VIC 3000\n3. Guardian Geoffrey Kim McAllister of 17 Beach Place, Kingston ACT\n2604\n4, specified Beneficiaries Charlotte Wilson, Noah Anne Wilson and Kylie James\nWilson\n© 5. Settlement Sum $10 | :\n. 6. Vesting Day Co 30 June 2090 | : :\noo`,
    ]);
    assert.deepEqual(roster(e), [
      'BENEFICIARY INDIVIDUAL Charlotte Wilson',
      'BENEFICIARY INDIVIDUAL Kylie James Wilson',
      'BENEFICIARY INDIVIDUAL Noah Anne Wilson',
      'PROTECTOR_GUARDIAN INDIVIDUAL Geoffrey Kim McAllister',
      'SETTLOR INDIVIDUAL Lukasz Lefevre',
    ]);
    assert.equal(e.trust?.vestingDate, '30 June 2090');
  });

  it('reads a dirty scan’s schedule: the item number read twice, a stray quote, a footer among specks', async () => {
    const e = await extractOcr([
      `Particulars : : )\n~ Item1 Name of Trust “Southern Cross Unit Trust : : : :\n2 Item2 Establishment Date 5 July 2001 I : oe\nSe Item3 Settlor - Coral Sea Management Proprietary Limited ACN 463\n: 159 177 of 172 Jacaranda Lane, Nedlands WA 6009\n: Item 6 Vesting Day the 79th anniversary of the date of this Deed i\n: : ; : : i iT Page 2 of 150 os) fe : }`,
    ]);
    assert.deepEqual(e.trust && [e.trust.name, e.trust.establishedDate, e.trust.vestingDate], ['Southern Cross Unit Trust', '5 July 2001', 'the 79th anniversary of the date of this Deed']);
    assert.deepEqual(e.parties.map((p) => [p.role, p.businessName, p.acn]), [['SETTLOR', 'Coral Sea Management Proprietary Limited', '463159177']]);
  });

  it('puts an OCR’d ACN with a doubled digit right from the company’s ABN, on an OCR’d page only', async () => {
    const text = 'SCHEDULE\nName of Trust: Harbour Bare Trust\nTrustee: Harbour Custodians Pty Ltd A.C.N. 109.654.4426 ABN 20 109 654 426\nSettlor: Jane Doe\nEXECUTED as a deed';
    const e = await extractOcr([text]);
    assert.deepEqual(e.parties.filter((p) => p.role === 'TRUSTEE').map((p) => [p.acn, p.abn]), [['109654426', '20109654426']]);
    const layer = await extract([text], 'TEXT_LAYER');
    assert.deepEqual(layer.parties.filter((p) => p.role === 'TRUSTEE').map((p) => [p.acn, p.abn]), [[null, '20109654426']]);
  });

  it('leaves out a dangling quote mark after the trust’s name and a page footer after the last value', async () => {
    const e = await extractOcr([`Reference Schedule\n1. Trust Name Wilson Discretionary Trust '\n‘2. Settlor Jane Doe of 1 King St, Sydney NSW 2000\n3. Vesting Day the day before the eightieth anniversary of the date of this Deed Page 5o0f5`]);
    assert.deepEqual(e.trust && [e.trust.name, e.trust.vestingDate], ['Wilson Discretionary Trust', 'the day before the eightieth anniversary of the date of this Deed']);
    assert.deepEqual(roster(e), ['SETTLOR INDIVIDUAL Jane Doe']);
  });

  it('keeps a text layer’s commas and capitals strict: `4, specified` is no label there', async () => {
    const layer = await extract(['SCHEDULE\n1. Name of Trust Wilson Family Trust\n2. Settlor Jane Doe\n4, specified Beneficiaries Charlotte Wilson\nEXECUTED as a deed'], 'TEXT_LAYER');
    assert.deepEqual(roster(layer), ['SETTLOR INDIVIDUAL Jane Doe']);
  });
});
