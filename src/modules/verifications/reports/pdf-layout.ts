// The reports' shared layout on pdfkit: A4, Noto Sans embedded, a header and a footer on every page (title,
// request id, generation time, page X of Y), and content that flows down the page in blocks. A block is
// measured before it is drawn and goes whole to the next page when it does not fit, so a table row, a
// card or a note is never split; a heading waits for the block after it, so it never ends a page.
// The report modules say what to print; this and its neighbours (pdf-flow.ts: the flow down the pages;
// pdf-table.ts, pdf-blocks.ts: what is drawn in it) say how it looks.
import { drawCard, drawSummaryBox, drawTreeLine, type CardSpec, type SummarySpec, type TreeLineSpec } from './pdf-blocks.ts';
import { createPdfDocument, page, type Doc } from './pdf-document.ts';
import { createFlow, type Flow } from './pdf-flow.ts';
import { colours, fitLine } from './pdf-style.ts';
import { drawTable, type Cell, type Column, type TableOptions } from './pdf-table.ts';
import { formatIsoTime, formatTime } from './report-format.ts';
import type { ReportHeader } from './report-model.ts';

export function createLayout(doc: Doc) {
  const flow = createFlow(doc);
  return {
    ...flow,
    table: (columns: Column[], rows: Cell[][], options?: TableOptions) => drawTable(flow, columns, rows, options),
    summaryBox: (spec: SummarySpec) => drawSummaryBox(flow, spec),
    card: (spec: CardSpec) => drawCard(flow, spec),
    treeLine: (spec: TreeLineSpec) => drawTreeLine(flow, spec),
  };
}

export type Layout = ReturnType<typeof createLayout>;

/** The report's name in large type at the top of its first page. */
function drawTitle(flow: Flow, header: ReportHeader): void {
  const { doc, left, width } = flow;
  doc.font('bold').fontSize(19).fillColor(colours.ink).text(header.title, left, doc.y, { width });
  doc.font('regular').fontSize(9.5).fillColor(colours.muted).text(`For ${header.partnerName}, generated ${formatTime(header.generatedAt)}`, left, doc.y + 2, { width });
  doc.y += 14;
}

/** The header and footer of every page, drawn once the content has found its pages. */
function stampPages(doc: Doc, header: ReportHeader): void {
  const range = doc.bufferedPageRange();
  const width = doc.page.width - page.side * 2;
  const generated = `Generated ${formatTime(header.generatedAt)} (${formatIsoTime(header.generatedAt)})`;
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    // Writing in the margins must not make pdfkit start a page.
    const margins = doc.page.margins;
    doc.page.margins = { top: 0, bottom: 0, left: 0, right: 0 };
    const request = `Verification request ${header.verificationRequestId}`;
    doc.font('regular').fontSize(8.5);
    const requestWidth = doc.widthOfString(request);
    doc.fillColor(colours.muted).text(request, page.side + width - requestWidth, 39, { lineBreak: false });
    doc.font('bold').fontSize(10).fillColor(colours.accent).text(fitLine(doc, header.title, width - requestWidth - 16), page.side, 37, { lineBreak: false });
    doc.moveTo(page.side, 56).lineTo(page.side + width, 56).lineWidth(0.6).strokeColor(colours.rule).stroke();

    const footerY = doc.page.height - 44;
    const pageLabel = `Page ${i - range.start + 1} of ${range.count}`;
    doc.moveTo(page.side, footerY - 9).lineTo(page.side + width, footerY - 9).lineWidth(0.6).strokeColor(colours.rule).stroke();
    doc.font('semibold').fontSize(8);
    const pageWidth = doc.widthOfString(pageLabel);
    doc.fillColor(colours.ink).text(pageLabel, page.side + width - pageWidth, footerY, { lineBreak: false });
    doc.font('regular').fontSize(8).fillColor(colours.muted);
    doc.text(fitLine(doc, `${generated} for ${header.partnerName}`, width - pageWidth - 16), page.side, footerY, { lineBreak: false });
    doc.text('PVS partner verification service: confidential, holds personal information', page.side, footerY + 11, { lineBreak: false });
    doc.page.margins = margins;
  }
}

/**
 * A report as PDF bytes: `draw` lays out the content under the title, then every page gets its header
 * and footer. The same model gives the same bytes: the PDF's dates and id come from `generatedAt`.
 */
export function renderPdf(header: ReportHeader, subject: string, draw: (layout: Layout) => void): Promise<Buffer> {
  const doc = createPdfDocument({ Title: `${header.title}, ${header.verificationRequestId}`, Author: 'PVS', Subject: subject, Creator: 'PVS', CreationDate: header.generatedAt });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const layout = createLayout(doc);
  drawTitle(layout, header);
  draw(layout);
  layout.finish();
  stampPages(doc, header);
  doc.end();
  return done;
}
