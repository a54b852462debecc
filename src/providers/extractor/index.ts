// Which deed extractor reads deeds: chosen from configuration here and nowhere else (DEED_EXTRACTOR).
import type { Config } from '../../config.ts';
import type { DeedExtractor } from './extractor.ts';
import { createLlmExtractor } from './llm-extractor.ts';
import { createRulesExtractor } from './rules-extractor.ts';

type ExtractorConfig = Pick<Config, 'DEED_EXTRACTOR' | 'DEED_LLM_URL' | 'DEED_LLM_MODEL' | 'DEED_LLM_API_KEY'>;

export function createExtractor(config: ExtractorConfig): DeedExtractor {
  // config.ts refuses DEED_EXTRACTOR=llm without DEED_LLM_URL and DEED_LLM_MODEL.
  if (config.DEED_EXTRACTOR === 'llm') return createLlmExtractor({ baseUrl: config.DEED_LLM_URL!, model: config.DEED_LLM_MODEL!, apiKey: config.DEED_LLM_API_KEY });
  return createRulesExtractor();
}
