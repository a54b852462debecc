// The flow of blocks down a report's pages: a block is measured before it is drawn and goes whole to the
// next page when it does not fit; a heading waits for the block after it. The tables (pdf-table.ts) and
// blocks (pdf-blocks.ts) draw with it; pdf-layout.ts puts them together.
import { page, type Doc, type FontName } from './pdf-document.ts';
import { colours, toneColours, type Tone } from './pdf-style.ts';

interface TextOptions {
  font?: FontName;
  size?: number;
  colour?: string;
  /** Space after, in points. */
  gap?: number;
}

/** The flow of blocks down the pages: what the tables and blocks draw with. */
export function createFlow(doc: Doc) {
  const left = page.side;
  const width = doc.page.width - page.side * 2;
  const bottom = () => doc.page.height - page.bottom;
  const atTop = () => doc.y <= page.top + 0.5;
  let waiting: Array<{ height: number; draw: () => void }> = [];

  /** Whether `height` more points fit on this page. */
  const fits = (height: number) => doc.y + height <= bottom();

  /**
   * Makes room for a block of `height`: the headings waiting for it are drawn with it, on this page when
   * both fit, else on a new one. A block taller than a page starts a page and runs past its bottom margin;
   * no report has one (the longest, an issue's message, is at most a few hundred characters).
   */
  function place(height: number): void {
    const headings = waiting.reduce((sum, h) => sum + h.height, 0);
    if (!fits(headings + height) && !atTop()) doc.addPage();
    const draws = waiting;
    waiting = [];
    for (const h of draws) h.draw();
  }

  function textHeight(value: string, font: FontName, size: number, w = width): number {
    return doc.font(font).fontSize(size).heightOfString(value || ' ', { width: w });
  }

  function text(value: string, options: TextOptions = {}): void {
    const font = options.font ?? 'regular';
    const size = options.size ?? 9.5;
    place(textHeight(value, font, size));
    doc.font(font).fontSize(size).fillColor(options.colour ?? colours.ink).text(value, left, doc.y, { width });
    doc.y += options.gap ?? 4;
  }

  /** A section heading: drawn with the block that follows it. */
  function heading(title: string): void {
    const height = textHeight(title, 'bold', 13) + 20;
    waiting.push({
      height,
      draw: () => {
        if (!atTop()) doc.y += 10;
        doc.font('bold').fontSize(13).fillColor(colours.accent).text(title, left, doc.y, { width });
        const y = doc.y + 2;
        doc.moveTo(left, y).lineTo(left + width, y).lineWidth(0.6).strokeColor(colours.rule).stroke();
        doc.y = y + 8;
      },
    });
  }

  /** A heading within a section: drawn with the block that follows it. */
  function subheading(title: string): void {
    const height = textHeight(title, 'semibold', 10.5) + 10;
    waiting.push({
      height,
      draw: () => {
        if (!atTop()) doc.y += 6;
        doc.font('semibold').fontSize(10.5).fillColor(colours.ink).text(title, left, doc.y, { width });
        doc.y += 4;
      },
    });
  }

  /**
   * Label and value pairs in two columns, one ruled row each. The pairs stay together on one page when they
   * fit on one; else they run on, and a row is never split across pages.
   */
  function keyValues(rows: Array<[string, string]>, options: { labelShare?: number } = {}): void {
    const labelWidth = width * (options.labelShare ?? 0.3);
    const valueWidth = width - labelWidth - 4;
    const heights = rows.map(([label, value]) => Math.max(textHeight(label, 'semibold', 8.5, labelWidth - 10), textHeight(value || '—', 'regular', 9.5, valueWidth)) + 7);
    const total = heights.reduce((sum, h) => sum + h, 0);
    if (total <= bottom() - page.top) place(total);
    rows.forEach(([label, value], i) => {
      const height = heights[i]!;
      place(height);
      const y = doc.y;
      doc.font('semibold').fontSize(8.5).fillColor(colours.muted).text(label, left, y + 4, { width: labelWidth - 10 });
      doc.font('regular').fontSize(9.5).fillColor(colours.ink).text(value || '—', left + labelWidth, y + 3.5, { width: valueWidth });
      doc.moveTo(left, y + height).lineTo(left + width, y + height).lineWidth(0.4).strokeColor(colours.rule).stroke();
      doc.y = y + height;
    });
    doc.y += 6;
  }

  /** A shaded note with a bar in its tone: for what the reader must not miss. Paragraphs split on `\n`. */
  function note(body: string, tone: Tone, title?: string): void {
    const inner = width - 30;
    const titleHeight = title ? textHeight(title, 'bold', 10, inner) + 3 : 0;
    const height = titleHeight + textHeight(body, 'regular', 9.5, inner) + 18;
    place(height);
    const y = doc.y;
    doc.rect(left, y, width, height).fill(toneColours[tone].fill);
    doc.rect(left, y, 4, height).fill(toneColours[tone].text);
    if (title) doc.font('bold').fontSize(10).fillColor(toneColours[tone].text).text(title, left + 16, y + 9, { width: inner });
    doc.font('regular').fontSize(9.5).fillColor(colours.ink).text(body, left + 16, y + 9 + titleHeight, { width: inner });
    doc.y = y + height + 10;
  }

  /** Draws any heading still waiting (a section that ended with its heading). */
  function finish(): void {
    if (waiting.length) place(0);
  }

  return { doc, left, width, fits, place, textHeight, text, heading, subheading, keyValues, note, finish };
}

export type Flow = ReturnType<typeof createFlow>;
