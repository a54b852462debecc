// The optional extractor: a language model behind an OpenAI-compatible chat endpoint (DEED_LLM_URL). It
// gets the pages with their numbers and must answer the DeedExtraction JSON. Its answer is trusted for
// nothing: the caller validates it against the schema and checks every quote verbatim against its page,
// and refuses the whole answer when one is not found (deed-processing.service.ts).
//
// The deed's text goes to that endpoint: configuring one is choosing to send it there (docs/deeds.md).
import { Value } from '@sinclair/typebox/value';
import { DeedExtraction, partyRoles, trustTypes, type DeedPage } from './deed-payload.ts';
import type { DeedExtractor, ExtractResult } from './extractor.ts';

export interface LlmExtractorOptions {
  /** The API's base, e.g. `https://api.openai.com/v1`; `/chat/completions` is appended. */
  baseUrl: string;
  model: string;
  apiKey?: string;
  /** Per call; a model reading 150 pages takes a while. */
  timeoutMs?: number;
  fetch?: typeof fetch;
}

const instructions = `You read an Australian trust deed and answer one JSON object, nothing else:
{"trust": {"name", "abn", "trustType", "jurisdiction", "establishedDate", "vestingDate"} or null,
 "parties": [{"role", "partyKind", "businessName", "firstName", "lastName", "acn", "abn", "address": {"full"} or null,
              "confidence", "sourcePage", "sourceQuote"}],
 "beneficiaryClasses": [string]}
Rules:
- role is one of ${partyRoles.join(', ')}. Appointor, appointer, principal and nominator are APPOINTOR; guardian and protector are PROTECTOR_GUARDIAN; beneficiaries named as people or companies (primary, specified) are BENEFICIARY parties.
- Classes of beneficiary (general, secondary, eligible, default beneficiaries, "the children of …") go in beneficiaryClasses as printed; never invent people from a class.
- partyKind is BUSINESS (businessName set, firstName and lastName null) or INDIVIDUAL (firstName = given names, lastName = family name, businessName null).
- acn (9 digits) and abn (11 digits) are digits only, or null.
- trustType is one of ${trustTypes.join(', ')}, or null. jurisdiction is the governing law as printed. Dates and the vesting date exactly as printed, never computed.
- confidence is HIGH, MEDIUM or LOW. sourcePage is the page number given before each page. sourceQuote is text copied exactly from that page that shows the party in its role.
- Never include a date of birth or a tax file number.`;

function prompt(pages: readonly DeedPage[]): string {
  return pages.map((p) => `=== Page ${p.number} ===\n${p.text}`).join('\n\n');
}

export function createLlmExtractor(options: LlmExtractorOptions): DeedExtractor {
  const call = options.fetch ?? fetch;
  const url = `${options.baseUrl.replace(/\/+$/, '')}/chat/completions`;

  return {
    name: 'llm',
    async extract(pages, extractOptions = {}): Promise<ExtractResult> {
      const signals = [AbortSignal.timeout(options.timeoutMs ?? 120_000), ...(extractOptions.signal ? [extractOptions.signal] : [])];
      let response: Response;
      try {
        response = await call(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}) },
          body: JSON.stringify({
            model: options.model,
            temperature: 0,
            response_format: { type: 'json_object' },
            messages: [
              { role: 'system', content: instructions },
              { role: 'user', content: prompt(pages) },
            ],
          }),
          signal: AbortSignal.any(signals),
        });
      } catch {
        return { ok: false, reason: 'UNAVAILABLE' };
      }
      // Throttled or failing on its side: unavailable for now. Any other refusal is about our request.
      if (response.status === 429 || response.status >= 500) return { ok: false, reason: 'UNAVAILABLE' };
      if (!response.ok) return { ok: false, reason: 'INVALID' };
      let extraction: unknown;
      try {
        const body = (await response.json()) as { choices?: Array<{ message?: { content?: string } }> };
        extraction = JSON.parse(body.choices?.[0]?.message?.content ?? '');
      } catch {
        return { ok: false, reason: 'INVALID' };
      }
      return Value.Check(DeedExtraction, extraction) ? { ok: true, extraction } : { ok: false, reason: 'INVALID' };
    },
  };
}
