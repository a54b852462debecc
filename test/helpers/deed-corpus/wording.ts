// The ways deeds word the same thing: dates, vesting rules, governing-law clauses, role names, titles.
// Each choice is drawn from the deed's seed; the truth records what was printed.
import type { Random } from './random.ts';

const months = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const ordinal = (n: number) => `${n}${n % 10 === 1 && n !== 11 ? 'st' : n % 10 === 2 && n !== 12 ? 'nd' : n % 10 === 3 && n !== 13 ? 'rd' : 'th'}`;

export interface PrintedDate {
  /** As printed, e.g. `3rd day of June 2019` (the sentence may put `the` before it). */
  text: string;
  /** Whether a sentence should say `the` before it (`made on the 3rd day of June 2019`). */
  takesThe: boolean;
  year: number;
}

export function makeDate(r: Random, fromYear: number, toYear: number): PrintedDate {
  const year = r.between(fromYear, toYear);
  const month = r.int(12);
  const day = r.between(1, 28);
  const style = r.int(5);
  if (style === 0) return { text: `${ordinal(day)} day of ${months[month]} ${year}`, takesThe: true, year };
  if (style === 1) return { text: `${months[month]} ${day}, ${year}`, takesThe: false, year };
  if (style === 2) return { text: `${String(day).padStart(2, '0')}/${String(month + 1).padStart(2, '0')}/${year}`, takesThe: false, year };
  return { text: `${day} ${months[month]} ${year}`, takesThe: false, year };
}

export const states = [
  { name: 'New South Wales', abbrev: 'NSW', act: 'Trustee Act 1925 (NSW)' },
  { name: 'Victoria', abbrev: 'VIC', act: 'Trustee Act 1958 (Vic)' },
  { name: 'Queensland', abbrev: 'QLD', act: 'Trusts Act 1973 (Qld)' },
  { name: 'South Australia', abbrev: 'SA', act: 'Trustee Act 1936 (SA)' },
  { name: 'Western Australia', abbrev: 'WA', act: 'Trustees Act 1962 (WA)' },
  { name: 'Tasmania', abbrev: 'TAS', act: 'Trustee Act 1898 (Tas)' },
  { name: 'Northern Territory', abbrev: 'NT', act: 'Trustee Act 1893 (NT)' },
  { name: 'Australian Capital Territory', abbrev: 'ACT', act: 'Trustee Act 1925 (ACT)' },
] as const;
export type State = (typeof states)[number];

/** A governing-law clause naming `state` (the truth is `state.name`). */
export function governingLawSentence(r: Random, state: State, deedWord: string): string {
  const territory = state.name.endsWith('Territory');
  const place = territory ? `the ${state.name}` : r.chance(0.4) ? `the State of ${state.name}` : state.name;
  return r.pick([
    `This ${deedWord} is governed by and shall be construed in accordance with the laws of ${place}.`,
    `The proper law of this ${deedWord} and of the Trust is the law of ${place}.`,
    `This ${deedWord} is governed by the law in force in ${place} and the parties submit to the non-exclusive jurisdiction of the courts of ${place}.`,
    `The Trust shall be governed by and administered in accordance with the laws for the time being in force in ${place}.`,
  ]);
}

/** A vesting rule as deeds print it; never a computed date unless the deed prints a date. */
export function vestingRule(r: Random, dateWord: string, establishedYear: number): string {
  return r.pick([
    `the day before the eightieth anniversary of the ${dateWord}`,
    `the day which is 80 years less one day after the ${dateWord}`,
    `the date which is eighty (80) years after the ${dateWord}, less one day`,
    `30 June ${establishedYear + 79}`,
    `the 79th anniversary of the ${dateWord}`,
  ]);
}

export const appointorWords = ['Appointor', 'Appointer', 'Principal', 'Nominator'] as const;
export const guardianWords = ['Guardian', 'Protector'] as const;
export const trusteeWords = ['Trustee', 'Trustee', 'Original Trustee', 'Initial Trustee'] as const;
export const namedWords = ['Primary', 'Specified'] as const;
export const classWords = ['General', 'Secondary', 'Eligible'] as const;

export const scheduleHeadings = ['SCHEDULE', 'SCHEDULE 1', 'THE SCHEDULE', 'Schedule', 'SCHEDULE OF PARTICULARS', 'Particulars', 'DEED DETAILS', 'Reference Schedule'] as const;

/** A plural for a role word as a label (`Appointors`, `Principals`). */
export const plural = (word: string, n: number) => (n > 1 ? `${word}s` : word);

/** Set a sentence's first letter in capitals. */
export const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
