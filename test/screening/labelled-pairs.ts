// The labelled screening pairs (labelled-pairs.json, holdout-pairs.json): a query, the list entry it was
// written against, and whether it should match. The one-off search's test and the screening and cli
// benches put the entries in a list with a generated one, each under an id no generated entry has.
import { readFileSync } from 'node:fs';
import type { EntryKind, ListEntry } from '../../src/modules/screening/list-entry.ts';

export interface LabelledPair {
  id: string;
  kind: EntryKind;
  query: { name: string; dateOfBirth?: string; countries?: string[]; identifiers?: string[] };
  entry: { name: string; aliases?: string[]; datesOfBirth?: string[]; countries?: string[]; identifiers?: string[] };
  match: boolean;
}

/** A pair with the id its entry has in a list: `labelled-…` or `holdout-…`. */
export type ListedPair = LabelledPair & { entryId: string; set: 'labelled' | 'holdout' };

/** Both files' pairs, in file order. */
export function readLabelledPairs(): ListedPair[] {
  return (['labelled', 'holdout'] as const).flatMap((set) => {
    const pairs = JSON.parse(readFileSync(new URL(`./${set}-pairs.json`, import.meta.url), 'utf8')) as LabelledPair[];
    return pairs.map((pair) => ({ ...pair, set, entryId: `${set}-${pair.id}` }));
  });
}

/** A pair's entry as a list holds it. */
export function labelledEntry(pair: ListedPair): ListEntry {
  return {
    entryId: pair.entryId,
    kind: pair.kind,
    name: pair.entry.name,
    aliases: pair.entry.aliases ?? [],
    datesOfBirth: pair.entry.datesOfBirth ?? [],
    countries: pair.entry.countries ?? [],
    identifiers: pair.entry.identifiers ?? [],
    categories: ['SANCTIONS'],
    source: 'labelled set',
  };
}
