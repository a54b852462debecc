// Layout 1: a cover page with the trust's name in capitals and its ABN beneath, a contents page, then the
// deed: the settlor and trustee introduced on page 3 (or 2), the other parties in a schedule of items at
// the end. The preparing law firm on the cover is not a party.
import { discretionaryClauses, defaultTerms, interpretationClauses } from '../clauses.ts';
import { add, boilerplate, createDraft, dateOf, deedStyle, introduce, nameOf, paragraph, record, runs, term, truthParties } from '../draft.ts';
import { execution } from '../execution.ts';
import { generateAbn, printAbn } from '../identifiers.ts';
import { createAddress } from '../people.ts';
import type { Random } from '../random.ts';
import { beneficiaryClasses, createFamilyCast, createVesting, defineClass, establishedDate, familyTrustName, governingLawSentence, listNames, settledSum, type Written } from './common.ts';

const firms = ['Hargreaves Lim Lawyers', 'Beaumont & Okafor Solicitors', 'Whitlam Tran Legal', 'Carrington Ashby Lawyers', 'Moreton Bay Legal Group'];

export function writeCoverPage(random: Random, short: boolean): Written {
  const draft = createDraft(random, short);
  const cast = createFamilyCast(random);
  const name = familyTrustName(random, cast.family).toUpperCase();
  const abn = generateAbn(random);
  const established = establishedDate(random);
  const date = dateOf(draft, established);
  const vesting = createVesting(random, established);
  const classes = beneficiaryClasses(random, cast.primary.length > 0);
  const firm = random.pick(firms);
  const firmAddress = createAddress(random, cast.place);

  add(draft, { kind: 'space', points: short ? 90 : 150 });
  add(draft, { kind: 'title', text: random.chance(0.5) ? `THE ${name}` : name, size: random.pick([22, 24, 26]) });
  add(draft, { kind: 'paragraph', text: `ABN ${printAbn(abn)}`, align: 'center', size: 13 });
  add(draft, { kind: 'space', points: 36 });
  add(draft, { kind: 'title', text: random.pick(['DISCRETIONARY TRUST DEED', 'DEED OF SETTLEMENT', 'TRUST DEED']), size: 15 });
  add(draft, { kind: 'space', points: short ? 120 : 200 });
  add(draft, { kind: 'paragraph', text: `${firm}\n${firmAddress}\nRef: ${random.pick(['JL', 'MO', 'KT', 'RB'])}:${established.year}/${random.int(100, 999)}`, align: 'center', size: 9 });
  add(draft, { kind: 'page-break' });

  const clauseCount = short ? 0 : random.int(4, 32);
  const terms = { ...defaultTerms, Beneficiaries: classes[0]!.name };
  // The contents page lists the clauses the deed turns out to have, so it is put in once they are written.
  const contentsAt = draft.blocks.length;
  add(draft, { kind: 'title', text: random.pick(['DEED OF SETTLEMENT', 'TRUST DEED']), size: 14 });
  add(draft, paragraph(runs({ text: 'THIS DEED ', bold: true }, `is made on ${date}`)));
  const trusteeTerm = cast.trustees.length > 1 ? 'Trustees' : 'Trustee';
  add(draft, paragraph(runs({ text: 'BY: ', bold: true }, introduce(draft, cast.settlor), ' (the ', term(draft, 'Settlor'), ')')));
  add(draft, paragraph(runs({ text: 'IN FAVOUR OF: ', bold: true }, listNames(cast.trustees, (t) => introduce(draft, t)), ' (the ', term(draft, trusteeTerm), ')')));
  record(draft, cast.settlor, 'SETTLOR');
  cast.trustees.forEach((t) => record(draft, t, 'TRUSTEE'));

  add(draft, { kind: 'heading', text: 'RECITALS' });
  add(draft, { kind: 'clause', number: 'A.', text: `The Settlor wishes to establish a discretionary trust to be known as the ${name} and has paid or transferred to the ${trusteeTerm} ${settledSum(random)} to be held on the trusts of this Deed.` });
  add(draft, { kind: 'clause', number: 'B.', text: `The ${trusteeTerm} ${cast.trustees.length > 1 ? 'have' : 'has'} agreed to act as trustee of the Trust and to hold the Trust Fund on the trusts and with the powers set out in this Deed.` });

  add(draft, { kind: 'heading', text: '1. DEFINITIONS AND INTERPRETATION' });
  add(draft, paragraph('In this Deed, unless the context otherwise requires:'));
  add(draft, paragraph(runs(term(draft, 'Appointor'), ' means the person or persons named in Item 3 of the Schedule, or any successor appointed under this Deed.'), 14));
  for (const cls of classes) add(draft, defineClass(draft, cls, 14));
  if (cast.guardian) add(draft, paragraph(runs(term(draft, 'Guardian'), ' means the person named in Item 4 of the Schedule.'), 14));
  if (cast.primary.length) add(draft, paragraph(runs(term(draft, 'Primary Beneficiaries'), ' means the persons named in Item 5 of the Schedule.'), 14));
  add(draft, paragraph(runs(term(draft, 'Vesting Day'), ' means the date specified in Item 6 of the Schedule or such earlier date as the Trustee determines.'), 14));
  if (!short) boilerplate(draft, interpretationClauses, { from: 2, count: 1, terms });
  const { next, headings } = boilerplate(draft, discretionaryClauses, { from: short ? 2 : 3, count: clauseCount, terms, powers: !short && random.chance(0.5), capitals: random.chance(0.5) });
  add(draft, { kind: 'heading', text: `${next}. GOVERNING LAW` }, paragraph(governingLawSentence(random, cast.place)));
  if (!short) {
    const rows = [['1.', 'Definitions and interpretation'], ['2.', 'Interpretation'], ...headings.map((h, i) => [`${i + 3}.`, h]), [`${next}.`, 'Governing law'], ['', 'Schedule'], ['', 'Execution page']];
    draft.blocks.splice(contentsAt, 0, { kind: 'heading', text: 'CONTENTS', align: 'center' }, { kind: 'table', widths: [1, 9], rows, borders: false }, { kind: 'page-break' });
  }

  if (!short) add(draft, { kind: 'page-break' });
  add(draft, { kind: 'heading', text: 'SCHEDULE', align: 'center' });
  const item = (n: number, label: string, value: string): void => add(draft, { kind: 'clause', number: `Item ${n}`, text: runs({ text: `${label}: `, bold: true }, value) });
  item(1, 'Settlor', nameOf(draft, cast.settlor));
  item(2, 'Trustee', listNames(cast.trustees, (t) => nameOf(draft, t)));
  item(3, 'Appointor', listNames(cast.appointors, (p) => introduce(draft, p, { withBirth: random.chance(0.4) })));
  cast.appointors.forEach((p) => record(draft, p, 'APPOINTOR'));
  item(4, 'Guardian', cast.guardian ? introduce(draft, cast.guardian) : random.pick(['Nil', 'Not applicable', 'None appointed']));
  if (cast.guardian) record(draft, cast.guardian, 'PROTECTOR_GUARDIAN');
  item(5, 'Primary Beneficiaries', cast.primary.length ? listNames(cast.primary, (p) => nameOf(draft, p)) : 'Nil');
  cast.primary.forEach((p) => record(draft, p, 'BENEFICIARY'));
  item(6, 'Vesting Day', vesting.printed);

  if (!short) execution(draft, [{ entity: cast.settlor, capacity: 'Settlor' }, ...cast.trustees.map((t) => ({ entity: t, capacity: 'Trustee', directors: t.kind === 'company' ? cast.directors : null }))]);

  return {
    blocks: draft.blocks,
    style: deedStyle(draft, { createdAt: established, runningTitle: random.chance(0.5) ? `${name} – Trust Deed` : undefined, firm }),
    truth: {
      trust: { name, abn, trustType: 'DISCRETIONARY', jurisdiction: cast.place.stateName, establishedDate: date, vestingDate: vesting.printed },
      parties: truthParties(draft),
      beneficiaryClasses: classes.map((c) => c.name),
    },
    datesOfBirth: draft.datesOfBirth,
  };
}
