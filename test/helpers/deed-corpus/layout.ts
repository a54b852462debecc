// A deed's layout: where the schedule sits and how it prints, how the parties clause reads, which word
// each role goes by, where each party's name is printed. Drawn from the seed; a case may force any of it.
import type { Cast } from './cast.ts';
import type { Roles } from './boilerplate.ts';
import type { AcnStyle, ListStyle } from './print.ts';
import type { Random } from './random.ts';
import type { DeedKind } from './types.ts';
import { appointorWords, guardianWords, namedWords, plural, scheduleHeadings, trusteeWords } from './wording.ts';

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

export function drawLayout(r: Random, kind: DeedKind, force: Partial<Layout>): Layout {
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

export interface RoleLabels {
  namedLabel: string;
  boiler: Roles;
}

export function roleWords(layout: Layout, cast: Cast, kind: DeedKind): RoleLabels {
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
