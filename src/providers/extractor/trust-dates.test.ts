// The trust's established date and vesting day, read from a deed's (normalised) text. Each deed here is
// a few made-up sentences, as `buildDeedText` hands them over (one line, straight quotes).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Fields } from './schedule.ts';
import { findTrust, isVariation } from './trust-fields.ts';

const trust = (text: string, fields: Fields[] = [], hasClasses = false) => findTrust(text, fields, isVariation(text), hasClasses);

describe('established date', () => {
  it('reads a change of trustee’s recital of the deed that established the trust', () => {
    const text =
      'DEED OF RETIREMENT AND APPOINTMENT OF TRUSTEE KESTREL FAMILY TRUST THIS DEED is made on 9 May 2015 BACKGROUND A. By a deed of settlement dated 3rd March 1987 (the "Trust Deed") made by Jo Bloggs as settlor, a discretionary trust known as the Kestrel Family Trust (the "Trust") was established. B. Under the Trust Deed the vesting day of the Trust is 3 March 2066, and nothing in this deed alters it.';
    const t = trust(text);
    assert.equal(t?.establishedDate, '3rd March 1987');
    assert.equal(t?.vestingDate, '3 March 2066');
  });

  it('does not take another trust’s recited deed as this trust’s date', () => {
    const t = trust('UNIT TRUST DEED THIS DEED is made on 2 February 2002 for the Wattle Unit Trust (the "Trust"). By a deed dated 1 July 1980 the Banksia Family Trust was established, and its trustee subscribes for units.');
    assert.equal(t?.establishedDate, '2 February 2002');
  });

  it('reads `DATE:`, OCR’s `THISDEED is made on`, and a defined Commencement Date', () => {
    assert.equal(trust('DISCRETIONARY TRUST DEED KESTREL FAMILY TRUST DATE: 4 May 2001 OPERATIVE PART')?.establishedDate, '4 May 2001');
    assert.equal(trust('UNIT TRUST DEED THISDEED is made on 1 March 1999 for the Kestrel Unit Trust (the "Trust").')?.establishedDate, '1 March 1999');
    assert.equal(trust('The trust known as the Kestrel Family Trust. 1.2 "Commencement Date" means 9 June 2011.')?.establishedDate, '9 June 2011');
  });
});

describe('vesting date', () => {
  it('is the date or rule, without the power to bring it forward', () => {
    const of = (definition: string) => trust(`The trust known as the Kestrel Family Trust. "Vesting Day" means ${definition}. 2. Income`)?.vestingDate;
    assert.equal(of('30 June 2090, or such earlier date as the Trustee may appoint'), '30 June 2090');
    assert.equal(of('30 June 2090, or any earlier date the Trustee determines with the consent of the Appointor'), '30 June 2090');
    assert.equal(of('the day before the 80th anniversary of the Commencement Date, or, if earlier, the date the Trustee determines'), 'the day before the 80th anniversary of the Commencement Date');
    assert.equal(of('the earlier of 30 June 2090 and such earlier date as the Trustee appoints'), 'the earlier of 30 June 2090 and such earlier date as the Trustee appoints');
  });

  it('reads a definition whose opening quote OCR lost, and cuts a running footer off a schedule’s last value', () => {
    assert.equal(trust('The trust known as the Kestrel Family Trust. 412 Vesting Day\' means 30 June 2071. 2. Income')?.vestingDate, '30 June 2071');
    const footer = trust('KESTREL FAMILY TRUST THIS DEED is made on 1 May 2001.', [{ key: 'VESTING', value: 'the last day of the perpetuity period applicable to the Trust KESTREL FAMILY TRUST - Trust Deed Page 3 of 3 Initials:' }]);
    assert.equal(footer?.vestingDate, 'the last day of the perpetuity period applicable to the Trust');
  });

  it('gives a variation no vesting day unless it recites one', () => {
    const t = trust('DEED OF VARIATION KESTREL FAMILY TRUST THIS DEED is made on 9 May 2015. A. The Kestrel Family Trust (the "Trust") was established by deed dated 1 July 2001. 1. "Vesting Day" means 30 June 2080.');
    assert.equal(t?.establishedDate, '1 July 2001');
    assert.equal(t?.vestingDate, null);
  });
});
