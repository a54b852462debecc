// An original trust deed: title, parties clause, recitals, definitions, the role clauses, boilerplate,
// governing law, the schedule (first, last or none) and execution blocks, laid out as the seed decides
// (or as `force` says). The truth is built from what was printed.
import { boilerplateClause, partTitles, type Roles } from './boilerplate.ts';
import { castFor, type Cast, type CastForce } from './cast.ts';
import { fullName, makePerson, type Party } from './people.ts';
import { createPrinter, dedupe, definedTerm, type AcnStyle, type ListStyle, type Printer } from './print.ts';
import { createRandom, type Random } from './random.ts';
import type { DeedBlock, DeedCase, DeedKind, DeedTruth, ExpectedParty } from './types.ts';
import { appointorWords, capitalise, governingLawSentence, guardianWords, makeDate, namedWords, plural, scheduleHeadings, states, trusteeWords, vestingRule } from './wording.ts';

export interface Layout {
  schedule: 'first' | 'last' | 'none';
  scheduleHeading: string;
  scheduleStyle: 'item-table' | 'colon' | 'numbered-table' | 'stacked';
  parties: 'by-and' | 'parties-list' | 'between' | 'schedule-ref';
  upperInParties: boolean;
  appointorWord: string;
  guardianWord: string;
  trusteeWord: string;
  namedWord: string;
  /** Where appointors, guardian and named beneficiaries are printed with their names. */
  appointorIn: 'schedule' | 'definition' | 'parties';
  guardianIn: 'schedule' | 'definition' | 'parties';
  namedIn: 'schedule' | 'definition';
  successorIn: 'schedule' | 'clause';
  vestingIn: 'schedule' | 'definition';
  listStyle: ListStyle;
  addresses: boolean;
  acnStyle: AcnStyle;
  companyAddressIntro: 'of' | 'whose registered office is at' | 'of registered office';
  birthDates: boolean;
  header: boolean;
  footer: 'page-of' | 'number' | null;
  fontSize: number;
  executionBeforeSchedule: boolean;
  trustNameInRecital: boolean;
}

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

function drawLayout(r: Random, kind: DeedKind, force: Partial<Layout>): Layout {
  const schedule = force.schedule ?? r.pick(['first', 'last', 'last', 'none'] as const);
  const inSchedule = <T extends string>(other: T[]) => (schedule === 'none' ? r.pick(other) : r.pick(['schedule', 'schedule', ...other] as const));
  const layout: Layout = {
    schedule,
    scheduleHeading: r.pick(scheduleHeadings),
    scheduleStyle: r.pick(['item-table', 'colon', 'numbered-table', 'stacked'] as const),
    parties: schedule === 'none' ? r.pick(['by-and', 'parties-list', 'between'] as const) : r.pick(['by-and', 'parties-list', 'between', 'schedule-ref'] as const),
    upperInParties: r.chance(0.5),
    appointorWord: r.pick(appointorWords),
    guardianWord: r.pick(guardianWords),
    trusteeWord: r.pick(trusteeWords),
    namedWord: r.pick(namedWords),
    appointorIn: inSchedule(['definition', 'parties']) as Layout['appointorIn'],
    guardianIn: inSchedule(['definition', 'parties']) as Layout['guardianIn'],
    namedIn: inSchedule(['definition']) as Layout['namedIn'],
    successorIn: schedule === 'none' ? 'clause' : r.pick(['schedule', 'clause'] as const),
    vestingIn: schedule === 'none' ? 'definition' : r.pick(['schedule', 'definition'] as const),
    listStyle: r.pick(['and', 'and', 'numbered', 'semicolon'] as const),
    addresses: r.chance(0.6),
    acnStyle: r.pick(['ACN spaced', 'ACN spaced', 'A.C.N. plain', '(ACN spaced)', 'Australian Company Number', 'A.C.N. dotted'] as const),
    companyAddressIntro: r.pick(['of', 'of', 'whose registered office is at', 'of registered office'] as const),
    birthDates: r.chance(0.2),
    header: r.chance(0.5),
    footer: r.pick(['page-of', 'number', null] as const),
    fontSize: r.pick([9.5, 10, 10.5, 11]),
    executionBeforeSchedule: r.chance(0.5),
    trustNameInRecital: r.chance(0.7),
  };
  const merged = { ...layout, ...force };
  if (merged.parties === 'schedule-ref' && merged.schedule === 'none') merged.parties = 'by-and';
  if (merged.schedule === 'none') {
    if (merged.appointorIn === 'schedule') merged.appointorIn = 'definition';
    if (merged.guardianIn === 'schedule') merged.guardianIn = 'definition';
    merged.namedIn = 'definition';
    merged.successorIn = 'clause';
    merged.vestingIn = 'definition';
    merged.trustNameInRecital = true;
  }
  // A deed whose parties clause only refers to the schedule prints everyone there.
  if (merged.parties === 'schedule-ref' && merged.appointorIn === 'parties') merged.appointorIn = 'schedule';
  if (merged.parties === 'schedule-ref' && merged.guardianIn === 'parties') merged.guardianIn = 'schedule';
  if (kind === 'SMSF' || kind === 'BARE') merged.vestingIn = 'definition';
  return merged;
}

const typePhrase: Record<DeedKind, string> = { DISCRETIONARY: 'discretionary trust', UNIT: 'unit trust', HYBRID: 'hybrid trust', FIXED: 'fixed trust', BARE: 'bare trust', SMSF: 'self managed superannuation fund' };
const titles: Record<DeedKind, string[]> = {
  DISCRETIONARY: ['DISCRETIONARY TRUST DEED', 'FAMILY TRUST DEED', 'DEED OF SETTLEMENT', 'Discretionary Trust Deed'],
  UNIT: ['UNIT TRUST DEED', 'Unit Trust Deed'],
  HYBRID: ['HYBRID TRUST DEED', 'Hybrid Discretionary and Unit Trust Deed'],
  FIXED: ['FIXED TRUST DEED', 'DEED OF FIXED TRUST'],
  BARE: ['BARE TRUST DEED', 'DECLARATION OF BARE TRUST'],
  SMSF: ['SELF MANAGED SUPERANNUATION FUND TRUST DEED', 'Superannuation Fund Trust Deed and Governing Rules'],
};

interface Item {
  label: string;
  value: string;
}

/** Builds one original deed. */
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
  const vesting = kind === 'SMSF' || kind === 'BARE' ? null : `${vestingRule(w, dateWord, date.year)}${layout.vestingIn === 'definition' && w.chance(0.4) ? ', or such earlier date as the Trustee may appoint' : ''}`;
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
  if (spec.tfn && !tfnInSchedule) blocks.splice(blocks.length - r.between(2, Math.min(12, operative.length)), 0, { kind: 'tfn', text: w.pick(['The Trustee has obtained a tax file number for the Trust, being {TFN}, and must quote it in every return.', 'TFN of the Trustee: {TFN}']), style: w.pick(['spaced', 'plain', 'dashed'] as const) });
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
      ? { name: trustName, abn: null, trustType: kind, jurisdiction: state.name, establishedDate: date.text, vestingDate: vesting }
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

interface RoleLabels {
  namedLabel: string;
  boiler: Roles;
}

function roleWords(layout: Layout, cast: Cast, kind: DeedKind): RoleLabels {
  const many = cast.named.length > 1;
  const namedLabel =
    kind === 'SMSF' ? plural('Member', cast.named.length)
    : kind === 'BARE' ? 'Beneficiary'
    : kind === 'FIXED' ? 'Beneficiaries'
    : `${layout.namedWord} ${many ? 'Beneficiaries' : 'Beneficiary'}`;
  const boiler: Roles = {
    trustee: 'Trustee',
    appointor: cast.appointors.length ? layout.appointorWord : null,
    guardian: cast.guardian ? layout.guardianWord : null,
    beneficiary: kind === 'SMSF' ? 'Member' : kind === 'UNIT' ? 'Unitholder' : 'Beneficiary',
    kind,
    trusteeAct: 'Trustee Act',
  };
  return { namedLabel, boiler };
}

function namedValue(printer: Printer, cast: Cast, kind: DeedKind, layout: Layout, birthFor: (p: Party) => string | undefined): string {
  if (kind === 'FIXED') {
    const share = Math.floor(100 / cast.named.length);
    return cast.named.map((p, i) => `${printer.party(p, { address: layout.addresses })} (as to ${i === cast.named.length - 1 ? 100 - share * (cast.named.length - 1) : share}%)`).join(layout.listStyle === 'numbered' ? '\n' : '; ');
  }
  if (cast.named.length === 1 || layout.listStyle !== 'numbered') {
    const one = cast.named.map((p) => printer.party(p, { address: layout.addresses, birth: birthFor(p) }));
    return one.length === 1 ? one[0]! : layout.listStyle === 'semicolon' ? `${one.slice(0, -1).join('; ')}; and ${one.at(-1)}` : `${one.slice(0, -1).join(layout.addresses ? '; ' : ', ')} and ${one.at(-1)}`;
  }
  return cast.named.map((p, i) => `${i + 1}. ${printer.party(p, { address: layout.addresses, birth: birthFor(p) })}`).join('\n');
}

function scheduleBlocks(w: Random, layout: Layout, items: Item[], tfnCells: string[] | undefined): DeedBlock[] {
  if (layout.schedule === 'none') return [];
  const out: DeedBlock[] = [{ kind: 'heading', text: layout.scheduleHeading }];
  if (layout.scheduleStyle === 'item-table' && w.chance(0.5)) out.push({ kind: 'row', cells: ['Item', 'Description', 'Particulars'] });
  const all = tfnCells ? [...items.slice(0, 3), { label: tfnCells[0]!, value: tfnCells[1]! }, ...items.slice(3)] : items;
  all.forEach((item, i) => {
    const n = i + 1;
    const isTfn = item.value === '{TFN}';
    let block: DeedBlock;
    if (layout.scheduleStyle === 'item-table') block = { kind: 'row', cells: [`Item ${n}`, item.label, item.value] };
    else if (layout.scheduleStyle === 'numbered-table') block = { kind: 'row', cells: [`${n}. ${item.label}`, item.value] };
    else if (layout.scheduleStyle === 'colon') block = { kind: 'para', text: `${item.label}: ${item.value}` };
    else {
      out.push({ kind: 'para', text: item.label.toLocaleUpperCase('en-AU'), bold: true });
      block = { kind: 'para', text: item.value, indent: 20 };
    }
    if (isTfn) out.push({ kind: 'tfn', text: block.kind === 'para' ? block.text : '', cells: block.kind === 'row' ? block.cells : undefined, style: w.pick(['spaced', 'plain', 'dashed'] as const) });
    else out.push(block);
  });
  return out;
}

interface OperativeContext {
  spec: ComposeSpec;
  layout: Layout;
  cast: Cast;
  roles: RoleLabels;
  printer: Printer;
  truthParties: Array<[Party, ExpectedParty['role']]>;
  vesting: string | null;
  vestingWord: string;
  state: (typeof states)[number];
  kind: DeedKind;
  addressFor: (p: Party) => boolean;
  birthFor: (p: Party) => string | undefined;
  trustName: string | null;
}

function operativeBlocks(w: Random, ctx: OperativeContext): DeedBlock[] {
  const { layout, cast, roles, printer, truthParties, kind } = ctx;
  const AW = layout.appointorWord;
  const GW = layout.guardianWord;
  const out: DeedBlock[] = [{ kind: 'heading', text: w.pick(['OPERATIVE PROVISIONS', 'IT IS AGREED', 'NOW THIS DEED WITNESSES']) }, { kind: 'heading', text: '1. DEFINITIONS AND INTERPRETATION' }];
  const defs: string[] = [];
  let firstGuardian: string | null = null;
  const item = (label: string) => `the ${label} specified in the Schedule`;
  if (cast.appointors.length) {
    if (layout.appointorIn === 'definition') {
      for (const p of cast.appointors) truthParties.push([p, 'APPOINTOR']);
      const names = printer.list(cast.appointors, 'and', { address: ctx.addressFor(cast.appointors[0]!) });
      defs.push(w.chance(0.35)
        ? `"${AW}" means the person or persons holding the office of ${AW} from time to time under clause 3, being initially ${names}.`
        : `"${AW}" means ${names}${cast.appointors.length > 1 ? ', or the survivor of them' : ''}, and includes any person who becomes the ${AW} under clause 3.`);
    } else defs.push(`"${AW}" means ${layout.appointorIn === 'schedule' ? `the person or persons named as ${AW} in the Schedule` : `the person named as ${AW} in this Deed`}, and includes any person who becomes the ${AW} under clause 3.`);
  }
  if (cast.guardian) {
    if (layout.guardianIn === 'definition' && w.chance(0.4)) {
      truthParties.push([cast.guardian, 'PROTECTOR_GUARDIAN']);
      defs.push(`"${GW}" means the person holding the office of ${GW} under clause 4.`);
      firstGuardian = `4.${w.between(1, 3)} The first ${GW} ${w.pick(['is', 'shall be'])} ${printer.party(cast.guardian, { address: ctx.addressFor(cast.guardian) })}.`;
    } else if (layout.guardianIn === 'definition') {
      truthParties.push([cast.guardian, 'PROTECTOR_GUARDIAN']);
      defs.push(`"${GW}" means ${printer.party(cast.guardian, { address: ctx.addressFor(cast.guardian) })} or such other person as is appointed ${GW} under clause 4.`);
    } else defs.push(`"${GW}" means ${item(GW)} or such other person as is appointed ${GW} under clause 4.`);
  }
  if (cast.classes.length) {
    const general = cast.classes.filter((c) => c !== 'Default Beneficiaries');
    if (general.length) defs.push(`"Beneficiaries" means the ${roles.namedLabel} and the ${general.join(' and the ')}.`);
    for (const c of cast.classes) {
      defs.push(c === 'Default Beneficiaries'
        ? `"Default Beneficiaries" means the ${roles.namedLabel} living at the ${ctx.vestingWord}, in equal shares.`
        : `"${c}" means: (a) the ${roles.namedLabel}; (b) the spouse, children, grandchildren and remoter issue of any ${roles.namedLabel.replace(/ies$/, 'y')}; (c) any company in which a ${roles.namedLabel.replace(/ies$/, 'y')} holds shares; and (d) the trustee of any trust under which a ${roles.namedLabel.replace(/ies$/, 'y')} may benefit.`);
    }
  }
  if (cast.named.length) {
    if (layout.namedIn === 'definition') {
      for (const p of cast.named) truthParties.push([p, 'BENEFICIARY']);
      defs.push(`"${roles.namedLabel}" means ${namedValue(printer, cast, kind, { ...layout, listStyle: 'and' }, ctx.birthFor).replace(/\n/g, ' ')}.`);
    } else defs.push(`"${roles.namedLabel}" means the ${kind === 'SMSF' ? 'persons' : 'person or persons'} named as such in the Schedule.`);
  }
  if (cast.unitholders.length && layout.schedule === 'none') defs.push(`"Initial Unitholders" means ${printer.list(cast.unitholders, 'and', { address: layout.addresses })}.`);
  defs.push(`"Trustee" means the ${layout.trusteeWord} or other trustee or trustees for the time being of the ${kind === 'SMSF' ? 'Fund' : 'Trust'}.`);
  if (ctx.trustName && w.chance(0.5)) defs.push(`"${kind === 'SMSF' ? 'Fund' : 'Trust'}" means the trust constituted by this Deed and known as the ${ctx.trustName}.`);
  if (ctx.vesting) defs.push(`"${ctx.vestingWord}" means ${layout.vestingIn === 'definition' ? ctx.vesting : `the date specified as the ${ctx.vestingWord} in the Schedule`}.`);
  defs.push('"Trust Fund" means the Settled Sum and all other property held by the Trustee on the trusts of this Deed.', '"Income Tax Act" means the Income Tax Assessment Act 1997 (Cth).');
  defs.sort((a, b) => a.localeCompare(b));
  defs.forEach((d, i) => out.push({ kind: 'para', text: `1.${i + 1} ${d}`, indent: 10 }));

  const boilerRoles = { ...roles.boiler, trusteeAct: ctx.state.act };
  out.push({ kind: 'heading', text: '2. ESTABLISHMENT' }, { kind: 'para', text: `2.1 The Trustee declares that it holds the Settled Sum and all other property it receives on the trusts of this Deed${kind === 'SMSF' ? ' as a regulated superannuation fund' : ''}.` });
  if (cast.appointors.length) {
    out.push({ kind: 'heading', text: `3. ${AW.toLocaleUpperCase('en-AU')}` });
    out.push(...boilerplateClause(w, boilerRoles, '3', 2).map((text) => ({ kind: 'para' as const, text })));
    if (cast.successors.length && layout.successorIn === 'clause') {
      for (const p of cast.successors) truthParties.push([p, 'APPOINTOR']);
      const names = printer.list(cast.successors, 'and', { address: layout.addresses });
      const first = cast.appointors[0]!;
      const sentence = w.pick([
        `3.3 If ${fullName(first)} dies or becomes mentally incapable, ${names} shall become the ${AW} in that person's place.`,
        `3.3 Upon the death or incapacity of the last surviving ${AW}, the following ${cast.successors.length > 1 ? 'persons are' : 'person is'} appointed as successor ${plural(AW, cast.successors.length)} in the order named: ${names}.`,
        `3.3 Until the ${AW} nominates a successor by will or deed, ${names} ${cast.successors.length > 1 ? 'are' : 'is'} nominated as successor ${plural(AW, cast.successors.length)}.`,
      ]);
      out.push({ kind: 'para', text: sentence });
    } else out.push({ kind: 'para', text: `3.3 On the death of the last surviving ${AW}, the legal personal representative of that ${AW} shall become the ${AW}.` });
  }
  if (cast.guardian) {
    out.push({ kind: 'heading', text: `4. ${GW.toLocaleUpperCase('en-AU')}` });
    if (firstGuardian) out.push({ kind: 'para', text: firstGuardian });
    out.push(...boilerplateClause(w, boilerRoles, '4', 2).map((text) => ({ kind: 'para' as const, text })));
  }
  const parts = ctx.spec.long ? 0 : w.between(4, 9);
  const target = ctx.spec.long ? 430_000 : 0;
  let chars = 0;
  for (let n = 5; ctx.spec.long ? chars < target : n < 5 + parts; n++) {
    out.push({ kind: 'heading', text: `${n}. ${partTitles[(n - 5) % partTitles.length]}` });
    for (const text of boilerplateClause(w, boilerRoles, String(n), w.between(3, ctx.spec.long ? 12 : 6))) {
      out.push({ kind: 'para', text });
      chars += text.length;
    }
  }
  if (ctx.vesting) out.push({ kind: 'heading', text: 'VESTING' }, { kind: 'para', text: `On the ${ctx.vestingWord} the Trustee must hold the Trust Fund for the ${cast.classes.includes('Default Beneficiaries') ? 'Default Beneficiaries' : 'Beneficiaries'} then living, in equal shares.` });
  return out;
}

function executionBlocks(w: Random, cast: Cast, layout: Layout, truthParties: Array<[Party, ExpectedParty['role']]>): DeedBlock[] {
  const out: DeedBlock[] = [{ kind: 'heading', text: w.pick(['EXECUTED as a deed', 'EXECUTION', 'SIGNED, SEALED AND DELIVERED as a deed']) }];
  const witness = () => fullName(makePerson(w));
  const sign = (p: Party, role: string) => {
    if (p.kind === 'BUSINESS') {
      const directors = cast.family.slice(0, 2).map(fullName);
      out.push({ kind: 'para', text: `EXECUTED by ${p.businessName.toLocaleUpperCase('en-AU')} in accordance with section 127 of the Corporations Act 2001 (Cth): ____________ Director ____________ Director/Secretary Name of director: ${directors[0]} Name of director/secretary: ${directors[1]}` });
    } else out.push({ kind: 'para', text: `SIGNED, SEALED AND DELIVERED by ${fullName(p).toLocaleUpperCase('en-AU')}${role ? ` as ${role}` : ''} in the presence of: ____________ Witness Name of witness: ${witness()}` });
  };
  const signed = new Set<Party>();
  for (const [p, role] of truthParties) {
    if (signed.has(p) || role === 'BENEFICIARY') continue;
    signed.add(p);
    const word = role === 'SETTLOR' ? 'Settlor' : role === 'TRUSTEE' ? 'Trustee' : role === 'APPOINTOR' ? (cast.successors.includes(p) ? '' : layout.appointorWord) : layout.guardianWord;
    sign(p, w.chance(0.7) ? word : '');
  }
  return out;
}

