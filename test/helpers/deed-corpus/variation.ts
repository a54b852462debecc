// Deeds of variation, and of retirement and appointment: they change an existing trust (a new appointor,
// a new trustee, an added guardian). The truth is the trust as the document leaves it: the retiring
// appointor or trustee is not a party of it; the establishment date is the original deed's, not the
// variation's; the vesting date is null (a variation does not restate it).
import { boilerplateClause } from './boilerplate.ts';
import { castFor } from './cast.ts';
import { groupAbn, makeAbn } from './identifiers.ts';
import { fullName, makeCompany, makePerson, type Party } from './people.ts';
import { createPrinter, dedupe, definedTerm } from './print.ts';
import { createRandom } from './random.ts';
import type { DeedBlock, DeedCase, DeedTruth, ExpectedParty } from './types.ts';
import { appointorWords, governingLawSentence, makeDate, states } from './wording.ts';

export interface VariationSpec {
  id: string;
  seed: number;
  change: 'appointor' | 'trustee' | 'guardian' | 'smsf-trustee';
  tfn?: boolean;
}

export function composeVariation(spec: VariationSpec): DeedCase {
  const r = createRandom(spec.seed);
  const w = r.fork('words');
  const kind = spec.change === 'smsf-trustee' ? 'SMSF' : 'DISCRETIONARY';
  const cast = castFor(r.fork('cast'), kind);
  const printer = createPrinter(r.fork('print'), w.pick(['ACN spaced', 'A.C.N. plain', '(ACN spaced)'] as const), w.pick(['of', 'whose registered office is at'] as const));
  const state = w.pick(states);
  const original = makeDate(w, 1985, 2012);
  const made = makeDate(w, 2016, 2025);
  const trustAbn = w.chance(0.75) ? makeAbn(w) : null;
  const AW = w.pick(appointorWords);
  const upper = w.chance(0.5);
  const unit = kind === 'SMSF' ? 'Fund' : 'Trust';
  const truthParties: Array<[Party, ExpectedParty['role']]> = [];
  const parties: string[] = [];
  const operative: string[] = [];
  const party = (ps: Party[], term: string, role: ExpectedParty['role'] | null) => {
    if (role) for (const p of ps) truthParties.push([p, role]);
    const capacity = term === 'Trustee' && w.chance(0.5) ? ` in ${ps.length > 1 ? 'their' : ps[0]!.kind === 'BUSINESS' ? 'its' : 'his or her'} capacity as trustee of the ${cast.trustName}` : '';
    parties.push(`${printer.list(ps, 'and', { upper, address: true })}${capacity} ${definedTerm(w, ps.length > 1 ? `${term}s` : term, ps.length > 1)}`);
  };
  const names = (ps: Party[]) => printer.list(ps, 'and', { address: w.chance(0.5) });
  // Someone new to the trust, whose name no one in the family has.
  const fresh = (label: string, lastName?: string) => {
    for (let i = 0; ; i++) {
      const p = makePerson(r.fork(`${label}${i}`), lastName);
      if (!cast.family.some((f) => f.firstName.split(' ')[0] === p.firstName.split(' ')[0])) return p;
    }
  };

  let title: string;
  let purpose: string;
  if (spec.change === 'appointor') {
    title = w.pick(['DEED OF VARIATION', 'Deed of Variation – Change of Appointor']);
    const incoming = [fresh('new', cast.familyName)];
    party(cast.trustees, 'Trustee', 'TRUSTEE');
    party(cast.appointors, `${w.pick(['Retiring', 'Outgoing'])} ${AW}`, null);
    party(incoming, `New ${AW}`, 'APPOINTOR');
    purpose = `The Retiring ${AW} wishes to retire as ${AW} and the parties wish to appoint the New ${AW} in its place.`.replace('Retiring', parties[1]!.includes('Outgoing') ? 'Outgoing' : 'Retiring');
    operative.push(
      `${cast.appointors.map(fullName).join(' and ')} ${cast.appointors.length > 1 ? 'retire' : 'retires'} as ${AW} of the ${unit} with effect from the date of this Deed.`,
      `The definition of "${AW}" in clause 1.1 of the Original Deed is deleted and replaced with: "${AW}" means ${names(incoming)}.`,
    );
  } else if (spec.change === 'trustee') {
    title = w.pick(['DEED OF RETIREMENT AND APPOINTMENT OF TRUSTEE', 'Deed of Change of Trustee']);
    const incoming = makeCompany(r.fork('new'), { familyName: cast.familyName, kind: 'Nominees' });
    party(cast.appointors, AW, 'APPOINTOR');
    party(cast.trustees, 'Retiring Trustee', null);
    party([incoming], 'New Trustee', 'TRUSTEE');
    purpose = `The Retiring Trustee wishes to retire as trustee of the ${unit}, and the ${AW} has power under the Original Deed to appoint a new trustee.`;
    operative.push(
      `The Retiring Trustee retires as trustee of the ${unit}, and the ${AW} appoints the New Trustee as trustee of the ${unit}, with effect from the date of this Deed.`,
      'The Retiring Trustee must transfer the Trust Fund to the New Trustee and sign every document needed to vest it in the New Trustee.',
    );
  } else if (spec.change === 'guardian') {
    title = 'DEED OF VARIATION';
    const guardian = fresh('guardian');
    const successors = cast.family.filter((p) => !cast.appointors.includes(p)).slice(0, 2);
    if (!successors.length) successors.push(fresh('successor', cast.familyName));
    party(cast.trustees, 'Trustee', 'TRUSTEE');
    party(cast.appointors, AW, 'APPOINTOR');
    truthParties.push([guardian, 'PROTECTOR_GUARDIAN']);
    for (const p of successors) truthParties.push([p, 'APPOINTOR']);
    purpose = `The parties wish to provide for a Guardian of the ${unit} and for the succession of the ${AW}.`;
    operative.push(
      `The Original Deed is varied by inserting in clause 1.1 the following definition: "Guardian" means ${names([guardian])}.`,
      `The Original Deed is varied by inserting after clause 3.2: "3.3 Upon the death or incapacity of the last surviving ${AW}, ${names(successors)} shall become the ${AW}."`,
    );
  } else {
    title = w.pick(['DEED OF VARIATION AND CHANGE OF TRUSTEE', 'Deed of Amendment – Change of Trustee']);
    const incoming = makeCompany(r.fork('new'), { familyName: cast.familyName, kind: 'Super' });
    party(cast.trustees, 'Retiring Trustee', null);
    party([incoming], 'New Trustee', 'TRUSTEE');
    party(cast.named, 'Member', 'BENEFICIARY');
    purpose = `The Members wish the New Trustee, of which each Member is a director, to become the trustee of the ${unit} in place of the Retiring Trustee${cast.trustees.length > 1 ? 's' : ''}.`;
    operative.push(`The Retiring Trustee${cast.trustees.length > 1 ? 's retire' : ' retires'} as trustee of the ${unit} and the Members appoint the New Trustee as trustee of the ${unit} with effect from the date of this Deed.`);
  }

  const settlorNamed = cast.settlor !== null && w.chance(0.6);
  if (settlorNamed) truthParties.push([cast.settlor!, 'SETTLOR']);
  const firstTrustee = printer.list(cast.trustees, 'and', { upper });
  const blocks: DeedBlock[] = [
    { kind: 'title', text: title },
    { kind: 'subtitle', text: `${cast.trustName}${trustAbn ? ` ABN ${groupAbn(trustAbn, 'spaced')}` : ''}` },
    { kind: 'para', text: `THIS DEED is made on ${made.takesThe ? 'the ' : ''}${made.text}` },
    { kind: 'heading', text: 'PARTIES' },
    ...parties.map((text, i) => ({ kind: 'para' as const, text: `${i + 1}. ${text}`, indent: 10 })),
    { kind: 'heading', text: 'RECITALS' },
    {
      kind: 'para',
      text: `A. The ${cast.trustName}${trustAbn ? ` (ABN ${groupAbn(trustAbn, w.chance(0.5) ? 'spaced' : 'plain')})` : ''} (the "${unit}") is a ${kind === 'SMSF' ? 'self managed superannuation fund' : 'discretionary trust'} established by deed dated ${original.text} (the "Original Deed")${settlorNamed ? ` made between ${printer.party(cast.settlor!, { upper })} as settlor and ${firstTrustee} as trustee` : ''}.`,
    },
    { kind: 'para', text: `B. Clause ${w.between(15, 30)} of the Original Deed allows the Trustee, with the consent of the ${kind === 'SMSF' ? 'Members' : AW}, to vary the Original Deed.` },
    { kind: 'para', text: `C. ${purpose}` },
    { kind: 'heading', text: 'OPERATIVE PROVISIONS' },
    ...operative.map((text, i) => ({ kind: 'para' as const, text: `${i + 1}. ${text}` })),
    { kind: 'para', text: `${operative.length + 1}. Except as varied by this Deed, the Original Deed continues in full force, and nothing in this Deed creates a new trust or causes the Trust Fund to vest.` },
  ];
  const roles = { trustee: 'Trustee', appointor: AW, guardian: null, beneficiary: kind === 'SMSF' ? 'Member' : 'Beneficiary', kind, trusteeAct: state.act } as const;
  for (const text of boilerplateClause(w, roles, String(operative.length + 2), w.between(1, 3))) blocks.push({ kind: 'para', text });
  // A place for a TFN, printed only when one is given.
  blocks.push({ kind: 'tfn', text: 'The tax file number of the Trust ({TFN}) is unchanged by this Deed.', style: (spec.tfn ? w : r.fork('tfn')).pick(['spaced', 'plain', 'dashed'] as const) });
  blocks.push({ kind: 'heading', text: 'GOVERNING LAW' }, { kind: 'para', text: governingLawSentence(w, state, 'Deed') });
  blocks.push({ kind: 'heading', text: 'EXECUTED as a deed' });
  const signedBy = new Set<Party>();
  for (const p of [...cast.trustees, ...cast.appointors]) {
    if (signedBy.has(p)) continue;
    signedBy.add(p);
    blocks.push({ kind: 'para', text: p.kind === 'BUSINESS' ? `EXECUTED by ${p.businessName} in accordance with section 127 of the Corporations Act 2001 (Cth) ____________ Director ____________ Director/Secretary` : `SIGNED by ${fullName(p)} in the presence of: ____________ Witness` });
  }

  const truth: DeedTruth = {
    trust: { name: cast.trustName, abn: trustAbn, trustType: kind, jurisdiction: state.name, establishedDate: original.text, vestingDate: null },
    parties: dedupe(truthParties.map(([p, role]) => printer.expected(p, role))),
    beneficiaryClasses: [],
  };
  return {
    id: spec.id,
    seed: spec.seed,
    kind,
    variation: true,
    features: ['variation', `variation-${spec.change}`, `appointor-word-${AW}`, ...(settlorNamed ? ['settlor-in-recital'] : [])],
    tfn: null,
    truth,
    blocks,
    header: null,
    footer: w.pick(['page-of', 'number', null] as const),
    fontSize: w.pick([10, 10.5, 11]),
  };
}
