// Streaming a CSV list into named records with the line each starts on: the OpenSanctions export is hundreds
// of MB, so nothing here holds more than one record.
import { createReadStream } from 'node:fs';
import { CsvError, parse } from 'csv-parse';
import { ListFormatError } from '../list-entry.ts';

export interface CsvRecord {
  /** The line the record starts on, the header being line 1. */
  line: number;
  /** Every header column's raw value ('' when empty). */
  fields: Record<string, string>;
}

export interface CsvHeaderRules {
  required: readonly string[];
  /** When given, any other column is an error (our own format is strict); otherwise extra columns are ignored. */
  allowedOnly?: boolean;
}

function checkHeader(header: string[], rules: CsvHeaderRules): void {
  const seen = new Set<string>();
  for (const column of header) {
    if (column === '') throw new ListFormatError(1, undefined, 'a header column has no name');
    if (seen.has(column)) throw new ListFormatError(1, column, 'the column appears twice in the header');
    if (rules.allowedOnly && !rules.required.includes(column)) {
      throw new ListFormatError(1, column, `unknown column; the header must be ${rules.required.join(',')}`);
    }
    seen.add(column);
  }
  const missing = rules.required.find((column) => !seen.has(column));
  if (missing) throw new ListFormatError(1, missing, 'required column missing from the header');
}

/** A quoted field may span lines; the parser counts the line a record ends on. */
function startLine(endLine: number, values: string[]): number {
  let breaks = 0;
  for (const value of values) if (value.includes('\n')) breaks += value.split('\n').length - 1;
  return endLine - breaks;
}

/**
 * The records of a CSV file after its header. A BOM is accepted; blank lines and rows of empty fields are
 * skipped; a row with another number of fields than the header, or broken quoting, is a ListFormatError.
 */
export async function* readCsvRecords(filePath: string, rules: CsvHeaderRules): AsyncGenerator<CsvRecord> {
  const parser = parse({ bom: true, info: true, relax_column_count: true, skip_empty_lines: true, skip_records_with_empty_values: true });
  const input = createReadStream(filePath);
  // pipe() does not forward a read error (a missing file); without this the loop below would wait forever.
  input.on('error', (error) => parser.destroy(error));
  input.pipe(parser);

  let header: string[] | undefined;
  try {
    for await (const { info, record } of parser as AsyncIterable<{ info: { lines: number }; record: string[] }>) {
      const line = startLine(info.lines, record);
      if (!header) {
        if (line !== 1) throw new ListFormatError(1, undefined, 'the file must start with its header row');
        header = record.map((name) => name.trim());
        checkHeader(header, rules);
        continue;
      }
      if (record.length !== header.length) {
        throw new ListFormatError(line, undefined, `expected ${header.length} fields like the header, found ${record.length}`);
      }
      const fields: Record<string, string> = {};
      header.forEach((name, index) => (fields[name] = record[index] ?? ''));
      yield { line, fields };
    }
  } catch (error) {
    if (error instanceof CsvError) {
      const line = typeof error.lines === 'number' ? error.lines : 0;
      throw new ListFormatError(line, undefined, `not readable as CSV: ${error.message}`);
    }
    throw error;
  } finally {
    input.destroy();
  }
  if (!header) throw new ListFormatError(1, undefined, 'the file is empty: no header row');
}
