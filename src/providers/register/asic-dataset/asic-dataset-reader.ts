// Streaming ASIC's company dataset (data.gov.au, "Company Dataset"): a tab-separated text file of about
// 3.5 million rows, one row per name a company has had. UTF-8, with or without a BOM, CRLF or LF line
// ends, no quoting (a name may contain `"`, which is just a character). Dates are DD/MM/YYYY.
//
// Rows of one company are gathered while they follow each other: published extracts keep them together
// (they are ordered by ACN), but nothing here depends on it. A company whose rows are split comes out more
// than once, each part with what its own rows say, and the importer merges the parts (see
// asic-dataset-import.ts). Only one company's rows are ever held, so memory stays flat whatever the size.
//
// How a company's current name is told apart from its former names:
// - the row marked `Y` in `Current Name Indicator` carries the current name;
// - the other rows are former names, and carry the current name in `Current Name` (a few companies
//   have only such rows: the name comes from there);
// - a company with a single unmarked row and no `Current Name` is current under that name.
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { textProblem } from '../../../platform/text-safety.ts';
import { type AsicCompany, AsicDatasetError } from './asic-company.ts';
import { normaliseAbn, normaliseAcn, parseAsicDate, type FieldResult } from './asic-fields.ts';

/** The columns read. The published header has four more (state registration, modified flag, name start
 * date), which are accepted and ignored, as are any columns ASIC adds later. */
export const asicDatasetColumns = [
  'Company Name',
  'ACN',
  'Type',
  'Class',
  'Sub Class',
  'Status',
  'Date of Registration',
  'Date of Deregistration',
  'Current Name Indicator',
  'ABN',
  'Current Name',
] as const;

type Column = (typeof asicDatasetColumns)[number];

/** One row, read and checked. */
interface AsicRow {
  line: number;
  acn: string;
  companyName: string;
  markedCurrent: boolean;
  currentName: string | null;
  type: string;
  class: string | null;
  subClass: string | null;
  status: string;
  registeredOn: string | null;
  deregisteredOn: string | null;
  abn: string | null;
}

/**
 * Why a field cannot be taken as text, or undefined. A field is one line (the format has no quoting), so
 * any control character is refused, and so is U+FFFD: the UTF-8 decoder writes it for bytes that are not
 * UTF-8 (a file saved as Windows-1252), and ASIC registers names in a character set that has no U+FFFD.
 */
function fieldProblem(value: string): string | undefined {
  const problem = textProblem(value);
  if (problem) return problem;
  const at = value.indexOf('\uFFFD');
  if (at >= 0) return `contains bytes that are not valid UTF-8 at position ${at + 1}; was the file saved in another encoding? Save it as UTF-8`;
  return undefined;
}

function readHeader(record: string[]): Map<Column, number> {
  const positions = new Map<string, number>();
  record.forEach((raw, index) => {
    const problem = fieldProblem(raw);
    if (problem) throw new AsicDatasetError(1, undefined, `header column ${index + 1} ${problem}`);
    const name = raw.trim();
    if (name === '') return;
    if (positions.has(name)) throw new AsicDatasetError(1, name, 'the column appears twice in the header');
    positions.set(name, index);
  });
  const missing = asicDatasetColumns.filter((column) => !positions.has(column));
  if (missing.length > 0) {
    const looksTabbed = record.length > 1;
    throw new AsicDatasetError(
      1,
      missing[0],
      looksTabbed
        ? `required column missing from the header${missing.length > 1 ? ` (also missing: ${missing.slice(1).join(', ')})` : ''}`
        : 'required column missing from the header: the header has no tab in it; is this the tab-separated ASIC company dataset?',
    );
  }
  return positions as Map<Column, number>;
}

function rowReader(positions: Map<Column, number>) {
  return function readRow(record: string[], line: number): AsicRow {
    const text = (column: Column) => {
      const value = record[positions.get(column)!] ?? '';
      const problem = fieldProblem(value);
      if (problem) throw new AsicDatasetError(line, column, problem);
      return value.trim();
    };
    const optional = (column: Column) => text(column) || null;
    const required = (column: Column, what: string) => {
      const value = text(column);
      if (value === '') throw new AsicDatasetError(line, column, `${what} is empty`);
      return value;
    };
    const check = <T>(column: Column, result: FieldResult<T>): T => {
      if (!result.ok) throw new AsicDatasetError(line, column, result.reason);
      return result.value;
    };
    const indicator = text('Current Name Indicator').toUpperCase();
    if (indicator !== '' && indicator !== 'Y' && indicator !== 'N') {
      throw new AsicDatasetError(line, 'Current Name Indicator', `"${text('Current Name Indicator')}" is not Y, N or empty`);
    }
    return {
      line,
      acn: check('ACN', normaliseAcn(text('ACN'))),
      companyName: required('Company Name', 'the company name'),
      markedCurrent: indicator === 'Y',
      currentName: optional('Current Name'),
      type: required('Type', 'the company type'),
      class: optional('Class'),
      subClass: optional('Sub Class'),
      status: required('Status', 'the status'),
      registeredOn: check('Date of Registration', parseAsicDate(text('Date of Registration'))),
      deregisteredOn: check('Date of Deregistration', parseAsicDate(text('Date of Deregistration'))),
      abn: check('ABN', normaliseAbn(text('ABN'))),
    };
  };
}

/** One company from its consecutive rows (all of the same ACN). */
function companyOf(rows: readonly AsicRow[]): AsicCompany {
  const first = rows[0]!;
  const marked = rows.filter((row) => row.markedCurrent);
  const other = marked.find((row) => row.companyName !== marked[0]!.companyName);
  if (other) {
    throw new AsicDatasetError(
      other.line,
      'Current Name Indicator',
      `ACN ${first.acn} has a second current name "${other.companyName}"; line ${marked[0]!.line} marks "${marked[0]!.companyName}" as current`,
    );
  }
  const named = rows.find((row) => row.currentName !== null);
  // The row whose facts (type, status, dates, ABN) are taken: the current one where there is one.
  const source = marked[0] ?? first;
  const name = marked[0]?.companyName ?? named?.currentName ?? first.companyName;
  const formerNames = [...new Set(rows.map((row) => row.companyName))].filter((n) => n !== name);
  return {
    acn: first.acn,
    name,
    nameStated: marked.length > 0 || named !== undefined,
    formerNames,
    type: source.type,
    class: source.class,
    subClass: source.subClass,
    status: source.status,
    registeredOn: source.registeredOn,
    deregisteredOn: source.deregisteredOn,
    abn: source.abn,
    line: first.line,
    rows: rows.length,
  };
}

/**
 * The companies of a dataset file, one per run of rows with the same ACN. Throws AsicDatasetError on the
 * first row it cannot accept (a bad ACN check digit, a date that is not DD/MM/YYYY, a missing column…).
 */
export async function* readAsicDataset(filePath: string): AsyncGenerator<AsicCompany> {
  // Lines split on tabs, not a CSV parser: the format has no quoting to interpret, and csv-parse reads
  // about 100 000 rows a second where this reads several times that (3.5 million rows: seconds, not a minute).
  const input = createReadStream(filePath, { encoding: 'utf8' });
  const lines = createInterface({ input, crlfDelay: Infinity });

  let line = 0;
  let columns = 0;
  let readRow: ReturnType<typeof rowReader> | undefined;
  let group: AsicRow[] = [];
  try {
    for await (const text of lines) {
      line++;
      if (!readRow) {
        const header = text.replace(/^\uFEFF/, '');
        if (header.trim() === '') throw new AsicDatasetError(1, undefined, 'the first line is empty; the file must start with its header row');
        const names = header.split('\t');
        readRow = rowReader(readHeader(names));
        columns = names.length;
        continue;
      }
      if (text.trim() === '') continue;
      const record = text.split('\t');
      if (record.length !== columns) {
        throw new AsicDatasetError(line, undefined, `expected ${columns} tab-separated fields like the header, found ${record.length}`);
      }
      const row = readRow(record, line);
      // The columns read named their own bad bytes; these are in a column the reader leaves alone.
      if (text.includes('\uFFFD')) {
        throw new AsicDatasetError(line, undefined, 'the row is not valid UTF-8 text (was the file saved in another encoding?)');
      }
      if (group.length > 0 && group[0]!.acn !== row.acn) {
        yield companyOf(group);
        group = [];
      }
      group.push(row);
    }
    if (group.length > 0) yield companyOf(group);
  } finally {
    lines.close();
    input.destroy();
  }
  if (!readRow) throw new AsicDatasetError(1, undefined, 'the file is empty: no header row');
}
