// The rules extractor on layouts the first corpus lacks, each written here by hand: a register printed
// as a table (a fund's members with their dates of birth, a unit trust's holders with their units), a bare
// trust's own names for its parties, a schedule cell listing one name a line, `The Appointor of the Trust
// is …`, `… is the Guardian of the Trust`, a heading run into a clause, a corporate trustee with its
// directors named, and a family name that is also a particle (`Le`).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { DeedExtraction } from './deed-payload.ts';
import { extract, roster } from '../../../test/helpers/extraction.ts';

const withAddress = (e: DeedExtraction) => e.parties.map((p) => `${p.role} ${p.businessName ?? `${p.firstName} ${p.lastName}`} @ ${p.address?.full ?? '-'}`);

describe('layouts the first corpus lacks', () => {
  it('reads a fund’s members from a register table, never its dates of birth', async () => {
    const e = await extract([
      `HILLVIEW SUPER FUND\nTHIS DEED is made on 1 March 2001 BY: Ada Lim of 4 Kent Road, Kew VIC 3101 and Bo Lim of 4 Kent Road, Kew VIC 3101 (together the "Trustees")\n1. The persons named in Schedule 1 are the first Members of the Fund.`,
      `SCHEDULE 1 - INITIAL MEMBERS\nMember Date of birth Residential address\nLIM, Ada May 3 April 1961 4 Kent Road, Kew VIC 3101\nBo Lim 21/11/1959 4 Kent Road, Kew VIC 3101\nEXECUTED as a deed`,
    ]);
    assert.deepEqual(withAddress(e).filter((p) => p.startsWith('BENEFICIARY')), ['BENEFICIARY Ada May LIM @ 4 Kent Road, Kew VIC 3101', 'BENEFICIARY Bo Lim @ 4 Kent Road, Kew VIC 3101']);
    const answer = JSON.stringify(e);
    for (const date of ['3 April 1961', '21/11/1959', '1961', '1959']) assert.ok(!answer.includes(date), `${date} is not in the answer`);
  });

  it('reads a unit register’s holders (a company holding for its own trust by its own name) and skips their units', async () => {
    const e = await extract([
      `BANKSIA UNIT TRUST\nTHIS DEED is made on 2 May 2010 BY Banksia Custodians Pty Ltd (ACN 109 654 426) of 1 Pitt Street, Sydney NSW 2000 (the "Trustee")`,
      `SCHEDULE 2 - REGISTER OF INITIAL UNITHOLDERS\nUnitholder Address Units held Amount paid\nCara Diaz 9 Elm Street, Dubbo NSW 2830 100 $100.00\nDiaz Holdings Pty Ltd ACN 109 654 426 as trustee for the Diaz Family Trust 9 Elm Street, Dubbo NSW 2830 1,000 $1,000.00\nExecuted as a deed.`,
    ]);
    assert.deepEqual(withAddress(e).filter((p) => p.startsWith('BENEFICIARY')), ['BENEFICIARY Cara Diaz @ 9 Elm Street, Dubbo NSW 2830', 'BENEFICIARY Diaz Holdings Pty Ltd @ 9 Elm Street, Dubbo NSW 2830']);
    assert.equal(e.trust?.name, 'BANKSIA UNIT TRUST');
  });

  it('reads a bare trust’s own names: whoever holds on trust for another is the trustee, the other the beneficiary', async () => {
    const e = await extract([
      `CUSTODY DEED\nTHIS DEED is made on 3 June 2020 BETWEEN Quoll Property Pty Ltd (ACN 109 654 426) of 2 Hay Street, Perth WA 6000 (the "Custodian") AND Eve Ng of 7 Lake Street, Perth WA 6000 and Finn Ng of 7 Lake Street, Perth WA 6000 as trustees for the Ng Super Fund (the "Borrower")\nA. The Borrower will borrow from Big Bank Ltd (the "Lender").\nB. The Custodian has agreed to hold the Asset on a bare trust for the Borrower, to be known as the Ng Property Trust (the "Trust").\n1. The Custodian holds the Asset on trust for the Borrower absolutely.`,
    ]);
    assert.deepEqual(roster(e), ['BENEFICIARY INDIVIDUAL Eve Ng', 'BENEFICIARY INDIVIDUAL Finn Ng', 'TRUSTEE BUSINESS Quoll Property Pty Ltd']);
    assert.equal(e.trust?.name, 'Ng Property Trust');
  });

  it('splits a schedule cell that lists one name a line, and keeps a name that wraps in prose whole', async () => {
    const e = await extract([
      `THE OTWAY TRUST\nSCHEDULE\nTrustee Otway Nominees Pty Ltd\nACN 109 654 426\n1 Bay Road, Lorne VIC 3232\nSpecified Beneficiaries Gus Otway\nHana Rose Otway\nIvo Otway\nVesting Day 30 June 2080\nTHIS DEED is made on 1 July 2000.\n1. The first Guardian of the Trust is Jade Mary\nOtway of 1 Bay Road, Lorne VIC 3232.`,
    ]);
    assert.deepEqual(roster(e), [
      'BENEFICIARY INDIVIDUAL Gus Otway', 'BENEFICIARY INDIVIDUAL Hana Rose Otway', 'BENEFICIARY INDIVIDUAL Ivo Otway',
      'PROTECTOR_GUARDIAN INDIVIDUAL Jade Mary Otway', 'TRUSTEE BUSINESS Otway Nominees Pty Ltd',
    ]);
    // The ACN is on its own line; the street number on the next line is not its last digit.
    assert.equal(e.parties.find((p) => p.role === 'TRUSTEE')?.acn, '109654426');
  });

  it('reads `The Appointor of the Trust is …`, `… is the Guardian of the Trust`, a heading run into the clause', async () => {
    const e = await extract([
      `THE KOALA TRUST\nTHIS DEED is made on 1 May 1999 BY Kim Wu of 3 Gum Road, Hobart TAS 7000 (the "Settlor")\n1. PERSONS WITH POWERS 1.1 The Appointor of the Trust is Lee Wu of 3 Gum Road, Hobart TAS 7000.\n1.2 Mia Wu is the Guardian of the Trust.\n2. GUARDIAN Ned Wu of 3 Gum Road, Hobart TAS 7000 is appointed Guardian of the Trust.\n3. If Lee Wu dies, the Appointor shall be the person named in his will.`,
    ]);
    assert.deepEqual(roster(e), ['APPOINTOR INDIVIDUAL Lee Wu', 'PROTECTOR_GUARDIAN INDIVIDUAL Mia Wu', 'PROTECTOR_GUARDIAN INDIVIDUAL Ned Wu', 'SETTLOR INDIVIDUAL Kim Wu']);
  });

  it('takes a corporate trustee, not the directors named beside it', async () => {
    const e = await extract([
      `THE EMU TRUST\nTHIS DEED is made on 1 May 1999 BY Olga Park of 3 Gum Road, Hobart TAS 7000 (the "Settlor") AND Emu Nominees Pty Ltd (ACN 109 654 426) of 5 Elm Street, Hobart TAS 7000 whose directors are Pat Park,\nQuinn Park and Rui Park (the "Trustee")`,
    ]);
    assert.deepEqual(roster(e), ['SETTLOR INDIVIDUAL Olga Park', 'TRUSTEE BUSINESS Emu Nominees Pty Ltd']);
  });

  it('keeps a family name that is also a particle (`Le`, `Do`)', async () => {
    const e = await extract([`THE LE TRUST\nSCHEDULE\nSettlor: Giang Minh Le\nTrustee: Thi Do\nEXECUTED as a deed`]);
    assert.deepEqual(e.parties.map((p) => [p.firstName, p.lastName]), [['Giang Minh', 'Le'], ['Thi', 'Do']]);
  });
});
