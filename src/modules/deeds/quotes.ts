// Every party's sourceQuote must be text of the page it cites: whatever extracted it (rules or a
// language model), a quote not found there is an invention and the answer is refused. Runs of
// whitespace count as one space on both sides: a text layer and OCR break lines differently.
import type { DeedExtraction, DeedPage } from '../../providers/extractor/deed-payload.ts';

const squeezed = (text: string) => text.replace(/\s+/g, ' ').trim();

export function quoteOnPage(quote: string, page: DeedPage | undefined): boolean {
  const wanted = squeezed(quote);
  return page !== undefined && wanted.length > 0 && squeezed(page.text).includes(wanted);
}

// Where a quote must stop: the words that introduce a date of birth (`born …`, `date of birth …`,
// `DOB …`). What is before them is still the page's text, verbatim.
const birth = /\bborn\b|\bdate\s+of\s+birth\b|\bD\.?O\.?B\b/iu;

/**
 * A party's quote without a date of birth: cut where one is introduced. The payload may carry no date
 * of birth (SPEC), whatever the extractor put in its quote. A quote that begins with one is left empty,
 * which `quoteOnPage` refuses: the analysis fails rather than send it.
 */
export function withoutDatesOfBirth(extraction: DeedExtraction): DeedExtraction {
  return {
    ...extraction,
    parties: extraction.parties.map((party) => {
      const at = party.sourceQuote.search(birth);
      return at < 0 ? party : { ...party, sourceQuote: party.sourceQuote.slice(0, at).replace(/[\s,;:(]+$/u, '') };
    }),
  };
}

export function quotesFound(extraction: DeedExtraction, pages: readonly DeedPage[]): boolean {
  const byNumber = new Map(pages.map((p) => [p.number, p]));
  return extraction.parties.every((party) => quoteOnPage(party.sourceQuote, byNumber.get(party.sourcePage)));
}
