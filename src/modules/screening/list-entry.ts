// What every list format is read into: one entry per listed person or business, whatever the source.

export const screeningCategories = ['SANCTIONS', 'PEP', 'ADVERSE_MEDIA'] as const;
export type ScreeningCategory = (typeof screeningCategories)[number];

export type EntryKind = 'person' | 'business';

export interface ListEntry {
  /** The source's own id: the DFAT reference, the OpenSanctions id, the simple CSV's `id`. Unique in a file. */
  entryId: string;
  kind: EntryKind;
  /** The primary name as published. */
  name: string;
  /** Every other name: aliases, original-script names, former names. Never repeats `name`. */
  aliases: string[];
  /** `YYYY`, `YYYY-MM` or `YYYY-MM-DD`, as precise as the source is; persons only. */
  datesOfBirth: string[];
  /** ISO 3166-1 alpha-2, upper case (citizenship, nationality, jurisdiction); unknown names are dropped. */
  countries: string[];
  /** Registration numbers and the like, as published (a business's ABN, a passport number). */
  identifiers: string[];
  categories: ScreeningCategory[];
  /** Who published it: the list or dataset names. */
  source: string;
}

/** A row the importer cannot accept. `row` is the spreadsheet row or CSV line, counting the header as 1. */
export class ListFormatError extends Error {
  constructor(
    readonly row: number,
    readonly column: string | undefined,
    readonly reason: string,
  ) {
    super(`row ${row}${column ? `, column "${column}"` : ''}: ${reason}`);
  }
}

/** Reads a list file into entries. Streams where the format allows; throws ListFormatError on the first bad row. */
export type ListReader = (filePath: string) => AsyncIterable<ListEntry>;
