// Writes entries as a list file in our simple CSV format, so that tests and the bench load a generated
// list through `pvs screening import`'s own path. Identifiers have no column in that format.
import { writeFileSync } from 'node:fs';
import type { ListEntry } from '../../src/modules/screening/list-entry.ts';

const quote = (value: string) => `"${value.replaceAll('"', '""')}"`;

export function writeSimpleCsvList(file: string, entries: ReadonlyArray<Omit<ListEntry, 'identifiers'>>): string {
  const rows = entries.map((e) =>
    [e.entryId, e.kind, e.name, e.aliases.join(';'), e.kind === 'person' ? e.datesOfBirth.join(';') : '', e.countries.join(';'), e.categories.join(';'), e.source].map(quote).join(','),
  );
  writeFileSync(file, `id,kind,name,aliases,dateOfBirth,countries,categories,source\n${rows.join('\n')}\n`);
  return file;
}
