// A page's text from its text layer, as a reader copying it would get it, and whether that layer is worth
// using or the page needs OCR.
import type { PdfPage } from './pdf-document.ts';

/**
 * Fewer letters than this in a page's text layer and the page is OCR'd instead. A born-digital deed page
 * carries hundreds to thousands; a scan has none, or only what was stamped on it digitally (`Page 3 of 12`,
 * a Bates number). A nearly empty born-digital page (`This page is intentionally left blank`, 30 letters)
 * is OCR'd too: a few seconds spent, the same words read back.
 */
export const minTextLayerLetters = 40;

export function countLetters(text: string): number {
  return text.match(/\p{L}/gu)?.length ?? 0;
}

export function hasUsableTextLayer(text: string): boolean {
  return countLetters(text) >= minTextLayerLetters;
}

/**
 * The text items in reading order, a line break where pdfjs marks the end of a line; spaces within a line
 * collapsed, blank lines at most one. pdfjs already puts a space between words it sees apart.
 */
export async function readTextLayer(page: PdfPage): Promise<string> {
  const content = await page.getTextContent();
  let text = '';
  for (const item of content.items) {
    if (!('str' in item)) continue;
    text += item.str;
    if (item.hasEOL) text += '\n';
  }
  return tidyText(text);
}

export function tidyText(text: string): string {
  return text
    .replaceAll('\u0000', '')
    .replace(/[^\S\n]+/g, ' ')
    .replace(/ ?\n ?/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
