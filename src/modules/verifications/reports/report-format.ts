// Dates, times, shares and numbers as an Australian compliance officer reads them on paper. Every time
// is printed in UTC and says so: the report is filed and read anywhere, and a zone-less time misleads.
import countries from '../../../platform/iso-countries.ts';

const months = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** `1961-03-14` → `14 March 1961`; anything else as given, and `—` for nothing. */
export function formatDate(value: string | null): string {
  const match = value ? /^(\d{4})-(\d{2})-(\d{2})$/.exec(value) : null;
  if (!match) return value || '—';
  const month = months[Number(match[2]) - 1];
  return month ? `${Number(match[3])} ${month} ${match[1]}` : value!;
}

/** `24 Nov 2026 03:14 UTC`. */
export function formatTime(value: Date | null): string {
  if (!value) return '—';
  const iso = value.toISOString();
  return `${value.getUTCDate()} ${months[value.getUTCMonth()]!.slice(0, 3)} ${value.getUTCFullYear()} ${iso.slice(11, 16)} UTC`;
}

/** `2026-11-24T03:14:07Z`: the exact instant, for whoever compares the report with a log. */
export function formatIsoTime(value: Date): string {
  return value.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** `40 %`, `33.33 %`, `12.5 %`: at most two decimals, none when whole. */
export function formatPercent(value: number | null): string {
  if (value === null || !Number.isFinite(value)) return 'share unknown';
  return `${Number(value.toFixed(2))} %`;
}

/** ABN `54 222 222 228`; anything that is not eleven digits as given. */
export function formatAbn(value: string | null): string {
  return value && /^\d{11}$/.test(value) ? `${value.slice(0, 2)} ${value.slice(2, 5)} ${value.slice(5, 8)} ${value.slice(8)}` : value || '—';
}

/** ACN `222 222 228`; anything that is not nine digits as given. */
export function formatAcn(value: string | null): string {
  return value && /^\d{9}$/.test(value) ? `${value.slice(0, 3)} ${value.slice(3, 6)} ${value.slice(6)}` : value || '—';
}

/** `AUS` or `AU` → `Australia`; a code the list does not know as given. */
export function countryName(code: string): string {
  return countries.getName(code.toUpperCase(), 'en', { select: 'official' }) ?? code;
}

/** Upper snake case in words: `MANUAL_REVIEW` → `Manual review`. */
export function words(value: string): string {
  const lower = value.toLowerCase().replace(/_/g, ' ');
  return lower.charAt(0).toUpperCase() + lower.slice(1);
}

/** `1 person`, `3 people`; `2 entries`. */
export function count(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}
