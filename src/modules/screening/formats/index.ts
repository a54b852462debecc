// The list formats `pvs screening import` accepts, by the name given on its command line.
import type { ListReader } from '../list-entry.ts';
import { readDfatWorkbook } from './dfat.ts';
import { readOpenSanctionsCsv } from './opensanctions.ts';
import { readSimpleCsv } from './simple-csv.ts';

export const listReaders: Record<'dfat' | 'opensanctions' | 'csv', ListReader> = {
  dfat: readDfatWorkbook,
  opensanctions: readOpenSanctionsCsv,
  csv: readSimpleCsv,
};
