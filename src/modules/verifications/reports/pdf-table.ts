// Tables: a heading row, then rows measured before they are drawn. A row that does not fit goes whole to
// the next page, where the heading row is drawn again, so a row is never split and never headless.
import type { Flow } from './pdf-flow.ts';
import { badgeHeight, badgeWidth, colours, drawBadge, toneColours, type Tone } from './pdf-style.ts';

/** A column: its heading, its share of the width (shares are normalised) and its alignment. */
export interface Column {
  heading: string;
  width: number;
  align?: 'left' | 'right';
}

/** Text; or text with a smaller, muted line under it; or a badge in a tone. */
export type Cell = string | { text: string; detail?: string; badge?: Tone };

const pad = { x: 6, y: 5 };

interface Measured {
  text: string;
  detail: string | undefined;
  /** Drawn as a badge. */
  badge: Tone | undefined;
  /** A badge too wide for its column: printed as text in the badge's colour instead. */
  tone: Tone | undefined;
  height: number;
}

export interface TableOptions {
  /** A bar in the tone at the start of the row. */
  bars?: Array<Tone | undefined>;
  /** The row's background in the tone: for the row the reader must see first. */
  shades?: Array<Tone | undefined>;
}

export function drawTable(flow: Flow, columns: Column[], rows: Cell[][], options: TableOptions = {}): void {
  const { doc, left, width } = flow;
  const total = columns.reduce((sum, c) => sum + c.width, 0);
  const widths = columns.map((c) => (c.width / total) * width);
  const inner = (i: number) => widths[i]! - pad.x * 2;

  function measure(cell: Cell, i: number, bold: boolean): Measured {
    const c = typeof cell === 'string' ? { text: cell } : cell;
    const text = c.text || '—';
    const asBadge = c.badge !== undefined && badgeWidth(doc, text) <= inner(i);
    let height = asBadge ? badgeHeight : flow.textHeight(text, bold || c.badge ? 'semibold' : 'regular', 9, inner(i));
    if (c.detail) height += flow.textHeight(c.detail, 'regular', 8, inner(i)) + 1;
    return { text, detail: c.detail, badge: asBadge ? c.badge : undefined, tone: asBadge ? undefined : c.badge, height };
  }

  const headingHeight = Math.max(...columns.map((c, i) => flow.textHeight(c.heading, 'semibold', 8, inner(i)))) + pad.y * 2;

  function drawHeadingRow(): void {
    const y = doc.y;
    doc.rect(left, y, width, headingHeight).fill(colours.panel);
    let x = left;
    columns.forEach((c, i) => {
      doc.font('semibold').fontSize(8).fillColor(colours.muted).text(c.heading, x + pad.x, y + pad.y, { width: inner(i), align: c.align ?? 'left' });
      x += widths[i]!;
    });
    doc.y = y + headingHeight;
  }

  function drawRow(cells: Measured[], height: number, bar: Tone | undefined, shade: Tone | undefined): void {
    const y = doc.y;
    if (shade) doc.rect(left, y, width, height).fill(toneColours[shade].fill);
    if (bar) doc.rect(left, y + 3, 3, height - 6).fill(toneColours[bar].text);
    let x = left;
    cells.forEach((cell, i) => {
      const align = columns[i]!.align ?? 'left';
      let cy = y + pad.y;
      if (cell.badge) {
        const w = badgeWidth(doc, cell.text);
        drawBadge(doc, cell.text, cell.badge, align === 'right' ? x + widths[i]! - pad.x - w : x + pad.x, cy - 1);
        cy += badgeHeight;
      } else {
        const { tone } = cell;
        doc.font(i === 0 || tone ? 'semibold' : 'regular').fontSize(9).fillColor(tone ? toneColours[tone].text : colours.ink);
        doc.text(cell.text, x + pad.x, cy, { width: inner(i), align });
        cy = doc.y;
      }
      if (cell.detail) doc.font('regular').fontSize(8).fillColor(colours.muted).text(cell.detail, x + pad.x, cy + 1, { width: inner(i), align });
      x += widths[i]!;
    });
    doc.moveTo(left, y + height).lineTo(left + width, y + height).lineWidth(0.4).strokeColor(colours.rule).stroke();
    doc.y = y + height;
  }

  rows.forEach((cells, r) => {
    const measured = cells.map((cell, i) => measure(cell, i, i === 0));
    const height = Math.max(...measured.map((m) => m.height)) + pad.y * 2;
    if (r === 0) {
      flow.place(headingHeight + height);
      drawHeadingRow();
    } else if (!flow.fits(height)) {
      doc.addPage();
      drawHeadingRow();
    }
    drawRow(measured, height, options.bars?.[r], options.shades?.[r]);
  });
  doc.y += 10;
}
