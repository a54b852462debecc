// What a generated deed is: the blocks the renderer draws, and the truth an extractor should find.
import type { ExtractedParty, ExtractedTrust } from '../../../src/providers/extractor/deed-payload.ts';

/** A party as the deed states it: the payload's party without what only an extraction has (page, quote, confidence). */
export type ExpectedParty = Omit<ExtractedParty, 'confidence' | 'sourcePage' | 'sourceQuote'>;

/** What a perfect extractor answers for the deed, quotes and pages aside. */
export interface DeedTruth {
  trust: ExtractedTrust | null;
  parties: ExpectedParty[];
  /** The classes the deed defines, as printed (e.g. `General Beneficiaries`). */
  beneficiaryClasses: string[];
}

export type DeedBlock =
  | { kind: 'title'; text: string }
  | { kind: 'subtitle'; text: string }
  | { kind: 'heading'; text: string }
  | { kind: 'para'; text: string; indent?: number; bold?: boolean }
  /** A schedule row: two cells (label, value) or three (item, label, value). */
  | { kind: 'row'; cells: string[] }
  | { kind: 'pageBreak' }
  /** Where the deed prints a Tax File Number when it has one: `{TFN}` in the text is replaced. */
  | { kind: 'tfn'; text: string; cells?: string[]; style: 'spaced' | 'plain' | 'dashed' };

export type DeedKind = 'DISCRETIONARY' | 'UNIT' | 'HYBRID' | 'FIXED' | 'BARE' | 'SMSF';

export interface DeedCase {
  /** Stable and descriptive, e.g. `d07-unit-schedule-first`. */
  id: string;
  seed: number;
  kind: DeedKind;
  /** True for a deed of variation (or of retirement and appointment) of an existing trust. */
  variation: boolean;
  /** What this deed exercises, for a failing test's message: `schedule-last`, `corporate-trustee`, `successor-appointor` … */
  features: string[];
  /** The TFN this deed prints (valid check digit), or null. */
  tfn: string | null;
  truth: DeedTruth;
  blocks: DeedBlock[];
  /** Running header printed at the top of every page but the first, or null. */
  header: string | null;
  /** What the foot of every page prints: `Page 3 of 12`, `3`, or nothing. */
  footer: 'page-of' | 'number' | null;
  /** Body font size in points. */
  fontSize: number;
}
