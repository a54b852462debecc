// The DFAT Consolidated List (.xlsx): one row per name, the rows of one listing sharing its reference.
// Columns are found by header name, so DFAT adding or moving a column does not break an import.
import { InvalidInputError, InvalidSpreadsheetError, readSheet } from 'read-excel-file/node';
import { textProblem } from '../../../platform/text-safety.ts';
import { type EntryKind, type ListEntry, ListFormatError, type ListReader } from '../list-entry.ts';
import { countriesFromAddresses, countriesFromText } from './countries.ts';
import { formatCellDate, formatCellNumber, parseLooseDates } from './dates.ts';
import { cleanText, distinct, distinctAliases } from './entry-fields.ts';

export const dfatSource = 'DFAT Consolidated List';

/** The columns read; the others (Place of Birth, Listing Information, Committees, Control Date…) are not needed. */
const columns = {
  reference: 'Reference',
  name: 'Name of Individual or Entity',
  type: 'Type',
  nameType: 'Name Type',
  dateOfBirth: 'Date of Birth',
  citizenship: 'Citizenship',
  address: 'Address',
} as const;
type Column = keyof typeof columns;

/** Vessels are listed too; screening is of people and businesses, so their rows are read and left out. */
const kinds = new Map<string, EntryKind | 'skipped'>([
  ['individual', 'person'],
  ['entity', 'business'],
  ['vessel', 'skipped'],
]);

interface Listing {
  entryId: string;
  firstRow: number;
  kind?: EntryKind | 'skipped';
  typeRow?: number;
  name?: string;
  primaryRow?: number;
  aliases: string[];
  datesOfBirth: string[];
  citizenships: string[];
  addressCountries: string[];
}

const headerKey = (text: string) => text.toLowerCase().replace(/\s+/g, '');

function columnIndexes(header: unknown[]): Record<Column, number> {
  const keys = header.map((cell) => headerKey(cleanText(cell)));
  const indexes = {} as Record<Column, number>;
  for (const [column, title] of Object.entries(columns) as Array<[Column, string]>) {
    const index = keys.indexOf(headerKey(title));
    if (index < 0) throw new ListFormatError(1, title, 'required column missing from the header row');
    indexes[column] = index;
  }
  return indexes;
}

async function readRows(filePath: string): Promise<unknown[][]> {
  try {
    return (await readSheet(filePath)) as unknown[][];
  } catch (error) {
    if (error instanceof InvalidInputError) {
      const why = { XLS_FILE_NOT_SUPPORTED: 'a legacy .xls file; save it as .xlsx', NO_DATA: 'the file is empty' }[error.code as string];
      throw new ListFormatError(0, undefined, `not an .xlsx workbook${why ? ` (${why})` : ''}`);
    }
    if (error instanceof InvalidSpreadsheetError) throw new ListFormatError(0, undefined, `not an .xlsx workbook: ${error.message}`);
    throw error;
  }
}

/**
 * The text cells read, against the text rules: a NUL or another control character (a workbook holds them
 * escaped as `_x0001_`, which the reader decodes) is refused with its row and column. Line breaks in a
 * cell (Alt+Enter) and tabs are allowed: cleanText turns them into single spaces.
 */
function checkCells(cells: unknown[], at: Record<Column, number>, row: number): void {
  for (const column of Object.keys(columns) as Column[]) {
    const cell = cells[at[column]];
    if (typeof cell !== 'string') continue;
    const problem = textProblem(cell, { multiline: true });
    if (problem) throw new ListFormatError(row, columns[column], problem);
  }
}

/** "8", "8a" and "8b" are one listing: DFAT letters its alias rows on some listings and not on others. */
function baseReference(reference: string): string {
  return /^(\d+)[a-z]{0,3}$/i.exec(reference)?.[1] ?? reference;
}

function readDates(cell: unknown, row: number): string[] {
  if (cell instanceof Date) return [formatCellDate(cell)];
  if (typeof cell === 'number') {
    const date = formatCellNumber(cell);
    if (!date) throw new ListFormatError(row, columns.dateOfBirth, `cannot read a date in the number ${cell}`);
    return [date];
  }
  const text = cleanText(cell);
  const { dates, unreadable } = parseLooseDates(text);
  if (unreadable !== undefined) throw new ListFormatError(row, columns.dateOfBirth, `cannot read a date in "${text}"`);
  return dates;
}

function readKind(listing: Listing, cell: unknown, row: number): void {
  const text = cleanText(cell);
  // Alias rows sometimes leave Type empty; the listing's other rows say it.
  if (text === '') return;
  const kind = kinds.get(text.toLowerCase());
  if (!kind) throw new ListFormatError(row, columns.type, `unknown type "${text}"; expected Individual or Entity`);
  if (listing.kind && listing.kind !== kind) {
    throw new ListFormatError(row, columns.type, `reference ${listing.entryId} has another Type at row ${listing.typeRow}`);
  }
  listing.kind = kind;
  listing.typeRow ??= row;
}

function readName(listing: Listing, cells: unknown[], at: Record<Column, number>, row: number): void {
  const name = cleanText(cells[at.name]);
  if (name === '') throw new ListFormatError(row, columns.name, 'the name is empty');
  const nameType = cleanText(cells[at.nameType]).toLowerCase();
  if (nameType === '') throw new ListFormatError(row, columns.nameType, 'the name type is empty; expected Primary Name, aka or Original Script');
  // Everything but the primary name is another name of the same listing: aka, Original Script, fka.
  if (nameType !== 'primary name' && nameType !== 'primary') {
    listing.aliases.push(name);
    return;
  }
  if (listing.primaryRow !== undefined) {
    throw new ListFormatError(row, columns.reference, `duplicate reference ${listing.entryId}: a second Primary Name row (the first is row ${listing.primaryRow})`);
  }
  listing.name = name;
  listing.primaryRow = row;
}

function toEntry(listing: Listing): ListEntry | undefined {
  if (listing.primaryRow === undefined || listing.name === undefined) {
    throw new ListFormatError(listing.firstRow, columns.nameType, `reference ${listing.entryId} has no Primary Name row`);
  }
  if (!listing.kind) throw new ListFormatError(listing.firstRow, columns.type, `reference ${listing.entryId} has no Type`);
  if (listing.kind === 'skipped') return undefined;
  // An entity has no citizenship; the country of its address stands for its jurisdiction.
  const countries = listing.kind === 'business' ? [...listing.citizenships, ...listing.addressCountries] : listing.citizenships;
  return {
    entryId: listing.entryId,
    kind: listing.kind,
    name: listing.name,
    aliases: distinctAliases(listing.name, listing.aliases),
    datesOfBirth: listing.kind === 'person' ? distinct(listing.datesOfBirth) : [],
    countries: distinct(countries),
    identifiers: [],
    categories: ['SANCTIONS'],
    source: dfatSource,
  };
}

/**
 * Reads the first sheet. The whole workbook is read at once (the format does not stream); the list is a few
 * thousand rows. Rows of one listing need not be adjacent; entries come out in the order of their first row.
 */
export const readDfatWorkbook: ListReader = async function* (filePath) {
  const rows = await readRows(filePath);
  if (rows.length === 0) throw new ListFormatError(1, undefined, 'the sheet is empty: no header row');
  const at = columnIndexes(rows[0]!);

  const listings = new Map<string, Listing>();
  for (let index = 1; index < rows.length; index++) {
    const cells = rows[index]!;
    const row = index + 1;
    if (cells.every((cell) => cleanText(cell) === '')) continue;
    checkCells(cells, at, row);

    const reference = cleanText(cells[at.reference]);
    if (reference === '') throw new ListFormatError(row, columns.reference, 'the reference is empty');
    const entryId = baseReference(reference);
    let listing = listings.get(entryId);
    if (!listing) {
      listing = { entryId, firstRow: row, aliases: [], datesOfBirth: [], citizenships: [], addressCountries: [] };
      listings.set(entryId, listing);
    }
    readKind(listing, cells[at.type], row);
    readName(listing, cells, at, row);
    listing.datesOfBirth.push(...readDates(cells[at.dateOfBirth], row));
    listing.citizenships.push(...countriesFromText(cleanText(cells[at.citizenship])));
    listing.addressCountries.push(...countriesFromAddresses(cleanText(cells[at.address])));
  }

  for (const listing of listings.values()) {
    const entry = toEntry(listing);
    if (entry) yield entry;
  }
};
