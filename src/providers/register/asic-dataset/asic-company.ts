// What a company of ASIC's company dataset is read into, and the error a file we cannot accept raises.

/** One company as the dataset describes it, all of its rows (names) gathered. Dates are YYYY-MM-DD. */
export interface AsicCompany {
  /** 9 digits, check digit valid. For type `RACN` the dataset puts the ARBN here (same formula). */
  acn: string;
  /** The current name. */
  name: string;
  /**
   * Whether the file says this name is current (a row marked `Y`, or a former-name row's `Current Name`),
   * rather than it being the only name seen. When a company's rows are split across the file, a stated
   * name wins over one that is not.
   */
  nameStated: boolean;
  /** Every other name of the company, in file order, without repeats; never the current name. */
  formerNames: string[];
  /** ASIC's codes, as published: type `APTY`, `APUB`, `RACN`…; class `LMSH`, `LMGT`…; status `REGD`, `DRGD`… */
  type: string;
  class: string | null;
  subClass: string | null;
  status: string;
  registeredOn: string | null;
  deregisteredOn: string | null;
  /** 11 digits, check digits valid; null where ASIC has none (written empty or `0`). */
  abn: string | null;
  /** Where the company was read: the line of its first row (the header is line 1) and how many rows it had. */
  line: number;
  rows: number;
}

/** A file the importer cannot accept. `line` counts the header as 1; `column` is the header's own name. */
export class AsicDatasetError extends Error {
  constructor(
    readonly line: number,
    readonly column: string | undefined,
    readonly reason: string,
  ) {
    super(`line ${line}${column ? `, column "${column}"` : ''}: ${reason}`);
    this.name = 'AsicDatasetError';
  }
}
