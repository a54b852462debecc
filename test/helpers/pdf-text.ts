// A PDF's text, page by page, as a reader would copy it: to check what a report prints. And, for layout
// tests, where each piece of text sits and which fonts each page uses.
// pdfjs through the service's own loader, which keeps the process's JSON and Array.prototype.push (a
// bench process imports this file, and would otherwise measure everything with pdfjs's polyfills).
import { loadPdfjs, type PdfDocument } from '../../src/modules/deeds/pipeline/pdf-document.ts';

/** `fontExtraProperties` keeps each font's name and whether its file is embedded, which rendering does not need. */
async function openPdf(pdf: Buffer, options: { fontDetails?: boolean } = {}): Promise<PdfDocument> {
  const { getDocument } = await loadPdfjs();
  return getDocument({ data: new Uint8Array(pdf), useSystemFonts: false, isEvalSupported: false, fontExtraProperties: options.fontDetails ?? false }).promise;
}

/** One string per page, its text items joined by single spaces: a phrase wrapped over two lines still reads as one. */
export async function pdfText(pdf: Buffer): Promise<string[]> {
  const doc = await openPdf(pdf);
  const pages: string[] = [];
  for (let n = 1; n <= doc.numPages; n++) {
    const content = await (await doc.getPage(n)).getTextContent();
    const text = content.items.map((item) => ('str' in item ? item.str : '')).join(' ');
    pages.push(text.replace(/\s+/g, ' ').trim());
  }
  await doc.destroy();
  return pages;
}

/** A piece of text on a page, in points from the page's top-left corner (`y` is the baseline). */
export interface PdfTextItem {
  text: string;
  x: number;
  y: number;
  width: number;
}

export interface PdfFont {
  name: string;
  /** True when the font's program is not in the file (a standard font, or one left to the reader's system). */
  missingFile: boolean;
}

export interface PdfPage {
  width: number;
  height: number;
  items: PdfTextItem[];
  fonts: PdfFont[];
}

/** Every page's text items with their places, and the fonts the page sets. */
export async function pdfPages(pdf: Buffer): Promise<PdfPage[]> {
  const doc = await openPdf(pdf, { fontDetails: true });
  const pages: PdfPage[] = [];
  for (let n = 1; n <= doc.numPages; n++) {
    const page = await doc.getPage(n);
    const [, , width, height] = page.view as [number, number, number, number];
    const content = await page.getTextContent();
    const items = content.items.flatMap((item) =>
      'str' in item && item.str.trim() ? [{ text: item.str, x: item.transform[4] as number, y: height - (item.transform[5] as number), width: item.width }] : [],
    );
    // The fonts are known once the page's operators are: each setFont names one.
    const operators = await page.getOperatorList();
    const { OPS } = await loadPdfjs();
    const fontIds = new Set(operators.fnArray.flatMap((fn, i) => (fn === OPS.setFont ? [operators.argsArray[i]![0] as string] : [])));
    const fonts = [...fontIds].map((id) => {
      const font = page.commonObjs.get(id) as { name: string; missingFile: boolean };
      return { name: font.name, missingFile: font.missingFile };
    });
    pages.push({ width, height, items, fonts });
  }
  await doc.destroy();
  return pages;
}

/** The document information dictionary: Title, Author, Subject, CreationDate (`D:20261124031407Z`) … */
export async function pdfInfo(pdf: Buffer): Promise<Record<string, unknown>> {
  const doc = await openPdf(pdf);
  const { info } = await doc.getMetadata();
  await doc.destroy();
  return info as Record<string, unknown>;
}
