// What the database keeps of a list so that a one-off search (a CLI process, nothing warm) can find the
// names the index would score without building the index. The index's own functions make it (`namesOf`,
// `blockingKeys`, the shapes), so the two cannot disagree on what a name's words are or what a word is
// keyed by.
//
// Stored per import: every word of its names with the word's blocking keys; every name as its words, each
// tagged with the name's shape (`karlov/3`), so that a common word is looked up only among the names it
// could make candidates of (search-filter.ts).
import { createHash } from 'node:crypto';
import type { ListEntry } from '../list-entry.ts';
import { phoneticCodes } from './normalise.ts';
import { blockingKeys, initialsOf, namesOf, shapeOf } from './screening-index.ts';

export interface SearchName {
  /** The name's words tagged with its shape (`word/shape`), sorted, repeats kept: the rule counts them, it does not read their order. */
  tokens: string[];
  /** The words it holds twice or more (Mohammed bin Mohammed), tagged alike. */
  repeats: string[];
  /** Single-letter words. */
  initials: number;
}

/** A word as it is stored and looked up: the word and the shape of the name holding it. */
export const shapedToken = (token: string, shape: number) => `${token}/${shape}`;

/** Every distinct name of an entry (name, aliases, joined-word variants) by its words; names with the same words are one. */
export function searchNamesOf(entry: Pick<ListEntry, 'kind' | 'name' | 'aliases'>): SearchName[] {
  const names = new Map<string, SearchName>();
  for (const { variants } of namesOf(entry)) {
    for (const variant of variants) {
      if (variant.tokens.length === 0) continue;
      const initials = initialsOf(variant);
      const shape = shapeOf(initials, variant.tokens.length - initials);
      const tokens = variant.tokens.map((t) => shapedToken(t, shape)).sort();
      const repeats = [...new Set(tokens.filter((t, i) => tokens[i + 1] === t))];
      names.set(tokens.join(' '), { tokens, repeats, initials });
    }
  }
  return [...names.values()];
}

/**
 * The keys the index finds a word by. The index reads a word's phonetic codes from its prepared name,
 * which computes them from the word alone (`prepareName`, `nameVariants`), so they are the same.
 */
export function wordKeys(token: string): string[] {
  return blockingKeys(token, phoneticCodes(token));
}

/**
 * Stored keys are only as good as the code that made them: a change to normalisation, phonetic codes,
 * joined-word variants, shapes or `blockingKeys` would leave a stored list keyed the old way, and a
 * one-off search would miss what the index finds. The scheme names the code: the keys of names that
 * exercise each of those steps, hashed, and a number to raise for a change the probes do not show. Keys
 * of another scheme are written again before they are used.
 */
const schemeRevision = 1;

const probes: Array<Pick<ListEntry, 'kind' | 'name' | 'aliases'>> = [
  { kind: 'person', name: 'Boris Ivanovich KARLOV', aliases: ['Борис Иванович Карлов', 'KARLOV, B. I.'] },
  { kind: 'person', name: 'Dr Amira Hassan EL-SAYED', aliases: ['Amira bin Hassan El Sayed', 'أميرة حسن السيد'] },
  { kind: 'person', name: 'Abd al-Aziz Min-jun Thompson', aliases: ['Mohammed Muhammad Husayn Hossein', 'Σωκράτης Παπαδόπουλος'] },
  { kind: 'person', name: "José María O'Brien-Núñez Jr", aliases: ['Nguyễn Thị Phương', 'Tkachenko Markovic Kurenkov'] },
  { kind: 'business', name: 'Northwind Trading FZE', aliases: ['The Northwind Trading Co. Pty Ltd', 'ООО Нордвинд 745213 S.A.'] },
  { kind: 'business', name: 'Golden Crescent Shipping & Logistics GmbH', aliases: ['Al-Masri Trading JSC', 'Sino Petro Holdings Limited'] },
];

let scheme: string | undefined;

/** The scheme of the keys this code writes. */
export function searchKeyScheme(): string {
  if (scheme === undefined) {
    const derived = probes.map((entry) => {
      const names = searchNamesOf(entry);
      const words = [...new Set(names.flatMap((n) => n.tokens.map((t) => t.slice(0, t.lastIndexOf('/')))))].sort();
      return { names, words: words.map((w) => [w, wordKeys(w)]) };
    });
    scheme = `${schemeRevision}:${createHash('sha256').update(JSON.stringify(derived)).digest('hex').slice(0, 16)}`;
  }
  return scheme;
}
