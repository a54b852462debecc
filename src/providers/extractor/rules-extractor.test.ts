// The rules extractor on deeds written by hand (not by the corpus generator): each role synonym,
// companies and people, invalid numbers, classes against named beneficiaries, successors, variations,
// OCR's line breaks, and the answer's promises (schema, verbatim quotes, no date of birth, no logging).
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it, mock } from 'node:test';
import type { DeedExtraction, ExtractedParty } from './deed-payload.ts';
import { createRulesExtractor } from './rules-extractor.ts';
import { extract, nameOf, pagesOf, roster } from '../../../test/helpers/extraction.ts';

function find(e: DeedExtraction, role: ExtractedParty['role'], name: string): ExtractedParty {
  const party = e.parties.find((p) => p.role === role && nameOf(p).toLowerCase() === name.toLowerCase());
  assert.ok(party, `${role} ${name} in ${JSON.stringify(roster(e))}`);
  return party;
}

const familyTrust = [
  `THE WATTLE CREEK FAMILY TRUST
DISCRETIONARY TRUST DEED

THIS DEED is made on the 3rd day of June 2019
BY: PRISCILLA MARY FAIRBAIRN of 12 Banksia Parade, Toowong QLD 4066 (the "Settlor")
AND: WATTLE CREEK NOMINEES PTY LTD ACN 109 654 426 of Level 4, 100 Eagle Street,
Brisbane QLD 4000 (the "Trustee")

RECITALS
A. The Settlor wishes to establish a discretionary trust to be known as the Wattle Creek Family Trust.

1. DEFINITIONS
1.1 "Appointor" means the person or persons named as Appointor in the Schedule.
1.2 "General Beneficiaries" means the Primary Beneficiaries, their spouses, children and remoter issue, and
any company in which a Primary Beneficiary holds shares.
1.3 "Default Beneficiaries" means the Primary Beneficiaries living at the Vesting Day.
1.4 "Vesting Day" means the day before the eightieth anniversary of the date of this Deed.`,
  `2. POWERS OF THE APPOINTOR
2.1 The Appointor may at any time remove the Trustee and appoint a new Trustee.
2.2 Any company in which a Beneficiary holds shares, whether as trustee or otherwise, may receive income.
2.3 Such amount as the Trustee may determine is to be held as trustee for the Beneficiaries.
3. GOVERNING LAW
This Deed is governed by the laws of the State of Queensland.`,
  `SCHEDULE
Item 1  Appointors      Grace Élise Fairbairn and Thomas van der Berg of 7 Acacia Court, Nedlands WA 6009
Item 2  Successor Appointor   Anne-Marie Fairbairn-Hay
Item 3  Protector       Jacaranda Management Pty Ltd A.C.N. 529281114
Item 4  Primary Beneficiaries   Grace Élise Fairbairn, born 3 March 1980; and José Núñez-García
Item 5  Settled Sum     $10

EXECUTED as a deed
SIGNED by GRACE ÉLISE FAIRBAIRN as Appointor in the presence of: Witness: Robert Jones`,
];

describe('rules extractor', () => {
  it('reads a discretionary deed: parties clause, defined terms, schedule last, classes', async () => {
    const e = await extract(familyTrust);
    assert.deepEqual(roster(e), [
      'APPOINTOR INDIVIDUAL Anne-Marie Fairbairn-Hay',
      'APPOINTOR INDIVIDUAL Grace Élise Fairbairn',
      'APPOINTOR INDIVIDUAL Thomas van der Berg',
      'BENEFICIARY INDIVIDUAL Grace Élise Fairbairn',
      'BENEFICIARY INDIVIDUAL José Núñez-García',
      'PROTECTOR_GUARDIAN BUSINESS Jacaranda Management Pty Ltd',
      'SETTLOR INDIVIDUAL PRISCILLA MARY FAIRBAIRN',
      'TRUSTEE BUSINESS WATTLE CREEK NOMINEES PTY LTD',
    ]);
    const trustee = find(e, 'TRUSTEE', 'Wattle Creek Nominees Pty Ltd');
    assert.deepEqual([trustee.acn, trustee.address?.full, trustee.confidence, trustee.sourcePage], ['109654426', 'Level 4, 100 Eagle Street, Brisbane QLD 4000', 'HIGH', 1]);
    assert.equal(find(e, 'PROTECTOR_GUARDIAN', 'Jacaranda Management Pty Ltd').acn, '529281114');
    assert.deepEqual(e.trust, {
      name: 'Wattle Creek Family Trust',
      abn: null,
      trustType: 'DISCRETIONARY',
      jurisdiction: 'Queensland',
      establishedDate: '3rd day of June 2019',
      vestingDate: 'the day before the eightieth anniversary of the date of this Deed',
    });
    assert.deepEqual(e.beneficiaryClasses, ['General Beneficiaries', 'Default Beneficiaries']);
  });

  it('splits names into given names and family name, particles with the family name', async () => {
    const e = await extract(familyTrust);
    const thomas = find(e, 'APPOINTOR', 'Thomas van der Berg');
    assert.deepEqual([thomas.firstName, thomas.lastName, thomas.address?.full], ['Thomas', 'van der Berg', '7 Acacia Court, Nedlands WA 6009']);
    assert.deepEqual([find(e, 'APPOINTOR', 'Anne-Marie Fairbairn-Hay').firstName, find(e, 'BENEFICIARY', 'José Núñez-García').lastName], ['Anne-Marie', 'Núñez-García']);
  });

  it('gives a successor appointor MEDIUM confidence, the appointors HIGH', async () => {
    const e = await extract(familyTrust);
    assert.equal(find(e, 'APPOINTOR', 'Anne-Marie Fairbairn-Hay').confidence, 'MEDIUM');
    assert.equal(find(e, 'APPOINTOR', 'Grace Élise Fairbairn').confidence, 'HIGH');
  });

  it('never returns a date of birth, not even in a quote', async () => {
    const e = await extract(familyTrust);
    for (const p of e.parties) assert.doesNotMatch(JSON.stringify(p), /1980|born/);
  });

  it('quotes each party with its role, verbatim from its page', async () => {
    const e = await extract(familyTrust);
    const trustee = find(e, 'TRUSTEE', 'Wattle Creek Nominees Pty Ltd');
    assert.equal(trustee.sourceQuote, 'WATTLE CREEK NOMINEES PTY LTD ACN 109 654 426 of Level 4, 100 Eagle Street,\nBrisbane QLD 4000 (the "Trustee")');
    const protector = find(e, 'PROTECTOR_GUARDIAN', 'Jacaranda Management Pty Ltd');
    assert.equal(protector.sourceQuote, 'Item 3  Protector       Jacaranda Management Pty Ltd A.C.N. 529281114');
    assert.equal(protector.sourcePage, 3);
  });

  it('knows each appointor and guardian synonym', async () => {
    for (const [word, role] of [['Appointor', 'APPOINTOR'], ['Appointer', 'APPOINTOR'], ['Principal', 'APPOINTOR'], ['Nominator', 'APPOINTOR'], ['Guardian', 'PROTECTOR_GUARDIAN'], ['Protector', 'PROTECTOR_GUARDIAN']] as const) {
      const e = await extract([`THE BLUE WREN TRUST\nTHIS DEED is made on 1 July 2012 BY JANE CITIZEN of 1 King St, Perth WA 6000 (the "Settlor") AND OLIVER TAYLOR and MIA TAYLOR of 9 Hay St, Perth WA 6000 (together the "Trustees") AND HAMISH BROWN of 2 Hay St, Perth WA 6000 (the "${word}").\nThe trust is to be known as the Blue Wren Trust.`]);
      assert.equal(find(e, role, 'Hamish Brown').partyKind, 'INDIVIDUAL', word);
      assert.deepEqual(e.parties.filter((p) => p.role === 'TRUSTEE').map(nameOf), ['OLIVER TAYLOR', 'MIA TAYLOR'], word);
    }
  });

  it('reads a schedule printed first, `Particulars`, individual trustees and specified beneficiaries', async () => {
    const e = await extract([
      `Particulars\nName of Trust: The Saltbush Trust\nDate of this Deed: 14/02/2020\nTrustees: Oliver Taylor of 9 Hay St, Perth WA 6000 and Mia Taylor of 9 Hay St, Perth WA 6000\nPrincipal: Oliver Taylor\nSpecified Beneficiaries: Oliver Taylor, Mia Taylor and Ruby Taylor\nGoverning Law: Western Australia\n\nTHIS DEED is made on the date in the Particulars by the Trustees.`,
      `OPERATIVE PROVISIONS\n"Eligible Beneficiaries" means the children of the Specified Beneficiaries.\n"Vesting Date" means 30 June 2099.`,
    ]);
    assert.deepEqual(roster(e), [
      'APPOINTOR INDIVIDUAL Oliver Taylor',
      'BENEFICIARY INDIVIDUAL Mia Taylor',
      'BENEFICIARY INDIVIDUAL Oliver Taylor',
      'BENEFICIARY INDIVIDUAL Ruby Taylor',
      'TRUSTEE INDIVIDUAL Mia Taylor',
      'TRUSTEE INDIVIDUAL Oliver Taylor',
    ]);
    assert.deepEqual(e.trust, { name: 'Saltbush Trust', abn: null, trustType: 'DISCRETIONARY', jurisdiction: 'Western Australia', establishedDate: '14/02/2020', vestingDate: '30 June 2099' });
    assert.deepEqual(e.beneficiaryClasses, ['Eligible Beneficiaries']);
  });

  it('passes on no ACN whose check digit fails, and keeps the company', async () => {
    const e = await extract(['THE HARBOUR TRUST\nSCHEDULE\nTrustee: Harbour Nominees Pty Ltd ACN 123 456 789 of 1 King St, Sydney NSW 2000\nAppointor: Harbour Holdings Pty Ltd (ACN 698 013 400)\nSettled Sum: $10\nEXECUTED as a deed']);
    assert.equal(find(e, 'TRUSTEE', 'Harbour Nominees Pty Ltd').acn, null);
    assert.equal(find(e, 'APPOINTOR', 'Harbour Holdings Pty Ltd').acn, '698013400');
  });

  it('turns classes into classes and never into people', async () => {
    const e = await extract([
      'THE KESTREL FAMILY TRUST\nSCHEDULE\nTrustee: Kestrel Nominees Pty Ltd ACN 411 931 630\nGeneral Beneficiaries: the children and remoter issue of Angus Kestrel\nSecondary Beneficiaries: any company in which a Primary Beneficiary holds shares\nPrimary Beneficiary: Angus Kestrel\nEXECUTED as a deed',
    ]);
    assert.deepEqual(roster(e), ['BENEFICIARY INDIVIDUAL Angus Kestrel', 'TRUSTEE BUSINESS Kestrel Nominees Pty Ltd']);
    assert.deepEqual(e.beneficiaryClasses, ['General Beneficiaries', 'Secondary Beneficiaries']);
  });

  it('reads successors written as a rule, in the schedule and in a clause', async () => {
    const e = await extract([
      'THE IRONBARK TRUST\nSCHEDULE\nTrustee: Ironbark Nominees Pty Ltd ACN 689 859 952\nAppointor: Mia Chen\nSuccessor Appointor: On the death or incapacity of the Appointor, Wei Chen of 4 Hill Rd, Glenelg SA 5045\nEXECUTED as a deed',
      '5.1 If Mia Chen dies or becomes mentally incapable, Arjun Patel of 8 Hay St, Perth WA 6000 shall become the Appointor in her place.\n5.2 The first Guardian is Priya Patel of 8 Hay St, Perth WA 6000.',
    ]);
    assert.equal(find(e, 'APPOINTOR', 'Mia Chen').confidence, 'HIGH');
    assert.equal(find(e, 'APPOINTOR', 'Wei Chen').confidence, 'MEDIUM');
    assert.equal(find(e, 'APPOINTOR', 'Arjun Patel').confidence, 'MEDIUM');
    assert.equal(find(e, 'PROTECTOR_GUARDIAN', 'Priya Patel').sourcePage, 2);
    assert.equal(e.parties.length, 5);
  });

  it('reads a deed of variation as the trust now stands: the retiring appointor is gone', async () => {
    const e = await extract([
      `DEED OF VARIATION
THIS DEED is made on 4 May 2021
PARTIES
1. Bayside Nominees Pty Ltd ACN 846 753 204 of 1 Bay St, Glenelg SA 5045 in its capacity as trustee of the Bayside Family Trust (the "Trustee")
2. John Bayliss of 3 Bay St, Glenelg SA 5045 (the "Retiring Appointor")
3. Emily Bayliss of 5 Bay St, Glenelg SA 5045 (the "New Appointor")
RECITALS
A. The Bayside Family Trust ABN 47 572 175 132 (the "Trust") is a discretionary trust established by deed dated 1 July 2001 (the "Original Deed") made between Peter Brown as settlor and the Trustee as trustee.
B. John Bayliss is the Appointor of the Trust and wishes to retire.
1. John Bayliss retires as Appointor with effect from the date of this Deed.
2. The definition of "Appointor" in the Original Deed is replaced with: "Appointor" means Emily Bayliss.
3. This Deed is governed by the laws of South Australia.
SIGNED by JOHN BAYLISS as Retiring Appointor`,
    ]);
    assert.deepEqual(roster(e), ['APPOINTOR INDIVIDUAL Emily Bayliss', 'SETTLOR INDIVIDUAL Peter Brown', 'TRUSTEE BUSINESS Bayside Nominees Pty Ltd']);
    assert.deepEqual(e.trust, { name: 'Bayside Family Trust', abn: '47572175132', trustType: 'DISCRETIONARY', jurisdiction: 'South Australia', establishedDate: '1 July 2001', vestingDate: null });
  });

  it('reads a change of trustee: the new trustee only', async () => {
    const e = await extract([
      'DEED OF RETIREMENT AND APPOINTMENT OF TRUSTEE\nTHIS DEED is made on 2 February 2023\nBETWEEN Olivia Harris of 1 Oak Rd, Hobart TAS 7000 (the "Appointor") AND Oak Holdings Pty Ltd ACN 109 654 426 (the "Retiring Trustee") AND Elm Nominees Pty Ltd ACN 529 281 114 (the "New Trustee").\nA. The Oak Family Trust (the "Trust") was established by deed dated 5 May 1999 made between Jack Harris as settlor and Oak Holdings Pty Ltd as trustee.\nThe Retiring Trustee retires as trustee and the Appointor appoints the New Trustee as trustee of the Trust.',
    ]);
    assert.deepEqual(roster(e), ['APPOINTOR INDIVIDUAL Olivia Harris', 'SETTLOR INDIVIDUAL Jack Harris', 'TRUSTEE BUSINESS Elm Nominees Pty Ltd']);
  });

  it('answers no trust when the deed does not name one', async () => {
    const e = await extract(['DECLARATION OF BARE TRUST\nTHIS DECLARATION is made on 1 March 2020 BY Harbour Custodians Pty Ltd ACN 109 654 426 (the "Trustee").\nThe Trustee holds the Property as bare trustee for Mia Chen of 4 Hill Rd, Glenelg SA 5045 (the "Beneficiary").']);
    assert.equal(e.trust, null);
    assert.deepEqual(roster(e), ['BENEFICIARY INDIVIDUAL Mia Chen', 'TRUSTEE BUSINESS Harbour Custodians Pty Ltd']);
  });

  it('reads unitholders and SMSF members as beneficiaries (MEDIUM), not another trust’s trustee', async () => {
    const unit = await extract([
      'UNIT TRUST DEED\nTHE MERIDIAN PROPERTY TRUST\nSCHEDULE\nName of Trust: Meridian Property Trust\nTrustee: Meridian Nominees Pty Ltd ACN 698 013 400\nInitial Unitholders: Meridian Super Pty Ltd ACN 411 931 630 as trustee for the Meridian Superannuation Fund (50 Units); Ruby Chen (50 Units)\nEXECUTED as a deed',
    ]);
    assert.deepEqual(roster(unit), ['BENEFICIARY BUSINESS Meridian Super Pty Ltd', 'BENEFICIARY INDIVIDUAL Ruby Chen', 'TRUSTEE BUSINESS Meridian Nominees Pty Ltd']);
    assert.equal(find(unit, 'BENEFICIARY', 'Ruby Chen').confidence, 'MEDIUM');
    assert.equal(unit.trust?.trustType, 'UNIT');
    const smsf = await extract(['SELF MANAGED SUPERANNUATION FUND TRUST DEED\nSCHEDULE\nName of Fund: Chen Family Super Fund\nTrustees: Ruby Chen and Wei Chen\nMembers: Ruby Chen and Wei Chen\nEXECUTED as a deed']);
    assert.deepEqual(roster(smsf), ['BENEFICIARY INDIVIDUAL Ruby Chen', 'BENEFICIARY INDIVIDUAL Wei Chen', 'TRUSTEE INDIVIDUAL Ruby Chen', 'TRUSTEE INDIVIDUAL Wei Chen']);
    assert.deepEqual([smsf.trust?.name, smsf.trust?.trustType], ['Chen Family Super Fund', 'SMSF']);
  });

  it('reads OCR text: broken lines, a name broken at its hyphen, a spaced ACN; and says MEDIUM', async () => {
    const e = await extract(
      [
        'SCHEDULE\nName of Trust:   The Tallowwood\nFamily Trust\nTrustee:  Tallowwood Nominees\nPty Ltd  A. C. N.  109 654 426\nAppointor:   Anne-Marie Smith-\nJones  of 4 Hill Rd,\nGlenelg  SA 5045\nEXECUTED as a deed',
      ],
      'OCR',
    );
    assert.deepEqual(roster(e), ['APPOINTOR INDIVIDUAL Anne-Marie Smith-Jones', 'TRUSTEE BUSINESS Tallowwood Nominees Pty Ltd']);
    assert.equal(find(e, 'TRUSTEE', 'Tallowwood Nominees Pty Ltd').acn, '109654426');
    assert.equal(find(e, 'APPOINTOR', 'Anne-Marie Smith-Jones').address?.full, '4 Hill Rd, Glenelg SA 5045');
    assert.ok(e.parties.every((p) => p.confidence === 'MEDIUM'));
    assert.equal(e.trust?.name, 'Tallowwood Family Trust');
  });

  it('answers an empty extraction for text that is not a deed', async () => {
    assert.deepEqual(await extract(['Minutes of a meeting of directors held on 1 May 2020.', '']), { trust: null, parties: [], beneficiaryClasses: [] });
  });

  it('rejects when aborted before it starts', async () => {
    const controller = new AbortController();
    controller.abort();
    await assert.rejects(createRulesExtractor().extract(pagesOf(familyTrust), { signal: controller.signal }), { name: 'AbortError' });
  });
});

describe('rules extractor privacy', () => {
  const writes: string[] = [];
  beforeEach(() => {
    writes.length = 0;
    for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const) mock.method(console, method, (...args: unknown[]) => writes.push(args.join(' ')));
    mock.method(process.stdout, 'write', (chunk: unknown) => (writes.push(String(chunk)), true));
    mock.method(process.stderr, 'write', (chunk: unknown) => (writes.push(String(chunk)), true));
  });
  afterEach(() => mock.restoreAll());

  it('never logs what it reads', async () => {
    const result = await createRulesExtractor().extract(pagesOf(familyTrust));
    mock.restoreAll();
    assert.ok(result.ok);
    assert.deepEqual(writes, []);
  });
});
