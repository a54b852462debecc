// Dates of birth as lists publish them, read to `YYYY`, `YYYY-MM` or `YYYY-MM-DD`: never more precise than
// the source, so "circa 1961" is 1961 and "March 1961" is 1961-03.
import { itemSeparator } from './entry-fields.ts';

const months = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];

const pad = (n: number) => String(n).padStart(2, '0');

export function isRealDate(year: number, month: number, day: number): boolean {
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** As precise as the parts allow: an impossible day falls back to the month, an impossible month to the year. */
function partialDate(year: number, month?: number, day?: number): string {
  if (month === undefined || month < 1 || month > 12) return String(year);
  if (day === undefined || !isRealDate(year, month, day)) return `${year}-${pad(month)}`;
  return `${year}-${pad(month)}-${pad(day)}`;
}

/** Strict `YYYY`, `YYYY-MM` or `YYYY-MM-DD` naming a real date; undefined otherwise. */
export function parseIsoPartialDate(text: string): string | undefined {
  const match = /^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?$/.exec(text);
  if (!match) return undefined;
  const [, year, month, day] = match;
  const date = partialDate(Number(year), month === undefined ? undefined : Number(month), day === undefined ? undefined : Number(day));
  return date === text ? date : undefined;
}

/** A spreadsheet date cell: read-excel-file gives midnight UTC of the calendar day. */
export function formatCellDate(date: Date): string {
  return `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}`;
}

/** A number in a date column: a bare year, or an unformatted Excel serial day (days since 1899-12-30). */
export function formatCellNumber(value: number): string | undefined {
  if (Number.isInteger(value) && value >= 1000 && value <= 2999) return String(value);
  if (value < 1 || value > 2958465) return undefined;
  return formatCellDate(new Date(Date.UTC(1899, 11, 30) + Math.floor(value) * 86_400_000));
}

/** "Mar", "Mar." and "March" are March; "Sept" is September; "circa" is not a month. */
function monthNumber(name: string): number | undefined {
  const lower = name.toLowerCase();
  if (lower === 'sept') return 9;
  const index = months.findIndex((month) => lower.length >= 3 && month.startsWith(lower));
  return index < 0 ? undefined : index + 1;
}

type Found = { at: number; date: string };

// Most precise first: once a span is read as a date it is blanked so a looser pattern cannot read it again.
const patterns: Array<[RegExp, (m: string[]) => string | undefined]> = [
  [/\b(\d{4})-(\d{1,2})(?:-(\d{1,2}))?\b/g, ([, y, m, d]) => partialDate(Number(y), Number(m), d ? Number(d) : undefined)],
  [/\b(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})\b/g, ([, d, m, y]) => partialDate(Number(y), Number(m), Number(d))],
  [
    /\b(\d{1,2})(?:st|nd|rd|th)?[\s-]+([a-z]{3,9})\.?,?[\s-]+(\d{4})\b/gi,
    ([, d, mon, y]) => (monthNumber(mon!) ? partialDate(Number(y), monthNumber(mon!), Number(d)) : undefined),
  ],
  [
    /\b([a-z]{3,9})\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})\b/gi,
    ([, mon, d, y]) => (monthNumber(mon!) ? partialDate(Number(y), monthNumber(mon!), Number(d)) : undefined),
  ],
  [/\b([a-z]{3,9})\.?,?[\s-]+(\d{4})\b/gi, ([, mon, y]) => (monthNumber(mon!) ? partialDate(Number(y), monthNumber(mon!)) : undefined)],
  [/\b(\d{1,2})[/.](\d{4})\b/g, ([, m, y]) => partialDate(Number(y), Number(m))],
  // Whatever else carries a year ("circa 1961", "between 1960 and 1962") is read as its years.
  [/\b(\d{4})\b/g, ([, y]) => String(Number(y))],
];

function readPiece(piece: string): Found[] {
  const found: Found[] = [];
  let rest = piece;
  for (const [pattern, read] of patterns) {
    rest = rest.replace(pattern, (...args) => {
      const match = args.slice(0, -2) as string[];
      const at = args.at(-2) as number;
      const date = read(match);
      if (date === undefined) return match[0]!;
      found.push({ at, date });
      return ' '.repeat(match[0]!.length);
    });
  }
  return found.sort((a, b) => a.at - b.at);
}

/** Words a list writes instead of leaving the cell empty. */
const noDate = /^(?:unknown|not known|n\/?a|none|-+)$/i;

/**
 * Every date in free text such as `14/03/1961`, `14 Mar. 1961`, `circa 1961` or `a) 1961 b) 1962`.
 * `unreadable` is the first part with no four-digit year in it: the caller decides whether that is an error.
 */
export function parseLooseDates(text: string): { dates: string[]; unreadable?: string } {
  const dates: string[] = [];
  const pieces = text.split(itemSeparator).map((piece) => piece.trim());
  for (const piece of pieces) {
    if (piece === '' || noDate.test(piece)) continue;
    const found = readPiece(piece);
    if (found.length === 0) return { dates, unreadable: piece };
    for (const { date } of found) if (!dates.includes(date)) dates.push(date);
  }
  return { dates };
}
