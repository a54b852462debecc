// Layout 4: no parties block at all. The deed opens with its date and goes straight to clause 1, where
// every party is introduced in a numbered definition ("1.1 'Appointor' means …"), in alphabetical order
// among definitions of things that are not parties (Accounting Period, Net Income, Trust Fund).
import { discretionaryClauses, defaultTerms } from '../clauses.ts';
import { add, boilerplate, createDraft, dateOf, deedStyle, introduce, joinAnd, nameOf, paragraph, record, runs, term, truthParties } from '../draft.ts';
import { execution } from '../execution.ts';
import type { Random } from '../random.ts';
import { beneficiaryClasses, capitalised, createFamilyCast, createVesting, establishedDate, governingLawSentence, settledSum, type Written } from './common.ts';

export function writeDefinitionClauses(random: Random, short: boolean): Written {
  const draft = createDraft(random, short);
  const cast = createFamilyCast(random);
  const name = random.pick([`${capitalised(cast.family)} Family Trust`, `${capitalised(cast.family)} Investment Trust`, `${capitalised(cast.family)} Family Settlement`]);
  const established = establishedDate(random);
  const date = dateOf(draft, established);
  const vesting = createVesting(random, established);
  const appointorWord = random.pick(['Appointor', 'Appointor', 'Appointer', 'Nominator']);
  const guardianWord = random.pick(['Guardian', 'Protector']);
  const primaryWord = random.pick(['Primary Beneficiaries', 'Specified Beneficiaries', 'Principal Beneficiaries']);
  const classes = beneficiaryClasses(random, cast.primary.length > 0, { appointor: appointorWord, primary: primaryWord });
  const terms = { ...defaultTerms, Appointor: appointorWord, Guardian: guardianWord, Beneficiaries: classes[0]!.name };
  const trusteeTerm = cast.trustees.length > 1 ? 'Trustees' : 'Trustee';

  add(draft, { kind: 'title', text: random.pick(['DEED OF TRUST', 'DISCRETIONARY TRUST DEED', 'FAMILY TRUST DEED']), size: 17 });
  add(draft, { kind: 'heading', text: name.toUpperCase(), align: 'center', size: 13 });
  add(draft, paragraph(runs({ text: 'DATE: ', bold: true }, date)));
  add(draft, paragraph(runs({ text: 'OPERATIVE PART', bold: true }, '')));
  add(draft, { kind: 'heading', text: '1. DEFINITIONS' });
  add(draft, paragraph('In this Deed, unless the context otherwise requires, the following words have the following meanings.'));

  // Each definition is [term, rest]; sorted as a drafter sorts them.
  const definitions: Array<[string, string]> = [];
  const define = (word: string, text: string): void => {
    definitions.push([word, text]);
  };
  define('Accounting Period', 'means each period of twelve months ending on 30 June, and the period from the Commencement Date to the next 30 June.');
  const several = cast.appointors.length > 1;
  define(appointorWord, `means ${joinAnd(cast.appointors.map((p) => introduce(draft, p, { withBirth: random.chance(0.3) })))}${several ? ' jointly, or the survivor of them' : ''}, or any person who becomes ${appointorWord} under clause ${random.int(12, 19)}.`);
  cast.appointors.forEach((p) => record(draft, p, 'APPOINTOR'));
  define('Commencement Date', `means ${date}.`);
  for (const cls of classes) define(cls.name, `means ${cls.definition}.`);
  if (cast.guardian) {
    define(guardianWord, `means ${introduce(draft, cast.guardian)}, or any successor ${guardianWord} appointed under this Deed.`);
    record(draft, cast.guardian, 'PROTECTOR_GUARDIAN');
  }
  define('Net Income', 'means the income of the Trust Fund for an Accounting Period, determined by the Trustee under clause 6.');
  if (cast.primary.length) {
    define(primaryWord, `means ${joinAnd(cast.primary.map((p) => nameOf(draft, p, random.pick(['natural', 'family-capitals'] as const))))}.`);
    cast.primary.forEach((p) => record(draft, p, 'BENEFICIARY'));
  }
  define('Settled Sum', `means ${settledSum(random)}.`);
  define('Settlor', `means ${introduce(draft, cast.settlor)}.`);
  record(draft, cast.settlor, 'SETTLOR');
  define('Trust', `means the trust established by this Deed and known as the ${name}.`);
  define('Trust Fund', 'means the Settled Sum, all money and property added to it, and all accumulations of income, investments and property representing any of them.');
  define(trusteeTerm, `means ${joinAnd(cast.trustees.map((t) => introduce(draft, t)))}${cast.trustees.length > 1 ? ' jointly' : ''}, or the trustee or trustees of the Trust for the time being.`);
  cast.trustees.forEach((t) => record(draft, t, 'TRUSTEE'));
  define('Vesting Day', `means ${vesting.printed}.`);
  definitions.sort(([a], [b]) => a.localeCompare(b));
  definitions.forEach(([word, text], i) => add(draft, { kind: 'clause', number: `1.${i + 1}`, text: runs(term(draft, word), ` ${text}`) }));

  add(draft, { kind: 'heading', text: '2. ESTABLISHMENT OF THE TRUST' });
  add(draft, { kind: 'clause', number: '2.1', text: `The Settlor has paid the Settled Sum to the ${trusteeTerm}, who ${cast.trustees.length > 1 ? 'hold' : 'holds'} it on the trusts of this Deed.` });
  add(draft, { kind: 'clause', number: '2.2', text: 'The Trust is established on the Commencement Date.' });
  const { next } = boilerplate(draft, discretionaryClauses, { from: 3, count: short ? random.int(0, 1) : random.int(6, 32), terms, powers: !short && random.chance(0.5), capitals: random.chance(0.5) });
  add(draft, { kind: 'heading', text: `${next}. GOVERNING LAW` }, paragraph(governingLawSentence(random, cast.place)));
  if (!short) execution(draft, [{ entity: cast.settlor, capacity: 'Settlor' }, ...cast.trustees.map((t) => ({ entity: t, capacity: 'Trustee' })), ...cast.appointors.map((p) => ({ entity: p, capacity: appointorWord }))]);

  return {
    blocks: draft.blocks,
    style: deedStyle(draft, { createdAt: established, runningTitle: random.chance(0.3) ? name : undefined }),
    truth: {
      trust: { name, abn: null, trustType: 'DISCRETIONARY', jurisdiction: cast.place.stateName, establishedDate: date, vestingDate: vesting.printed },
      parties: truthParties(draft),
      beneficiaryClasses: classes.map((c) => c.name),
    },
    datesOfBirth: draft.datesOfBirth,
  };
}
