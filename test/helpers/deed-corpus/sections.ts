// The parts of an original deed after its parties clause: the schedule's rows, the operative provisions
// (definitions, the appointor's and guardian's clauses, boilerplate, vesting) and the execution blocks.
// Whatever prints a party in a role adds it to the truth.
import { boilerplateClause, partTitles } from './boilerplate.ts';
import type { Cast } from './cast.ts';
import type { ComposeSpec } from './compose.ts';
import type { Layout, RoleLabels } from './layout.ts';
import { fullName, makePerson, type Party } from './people.ts';
import type { Printer } from './print.ts';
import type { Random } from './random.ts';
import type { DeedBlock, DeedKind, ExpectedParty } from './types.ts';
import { plural, type states } from './wording.ts';

export interface Item {
  label: string;
  value: string;
}

/** Builds one original deed. */
export function namedValue(printer: Printer, cast: Cast, kind: DeedKind, layout: Layout, birthFor: (p: Party) => string | undefined): string {
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

export function scheduleBlocks(w: Random, layout: Layout, items: Item[], tfnCells: string[] | undefined): DeedBlock[] {
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

export interface OperativeContext {
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

export function operativeBlocks(w: Random, ctx: OperativeContext): DeedBlock[] {
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

export function executionBlocks(w: Random, cast: Cast, layout: Layout, truthParties: Array<[Party, ExpectedParty['role']]>): DeedBlock[] {
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

