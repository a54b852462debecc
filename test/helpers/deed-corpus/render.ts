// Draws a deed's blocks with pdfkit: A4, Noto Sans embedded (accented names print and copy as typed),
// a text layer on every page (born-digital). Schedule rows are cells side by side, drawn left to right,
// so a text layer reads `Item 4 Trustee Wattle Nominees Pty Ltd …`. Header and footer are drawn last,
// on every page, as a real deed's running header and page numbers are.
import PDFDocument from 'pdfkit';
import { embedFonts } from '../../../src/modules/verifications/reports/pdf-document.ts';
import { groupTfn } from './identifiers.ts';
import type { DeedBlock, DeedCase } from './types.ts';

const margin = { top: 64, bottom: 64, side: 62 };

export interface RenderOptions {
  /**
   * Print this TFN where the deed has a place for one (overrides the case's own `tfn`); null prints none,
   * not even the case's own (a scan of a deed with a TFN is refused by the pipeline before anything is read).
   */
  tfn?: string | null;
}

export async function renderDeed(deed: DeedCase, options: RenderOptions = {}): Promise<Buffer> {
  const doc = new PDFDocument({
    size: 'A4',
    bufferPages: true,
    margins: { top: margin.top, bottom: margin.bottom, left: margin.side, right: margin.side },
    // Fixed dates: the same case renders the same bytes.
    info: { Title: 'Trust deed', CreationDate: new Date('2024-01-01T00:00:00Z'), ModDate: new Date('2024-01-01T00:00:00Z') },
    font: '',
  });
  embedFonts(doc);
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const tfn = options.tfn === undefined ? deed.tfn : options.tfn;
  const width = doc.page.width - 2 * margin.side;
  const size = deed.fontSize;

  for (const block of deed.blocks) drawBlock(doc, block, { width, size, tfn });

  const range = doc.bufferedPageRange();
  for (let i = 0; i < range.count; i++) {
    doc.switchToPage(range.start + i);
    const bottom = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    doc.font('regular').fontSize(8).fillColor('#555555');
    if (deed.header && i > 0) doc.text(deed.header, margin.side, 30, { width, align: 'center', lineBreak: false });
    if (deed.footer) doc.text(deed.footer === 'page-of' ? `Page ${i + 1} of ${range.count}` : String(i + 1), margin.side, doc.page.height - 40, { width, align: 'center', lineBreak: false });
    doc.page.margins.bottom = bottom;
    doc.fillColor('black');
  }
  doc.end();
  return done;
}

function drawBlock(doc: PDFKit.PDFDocument, block: DeedBlock, ctx: { width: number; size: number; tfn: string | null }) {
  const left = margin.side;
  switch (block.kind) {
    case 'title':
      doc.font('bold').fontSize(18).text(block.text, left, doc.y, { width: ctx.width, align: 'center' }).moveDown(0.6);
      return;
    case 'subtitle':
      doc.font('bold').fontSize(13).text(block.text, left, doc.y, { width: ctx.width, align: 'center' }).moveDown(1);
      return;
    case 'heading':
      doc.moveDown(0.5).font('bold').fontSize(ctx.size + 1).text(block.text, left, doc.y, { width: ctx.width }).moveDown(0.3);
      return;
    case 'para': {
      const indent = block.indent ?? 0;
      doc.font(block.bold ? 'bold' : 'regular').fontSize(ctx.size).text(block.text, left + indent, doc.y, { width: ctx.width - indent }).moveDown(0.35);
      return;
    }
    case 'row':
      drawRow(doc, block.cells, ctx);
      return;
    case 'pageBreak':
      doc.addPage();
      return;
    case 'tfn': {
      if (!ctx.tfn) return;
      const digits = groupTfn(ctx.tfn, block.style);
      if (block.cells) drawRow(doc, block.cells.map((c) => c.replace('{TFN}', digits)), ctx);
      else drawBlock(doc, { kind: 'para', text: block.text.replace('{TFN}', digits) }, ctx);
      return;
    }
  }
}

function drawRow(doc: PDFKit.PDFDocument, cells: string[], ctx: { width: number; size: number }) {
  const widths = cells.length === 3 ? [52, 130, ctx.width - 182] : [170, ctx.width - 170];
  doc.font('regular').fontSize(ctx.size);
  const heights = cells.map((c, i) => doc.heightOfString(c, { width: widths[i]! - 8 }));
  const height = Math.max(...heights) + 8;
  if (doc.y + height > doc.page.height - margin.bottom) doc.addPage();
  const top = doc.y;
  let x = margin.side;
  cells.forEach((cell, i) => {
    doc.font(i < cells.length - 1 ? 'bold' : 'regular').text(cell, x + 4, top + 4, { width: widths[i]! - 8 });
    x += widths[i]!;
  });
  doc.lineWidth(0.5).strokeColor('#999999').rect(margin.side, top, ctx.width, height).stroke();
  doc.x = margin.side;
  doc.y = top + height;
}
