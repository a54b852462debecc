// Layout 10: a bare (custody) trust deed for a self managed super fund's limited recourse borrowing: a
// custodian company holds one property on bare trust for the fund's trustee. Truth: the custodian is the
// TRUSTEE; the fund's trustee (a company, or individuals) is the BENEFICIARY. The lender and the fund are
// named but are not parties of this trust, and the fund's name is not the trust's.
import { bareClauses, defaultTerms, generalClauses } from '../clauses.ts';
import { add, boilerplate, companyNumbers, createDraft, dateOf, deedStyle, introduce, joinAnd, paragraph, record, runs, term, truthParties } from '../draft.ts';
import { execution } from '../execution.ts';
import { abnForAcn, generateAcn, printAbn } from '../identifiers.ts';
import { createAddress, createCompany, createPerson, createPlace, pickFamilyName, type Entity } from '../people.ts';
import type { Random } from '../random.ts';
import { capitalised, establishedDate, governingLawSentence, type Written } from './common.ts';

const lenders = ['Southern Cross Mutual Bank Limited', 'Bayside Community Bank Ltd', 'Harbour Lending Services Pty Ltd', 'Pacific Coast Credit Union Limited'];

export function writeBareCustodian(random: Random, short: boolean): Written {
  const draft = createDraft(random, short);
  const family = pickFamilyName(random);
  const place = createPlace(random);
  const custodian = createCompany(random, { family: random.chance(0.5) ? family : undefined, kind: random.pick(['Custodian', 'Property', 'Nominees'] as const), place, capitals: random.chance(0.6), mistypedAcn: random.chance(0.1) });
  const fundName = `${capitalised(family)} ${random.pick(['Superannuation Fund', 'Super Fund', 'Family Superannuation Fund'])}`;
  const fundTrustees: Entity[] = random.chance(0.55)
    ? [createCompany(random, { family, kind: 'Super', place, capitals: random.chance(0.5) })]
    : [createPerson(random, { family, place }), createPerson(random, { family, place })];
  if (fundTrustees.length === 2) fundTrustees[1]!.address = fundTrustees[0]!.address;
  const property = createAddress(random, place);
  const lender = random.pick(lenders);
  const lenderAbn = abnForAcn(generateAcn(random));
  const name = `${capitalised(family)} ${random.pick(['Property Trust', 'Super Property Trust', 'Custody Trust', 'Bare Trust', 'Holding Trust'])}`;
  const established = establishedDate(random, 2008, 2025);
  const date = dateOf(draft, established, ['long', 'ordinal']);
  const custodianWord = random.pick(['Custodian', 'Bare Trustee', 'Holding Trustee']);
  const beneficiaryWord = random.pick(['Beneficiary', 'Fund Trustee', 'Borrower']);
  const terms = { ...defaultTerms, Trustee: custodianWord, Beneficiaries: beneficiaryWord, Trust: 'Trust' };

  add(draft, { kind: 'title', text: random.pick(['BARE TRUST DEED', 'CUSTODY TRUST DEED', 'HOLDING TRUST DEED']), size: 17 });
  add(draft, { kind: 'heading', text: name.toUpperCase(), align: 'center' });
  add(draft, paragraph(runs({ text: 'THIS DEED ', bold: true }, `is made on ${date}`)));
  add(draft, paragraph(runs({ text: 'BETWEEN ', bold: true }, introduce(draft, custodian), ' (the ', term(draft, custodianWord), ')')));
  const trusteeList = joinAnd(fundTrustees.map((t) => introduce(draft, t)));
  add(draft, paragraph(runs({ text: 'AND ', bold: true }, `${trusteeList} as trustee${fundTrustees.length > 1 ? 's' : ''} for the ${fundName} (the `, term(draft, beneficiaryWord), ')')));
  record(draft, custodian, 'TRUSTEE');
  fundTrustees.forEach((t) => record(draft, t, 'BENEFICIARY'));
  add(draft, { kind: 'heading', text: 'BACKGROUND' });
  const recitals = [
    `The ${beneficiaryWord} is the trustee of the ${fundName} (the ${draft.quote('Fund')}), a regulated superannuation fund.`,
    `The ${beneficiaryWord} intends to acquire the property at ${property} (the ${draft.quote('Asset')}) with money borrowed from ${lender} ABN ${printAbn(lenderAbn)} (the ${draft.quote('Lender')}) under a limited recourse borrowing arrangement (the ${draft.quote('Loan')}).`,
    `The ${custodianWord} has agreed to acquire and hold the legal title to the Asset on a bare trust for the ${beneficiaryWord}, to be known as the ${name} (the ${draft.quote('Trust')}).`,
  ];
  recitals.forEach((text, i) => add(draft, { kind: 'clause', number: `${String.fromCharCode(65 + i)}.`, text }));
  add(draft, { kind: 'heading', text: 'OPERATIVE PROVISIONS' });
  const { next } = boilerplate(draft, bareClauses, { from: 1, count: short ? random.int(1, 2) : random.int(4, 7), terms, capitals: random.chance(0.5) });
  const after = short ? next : boilerplate(draft, generalClauses, { from: next, count: random.int(1, 2), terms }).next;
  add(draft, { kind: 'heading', text: `${after}. GOVERNING LAW` }, paragraph(governingLawSentence(random, place)));
  if (!short) {
    execution(draft, [{ entity: custodian, capacity: custodianWord }, ...fundTrustees.map((t) => ({ entity: t, capacity: `trustee for the ${fundName}` }))]);
  } else if (random.chance(0.5)) {
    add(draft, paragraph(`EXECUTED by ${custodian.name}${companyNumbers(draft, custodian, false)} in accordance with section 127 of the Corporations Act 2001 (Cth).`));
  }

  return {
    blocks: draft.blocks,
    style: deedStyle(draft, { createdAt: established }),
    truth: {
      trust: { name, abn: null, trustType: 'BARE', jurisdiction: place.stateName, establishedDate: date, vestingDate: null },
      parties: truthParties(draft),
      beneficiaryClasses: [],
    },
    datesOfBirth: draft.datesOfBirth,
  };
}
