// The `cli` scenario's screening list and queries: the screening bench's generated list
// (screening-list.ts, seeded) plus the entries of test/screening/labelled-pairs.json and
// holdout-pairs.json, written as our simple CSV (`pvs screening import --format csv`, docs/screening.md:
// id,kind,name,aliases,dateOfBirth,countries,categories,source; no identifiers column), and the
// labelled person queries' names to search for.
import { labelledEntry, readLabelledPairs } from '../../test/screening/labelled-pairs.ts';
import { writeSimpleCsvList } from '../../test/screening/simple-csv-list.ts';
import { generateScreeningList } from './screening-list.ts';

/** A labelled person query: the name to search for, the entry it was written against, and whether it should match. */
export interface CliQuery {
  name: string;
  entryId: string;
  match: boolean;
}

/**
 * Writes `entries` generated entries and the 437 labelled ones to `file` as a simple CSV; answers how
 * many entries it holds and the labelled person queries (labelled-pairs.json only, in file order).
 */
export function writeCliScreeningList(file: string, entries: number): { entries: number; queries: CliQuery[] } {
  const generated = generateScreeningList(entries);
  const labelled = readLabelledPairs();
  writeSimpleCsvList(file, [...generated.entries, ...labelled.map(labelledEntry)]);
  const queries = labelled
    .filter((pair) => pair.set === 'labelled' && pair.kind === 'person')
    .map((pair) => ({ name: pair.query.name, entryId: pair.entryId, match: pair.match }));
  return { entries: generated.entries.length + labelled.length, queries };
}

/** `count` queries spread evenly over the labelled ones, so that runs search for different names. */
export function spreadQueries(queries: readonly CliQuery[], count: number, offset = 0): CliQuery[] {
  if (queries.length === 0) throw new Error('no labelled person queries');
  const step = Math.max(1, Math.floor(queries.length / count));
  return Array.from({ length: count }, (_, i) => queries[(offset + i * step) % queries.length]!);
}
