// An original trust deed: title, parties clause, recitals, definitions, the role clauses, boilerplate,
// governing law, the schedule (first, last or none) and execution blocks, laid out as the seed decides
// (or as `force` says). The truth is built from what was printed.
import { castFor, type CastForce } from './cast.ts';
import { drawLayout, roleWords, type Layout } from './layout.ts';
import type { Party } from './people.ts';
import { createPrinter, dedupe, definedTerm } from './print.ts';
import { createRandom } from './random.ts';
import { executionBlocks, namedValue, operativeBlocks, scheduleBlocks, type Item } from './sections.ts';
import type { DeedBlock, DeedCase, DeedKind, DeedTruth, ExpectedParty } from './types.ts';
import { capitalise, governingLawSentence, makeDate, plural, states, vestingRule } from './wording.ts';

export interface ComposeSpec {
  id: string;
  seed: number;
  kind: DeedKind;
  /** Boilerplate until the deed passes 100 pages. */
  long?: boolean;
  /** Print a TFN (and make it the case's `tfn`). */
  tfn?: boolean;
  /** The deed never names the trust: the truth's trust is null. */
  noTrustName?: boolean;
  misprintAcn?: boolean;
  force?: Partial<Layout>;
  cast?: CastForce;
}

export const typePhrase: Record<DeedKind, string> = { DISCRETIONARY: 'discretionary trust', UNIT: 'unit trust', HYBRID: 'hybrid trust', FIXED: 'fixed trust', BARE: 'bare trust', SMSF: 'self managed superannuation fund' };
const titles: Record<DeedKind, string[]> = {
  DISCRETIONARY: ['DISCRETIONARY TRUST DEED', 'FAMILY TRUST DEED', 'DEED OF SETTLEMENT', 'Discretionary Trust Deed'],
  UNIT: ['UNIT TRUST DEED', 'Unit Trust Deed'],
  HYBRID: ['HYBRID TRUST DEED', 'Hybrid Discretionary and Unit Trust Deed'],
  FIXED: ['FIXED TRUST DEED', 'DEED OF FIXED TRUST'],
  BARE: ['BARE TRUST DEED', 'DECLARATION OF BARE TRUST'],
  SMSF: ['SELF MANAGED SUPERANNUATION FUND TRUST DEED', 'Superannuation Fund Trust Deed and Governing Rules'],
};

export function composeDeed(spec: ComposeSpec): DeedCase {
  const r = createRandom(spec.seed);
  const kind = spec.kind;
  const layout = drawLayout(r.fork('layout'), kind, spec.force ?? {});
  const cast = castFor(r.fork('cast'), kind, { misprintAcn: spec.misprintAcn, force: spec.cast });
  const printer = createPrinter(r.fork('print'), layout.acnStyle, layout.companyAddressIntro);
  const w = r.fork('words');
  const state = w.pick(states);
  const date = makeDate(w, 1988, 2024);
  const dateLabel = w.pick(['Date of this Deed', 'Date of Establishment', 'Establishment Date', 'Commencement Date']);
  const dateWord = dateLabel === 'Commencement Date' ? 'Commencement Date' : 'date of this Deed';
  const vestingWord = w.pick(['Vesting Day', 'Vesting Date']);
  // The vesting day is the date or rule; a power to vest earlier, printed after it, is not part of it.
  const vestingDay = kind === 'SMSF' || kind === 'BARE' ? null : vestingRule(w, dateWord, date.year);
  const vesting = vestingDay === null ? null : `${vestingDay}${layout.vestingIn === 'definition' && w.chance(0.4) ? ', or such earlier date as the Trustee may appoint' : ''}`;
  const trustName = spec.noTrustName ? null : cast.trustName;
  const roles = roleWords(layout, cast, kind);
  const features = new Set<string>([`schedule-${layout.schedule}`, `parties-${layout.parties}`, ...(layout.schedule === 'none' ? [] : [`schedule-${layout.scheduleStyle}`])]);

  const items: Item[] = [];
  const addItem = (label: string, value: string) => items.push({ label, value });
  const truthParties: Array<[Party, ExpectedParty['role']]> = [];
  const partiesClause: Array<{ text: string }> = [];
  const addressFor = (p: Party) => layout.addresses || p.kind === 'BUSINESS' || p === cast.settlor || cast.trustees.includes(p);
  const birthFor = (p: Party) => (layout.birthDates && p.kind === 'INDIVIDUAL' ? makeDate(w, 1950, 2010).text : undefined);

  // Trust name, date, and the parties the parties clause names.
  if (trustName && layout.schedule !== 'none') addItem(w.pick(['Name of Trust', 'Trust Name', 'Name of the Trust']).replace('Trust', kind === 'SMSF' ? 'Fund' : 'Trust'), w.chance(0.4) ? `The ${trustName}` : trustName);
  if (layout.schedule !== 'none' && (layout.parties === 'schedule-ref' || w.chance(0.5))) addItem(dateLabel, date.text);
  const inParties = (role: 'settlor' | 'trustee' | 'appointor' | 'guardian') =>
    layout.parties !== 'schedule-ref' && (role === 'settlor' || role === 'trustee' || (role === 'appointor' ? layout.appointorIn === 'parties' : layout.guardianIn === 'parties'));

  const place = (parties: Party[], role: ExpectedParty['role'], term: string, where: 'parties' | 'schedule' | 'both', label: string) => {
    if (!parties.length) return;
    for (const p of parties) truthParties.push([p, role]);
    if (where !== 'schedule') {
      const text = printer.list(parties, 'and', { upper: layout.upperInParties, address: true });
      partiesClause.push({ text: `${text} ${definedTerm(w, parties.length > 1 ? `${term}s` : term, parties.length > 1)}` });
    }
    if (where !== 'parties') addItem(label, printer.list(parties, layout.listStyle, { address: addressFor(parties[0]!) || where === 'schedule', sublabels: layout.scheduleStyle === 'stacked' && layout.listStyle === 'numbered' }));
  };
  const trusteeWhere = layout.parties === 'schedule-ref' ? 'schedule' : layout.schedule === 'none' ? 'parties' : w.pick(['parties', 'both'] as const);
  if (cast.settlor) place([cast.settlor], 'SETTLOR', 'Settlor', layout.parties === 'schedule-ref' ? 'schedule' : layout.schedule === 'none' ? 'parties' : w.pick(['parties', 'both'] as const), 'Settlor');
  place(cast.trustees, 'TRUSTEE', layout.trusteeWord, trusteeWhere, plural(layout.trusteeWord, cast.trustees.length));
  if (inParties('appointor')) place(cast.appointors, 'APPOINTOR', layout.appointorWord, 'parties', '');
  else if (layout.appointorIn === 'schedule') place(cast.appointors, 'APPOINTOR', layout.appointorWord, 'schedule', plural(layout.appointorWord, cast.appointors.length));
  if (cast.successors.length && layout.successorIn === 'schedule') {
    const label = plural(`${w.pick(['Successor', 'Alternate'])} ${layout.appointorWord}`, cast.successors.length);
    if (w.chance(0.4)) {
      for (const p of cast.successors) truthParties.push([p, 'APPOINTOR']);
      addItem(label, `On the death or incapacity of the last surviving ${layout.appointorWord}, ${printer.list(cast.successors, 'and', { address: layout.addresses })}`);
    } else place(cast.successors, 'APPOINTOR', '', 'schedule', label);
  }
  if (cast.guardian && inParties('guardian')) place([cast.guardian], 'PROTECTOR_GUARDIAN', layout.guardianWord, 'parties', '');
  else if (cast.guardian && layout.guardianIn === 'schedule') place([cast.guardian], 'PROTECTOR_GUARDIAN', '', 'schedule', layout.guardianWord);
  if (cast.named.length && layout.namedIn === 'schedule') {
    for (const p of cast.named) truthParties.push([p, 'BENEFICIARY']);
    addItem(roles.namedLabel, namedValue(printer, cast, kind, layout, birthFor));
  }
  if (cast.unitholders.length) {
    for (const p of cast.unitholders) truthParties.push([p, 'BENEFICIARY']);
    const holders = cast.unitholders.map((p) => `${printer.party(p, { address: layout.addresses })} (${w.pick([10, 50, 100, 1000])} Units)`);
    if (layout.schedule !== 'none') addItem(w.pick(['Initial Unitholders', 'Initial Unit Holders']), holders.join(layout.listStyle === 'numbered' ? '\n' : '; '));
  }
  if (layout.schedule !== 'none') addItem(w.pick(['Settled Sum', 'Settlement Sum', 'Initial Trust Fund']), `$${w.pick([10, 10, 20, 100])}`);
  if (vesting && layout.vestingIn === 'schedule') addItem(vestingWord, vesting);
  const lawInSchedule = layout.schedule !== 'none' && w.chance(0.4);
  if (lawInSchedule) addItem(w.pick(['Governing Law', 'Proper Law', 'Jurisdiction']), state.name);
  let tfnCells: string[] | undefined;
  const tfnInSchedule = spec.tfn && layout.schedule !== 'none' && w.chance(0.5);
  if (tfnInSchedule) tfnCells = [w.pick(['Tax File Number of the Trust', 'TFN']), '{TFN}'];

  // The document.
  const blocks: DeedBlock[] = [];
  const title = w.pick(titles[kind]);
  const nameTitle = trustName ? (w.chance(0.5) ? trustName.toLocaleUpperCase('en-AU') : `The ${trustName}`) : null;
  if (nameTitle && w.chance(0.5)) blocks.push({ kind: 'title', text: nameTitle }, { kind: 'subtitle', text: title });
  else blocks.push({ kind: 'title', text: title }, ...(nameTitle ? [{ kind: 'subtitle' as const, text: nameTitle }] : []));
  if (w.chance(0.3)) blocks.push({ kind: 'para', text: `Prepared by ${w.pick(['Harbour Legal Pty Ltd', 'Wattle Lawyers', 'Meridian Trust Services Pty Limited'])}, Level 10, 1 Martin Place, Sydney NSW 2000` });
  if (w.chance(0.5)) blocks.push({ kind: 'pageBreak' });

  const schedule = scheduleBlocks(w, layout, items, tfnCells);
  if (layout.schedule === 'first') blocks.push(...schedule, { kind: 'pageBreak' });

  const madeOn = layout.parties === 'schedule-ref' ? 'on the date set out in the Schedule' : `on ${date.takesThe ? 'the ' : ''}${date.text}`;
  const deedWord = kind === 'BARE' && title.startsWith('DECLARATION') ? 'DECLARATION' : 'DEED';
  if (layout.parties === 'between' && partiesClause.length > 1) {
    const [first, ...rest] = partiesClause.map((p) => p.text);
    blocks.push({ kind: 'para', text: `THIS ${deedWord} is made ${madeOn} BETWEEN ${first} of the one part AND ${rest.join(' AND ')} of the other part.` });
  } else if (layout.parties === 'schedule-ref') {
    blocks.push({ kind: 'para', text: `THIS ${deedWord} is made ${madeOn} by the parties named in the Schedule, being the Settlor (if any) and the ${layout.trusteeWord} named in the Schedule.` });
  } else {
    if (w.chance(0.3) && layout.parties === 'parties-list') blocks.push({ kind: 'para', text: `DATED ${date.takesThe ? 'the ' : ''}${date.text}` });
    else blocks.push({ kind: 'para', text: `THIS ${deedWord} is made ${madeOn}` });
    if (layout.parties !== 'by-and') {
      blocks.push({ kind: 'heading', text: w.pick(['PARTIES', 'Parties']) });
      partiesClause.forEach((p, i) => blocks.push({ kind: 'para', text: `${i + 1}. ${p.text}`, indent: 10 }));
    } else {
      partiesClause.forEach((p, i) => blocks.push({ kind: 'para', text: `${i === 0 ? 'BY' : 'AND'}: ${p.text}`, indent: 10 }));
    }
  }

  blocks.push({ kind: 'heading', text: w.pick(['RECITALS', 'BACKGROUND']) });
  const establish = trustName
    ? layout.trustNameInRecital
      ? w.pick([`A. The Settlor wishes to establish a ${typePhrase[kind]} to be known as the ${trustName}.`, `A. The parties wish to establish a ${typePhrase[kind]} which shall be known as the ${trustName} (the "${kind === 'SMSF' ? 'Fund' : 'Trust'}").`, `A. This Deed establishes a ${typePhrase[kind]} called the ${trustName}.`])
      : `A. The parties wish to establish a ${typePhrase[kind]} on the terms of this Deed, under the name set out in the Schedule.`
    : `A. The ${layout.trusteeWord} holds the Property described in this Deed as ${typePhrase[kind]}ee for the Beneficiary and wishes to record the terms on which it does so.`;
  blocks.push({ kind: 'para', text: establish });
  blocks.push({ kind: 'para', text: `B. The ${layout.trusteeWord} has agreed to act as ${kind === 'BARE' ? 'trustee' : 'the first trustee'} on the terms of this Deed.` });

  const operative = operativeBlocks(w, { spec, layout, cast, roles, printer, truthParties, vesting, vestingWord, state, kind, addressFor, birthFor, trustName });
  blocks.push(...operative);
  // Every deed has a place for a TFN (printed only when one is given); a case with `tfn` draws it from `w`.
  if (!tfnInSchedule) {
    const t = spec.tfn ? w : r.fork('tfn');
    blocks.splice(blocks.length - r.between(2, Math.min(12, operative.length)), 0, { kind: 'tfn', text: t.pick(['The Trustee has obtained a tax file number for the Trust, being {TFN}, and must quote it in every return.', 'TFN of the Trustee: {TFN}']), style: t.pick(['spaced', 'plain', 'dashed'] as const) });
  }
  if (!lawInSchedule) blocks.push({ kind: 'heading', text: 'GOVERNING LAW' }, { kind: 'para', text: governingLawSentence(w, state, deedWord === 'DEED' ? 'Deed' : 'Declaration') });

  const execution = executionBlocks(w, cast, layout, truthParties);
  if (layout.schedule === 'last') {
    if (layout.executionBeforeSchedule) blocks.push(...execution, { kind: 'pageBreak' }, ...schedule);
    else blocks.push({ kind: 'pageBreak' }, ...schedule, ...execution);
  } else blocks.push(...execution);

  for (const [p, role] of truthParties) if (p.kind === 'BUSINESS' && p.misprintedAcn && role) features.add('invalid-acn');
  if (cast.trustees[0]?.kind === 'BUSINESS') features.add('corporate-trustee');
  else features.add('individual-trustees');
  if (cast.appointors.length > 1) features.add('several-appointors');
  if (cast.successors.length) features.add(`successor-appointor-${layout.successorIn}`);
  if (cast.guardian) features.add(`guardian-${layout.guardianIn}`);
  if (layout.birthDates) features.add('dates-of-birth');
  if (spec.long) features.add('long');
  if (cast.appointors.length) features.add(`appointor-word-${layout.appointorWord}`);
  if (cast.guardian) features.add(`guardian-word-${layout.guardianWord}`);
  features.add(`kind-${kind.toLowerCase()}`);

  const truth: DeedTruth = {
    trust: trustName
      ? { name: trustName, abn: null, trustType: kind, jurisdiction: state.name, establishedDate: date.text, vestingDate: vestingDay }
      : null,
    parties: dedupe(truthParties.map(([p, role]) => printer.expected(p, role))),
    beneficiaryClasses: cast.classes,
  };
  return {
    id: spec.id,
    seed: spec.seed,
    kind,
    variation: false,
    features: [...features],
    tfn: null,
    truth,
    blocks,
    header: layout.header && trustName ? `${trustName} – ${capitalise(typePhrase[kind])} Deed` : null,
    footer: layout.footer,
    fontSize: layout.fontSize,
  };
}
