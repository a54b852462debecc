// Turns a deed's pages into its trust and parties. Two implementations behind this interface: the
// rule-based extractor (in-house, the default) and an LLM extractor (an OpenAI-compatible chat endpoint,
// chosen by configuration). Whatever answers, the caller validates the answer against DeedExtraction and
// checks each sourceQuote verbatim against its page.
import type { DeedExtraction, DeedPage } from './deed-payload.ts';

export type ExtractResult =
  | { ok: true; extraction: DeedExtraction }
  /** UNAVAILABLE: a configured remote extractor could not be reached (ANALYSIS_UNAVAILABLE). INVALID: its answer was not usable (EXTRACTION_INVALID_OUTPUT). */
  | { ok: false; reason: 'UNAVAILABLE' | 'INVALID' };

export interface DeedExtractor {
  readonly name: 'rules' | 'llm';
  /** Never throws for a deed's content; never logs it (names, addresses, TFNs). */
  extract(pages: readonly DeedPage[], options?: { signal?: AbortSignal }): Promise<ExtractResult>;
}
