// Our own list format (CONTRACT §11): one row per entry, lists inside a field joined by `;`. We define it,
// so it is read strictly: anything the importer would otherwise have to guess at is an error.
import { type EntryKind, ListFormatError, type ListReader, type ScreeningCategory, screeningCategories } from '../list-entry.ts';
import { isCountryCode } from './countries.ts';
import { readCsvRecords } from './csv-records.ts';
import { parseIsoPartialDate } from './dates.ts';
import { cleanText, createIdRegister, distinct, distinctAliases, splitList } from './entry-fields.ts';

export const simpleCsvColumns = ['id', 'kind', 'name', 'aliases', 'dateOfBirth', 'countries', 'categories', 'source'] as const;

const kinds: readonly string[] = ['person', 'business'] satisfies EntryKind[];

function required(value: string, line: number, column: string, what: string): string {
  if (value === '') throw new ListFormatError(line, column, `${what} is empty`);
  return value;
}

function readKind(text: string, line: number): EntryKind {
  if (!kinds.includes(text)) throw new ListFormatError(line, 'kind', `"${text}" is not a kind; expected person or business`);
  return text as EntryKind;
}

function readDates(field: string, kind: EntryKind, line: number): string[] {
  const texts = splitList(field);
  if (texts.length > 0 && kind === 'business') throw new ListFormatError(line, 'dateOfBirth', 'a business has no date of birth');
  return distinct(
    texts.map((text) => {
      const date = parseIsoPartialDate(text);
      if (!date) throw new ListFormatError(line, 'dateOfBirth', `"${text}" is not a date; expected YYYY, YYYY-MM or YYYY-MM-DD`);
      return date;
    }),
  );
}

function readCountries(field: string, line: number): string[] {
  return distinct(
    splitList(field).map((text) => {
      const code = text.toUpperCase();
      if (!isCountryCode(code)) throw new ListFormatError(line, 'countries', `"${text}" is not an ISO 3166-1 alpha-2 country code`);
      return code;
    }),
  );
}

function readCategories(field: string, line: number): ScreeningCategory[] {
  const texts = splitList(field);
  if (texts.length === 0) throw new ListFormatError(line, 'categories', `no category; expected one or more of ${screeningCategories.join(', ')}`);
  return distinct(
    texts.map((text) => {
      const category = screeningCategories.find((known) => known === text);
      if (!category) throw new ListFormatError(line, 'categories', `"${text}" is not a category; expected ${screeningCategories.join(', ')}`);
      return category;
    }),
  );
}

export const readSimpleCsv: ListReader = async function* (filePath) {
  const registerId = createIdRegister('id');
  for await (const { line, fields } of readCsvRecords(filePath, { required: simpleCsvColumns, allowedOnly: true })) {
    const entryId = required(cleanText(fields.id), line, 'id', 'the id');
    registerId(entryId, line);
    const kind = readKind(cleanText(fields.kind), line);
    const name = required(cleanText(fields.name), line, 'name', 'the name');
    yield {
      entryId,
      kind,
      name,
      aliases: distinctAliases(name, splitList(fields.aliases ?? '')),
      datesOfBirth: readDates(fields.dateOfBirth ?? '', kind, line),
      countries: readCountries(fields.countries ?? '', line),
      identifiers: [],
      categories: readCategories(fields.categories ?? '', line),
      source: required(cleanText(fields.source), line, 'source', 'the source'),
    };
  }
};
