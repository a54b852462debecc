// Layout 2: "THIS DEED is made on … BETWEEN <settlor> (the "Settlor") AND <trustee> (the "Trustee")",
// recitals naming the trust, then operative clauses that name the appointor and the primary beneficiaries
// in running prose rather than in a schedule.
import { discretionaryClauses, defaultTerms } from '../clauses.ts';
import { add, addressOf, boilerplate, createDraft, dateOf, deedStyle, introduce, joinAnd, nameOf, paragraph, record, runs, term, truthParties } from '../draft.ts';
import { execution } from '../execution.ts';
import type { Random } from '../random.ts';
import { addTitle, beneficiaryClasses, createFamilyCast, createVesting, establishedDate, familyTrustName, governingLawSentence, settledSum, type Written } from './common.ts';

export function writeRecital(random: Random, short: boolean): Written {
  const draft = createDraft(random, short);
  const cast = createFamilyCast(random);
  const name = familyTrustName(random, cast.family);
  const established = establishedDate(random);
  const date = dateOf(draft, established);
  const vesting = createVesting(random, established);
  const appointorWord = random.pick(['Appointor', 'Appointor', 'Appointer', 'Principal']);
  const primaryWord = random.pick(['Primary Beneficiaries', 'Specified Beneficiaries']);
  const classes = beneficiaryClasses(random, cast.primary.length > 0, { appointor: appointorWord, primary: primaryWord });
  const terms = { ...defaultTerms, Appointor: appointorWord, Beneficiaries: classes[0]!.name };
  const plural = cast.trustees.length > 1;

  addTitle(draft, [random.pick(['DEED OF SETTLEMENT', 'DISCRETIONARY TRUST DEED', 'TRUST DEED']), random.chance(0.6) ? name.toUpperCase() : name]);
  add(draft, { kind: 'rule' });
  add(draft, paragraph(runs({ text: 'THIS DEED', bold: true }, ` is made on ${date}`)));
  add(draft, paragraph(runs({ text: 'BETWEEN ', bold: true }, introduce(draft, cast.settlor, { withBirth: random.chance(0.3) }), ' (the ', term(draft, 'Settlor'), ')')));
  const trustees = joinAnd(cast.trustees.map((t) => introduce(draft, t)));
  add(draft, paragraph(runs({ text: 'AND ', bold: true }, trustees, plural ? ' (together the ' : ' (the ', term(draft, 'Trustee'), ')')));
  record(draft, cast.settlor, 'SETTLOR');
  cast.trustees.forEach((t) => record(draft, t, 'TRUSTEE'));

  add(draft, { kind: 'heading', text: random.pick(['RECITALS', 'WHEREAS', 'BACKGROUND']) });
  const recitals = [
    `The Settlor desires to establish a discretionary trust to be known as the ${name} (the ${draft.quote('Trust')}).`,
    `The Settlor has paid to the Trustee ${settledSum(random)}, the receipt of which the Trustee acknowledges, to be held by the Trustee upon the trusts of this Deed.`,
    `The Trustee has consented to act as the first trustee of the Trust${plural ? ', the persons named as Trustee acting jointly' : ''}.`,
  ];
  recitals.forEach((text, i) => add(draft, { kind: 'clause', number: `${String.fromCharCode(65 + i)}.`, text }));
  add(draft, paragraph(runs({ text: 'NOW THIS DEED WITNESSES', bold: true }, ' as follows:')));

  let n = 1;
  add(draft, { kind: 'heading', text: `${n}. ${appointorWord.toUpperCase()}` });
  const appointorNames = joinAnd(cast.appointors.map((p) => introduce(draft, p, { withBirth: random.chance(0.35) })));
  const jointly = cast.appointors.length > 1 ? random.pick([' jointly, and upon the death of either of them the survivor', ', acting jointly']) : '';
  add(draft, { kind: 'clause', number: `${n}.1`, text: `The first ${appointorWord}${cast.appointors.length > 1 ? 's' : ''} of the Trust ${cast.appointors.length > 1 ? 'are' : 'is'} ${appointorNames}${jointly}.` });
  add(draft, { kind: 'clause', number: `${n}.2`, text: `The ${appointorWord} may at any time remove the Trustee and appoint a new or additional trustee by deed.` });
  cast.appointors.forEach((p) => record(draft, p, 'APPOINTOR'));
  n++;
  if (cast.guardian) {
    const guardianWord = random.pick(['Guardian', 'Protector']);
    add(draft, { kind: 'heading', text: `${n}. ${guardianWord.toUpperCase()}` });
    add(draft, paragraph(`${nameOf(draft, cast.guardian)}${cast.guardian.address ? ` of ${addressOf(draft, cast.guardian)}` : ''} is appointed ${guardianWord} of the Trust. The consent of the ${guardianWord} is required to any variation of this Deed and to any change of ${appointorWord}.`));
    record(draft, cast.guardian, 'PROTECTOR_GUARDIAN');
    n++;
  }
  add(draft, { kind: 'heading', text: `${n}. BENEFICIARIES` });
  let sub = 1;
  if (cast.primary.length) {
    add(draft, { kind: 'clause', number: `${n}.${sub++}`, text: runs('The ', term(draft, primaryWord), ` are ${joinAnd(cast.primary.map((p) => nameOf(draft, p)))}.`) });
    cast.primary.forEach((p) => record(draft, p, 'BENEFICIARY'));
  }
  for (const cls of classes) add(draft, { kind: 'clause', number: `${n}.${sub++}`, text: runs(term(draft, cls.name), ` means ${cls.definition}.`) });
  n++;
  add(draft, { kind: 'heading', text: `${n}. VESTING DAY` });
  add(draft, paragraph(runs(term(draft, 'Vesting Day'), ` means ${vesting.printed}, or such earlier date as the Trustee may appoint by deed.`)));
  n++;

  const { next } = boilerplate(draft, discretionaryClauses, { from: n, count: short ? random.int(0, 1) : random.int(5, 32), terms, powers: !short && random.chance(0.5), capitals: true });
  add(draft, { kind: 'heading', text: `${next}. GOVERNING LAW` }, paragraph(governingLawSentence(random, cast.place)));
  if (!short) {
    execution(draft, [{ entity: cast.settlor, capacity: 'Settlor' }, ...cast.trustees.map((t) => ({ entity: t, capacity: 'Trustee', directors: t.kind === 'company' && random.chance(0.5) ? cast.directors : null }))]);
  }

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
