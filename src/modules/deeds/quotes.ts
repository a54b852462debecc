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
// A calendar date, even without its year (OCR may have carried the year to the next line).
const month = '(?:January|February|March|April|May|June|July|August|September|October|November|December|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept?|Oct|Nov|Dec)\\.?';
// `25 May Street` is an address.
const street = '(?:Street|St|Road|Rd|Avenue|Ave|Lane|Drive|Place|Court|Crescent|Parade|Terrace|Way|Close|Highway)\\b';
const calendarDate = new RegExp(`\\b\\d{1,2}(?:st|nd|rd|th)?\\s+(?:day\\s+of\\s+)?${month}(?![a-z])(?!\\s+${street})(?:,?\\s*\\d{4}\\b)?|\\b${month}\\s+\\d{1,2}(?:st|nd|rd|th)?,?\\s+\\d{4}\\b|\\b\\d{1,2}[/.-]\\d{1,2}[/.-]\\d{2,4}\\b`, 'iu');

/** Where a person's quote must stop: a date of birth introduced, or any date printed after their name. */
function birthAt(quote: string, familyName: string | null): number {
  const name = familyName ? quote.toLowerCase().indexOf(familyName.toLowerCase()) : -1;
  const from = name >= 0 ? name + familyName!.length : 0;
  const date = quote.slice(from).search(calendarDate);
  const cuts = [quote.search(birth), date < 0 ? -1 : from + date].filter((at) => at >= 0);
  return cuts.length ? Math.min(...cuts) : -1;
}

/**
 * A party without a date of birth, whatever the extractor put in it: the payload may carry none (SPEC).
 * A quote is cut where one is introduced, and an individual's also at any date printed after their name
 * (a register's date column has no words before it); what is before the cut is still the page's text,
 * verbatim. A quote that begins with one is left empty, which `quoteOnPage` refuses: the analysis fails
 * rather than send it. An address never holds a date: one found there is taken out.
 */
export function withoutDatesOfBirth(extraction: DeedExtraction): DeedExtraction {
  return {
    ...extraction,
    parties: extraction.parties.map((party) => {
      const cut = party.partyKind === 'INDIVIDUAL' ? birthAt(party.sourceQuote, party.lastName) : party.sourceQuote.search(birth);
      const sourceQuote = cut < 0 ? party.sourceQuote : party.sourceQuote.slice(0, cut).replace(/[\s,;:(]+$/u, '');
      const full = party.address?.full.replace(new RegExp(calendarDate.source, 'giu'), ' ').replace(/\s{2,}/gu, ' ').replace(/^[\s,;:]+|[\s,;:]+$/gu, '');
      return { ...party, sourceQuote, address: party.address && full ? { full } : null };
    }),
  };
}

export function quotesFound(extraction: DeedExtraction, pages: readonly DeedPage[]): boolean {
  const byNumber = new Map(pages.map((p) => [p.number, p]));
  return extraction.parties.every((party) => quoteOnPage(party.sourceQuote, byNumber.get(party.sourcePage)));
}
