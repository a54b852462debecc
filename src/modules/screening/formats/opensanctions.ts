// The OpenSanctions "targets.simple.csv" export: one row per entity, multi-valued fields joined by `;`.
// It is hundreds of MB, so it is read record by record and only the ids seen are kept.
import { type EntryKind, type ListEntry, ListFormatError, type ListReader, type ScreeningCategory } from '../list-entry.ts';
import { isCountryCode } from './countries.ts';
import { readCsvRecords } from './csv-records.ts';
import { parseLooseDates } from './dates.ts';
import { cleanText, createIdRegister, distinct, distinctAliases, splitList } from './entry-fields.ts';

/** Older exports lack phones, emails and program_ids; nothing read here depends on them. */
const required = ['id', 'schema', 'name', 'aliases', 'birth_date', 'countries', 'identifiers', 'sanctions', 'dataset'] as const;

/** Vessels, aircraft, wallets and addresses are left out: screening is of people and businesses. */
const kinds = new Map<string, EntryKind>([
  ['Person', 'person'],
  ['Organization', 'business'],
  ['Company', 'business'],
  ['LegalEntity', 'business'],
  ['PublicBody', 'business'],
]);

// Dataset titles say what a list is about; the export has no category column.
const pepTitle = /\bpeps?\b|politically exposed|politician|parliament|legislat|heads? of (?:state|government)|world leaders|cabinet/i;
const sanctionsTitle = /sanction|embargo|asset freeze|\bsdn\b|consolidated list/i;
const watchlistTitle = /wanted|crime|criminal|interpol|red notice|fugitive|debar|exclu|warning|alert|terror|fraud|convict|enforcement|blacklist|watch ?list|police|investigat/i;

/**
 * The categories of a row. An entry on no recognisable kind of list is still on a list someone chose to
 * publish: ADVERSE_MEDIA is the catch-all for watchlists, rather than dropping the entry (the matcher would
 * then never find it) or claiming SANCTIONS or PEP the data does not support.
 */
export function openSanctionsCategories(sanctions: string, datasets: string[]): ScreeningCategory[] {
  const categories = new Set<ScreeningCategory>();
  if (sanctions !== '' || datasets.some((title) => sanctionsTitle.test(title))) categories.add('SANCTIONS');
  if (datasets.some((title) => pepTitle.test(title))) categories.add('PEP');
  if (datasets.some((title) => watchlistTitle.test(title))) categories.add('ADVERSE_MEDIA');
  if (categories.size === 0) categories.add('ADVERSE_MEDIA');
  return [...categories];
}

/** Lower-case ISO codes to upper case; OpenSanctions' own codes (`suhh` for the USSR, `eu`, `zz`) are dropped. */
function readCountries(field: string): string[] {
  return distinct(splitList(field).map((code) => code.toUpperCase()).filter(isCountryCode));
}

function readBirthDates(field: string, line: number): string[] {
  const dates: string[] = [];
  for (const text of splitList(field)) {
    const found = parseLooseDates(text);
    if (found.unreadable !== undefined) throw new ListFormatError(line, 'birth_date', `cannot read a date in "${text}"`);
    dates.push(...found.dates);
  }
  return distinct(dates);
}

export const readOpenSanctionsCsv: ListReader = async function* (filePath) {
  const registerId = createIdRegister('id');
  for await (const { line, fields } of readCsvRecords(filePath, { required })) {
    const kind = kinds.get(cleanText(fields.schema));
    if (!kind) continue;
    const entryId = cleanText(fields.id);
    if (entryId === '') throw new ListFormatError(line, 'id', 'the id is empty');
    registerId(entryId, line);
    const name = cleanText(fields.name);
    if (name === '') throw new ListFormatError(line, 'name', 'the name is empty');
    const datasets = splitList(fields.dataset ?? '');
    const entry: ListEntry = {
      entryId,
      kind,
      name,
      aliases: distinctAliases(name, splitList(fields.aliases ?? '')),
      datesOfBirth: kind === 'person' ? readBirthDates(fields.birth_date ?? '', line) : [],
      countries: readCountries(fields.countries ?? ''),
      identifiers: distinct(splitList(fields.identifiers ?? '')),
      categories: openSanctionsCategories(cleanText(fields.sanctions), datasets),
      source: cleanText(fields.dataset) || 'OpenSanctions',
    };
    yield entry;
  }
};
