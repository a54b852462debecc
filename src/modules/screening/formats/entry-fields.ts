// What every reader does to the fields it reads, so the three formats give the same entry for the same data.
import { ListFormatError } from '../list-entry.ts';

/** One string per cell: NFC, whitespace collapsed and trimmed. Lists publish names with stray spaces. */
export function cleanText(value: unknown): string {
  if (value === null || value === undefined) return '';
  return String(value).normalize('NFC').replace(/\s+/g, ' ').trim();
}

/** A `;`-separated field as its non-empty items; an empty item (`a;;b`, a trailing `;`) is not an error. */
export function splitList(text: string): string[] {
  return text
    .split(';')
    .map(cleanText)
    .filter((item) => item !== '');
}

/** What separates the items of a free-text cell: `;`, or list markers "a)", "(b)" after a space or at the start. */
export const itemSeparator = /;|(?:^|\s)\(?[a-h]\)\s*/i;

/** The first occurrence of each value, in order. */
export function distinct<T>(values: Iterable<T>): T[] {
  return [...new Set(values)];
}

/** Aliases without the primary name and without repeats, compared case-insensitively; first spelling wins. */
export function distinctAliases(name: string, aliases: Iterable<string>): string[] {
  const seen = new Set([name.toLowerCase()]);
  const kept: string[] = [];
  for (const alias of aliases) {
    const key = alias.toLowerCase();
    if (alias === '' || seen.has(key)) continue;
    seen.add(key);
    kept.push(alias);
  }
  return kept;
}

/** Remembers the entry ids of one file and rejects the second occurrence of any. */
export function createIdRegister(column: string) {
  const firstRows = new Map<string, number>();
  return (entryId: string, row: number): void => {
    const first = firstRows.get(entryId);
    if (first !== undefined) throw new ListFormatError(row, column, `duplicate id "${entryId}" (first at row ${first})`);
    firstRows.set(entryId, row);
  };
}
