// The working state of one deed while a layout writes it: its blocks, the truth beside them, the dates of
// birth it prints, and the phrasing helpers every layout shares (how a party is introduced, how a term is
// defined, how boilerplate clauses are numbered). A layout prints an entity and records its role in the
// same breath, so the truth cannot drift from the page.
import { fillTerms, powerItems, trusteePowers, type Clause, type Terms } from './clauses.ts';
import type { Block, DeedStyle, Footer, Inline, Run } from './document.ts';
import { printAbn, printAcn, type NumberStyle } from './identifiers.ts';
import { printDate, printName, type CalendarDate, type DateStyle, type Entity, type NameStyle, type Person } from './people.ts';
import type { Random } from './random.ts';
import { partyOf, type PartyRole, type TruthParty } from './truth.ts';

export interface Draft {
  random: Random;
  /** A scanned case: one to three pages, little boilerplate. */
  short: boolean;
  blocks: Block[];
  /** Each (entity, role) the deed gives, in the order it gives them. */
  roles: Array<{ entity: Entity; role: PartyRole }>;
  /** The entities whose address the deed prints beside them. */
  addressed: Set<Entity>;
  /** Every date of birth printed, exactly as printed: none may reach the payload. */
  datesOfBirth: string[];
  nameStyle: NameStyle;
  numberStyle: NumberStyle;
  acnLabel: 'ACN' | 'A.C.N.';
  quote: (term: string) => string;
}

export function createDraft(random: Random, short: boolean): Draft {
  const quotes = random.pick([
    (t: string) => `"${t}"`,
    (t: string) => `“${t}”`,
    (t: string) => `‘${t}’`,
    (t: string) => `'${t}'`,
  ]);
  return {
    random,
    short,
    blocks: [],
    roles: [],
    addressed: new Set(),
    datesOfBirth: [],
    nameStyle: random.pick<NameStyle>(['natural', 'natural', 'capitals', 'titled', 'family-capitals']),
    numberStyle: random.pick<NumberStyle>(['grouped', 'grouped', 'grouped', 'plain']),
    acnLabel: random.pick(['ACN', 'ACN', 'A.C.N.'] as const),
    quote: quotes,
  };
}

export function add(draft: Draft, ...blocks: Block[]): void {
  draft.blocks.push(...blocks);
}

/** Records that the deed gives `entity` this role. Recording the same entity and role twice is one party. */
export function record(draft: Draft, entity: Entity, role: PartyRole): void {
  if (!draft.roles.some((r) => r.entity === entity && r.role === role)) draft.roles.push({ entity, role });
}

/** The entity's address, for printing beside it (and so part of its truth); empty when it has none. */
export function addressOf(draft: Draft, entity: Entity): string {
  if (!entity.address) return '';
  draft.addressed.add(entity);
  return entity.address;
}

/** The parties of the truth: an address only where the deed prints one beside the party. */
export function truthParties(draft: Draft): TruthParty[] {
  return draft.roles.map(({ entity, role }) => {
    const party = partyOf(entity, role);
    return draft.addressed.has(entity) ? party : { ...party, address: null };
  });
}

/** A date of birth as the deed prints it; kept so a scorer can check it never leaks. */
export function birth(draft: Draft, person: Person, style: DateStyle = draft.random.pick<DateStyle>(['long', 'numeric'])): string {
  const printed = printDate(person.birth, style);
  if (!draft.datesOfBirth.includes(printed)) draft.datesOfBirth.push(printed);
  return printed;
}

export function nameOf(draft: Draft, entity: Entity, style: NameStyle = draft.nameStyle): string {
  return entity.kind === 'person' ? printName(entity, style) : entity.name;
}

/** "(ACN 123 456 789)", "ACN 123456789", with the ABN when the company has one printed. */
export function companyNumbers(draft: Draft, entity: Entity, brackets: boolean): string {
  if (entity.kind !== 'company') return '';
  const parts: string[] = [];
  if (entity.acnPrinted) parts.push(`${draft.acnLabel} ${printAcn(entity.acnPrinted, draft.numberStyle)}`);
  if (entity.abnPrinted) parts.push(`ABN ${printAbn(entity.abnPrinted, draft.numberStyle)}`);
  if (parts.length === 0) return '';
  return brackets ? ` (${parts.join(', ')})` : ` ${parts.join(' ')}`;
}

export interface IntroOptions {
  style?: NameStyle;
  /** Print the date of birth beside the name. */
  withBirth?: boolean;
  brackets?: boolean;
}

/** How a deed introduces a party: WATTLE NOMINEES PTY LTD (ACN 123 456 789) of 12 Banksia Parade, Toowong QLD 4066. */
export function introduce(draft: Draft, entity: Entity, options: IntroOptions = {}): string {
  let text = nameOf(draft, entity, options.style) + companyNumbers(draft, entity, options.brackets ?? true);
  if (entity.kind === 'person' && options.withBirth) {
    const printed = birth(draft, entity);
    text += entity.address && draft.random.chance(0.5) ? `, date of birth ${printed},` : ` (born ${printed})`;
  }
  if (entity.address) text += `${draft.random.pick([' of ', ' of ', ' of ', ' whose address is '])}${addressOf(draft, entity)}`;
  return text;
}

/** A, B and C. */
export function joinAnd(items: string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

/** A defined term in bold inside its quotation marks, as most deeds set them. */
export function term(draft: Draft, word: string): Run {
  return { text: draft.quote(word), bold: true };
}

export function runs(...parts: Array<string | Run>): Run[] {
  return parts.map((part) => (typeof part === 'string' ? { text: part } : part));
}

export interface BoilerplateOptions {
  /** The first clause number to use. */
  from: number;
  count: number;
  terms: Terms;
  /** Headings in capitals ("2. POWERS OF THE TRUSTEE") or as written. */
  capitals?: boolean;
  /** Also a long list of the trustee's powers, (a) to (z) and on, somewhere among the clauses. */
  powers?: boolean;
}

/** `count` clauses from `pool`, numbered from `from`, each a heading and sub-clauses n.1, n.2 …; answers the next number and the headings used. */
export function boilerplate(draft: Draft, pool: Clause[], options: BoilerplateOptions): { next: number; headings: string[] } {
  const chosen = draft.random.sample(pool, Math.min(options.count, pool.length));
  const powersAt = options.powers ? draft.random.int(0, chosen.length) : -1;
  const headings: string[] = [];
  let number = options.from;
  for (let i = 0; i <= chosen.length; i++) {
    if (i === powersAt) {
      headings.push(powersClause(draft, number++, options.terms, draft.random.int(14, trusteePowers.length)));
    }
    const clause = chosen[i];
    if (!clause) continue;
    const filled = fillTerms(clause.heading, options.terms);
    headings.push(filled);
    add(draft, { kind: 'heading', text: `${number}. ${options.capitals ? filled.toUpperCase() : filled}` });
    clause.paragraphs.forEach((paragraph, p) => {
      const text = fillTerms(paragraph, options.terms);
      add(draft, clause.paragraphs.length === 1 ? { kind: 'paragraph', text, indent: 0 } : { kind: 'clause', number: `${number}.${p + 1}`, text });
    });
    number++;
  }
  return { next: number, headings };
}

/** Clause `number`: "The Trustee has the following powers", then (a), (b) … as sub-items. */
export function powersClause(draft: Draft, number: number, terms: Terms, count: number): string {
  const heading = draft.random.pick(['Express powers', 'Specific powers of the {Trustee}', 'Additional powers']);
  add(draft, { kind: 'heading', text: `${number}. ${fillTerms(heading, terms).toUpperCase()}` });
  add(draft, { kind: 'paragraph', text: fillTerms(`Without limiting any power conferred by law, the {Trustee} has power, exercisable in its absolute discretion:`, terms) });
  const powers = draft.random.sample(trusteePowers, count).sort((a, b) => trusteePowers.indexOf(a) - trusteePowers.indexOf(b));
  for (const item of powerItems(powers, terms)) add(draft, { kind: 'clause', number: item.label, text: item.text, level: 1 });
  return fillTerms(heading, terms);
}

export function dateOf(draft: Draft, date: CalendarDate, styles: DateStyle[] = ['long', 'long', 'ordinal', 'day-of']): string {
  return printDate(date, draft.random.pick(styles));
}

export interface StyleOptions {
  createdAt: CalendarDate;
  /** A running title for the footer; layouts that must not print the trust's name elsewhere leave it out. */
  runningTitle?: string;
  firm?: string;
}

/** Type size, spacing, margins and a footer, varied per case as different practices' templates vary. */
export function deedStyle(draft: Draft, options: StyleOptions): DeedStyle {
  const random = draft.random;
  const fontSize = draft.short ? random.pick([10, 10.5, 11]) : random.pick([10, 10.5, 11, 11.5]);
  const pageLabel = random.pick([(n: number, t: number) => `Page ${n} of ${t}`, (n: number) => `${n}`, (n: number) => `- ${n} -`]);
  const initials = random.chance(0.4);
  const left = options.runningTitle ?? options.firm;
  const footer = (page: number, total: number): Footer => ({
    ...(left ? { left } : {}),
    center: pageLabel(page, total),
    ...(initials ? { right: 'Initials: ________' } : {}),
  });
  return {
    fontSize,
    lineGap: random.pick([1.5, 2, 3]),
    paragraphGap: random.pick([5, 6, 8]),
    margins: { top: random.pick([60, 68, 72]), bottom: random.pick([60, 66, 72]), side: random.pick([58, 64, 72]) },
    footer,
    createdAt: new Date(Date.UTC(options.createdAt.year, options.createdAt.month - 1, options.createdAt.day, 9, 30, 0)),
  };
}

export function paragraph(text: Inline, indent = 0): Block {
  return { kind: 'paragraph', text, indent };
}
