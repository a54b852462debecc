// Writes entries as a list file in our simple CSV format, so that tests and the bench load a generated
// list through `pvs screening import`'s own path. Identifiers have no column in that format.
import { writeFileSync } from 'node:fs';
import type { ListEntry } from '../../src/modules/screening/list-entry.ts';

const quote = (value: string) => `"${value.replaceAll('"', '""')}"`;
/** `;` separates a field's items, so an item cannot hold one. */
const items = (values: readonly string[]) => values.map((value) => value.replaceAll(';', ' ')).join(';');

export function writeSimpleCsvList(file: string, entries: ReadonlyArray<Omit<ListEntry, 'identifiers'>>): string {
  const rows = entries.map((e) =>
    [e.entryId, e.kind, e.name, items(e.aliases), e.kind === 'person' ? items(e.datesOfBirth) : '', items(e.countries), items(e.categories), e.source].map(quote).join(','),
  );
  writeFileSync(file, `id,kind,name,aliases,dateOfBirth,countries,categories,source\n${rows.join('\n')}\n`);
  return file;
}
