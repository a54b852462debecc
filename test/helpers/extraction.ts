// The rules extractor as its tests call it: pages from texts, and an answer already checked against the
// promises every answer keeps (the payload schema, every quote found verbatim on its page).
import assert from 'node:assert/strict';
import { Value } from '@sinclair/typebox/value';
import { DeedExtraction, type DeedPage, type ExtractedParty } from '../../src/providers/extractor/deed-payload.ts';
import { quotesFound } from '../../src/modules/deeds/quotes.ts';
import { createRulesExtractor } from '../../src/providers/extractor/rules-extractor.ts';

export const pagesOf = (texts: string[], source: DeedPage['source'] = 'TEXT_LAYER'): DeedPage[] => texts.map((text, i) => ({ number: i + 1, text, source }));

export async function extract(texts: string[], source: DeedPage['source'] = 'TEXT_LAYER'): Promise<DeedExtraction> {
  const pages = pagesOf(texts, source);
  const result = await createRulesExtractor().extract(pages);
  assert.ok(result.ok, 'the extractor answers');
  assert.ok(Value.Check(DeedExtraction, result.extraction), 'the answer passes the payload schema');
  assert.ok(quotesFound(result.extraction, pages), 'every quote is on its page');
  return result.extraction;
}

export const nameOf = (p: ExtractedParty) => p.businessName ?? `${p.firstName} ${p.lastName}`;

/** Every party as `ROLE KIND Name`, sorted. */
export const roster = (e: DeedExtraction) => e.parties.map((p) => `${p.role} ${p.partyKind} ${nameOf(p)}`).sort();
