// Streaming a CSV list into named records with the line each starts on: the OpenSanctions export is hundreds
// of MB, so nothing here holds more than one record.
import { isUtf8 } from 'node:buffer';
import { createReadStream } from 'node:fs';
import { Transform, type TransformCallback } from 'node:stream';
import { CsvError, parse } from 'csv-parse';
import { textProblem } from '../../../platform/text-safety.ts';
import { ListFormatError } from '../list-entry.ts';

export interface CsvRecord {
  /** The line the record starts on, the header being line 1. */
  line: number;
  /** Every header column's raw value ('' when empty). */
  fields: Record<string, string>;
}

export interface CsvHeaderRules {
  /** The columns the format reads: each must be in the header, and each of their cells meets the text rules. */
  required: readonly string[];
  /** When given, any other column is an error (our own format is strict); otherwise extra columns are ignored. */
  allowedOnly?: boolean;
}

function checkHeader(header: string[], rules: CsvHeaderRules): void {
  header.forEach((column, index) => {
    const problem = textProblem(column);
    if (problem) throw new ListFormatError(1, undefined, `header column ${index + 1} ${problem}`);
  });
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

/**
 * The cells the format reads, against the text rules: a NUL or another control character is refused with
 * its row and column (PostgreSQL cannot store NUL; the others corrupt names). Tab and line breaks are
 * allowed, since a quoted cell may span lines: cleanText turns them into single spaces.
 */
function checkCells(line: number, fields: Record<string, string>, columns: readonly string[]): void {
  for (const column of columns) {
    const problem = textProblem(fields[column] ?? '', { multiline: true });
    if (problem) throw new ListFormatError(line, column, problem);
  }
}

/**
 * The file's bytes passed on unchanged, noting where the first sequence that is not UTF-8 starts. The
 * parser decodes such bytes to U+FFFD without a word, and a list read that way would hold names that are
 * not the ones published; the record holding that offset is refused. A U+FFFD the file really holds (valid
 * UTF-8, EF BF BD) is a character like any other.
 */
class Utf8Watch extends Transform {
  /** The file offset of the first byte sequence that is not UTF-8, once seen. */
  invalidAt: number | undefined;
  /** The file offset of `held`'s first byte. */
  private offset = 0;
  /** The end of the last chunk when it cuts a character in two: checked with the next chunk. */
  private held = Buffer.alloc(0);

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    if (this.invalidAt === undefined) this.inspect(this.held.length > 0 ? Buffer.concat([this.held, chunk]) : chunk, false);
    done(null, chunk);
  }

  override _flush(done: TransformCallback): void {
    if (this.invalidAt === undefined && this.held.length > 0) this.inspect(this.held, true);
    done();
  }

  private inspect(bytes: Buffer, atEnd: boolean): void {
    const complete = atEnd ? bytes.length : completeLength(bytes);
    const checked = bytes.subarray(0, complete);
    if (!isUtf8(checked)) this.invalidAt = this.offset + firstInvalidByte(checked);
    this.held = Buffer.from(bytes.subarray(complete));
    this.offset += complete;
  }
}

/** The length of `bytes` without a character cut off at the end (its other bytes are in the next chunk). */
function completeLength(bytes: Buffer): number {
  for (let back = 1; back <= Math.min(3, bytes.length); back++) {
    const byte = bytes[bytes.length - back]!;
    if ((byte & 0xc0) === 0x80) continue;
    const length = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return length > back ? bytes.length - back : bytes.length;
  }
  return bytes.length;
}

/** Where decoding `bytes` (known not to be UTF-8) first fails: the shortest prefix a strict decoder refuses. */
function firstInvalidByte(bytes: Buffer): number {
  const refuses = (length: number) => {
    try {
      new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(0, length), { stream: true });
      return false;
    } catch {
      return true;
    }
  };
  let [low, high] = [0, bytes.length];
  while (low < high) {
    const middle = (low + high) >> 1;
    if (refuses(middle + 1)) high = middle;
    else low = middle + 1;
  }
  return low;
}

function notUtf8(line: number, record: string[], header: string[] | undefined): ListFormatError {
  const index = record.findIndex((value) => value.includes('\uFFFD'));
  const where = index < 0 ? '' : ` at position ${record[index]!.indexOf('\uFFFD') + 1}`;
  const reason = `contains bytes that are not valid UTF-8${where}; was the file saved in another encoding? Save it as UTF-8`;
  if (!header) return new ListFormatError(1, undefined, index < 0 ? `the header ${reason}` : `header column ${index + 1} ${reason}`);
  return new ListFormatError(line, index < 0 ? undefined : header[index], index < 0 ? `the row ${reason}` : reason);
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
  const watch = new Utf8Watch();
  // pipe() does not forward a read error (a missing file); without this the loop below would wait forever.
  input.on('error', (error) => parser.destroy(error));
  input.pipe(watch).pipe(parser);

  let header: string[] | undefined;
  try {
    // `info.bytes`: the file offset just past the record. The watch has seen every byte the parser has.
    for await (const { info, record } of parser as AsyncIterable<{ info: { lines: number; bytes: number }; record: string[] }>) {
      const line = startLine(info.lines, record);
      if (watch.invalidAt !== undefined && info.bytes > watch.invalidAt) throw notUtf8(line, record, header);
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
      checkCells(line, fields, rules.required);
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
    watch.destroy();
  }
  if (!header) throw new ListFormatError(1, undefined, 'the file is empty: no header row');
}
