// The list formats `pvs screening import` accepts, by the name given on its command line. Each reader's
// module (and its parser: a spreadsheet reader, a CSV parser) is loaded by the first import of its
// format, not by every process that screens.
import type { ListReader } from '../list-entry.ts';

function lazyReader(load: () => Promise<ListReader>): ListReader {
  return async function* (filePath) {
    yield* (await load())(filePath);
  };
}

export const listReaders: Record<'dfat' | 'opensanctions' | 'csv', ListReader> = {
  dfat: lazyReader(async () => (await import('./dfat.ts')).readDfatWorkbook),
  opensanctions: lazyReader(async () => (await import('./opensanctions.ts')).readOpenSanctionsCsv),
  csv: lazyReader(async () => (await import('./simple-csv.ts')).readSimpleCsv),
};
