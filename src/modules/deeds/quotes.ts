// Every party's sourceQuote must be text of the page it cites: whatever extracted it (rules or a
// language model), a quote not found there is an invention and the answer is refused. Runs of
// whitespace count as one space on both sides: a text layer and OCR break lines differently.
import type { DeedExtraction, DeedPage } from '../../providers/extractor/deed-payload.ts';

const squeezed = (text: string) => text.replace(/\s+/g, ' ').trim();

export function quoteOnPage(quote: string, page: DeedPage | undefined): boolean {
  const wanted = squeezed(quote);
  return page !== undefined && wanted.length > 0 && squeezed(page.text).includes(wanted);
}

export function quotesFound(extraction: DeedExtraction, pages: readonly DeedPage[]): boolean {
  const byNumber = new Map(pages.map((p) => [p.number, p]));
  return extraction.parties.every((party) => quoteOnPage(party.sourceQuote, byNumber.get(party.sourcePage)));
}
