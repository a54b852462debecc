// Onfido's own results of a check, kept beside the PVS checks mapped from them (onfido-results.ts) as the
// attempt's evidence: each report's result and sub-result, and every sub-check of its breakdown that gave
// a result, so that a reviewer of DOCUMENT_CONSIDER sees it was data_validation.document_expiration.
// Pure: applied to the reports the evidence read has just fetched; nothing is stored.
//
// Results only. A breakdown item's `properties`, and a report's, hold what Onfido read off the document or
// found in records (names, numbers, dates): they are never read here. What is copied must fit a closed
// pattern (names of sub-checks and results are lower-case words), so a shape Onfido did not document
// cannot carry text through; the walk is bounded in depth and count whatever it is given.
import type { ProviderBreakdownItem, ProviderReport, ProviderResults } from '../identity-provider.ts';

/** A report's name, or one segment of a sub-check's path: `visual_authenticity`, `last_4_digits_match`. */
const namePattern = /^[a-z0-9_]{1,60}$/;
/** A verdict: `clear`, `consider`, `caution`, `rejected`, `suspected`, `unidentified`. */
const wordPattern = /^[a-z][a-z_]{0,29}$/;

/** Onfido's breakdowns nest two deep (`data_validation.document_expiration`): one level more, no further. */
export const maxDepth = 3;
/** A document report has under 60 sub-checks; a breakdown far longer is not one Onfido documents. */
export const maxItemsPerReport = 200;
export const maxReports = 20;

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

const wordOf = (value: unknown): string | null => (typeof value === 'string' && wordPattern.test(value) ? value : null);

/** Depth first, each sub-check before its own breakdown, in Onfido's order. */
function walk(breakdown: unknown, path: readonly string[], items: ProviderBreakdownItem[]): void {
  if (!isObject(breakdown) || path.length >= maxDepth) return;
  for (const [key, node] of Object.entries(breakdown)) {
    if (items.length >= maxItemsPerReport) return;
    if (!namePattern.test(key) || !isObject(node)) continue;
    const item = [...path, key];
    const result = wordOf(node.result);
    if (result) items.push({ item: item.join('.'), result });
    walk(node.breakdown, item, items);
  }
}

function reportOf(report: Json): ProviderReport | null {
  if (typeof report.name !== 'string' || !namePattern.test(report.name)) return null;
  const breakdown: ProviderBreakdownItem[] = [];
  walk(report.breakdown, [], breakdown);
  return { name: report.name, status: wordOf(report.status), result: wordOf(report.result), subResult: wordOf(report.sub_result), breakdown };
}

/** Every report of a check as Onfido listed it (`GET /reports?check_id=`), results only. */
export function providerResultsOf(reports: readonly unknown[]): ProviderResults {
  return {
    provider: 'onfido',
    reports: reports
      .slice(0, maxReports)
      .filter(isObject)
      .map(reportOf)
      .filter((r): r is ProviderReport => r !== null),
  };
}
