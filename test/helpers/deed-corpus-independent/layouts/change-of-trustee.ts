// Layout 8: a deed of retirement and appointment of trustee (sometimes also changing the appointor) for an
// existing discretionary trust. Truth is the trust as it stands after this deed: the new and continuing
// trustees and the appointor in office afterwards are parties; the retiring trustee, a retiring appointor
// and the trust's first trustee (recited) are not. The original settlor, recited, is the SETTLOR (a
// settlor does not change). The established date is the original deed's date, not this deed's; the
// governing law is this deed's clause; a vesting day is given only when the recitals state one.
import { generalClauses, defaultTerms } from '../clauses.ts';
import { add, addressOf, boilerplate, createDraft, dateOf, deedStyle, introduce, joinAnd, nameOf, paragraph, record, runs, term, truthParties } from '../draft.ts';
import { execution, type Signatory } from '../execution.ts';
import { generateAbn, printAbn } from '../identifiers.ts';
import { createCompany, createDate, createPerson, type Entity } from '../people.ts';
import type { Random } from '../random.ts';
import { createFamilyCast, createVesting, establishedDate, familyTrustName, governingLawSentence, type Written } from './common.ts';

export function writeChangeOfTrustee(random: Random, short: boolean): Written {
  const draft = createDraft(random, short);
  const cast = createFamilyCast(random, { companyTrustee: false, addresses: true });
  const name = familyTrustName(random, cast.family);
  const abn = random.chance(0.5) ? generateAbn(random) : null;
  const established = establishedDate(random, 1980, 2012);
  const originalDate = dateOf(draft, established, ['long', 'long', 'ordinal', 'day-of']);
  const variation = createDate(random, established.year + 3, 2025);
  const variationDate = dateOf(draft, variation, ['long']);
  const vesting = random.chance(0.3) ? createVesting(random, established) : null;

  // Who leaves and who comes: all individual trustees replaced by a company, or one of two retires and
  // a new individual joins the one who stays.
  const mode = cast.trustees.length > 1 && random.chance(0.5) ? 'one-retires' : 'company-replaces';
  const retiring: Entity[] = mode === 'one-retires' ? [cast.trustees[1]!] : cast.trustees;
  const continuing: Entity[] = mode === 'one-retires' ? [cast.trustees[0]!] : [];
  const incoming: Entity[] =
    mode === 'one-retires'
      ? [createPerson(random, { family: cast.family, place: cast.place })]
      : [createCompany(random, { family: random.chance(0.6) ? cast.family : undefined, place: cast.place, capitals: random.chance(0.5), mistypedAcn: random.chance(0.1) })];
  // Sometimes the appointor changes in the same deed: the first appointor retires in favour of a child.
  const appointorChanges = random.chance(0.4);
  const newAppointor = appointorChanges ? createPerson(random, { family: cast.family, place: cast.place, bornFrom: 1975, bornTo: 2000 }) : null;
  const appointors = cast.appointors;
  const firstTrustee = cast.trustees;

  add(draft, { kind: 'title', text: random.pick(['DEED OF RETIREMENT AND APPOINTMENT OF TRUSTEE', 'DEED OF VARIATION – CHANGE OF TRUSTEE', 'DEED OF APPOINTMENT OF NEW TRUSTEE']), size: 15 });
  add(draft, { kind: 'heading', text: name.toUpperCase(), align: 'center' });
  if (abn) add(draft, { kind: 'paragraph', text: `ABN ${printAbn(abn)}`, align: 'center' });
  add(draft, paragraph(runs({ text: 'THIS DEED ', bold: true }, `is made on ${variationDate}`)));
  add(draft, { kind: 'heading', text: 'PARTIES' });
  const appointorTerm = appointors.length > 1 ? 'Appointors' : 'Appointor';
  const parties: Array<[Entity[], string]> = [[appointors, appointorTerm], [retiring, 'Retiring Trustee']];
  if (continuing.length) parties.push([continuing, 'Continuing Trustee']);
  parties.push([incoming, 'New Trustee']);
  if (newAppointor) parties.push([[newAppointor], 'New Appointor']);
  parties.forEach(([entities, label], i) => add(draft, { kind: 'clause', number: `${i + 1}.`, text: runs(joinAnd(entities.map((e) => introduce(draft, e))), ' (the ', term(draft, label), ')') }));

  add(draft, { kind: 'heading', text: random.pick(['RECITALS', 'BACKGROUND']) });
  const settlorPhrase = `${nameOf(draft, cast.settlor)}${cast.settlor.address ? ` of ${addressOf(draft, cast.settlor)}` : ''}`;
  const recitals = [
    `By a deed of settlement dated ${originalDate} (the ${draft.quote('Trust Deed')}) made by ${settlorPhrase} as settlor, a discretionary trust known as the ${name} (the ${draft.quote('Trust')}) was established, with ${joinAnd(firstTrustee.map((t) => nameOf(draft, t)))} as the first ${firstTrustee.length > 1 ? 'trustees' : 'trustee'}.`,
    `The ${appointorTerm} ${appointors.length > 1 ? 'are' : 'is'} the ${appointorTerm.toLowerCase()} of the Trust under the Trust Deed and ${appointors.length > 1 ? 'have' : 'has'} the power to remove and appoint trustees.`,
    `The Retiring Trustee wishes to retire as trustee of the Trust, and the New Trustee has consented to be appointed in place of the Retiring Trustee${continuing.length ? ', to act jointly with the Continuing Trustee' : ''}.`,
  ];
  if (vesting) recitals.push(`Under the Trust Deed the vesting day of the Trust is ${vesting.printed}, and nothing in this deed alters it.`);
  recitals.forEach((text, i) => add(draft, { kind: 'clause', number: `${String.fromCharCode(65 + i)}.`, text }));
  record(draft, cast.settlor, 'SETTLOR');

  add(draft, { kind: 'heading', text: 'OPERATIVE PROVISIONS' });
  let n = 1;
  const effective = random.chance(0.5) ? 'the date of this deed' : `${dateOf(draft, { ...variation, day: Math.min(variation.day + 1, 28) }, ['long'])} (the ${draft.quote('Effective Date')})`;
  add(draft, { kind: 'clause', number: `${n++}.`, text: `With effect from ${effective}, the Retiring Trustee retires as trustee of the Trust and is discharged from all further obligations as trustee.` });
  add(draft, { kind: 'clause', number: `${n++}.`, text: `The ${appointorTerm}, in exercise of the power conferred by the Trust Deed, ${appointors.length > 1 ? 'appoint' : 'appoints'} the New Trustee as trustee of the Trust${continuing.length ? ' to act jointly with the Continuing Trustee' : ''} with effect from the same time.` });
  add(draft, { kind: 'clause', number: `${n++}.`, text: 'The Retiring Trustee shall transfer to the New Trustee all property of the Trust held by it, and shall deliver to the New Trustee the books and records of the Trust.' });
  continuing.forEach((t) => record(draft, t, 'TRUSTEE'));
  incoming.forEach((t) => record(draft, t, 'TRUSTEE'));
  if (newAppointor) {
    add(draft, { kind: 'clause', number: `${n++}.`, text: `With effect from the same time the ${appointorTerm} ${appointors.length > 1 ? 'retire' : 'retires'} as ${appointorTerm.toLowerCase()} of the Trust and the New Appointor becomes the sole appointor of the Trust, with all the powers the Trust Deed confers on the Appointor.` });
    record(draft, newAppointor, 'APPOINTOR');
  } else {
    appointors.forEach((p) => record(draft, p, 'APPOINTOR'));
  }
  add(draft, { kind: 'clause', number: `${n++}.`, text: 'Except as set out in this deed, the Trust Deed continues in full force and effect, and this deed does not create a new trust or cause a resettlement of the Trust.' });
  add(draft, { kind: 'clause', number: `${n++}.`, text: governingLawSentence(random, cast.place).replace('This Deed', 'This deed') });
  if (!short) boilerplate(draft, generalClauses, { from: n, count: random.int(1, 3), terms: defaultTerms });

  const capacities = new Map<Entity, string[]>();
  parties.forEach(([entities, label]) => entities.forEach((e) => capacities.set(e, [...(capacities.get(e) ?? []), label.replace(/s$/, '')])));
  const signers: Signatory[] = [...capacities].map(([entity, labels]) => ({
    entity,
    capacity: joinAnd(labels),
    directors: entity.kind === 'company' && random.chance(0.5) ? [createPerson(random, { withoutAddress: true }), createPerson(random, { withoutAddress: true })] : null,
  }));
  if (!short) execution(draft, signers);

  return {
    blocks: draft.blocks,
    style: deedStyle(draft, { createdAt: variation, runningTitle: random.chance(0.4) ? `${name} – Change of Trustee` : undefined }),
    truth: {
      trust: { name, abn, trustType: 'DISCRETIONARY', jurisdiction: cast.place.stateName, establishedDate: originalDate, vestingDate: vesting?.printed ?? null },
      parties: truthParties(draft),
      beneficiaryClasses: [],
    },
    datesOfBirth: draft.datesOfBirth,
  };
}
