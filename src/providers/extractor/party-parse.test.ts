// Reading parties out of the words that name them: companies and their numbers, people and their names,
// addresses, lists.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseParty, parsePartyList, splitName } from './party-parse.ts';

const names = (text: string, strict = false) => parsePartyList(text, { strict })?.map((p) => p.businessName ?? `${p.firstName} | ${p.lastName}`) ?? null;

describe('parseParty', () => {
  it('reads a company, its ACN in any spelling, its ABN and its address', () => {
    for (const acn of ['ACN 123 456 780', 'A.C.N. 123456780', '(ACN 123 456 780)', 'Australian Company Number 123 456 780', 'A.C.N. 123.456.780', 'ACN: 123-456-780']) {
      const p = parseParty(`Wattle Nominees Pty Ltd ${acn} of Level 2, 10 Queen Street, Brisbane QLD 4000`)!;
      assert.equal(p.kind, 'BUSINESS', acn);
      assert.equal(p.businessName, 'Wattle Nominees Pty Ltd');
      assert.equal(p.acn, '123456780', acn);
      assert.equal(p.address, 'Level 2, 10 Queen Street, Brisbane QLD 4000', acn);
    }
    const withAbn = parseParty('HARBOUR CUSTODIANS PTY. LTD. ACN 000 000 019 ABN 89 000 000 019 whose registered office is at 1 King St, Sydney NSW 2000')!;
    assert.equal(withAbn.businessName, 'HARBOUR CUSTODIANS PTY. LTD.');
    assert.deepEqual([withAbn.acn, withAbn.abn, withAbn.address], ['000000019', '89000000019', '1 King St, Sydney NSW 2000']);
  });

  it('drops an ACN or ABN whose check digits fail, and keeps the company', () => {
    const p = parseParty('Wattle Nominees Pty Ltd ACN 123 456 789 ABN 12 345 678 901')!;
    assert.equal(p.kind, 'BUSINESS');
    assert.equal(p.acn, null);
    assert.equal(p.abn, null);
  });

  it('reads a company without a suffix from its ACN, and refuses a sentence as a company', () => {
    assert.equal(parseParty('Smith Family Nominees ACN 123 456 780')?.businessName, 'Smith Family Nominees');
    assert.equal(parseParty('the liability of the Trustee is Limited'), null);
    assert.equal(parseParty('1.4 "Guardian" means Harbour Management Pty Ltd')?.businessName ?? null, null);
  });

  it('reads a person without title, date of birth or what follows the address', () => {
    const p = parseParty('Mr John Albert SMITH of 12 Wattle Street, Fitzroy VIC 3065, born 3 March 1980')!;
    assert.deepEqual([p.kind, p.firstName, p.lastName, p.address], ['INDIVIDUAL', 'John Albert', 'SMITH', '12 Wattle Street, Fitzroy VIC 3065']);
    assert.equal(parseParty('Jane Doe, 4 Hill Rd, Glenelg SA 5045')?.address, '4 Hill Rd, Glenelg SA 5045');
    assert.equal(parseParty('Jane Doe of 4 Hill Rd, Glenelg SA 5045, or the survivor of them')?.address, '4 Hill Rd, Glenelg SA 5045');
    // OCR may give accents as combining marks.
    assert.equal(parseParty('Jose\u0301 Nguye\u0302\u0303n of 1 King St, Sydney NSW 2000')?.lastName, 'Nguye\u0302\u0303n');
  });

  it('is not fooled by words that are not names', () => {
    assert.equal(parseParty('If John Smith dies'), null);
    assert.equal(parseParty('The Trustee'), null);
    assert.equal(parseParty('Sydney NSW 2000'), null);
  });
});

describe('splitName', () => {
  it('gives the family name its particles and the given names the rest, as printed', () => {
    assert.deepEqual(splitName(['Pieter', 'van', 'der', 'Berg']), { firstName: 'Pieter', lastName: 'van der Berg' });
    assert.deepEqual(splitName(['María', 'José', 'de', 'la', 'Cruz']), { firstName: 'María José', lastName: 'de la Cruz' });
    assert.deepEqual(splitName(['Anne-Marie', 'Smith-Jones']), { firstName: 'Anne-Marie', lastName: 'Smith-Jones' });
    assert.deepEqual(splitName(['Thi', 'Hoa', 'Nguyễn']), { firstName: 'Thi Hoa', lastName: 'Nguyễn' });
    assert.deepEqual(splitName(['Minh', 'Le']), { firstName: 'Minh', lastName: 'Le' });
  });
});

describe('parsePartyList', () => {
  it('splits people with addresses only where an address has ended', () => {
    assert.deepEqual(names('John Smith of Unit 4, 27 Beach Road, Bondi Beach NSW 2026 and Jane Smith of PO Box 12, Bondi Beach NSW 2026; and Olivia Nguyễn of 5 Hill Rd, Glenelg SA 5045'), [
      'John | Smith',
      'Jane | Smith',
      'Olivia | Nguyễn',
    ]);
  });

  it('splits numbered lists, lists of names, and `Name: … Address: …` blocks', () => {
    assert.deepEqual(names('1. Olivia Nguyễn 2. Minh Nguyễn 3. Pieter van der Berg'), ['Olivia | Nguyễn', 'Minh | Nguyễn', 'Pieter | van der Berg']);
    assert.deepEqual(names('José Núñez-García, Zoë Lefèvre and Łukasz Wójcik'), ['José | Núñez-García', 'Zoë | Lefèvre', 'Łukasz | Wójcik']);
    assert.deepEqual(names('1. Name: Grace Taylor Address: 4 Hill Rd, Glenelg SA 5045 2. Name: Jack Taylor'), ['Grace | Taylor', 'Jack | Taylor']);
  });

  it('reads a name printed family name first: `SMITH, John`', () => {
    const p = parseParty('SMITH, John Albert of 12 Wattle Street, Fitzroy VIC 3065')!;
    assert.deepEqual([p.kind, p.firstName, p.lastName, p.address], ['INDIVIDUAL', 'John Albert', 'SMITH', '12 Wattle Street, Fitzroy VIC 3065']);
    assert.deepEqual(names('SMITH, John and VAN DER BERG, Thomas'), ['John | SMITH', 'Thomas | VAN DER BERG']);
    assert.deepEqual(names('SMITH, John; JONES, Mary Anne of 4 Hill Rd, Glenelg SA 5045'), ['John | SMITH', 'Mary Anne | JONES']);
    // Capitals then a comma are not always a family name.
    assert.deepEqual(names('JOHN SMITH, Mary Jones'), ['JOHN | SMITH', 'Mary | Jones']);
    assert.equal(parseParty('TRUSTEE, John'), null);
    assert.equal(parseParty('SMITH, the Trustee'), null);
  });

  it('reads `John and Mary Smith` as two people sharing the family name and address', () => {
    assert.deepEqual(names('John and Mary Smith of 1 King St, Sydney NSW 2000'), ['John | Smith', 'Mary | Smith']);
    const [john, mary] = parsePartyList('John and Mary Jane Smith of 1 King St, Sydney NSW 2000', { strict: true })!;
    assert.deepEqual([john!.firstName, john!.lastName, john!.address], ['John', 'Smith', '1 King St, Sydney NSW 2000']);
    assert.deepEqual([mary!.firstName, mary!.lastName], ['Mary Jane', 'Smith']);
    assert.deepEqual(names('JOHN AND MARY SMITH'), ['JOHN | SMITH', 'MARY | SMITH']);
    assert.deepEqual(names('John Albert and Mary Smith'), ['John | Albert', 'Mary | Smith']);
    assert.deepEqual(names('The Trustee and Mary Smith'), []);
  });

  it('reads a unit register printed as a table: name, then holding', () => {
    assert.deepEqual(names('John Smith 50 Mary Jones 1,000 Units Wattle Nominees Pty Ltd 25'), ['John | Smith', 'Mary | Jones', 'Wattle Nominees Pty Ltd']);
    // An address's numbers separate nothing.
    assert.deepEqual(names('John Smith of 12 Wattle Street, Fitzroy VIC 3065 and Mary Jones of Level 4, 10 Queen St, Brisbane QLD 4000'), ['John | Smith', 'Mary | Jones']);
  });

  it('keeps `&` inside a company name', () => {
    assert.deepEqual(names('Smith & Jones Nominees Pty Limited A.C.N. 123456780'), ['Smith & Jones Nominees Pty Limited']);
  });

  it('strict: all of it must be parties', () => {
    assert.equal(names('If John Smith dies or becomes incapable', true), null);
    assert.equal(names('Jane Doe of 4 Hill Rd, Glenelg SA 5045 or such other person as', true), null);
    assert.deepEqual(names('HARBOUR PTY LTD (ACN 000 000 019)', true), ['HARBOUR PTY LTD']);
  });
});
