// The trust's kind and governing law, and whether a deed varies a trust, read from a deed's (normalised)
// text. Each deed here is a few made-up sentences, as `buildDeedText` hands them over (one line, straight
// quotes). The name and ABN are tested in `trust-name.test.ts`, the dates in `trust-dates.test.ts`.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Fields } from './schedule.ts';
import { findTrust, isVariation } from './trust-fields.ts';

const trust = (text: string, fields: Fields[] = [], hasClasses = false) => findTrust(text, fields, isVariation(text), hasClasses);

describe('trust type', () => {
  it('does not count a kind the deed denies, or another trust’s kind', () => {
    const t = trust('TRUST DEED THIS DEED is made on 1 June 2010. The Settlor wishes to establish a trust to be known as the Kestrel Trust (the "Trust"). 4.2 The Trust is not a bare trust. The Trustee may invest in units in any unit trust.', [], true);
    assert.equal(t?.trustType, 'DISCRETIONARY');
  });

  it('reads a clause headed `Declaration of trust` as no kind, and a title `DECLARATION OF TRUST` as a bare trust', () => {
    assert.equal(trust('TRUST DEED THIS DEED is made on 1 June 2010 for the Kestrel Trust (the "Trust"). 4. Declaration of trust The Trustee holds the Trust Fund.', [], true)?.trustType, 'DISCRETIONARY');
    assert.equal(trust('DECLARATION OF TRUST KESTREL TRUST THIS DECLARATION is made on 1 June 2010.')?.trustType, 'BARE');
  });

  it('reads a custodian’s trust as bare, though it holds for a superannuation fund', () => {
    assert.equal(trust('CUSTODY TRUST DEED KESTREL CUSTODY TRUST THIS DEED is made on 2 May 2019 for the Kestrel Super Fund, a regulated superannuation fund.')?.trustType, 'BARE');
    const untitled = trust(
      'TRUST DEED THIS DEED is made on 2 May 2019. A. The Member is the trustee of the Bloggs Super Fund (the "Fund"), a regulated superannuation fund. B. The Custodian will hold the property on a bare trust for the Member, to be known as the Bloggs Property Trust (the "Trust").',
    );
    assert.equal(untitled?.trustType, 'BARE');
  });
});

describe('jurisdiction', () => {
  it('reads the State the governing-law clause names, not an address after `Governing law` in the contents', () => {
    const t = trust(
      'THE KESTREL TRUST CONTENTS 1. Definitions 2. Governing law THIS DEED is made on 1 June 2010 BY Jo Bloggs of 1 King Street, Hobart TAS 7000. 2. GOVERNING LAW This Deed is governed by the laws of Queensland.',
    );
    assert.equal(t?.jurisdiction, 'Queensland');
    assert.equal(trust('THE KESTREL TRUST This Deed is governed by the law in force in the State of Western Australia.')?.jurisdiction, 'Western Australia');
  });

  it('reads a schedule’s `State whose laws govern this Deed` row', () => {
    const t = trust('THE KESTREL TRUST SCHEDULE Vesting Day 1 May 2080 State whose laws govern this Deed South Australia THIS DEED is made on the date stated in the Schedule.', [{ key: 'VESTING', value: '1 May 2080 State whose laws govern this Deed South Australia' }]);
    assert.equal(t?.jurisdiction, 'South Australia');
    assert.equal(t?.vestingDate, '1 May 2080');
  });

  it('reads a State’s name OCR ran together or broke with a speck', () => {
    assert.equal(trust('THE KESTREL TRUST This Deed is governed by the laws of New ¢ SouthWales. wo fhe')?.jurisdiction, 'New South Wales');
    assert.equal(trust('THE KESTREL TRUST This Deed is governed by the laws of the Australian a Capital Territory.')?.jurisdiction, 'Australian Capital Territory');
  });
});

describe('isVariation', () => {
  it('reads a variation from its title, not from lower-case words or a clause heading', () => {
    assert.equal(isVariation('DEED OF VARIATION KESTREL FAMILY TRUST THIS DEED is made on 1 May 2001'), true);
    assert.equal(isVariation('Deed of Retirement and Appointment of Trustee Kestrel Family Trust THIS DEED is made on 1 May 2001'), true);
    assert.equal(isVariation('Kestrel Family Trust - Change of Trustee THIS DEED is made on 1 May 2001'), true);
    assert.equal(isVariation('KESTREL FAMILY TRUST This deed of variation is made on 1 May 2001'), true);
    assert.equal(isVariation('TRUST DEED KESTREL FAMILY TRUST THIS DEED is made on 1 May 2001. 2. GUARDIAN The consent of the Guardian is required to any change of Appointor.'), false);
    assert.equal(isVariation('TRUST DEED KESTREL FAMILY TRUST THIS DEED is made on 1 May 2001. 12. Change of Trustee The Appointor may remove the Trustee.'), false);
  });
});
