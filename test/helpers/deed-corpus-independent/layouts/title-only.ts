// Layout 9: the trust's name appears once, in the title ("THE SMITH FAMILY TRUST DEED"), and nowhere else:
// the body says only "the Trust", the footer carries no name. Truth: the name without "The" and "Deed".
import { discretionaryClauses, defaultTerms, interpretationClauses } from '../clauses.ts';
import { add, boilerplate, createDraft, dateOf, deedStyle, introduce, joinAnd, nameOf, paragraph, record, runs, term, truthParties } from '../draft.ts';
import { execution } from '../execution.ts';
import type { Random } from '../random.ts';
import { beneficiaryClasses, createFamilyCast, createVesting, establishedDate, governingLawSentence, settledSum, capitalised, type Written } from './common.ts';

export function writeTitleOnly(random: Random, short: boolean): Written {
  const draft = createDraft(random, short);
  const cast = createFamilyCast(random);
  const name = `${capitalised(cast.family)} ${random.pick(['Family Trust', 'Family Trust', 'Trust', 'Investment Trust'])}`.toUpperCase();
  const established = establishedDate(random);
  const date = dateOf(draft, established);
  const vesting = createVesting(random, established);
  const classes = beneficiaryClasses(random, cast.primary.length > 0);
  const terms = { ...defaultTerms, Beneficiaries: classes[0]!.name };
  const trusteeTerm = cast.trustees.length > 1 ? 'Trustees' : 'Trustee';

  add(draft, { kind: 'title', text: `${random.chance(0.7) ? 'THE ' : ''}${name} DEED`, size: random.pick([16, 18, 20]) });
  add(draft, { kind: 'space', points: 6 });
  add(draft, paragraph(runs({ text: 'THIS DEED OF TRUST ', bold: true }, `is made on ${date} by ${introduce(draft, cast.settlor)} (the `, term(draft, 'Settlor'), `) in favour of ${joinAnd(cast.trustees.map((t) => introduce(draft, t)))} (the `, term(draft, trusteeTerm), ').')));
  record(draft, cast.settlor, 'SETTLOR');
  cast.trustees.forEach((t) => record(draft, t, 'TRUSTEE'));
  add(draft, paragraph(runs({ text: 'WHEREAS ', bold: true }, `the Settlor wishes to establish a discretionary trust (the `, term(draft, 'Trust'), `) and has paid ${settledSum(random)} to the ${trusteeTerm} to be held on the trusts of this deed.`)));
  add(draft, { kind: 'heading', text: '1. PERSONS WITH POWERS' });
  add(draft, { kind: 'clause', number: '1.1', text: `The Appointor of the Trust is ${joinAnd(cast.appointors.map((p) => introduce(draft, p, { withBirth: random.chance(0.4) })))}${cast.appointors.length > 1 ? ', acting jointly, and after the death of one of them the survivor' : ''}.` });
  cast.appointors.forEach((p) => record(draft, p, 'APPOINTOR'));
  if (cast.guardian) {
    add(draft, { kind: 'clause', number: '1.2', text: `${introduce(draft, cast.guardian)} is the Guardian of the Trust, whose written consent is required for any variation of this deed.` });
    record(draft, cast.guardian, 'PROTECTOR_GUARDIAN');
  }
  add(draft, { kind: 'heading', text: '2. BENEFICIARIES AND VESTING' });
  let sub = 1;
  if (cast.primary.length) {
    add(draft, { kind: 'clause', number: `2.${sub++}`, text: runs(term(draft, 'Primary Beneficiaries'), ` means ${joinAnd(cast.primary.map((p) => nameOf(draft, p)))}.`) });
    cast.primary.forEach((p) => record(draft, p, 'BENEFICIARY'));
  }
  for (const cls of classes) add(draft, { kind: 'clause', number: `2.${sub++}`, text: runs(term(draft, cls.name), ` means ${cls.definition}.`) });
  add(draft, { kind: 'clause', number: `2.${sub++}`, text: runs(term(draft, 'Vesting Day'), ` means ${vesting.printed}.`) });
  if (!short) boilerplate(draft, interpretationClauses, { from: 3, count: 1, terms });
  const { next } = boilerplate(draft, discretionaryClauses, { from: short ? 3 : 4, count: short ? random.int(0, 1) : random.int(5, 32), terms, powers: !short && random.chance(0.5), capitals: true });
  add(draft, { kind: 'heading', text: `${next}. GOVERNING LAW` }, paragraph(governingLawSentence(random, cast.place)));
  if (!short) execution(draft, [{ entity: cast.settlor, capacity: 'Settlor' }, ...cast.trustees.map((t) => ({ entity: t, capacity: trusteeTerm.replace(/s$/, '') }))]);

  return {
    blocks: draft.blocks,
    // No running title: the name must stay in the title alone.
    style: deedStyle(draft, { createdAt: established }),
    truth: {
      trust: { name, abn: null, trustType: 'DISCRETIONARY', jurisdiction: cast.place.stateName, establishedDate: date, vestingDate: vesting.printed },
      parties: truthParties(draft),
      beneficiaryClasses: classes.map((c) => c.name),
    },
    datesOfBirth: draft.datesOfBirth,
  };
}
