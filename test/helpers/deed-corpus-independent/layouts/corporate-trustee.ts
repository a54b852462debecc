// Layout 7: a company trustee introduced with its directors ("… Pty Ltd ACN … whose directors are …"),
// numbered parties, and the company's execution block signed by those directors. Truth: the company is
// the TRUSTEE; its directors are not parties for being directors (a business lookup of the ACN finds
// them); a director who the deed also makes appointor or guardian is a party in that role only.
import { discretionaryClauses, defaultTerms } from '../clauses.ts';
import { add, boilerplate, createDraft, dateOf, deedStyle, introduce, joinAnd, nameOf, paragraph, record, runs, term, truthParties } from '../draft.ts';
import { execution } from '../execution.ts';
import { createCompany, createPerson } from '../people.ts';
import type { Random } from '../random.ts';
import { beneficiaryClasses, createFamilyCast, createVesting, establishedDate, familyTrustName, governingLawSentence, settledSum, type Written } from './common.ts';

export function writeCorporateTrustee(random: Random, short: boolean): Written {
  const draft = createDraft(random, short);
  const cast = createFamilyCast(random, { companyTrustee: true });
  const company = createCompany(random, { family: random.chance(0.5) ? cast.family : undefined, place: cast.place, capitals: random.chance(0.6), withAbn: random.chance(0.25), mistypedAcn: random.chance(0.12) });
  // Directors: the family's adults, sometimes with an outside director (the family accountant).
  const directors = [...cast.directors];
  if (random.chance(0.3)) directors.push(createPerson(random, { place: cast.place, withoutAddress: true }));
  // Who appoints: a director (the usual case), both, or someone who is not a director at all.
  const mode = random.pick(['first-director', 'all-directors', 'outsider'] as const);
  const appointors = mode === 'first-director' ? [directors[0]!] : mode === 'all-directors' ? directors.slice(0, 2) : [createPerson(random, { place: cast.place })];
  const name = familyTrustName(random, cast.family);
  const established = establishedDate(random);
  const date = dateOf(draft, established);
  const vesting = createVesting(random, established);
  const classes = beneficiaryClasses(random, false);
  const terms = { ...defaultTerms, Beneficiaries: classes[0]!.name };

  add(draft, { kind: 'title', text: random.pick(['DISCRETIONARY TRUST DEED', 'TRUST DEED']), size: 17 });
  add(draft, { kind: 'heading', text: name, align: 'center' });
  add(draft, paragraph(runs({ text: 'Date: ', bold: true }, date)));
  add(draft, { kind: 'heading', text: 'PARTIES' });
  add(draft, { kind: 'clause', number: '1.', text: runs(introduce(draft, cast.settlor), ' (', term(draft, 'Settlor'), ')') });
  record(draft, cast.settlor, 'SETTLOR');
  const directorStyle = random.pick(['natural', 'capitals'] as const);
  const directorNames = joinAnd(directors.map((d) => nameOf(draft, d, directorStyle)));
  const directorPhrase =
    directors.length === 1
      ? random.pick([`, of which ${directorNames} is the sole director and secretary`, ` whose sole director is ${directorNames}`])
      : random.pick([` whose directors are ${directorNames}`, `, the directors of which at the date of this Deed are ${directorNames}`, ` (directors: ${directorNames})`]);
  add(draft, { kind: 'clause', number: '2.', text: runs(introduce(draft, company), directorPhrase, ' (', term(draft, 'Trustee'), ')') });
  record(draft, company, 'TRUSTEE');
  add(draft, { kind: 'heading', text: 'BACKGROUND' });
  add(draft, { kind: 'clause', number: 'A.', text: `The Settlor wishes to establish a discretionary trust to be called the ${name} and has delivered ${settledSum(random)} to the Trustee.` });
  add(draft, { kind: 'clause', number: 'B.', text: 'The Trustee has agreed to hold the Settled Sum and all other property it receives as trustee on the trusts of this Deed.' });
  add(draft, { kind: 'heading', text: 'AGREED TERMS' });
  add(draft, { kind: 'heading', text: '1. APPOINTOR AND BENEFICIARIES' });
  const appointorText = joinAnd(appointors.map((p) => (p.address ? introduce(draft, p) : nameOf(draft, p))));
  const capacity = mode === 'outsider' ? '' : random.pick([' in that person’s personal capacity and not as a director of the Trustee', '', '']);
  add(draft, { kind: 'clause', number: '1.1', text: runs(term(draft, 'Appointor'), ` means ${appointorText}${capacity}${appointors.length > 1 ? ', acting jointly' : ''}.`) });
  appointors.forEach((p) => record(draft, p, 'APPOINTOR'));
  classes.forEach((cls, i) => add(draft, { kind: 'clause', number: `1.${i + 2}`, text: runs(term(draft, cls.name), ` means ${cls.definition}.`) }));
  add(draft, { kind: 'clause', number: `1.${classes.length + 2}`, text: runs(term(draft, 'Vesting Day'), ` means ${vesting.printed}.`) });
  add(draft, { kind: 'clause', number: `1.${classes.length + 3}`, text: 'No director or shareholder of the Trustee is, by reason only of that office or shareholding, a trustee of the Trust or entitled to any interest in the Trust Fund.' });
  const { next } = boilerplate(draft, discretionaryClauses, { from: 2, count: short ? random.int(0, 1) : random.int(5, 32), terms, powers: !short && random.chance(0.5), capitals: random.chance(0.5) });
  add(draft, { kind: 'heading', text: `${next}. GOVERNING LAW` }, paragraph(governingLawSentence(random, cast.place)));
  execution(draft, [...(short ? [] : [{ entity: cast.settlor, capacity: 'Settlor' }]), { entity: company, capacity: 'Trustee', directors }]);

  return {
    blocks: draft.blocks,
    style: deedStyle(draft, { createdAt: established, runningTitle: random.chance(0.4) ? name : undefined }),
    truth: {
      trust: { name, abn: null, trustType: 'DISCRETIONARY', jurisdiction: cast.place.stateName, establishedDate: date, vestingDate: vesting.printed },
      parties: truthParties(draft),
      beneficiaryClasses: classes.map((c) => c.name),
    },
    datesOfBirth: draft.datesOfBirth,
  };
}
