// The trust's name and ABN, and the deed's title block, read from a deed's (normalised) text. Each deed
// here is a few made-up sentences, as `buildDeedText` hands them over (one line, straight quotes).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Fields } from './schedule.ts';
import { findTrust, isVariation } from './trust-fields.ts';
import { titleOf } from './trust-name.ts';

const trust = (text: string, fields: Fields[] = [], hasClasses = false) => findTrust(text, fields, isVariation(text), hasClasses);

describe('trust name', () => {
  it('keeps the number a trust’s name ends with', () => {
    const t = trust('RECITALS A. The Settlor wishes to establish a trust to be known as the Kestrel Family Trust No. 4 (the "Trust").');
    assert.equal(t?.name, 'Kestrel Family Trust No. 4');
  });

  it('does not take the fund another party is trustee for as the trust', () => {
    const t = trust(
      'HOLDING TRUST DEED THIS DEED is made on 2 May 2019 BETWEEN Acme Custodians Pty Ltd (the "Custodian") AND Jo Bloggs as trustee for the Bloggs Super Fund (the "Member") BACKGROUND A. The Member is the trustee of the Bloggs Super Fund (the "Fund"), a complying superannuation fund. B. The Custodian will hold the property on a bare trust for the Member, to be known as the Bloggs Property Trust (the "Trust").',
    );
    assert.equal(t?.name, 'Bloggs Property Trust');
  });

  it('reads a title without the document’s own words, OCR’s run-together `TRUSTDEED` or a speck before it', () => {
    assert.equal(trust('DISCRETIONARY.TRUSTDEED KESTREL FAMILY TRUST DATE: 3 May 2001 The Trustee holds the fund.')?.name, 'KESTREL FAMILY TRUST');
    assert.equal(trust('5 KESTREL SUPERANNUATION FUND SELF MANAGED SUPERANNUATION FUND THIS DEED is made on 3 May 2001.')?.name, 'KESTREL SUPERANNUATION FUND');
  });

  it('drops a lone speck inside a name when the deed prints the name without it too', () => {
    const t = trust('A. The Trustee will act as trustee of a unit trust to be known as the Banksia Holdings 7 Unit Trust (the "Trust"). Banksia Holdings Unit Trust Page 1 of 2');
    assert.equal(t?.name, 'Banksia Holdings Unit Trust');
    const kept = trust('A. The Trustee will act as trustee of a unit trust to be known as the Banksia Holdings 7 Unit Trust (the "Trust").');
    assert.equal(kept?.name, 'Banksia Holdings 7 Unit Trust');
  });
});

describe('trust ABN', () => {
  it('reads the ABN printed after the name in the title, whatever its case', () => {
    const t = trust('DEED OF APPOINTMENT OF NEW TRUSTEE KESTREL FAMILY TRUST ABN 12 346 359 934 THIS DEED is made on 1 June 2010. A. The trust known as the Kestrel Family Trust (the "Trust") was settled.');
    assert.equal(t?.abn, '12346359934');
  });

  it('reads the ABN after the deed’s title words, but not a firm’s ABN', () => {
    const smsf = trust('KESTREL SUPERANNUATION FUND SELF MANAGED SUPERANNUATION FUND GOVERNING RULES AND TRUST DEED ABN 12 346 526 233 THIS DEED is made on 1 June 2010.');
    assert.equal(smsf?.abn, '12346526233');
    const firm = trust('KESTREL FAMILY TRUST TRUST DEED Wattle Lawyers ABN 12 346 526 233 Level 2, 10 King Street THIS DEED is made on 1 June 2010.');
    assert.equal(firm?.abn, null);
  });
});

describe('title block', () => {
  it('finds the title block before the body begins', () => {
    assert.equal(titleOf('THE KESTREL TRUST DISCRETIONARY TRUST DEED THIS DEED is made on 1 May 2001'), 'THE KESTREL TRUST DISCRETIONARY TRUST DEED ');
    assert.equal(titleOf('KESTREL TRUST Prepared by Wattle Lawyers'), 'KESTREL TRUST ');
    assert.equal(titleOf('KESTREL TRUST BY: Jo Bloggs'), 'KESTREL TRUST ');
  });
});
