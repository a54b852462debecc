// The `cli` scenario's screening list and queries: the screening bench's generated list
// (screening-list.ts, seeded) plus the entries of test/screening/labelled-pairs.json and
// holdout-pairs.json, written as our simple CSV (`pvs screening import --format csv`, docs/screening.md:
// id,kind,name,aliases,dateOfBirth,countries,categories,source; no identifiers column), and the
// labelled person queries' names to search for.
import { readFileSync, writeFileSync } from 'node:fs';
import type { EntryKind } from '../../src/modules/screening/list-entry.ts';
import type { IndexedEntry } from '../../src/modules/screening/matching/screening-index.ts';
import { generateScreeningList } from './screening-list.ts';

interface LabelledPair {
  id: string;
  kind: EntryKind;
  query: { name: string };
  entry: { name: string; aliases?: string[]; datesOfBirth?: string[]; countries?: string[] };
  match: boolean;
}

const labelledFiles = [
  ['labelled', 'labelled-pairs.json'],
  ['holdout', 'holdout-pairs.json'],
] as const;

function readPairs(file: string): LabelledPair[] {
  return JSON.parse(readFileSync(new URL(`../../test/screening/${file}`, import.meta.url), 'utf8')) as LabelledPair[];
}

/** A labelled person query: the name to search for, the entry it was written against, and whether it should match. */
export interface CliQuery {
  name: string;
  entryId: string;
  match: boolean;
}

const csvCell = (text: string) => (/[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text);
/** `;` separates a field's items, so an item cannot hold one. */
const item = (text: string) => text.replace(/;/g, ' ');

function csvRow(e: Pick<IndexedEntry, 'entryId' | 'kind' | 'name' | 'aliases' | 'datesOfBirth' | 'countries' | 'categories' | 'source'>): string {
  return [
    e.entryId,
    e.kind,
    e.name,
    e.aliases.map(item).join(';'),
    e.kind === 'person' ? e.datesOfBirth.join(';') : '',
    e.countries.join(';'),
    e.categories.join(';'),
    e.source,
  ]
    .map(csvCell)
    .join(',');
}

/**
 * Writes `entries` generated entries and the 437 labelled ones to `file` as a simple CSV; answers how
 * many entries it holds and the labelled person queries (labelled-pairs.json only, in file order).
 */
export function writeCliScreeningList(file: string, entries: number): { entries: number; queries: CliQuery[] } {
  const generated = generateScreeningList(entries);
  const lines = ['id,kind,name,aliases,dateOfBirth,countries,categories,source'];
  for (const e of generated.entries) lines.push(csvRow(e));
  const queries: CliQuery[] = [];
  let labelled = 0;
  for (const [prefix, name] of labelledFiles) {
    for (const pair of readPairs(name)) {
      const entryId = `${prefix}-${pair.id}`;
      lines.push(
        csvRow({
          entryId,
          kind: pair.kind,
          name: pair.entry.name,
          aliases: pair.entry.aliases ?? [],
          datesOfBirth: pair.entry.datesOfBirth ?? [],
          countries: pair.entry.countries ?? [],
          categories: ['SANCTIONS'],
          source: 'labelled set',
        }),
      );
      labelled++;
      if (prefix === 'labelled' && pair.kind === 'person') queries.push({ name: pair.query.name, entryId, match: pair.match });
    }
  }
  writeFileSync(file, `${lines.join('\n')}\n`);
  return { entries: generated.entries.length + labelled, queries };
}

/** `count` queries spread evenly over the labelled ones, so that runs search for different names. */
export function spreadQueries(queries: readonly CliQuery[], count: number, offset = 0): CliQuery[] {
  if (queries.length === 0) throw new Error('no labelled person queries');
  const step = Math.max(1, Math.floor(queries.length / count));
  return Array.from({ length: count }, (_, i) => queries[(offset + i * step) % queries.length]!);
}
