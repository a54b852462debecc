// A deed as a list of blocks (titles, headings, numbered clauses, tables with real cell borders, signature
// grids), typeset by pdfkit on A4 with Noto Sans embedded (embedFonts), so that accents print and copy as
// typed. Blocks are never split across pages: one that does not fit starts the next page, and a heading
// keeps with what follows it. The file is the same, byte for byte, for the same blocks: the creation date
// is given, not read from the clock.
import PDFDocument from 'pdfkit';
import { embedFonts } from '../../../src/modules/verifications/reports/pdf-document.ts';

export interface Run {
  text: string;
  bold?: boolean;
  italic?: boolean;
}

/** Plain text, or runs of it in bold or italic (a defined term in bold, the rest plain). */
export type Inline = string | Run[];

export type Align = 'left' | 'justify' | 'center' | 'right';

export type Block =
  | { kind: 'title'; text: string; size: number; align?: Align }
  | { kind: 'heading'; text: string; align?: Align; size?: number }
  | { kind: 'paragraph'; text: Inline; indent?: number; align?: Align; size?: number }
  | { kind: 'clause'; number: string; text: Inline; level?: number }
  | { kind: 'table'; widths: number[]; rows: Inline[][]; borders: boolean; shadeFirstRow?: boolean; boldFirstColumn?: boolean }
  | { kind: 'space'; points: number }
  | { kind: 'rule' }
  | { kind: 'page-break' };

export interface Footer {
  left?: string;
  center?: string;
  right?: string;
}

export interface DeedStyle {
  fontSize: number;
  lineGap: number;
  /** Space after each paragraph or clause, in points. */
  paragraphGap: number;
  margins: { top: number; bottom: number; side: number };
  /** The running footer of page `page` of `total` (1-based). */
  footer?: (page: number, total: number) => Footer;
  /** The file's creation date: fixed, so the bytes are too. */
  createdAt: Date;
}

type Doc = PDFKit.PDFDocument;

function collect(doc: Doc): Promise<Buffer> {
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  return new Promise((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
}

function plain(text: Inline): string {
  return typeof text === 'string' ? text : text.map((run) => run.text).join('');
}

function fontOf(run: Run): string {
  if (run.bold) return 'bold';
  return run.italic ? 'italic' : 'regular';
}

/** Written through pdfkit's `continued` so that bold and plain runs share lines. */
function writeInline(doc: Doc, text: Inline, x: number, y: number, options: PDFKit.Mixins.TextOptions, base: Run = { text: '' }): void {
  // An empty run would end a `continued` chain without moving down a line: the next block would overprint it.
  const runs: Run[] = (typeof text === 'string' ? [{ ...base, text }] : text.map((run) => ({ ...base, ...run }))).filter((run) => run.text !== '');
  if (runs.length === 0) runs.push({ ...base, text: ' ' });
  // pdfkit drops the leading space of a continued run ("'Appointor'means"): carry it to the end of the run before.
  for (let i = 1; i < runs.length; i++) {
    const lead = /^\s+/.exec(runs[i]!.text)?.[0];
    if (lead) {
      runs[i - 1] = { ...runs[i - 1]!, text: runs[i - 1]!.text + lead };
      runs[i] = { ...runs[i]!, text: runs[i]!.text.slice(lead.length) };
    }
  }
  runs.forEach((run, i) => {
    doc.font(fontOf(run));
    const last = i === runs.length - 1;
    if (i === 0) doc.text(run.text, x, y, { ...options, continued: !last });
    else doc.text(run.text, { ...options, continued: !last });
  });
}

interface Frame {
  left: number;
  width: number;
  bottom: number;
}

/** The height a block takes, measured in bold (the widest face) so that a block never overflows its page. */
function measure(doc: Doc, block: Block, style: DeedStyle, frame: Frame): number {
  const lineGap = style.lineGap;
  switch (block.kind) {
    case 'title':
      return doc.font('bold').fontSize(block.size).heightOfString(block.text, { width: frame.width, lineGap }) + style.paragraphGap * 1.5;
    case 'heading':
      return doc.font('bold').fontSize(block.size ?? style.fontSize + 1).heightOfString(block.text, { width: frame.width, lineGap }) + style.paragraphGap;
    case 'paragraph': {
      const indent = block.indent ?? 0;
      return doc.font('bold').fontSize(block.size ?? style.fontSize).heightOfString(plain(block.text), { width: frame.width - indent, lineGap }) + style.paragraphGap;
    }
    case 'clause': {
      const { textLeft } = clauseGeometry(block, style);
      return doc.font('bold').fontSize(style.fontSize).heightOfString(plain(block.text), { width: frame.width - textLeft, lineGap }) + style.paragraphGap;
    }
    case 'table':
      return block.rows.reduce((total, row) => total + rowHeight(doc, block, row, style, frame), 0) + style.paragraphGap;
    case 'space':
      return block.points;
    case 'rule':
      return style.paragraphGap + 4;
    case 'page-break':
      return 0;
  }
}

function clauseGeometry(block: Extract<Block, { kind: 'clause' }>, style: DeedStyle): { numberLeft: number; textLeft: number } {
  const level = block.level ?? 0;
  const numberLeft = level * style.fontSize * 2.6;
  const hang = Math.max(style.fontSize * 2.8, block.number.length * style.fontSize * 0.62);
  return { numberLeft, textLeft: numberLeft + hang };
}

const cellPadding = 5;

function cellWidths(block: Extract<Block, { kind: 'table' }>, frame: Frame): number[] {
  const total = block.widths.reduce((a, b) => a + b, 0);
  return block.widths.map((w) => (w / total) * frame.width);
}

function rowHeight(doc: Doc, block: Extract<Block, { kind: 'table' }>, row: Inline[], style: DeedStyle, frame: Frame): number {
  const widths = cellWidths(block, frame);
  const heights = row.map((cell, i) => doc.font('bold').fontSize(style.fontSize).heightOfString(plain(cell) || ' ', { width: widths[i]! - cellPadding * 2, lineGap: style.lineGap }));
  return Math.max(...heights) + cellPadding * 2;
}

function drawTable(doc: Doc, block: Extract<Block, { kind: 'table' }>, style: DeedStyle, frame: Frame): void {
  const widths = cellWidths(block, frame);
  doc.lineWidth(0.7).strokeColor('#222222');
  block.rows.forEach((row, r) => {
    const height = rowHeight(doc, block, row, style, frame);
    if (doc.y + height > frame.bottom) doc.addPage();
    const top = doc.y;
    let x = frame.left;
    row.forEach((cell, c) => {
      const width = widths[c]!;
      if (block.shadeFirstRow && r === 0) doc.rect(x, top, width, height).fill('#e6e6e6').fillColor('#000000');
      if (block.borders) doc.rect(x, top, width, height).stroke();
      const bold = (block.shadeFirstRow && r === 0) || (block.boldFirstColumn && c === 0);
      writeInline(doc, cell || ' ', x + cellPadding, top + cellPadding, { width: width - cellPadding * 2, lineGap: style.lineGap, align: 'left' }, { text: '', bold });
      x += width;
    });
    doc.x = frame.left;
    doc.y = top + height;
  });
  doc.y += style.paragraphGap;
}

function draw(doc: Doc, block: Block, style: DeedStyle, frame: Frame): void {
  const top = doc.y;
  const options = { width: frame.width, lineGap: style.lineGap };
  switch (block.kind) {
    case 'title':
      doc.font('bold').fontSize(block.size).text(block.text, frame.left, top, { ...options, align: block.align ?? 'center' });
      doc.y += style.paragraphGap * 1.5;
      break;
    case 'heading':
      doc.font('bold').fontSize(block.size ?? style.fontSize + 1).text(block.text, frame.left, top, { ...options, align: block.align ?? 'left' });
      doc.y += style.paragraphGap;
      break;
    case 'paragraph': {
      const indent = block.indent ?? 0;
      doc.fontSize(block.size ?? style.fontSize);
      writeInline(doc, block.text, frame.left + indent, top, { ...options, width: frame.width - indent, align: block.align ?? 'justify' });
      doc.y += style.paragraphGap;
      break;
    }
    case 'clause': {
      const { numberLeft, textLeft } = clauseGeometry(block, style);
      doc.font('regular').fontSize(style.fontSize).text(block.number, frame.left + numberLeft, top, { lineBreak: false });
      writeInline(doc, block.text, frame.left + textLeft, top, { ...options, width: frame.width - textLeft, align: 'justify' });
      doc.y += style.paragraphGap;
      break;
    }
    case 'table':
      drawTable(doc, block, style, frame);
      break;
    case 'space':
      doc.y += block.points;
      break;
    case 'rule':
      doc.lineWidth(0.8).moveTo(frame.left, top + 2).lineTo(frame.left + frame.width, top + 2).stroke();
      doc.y = top + style.paragraphGap + 4;
      break;
    case 'page-break':
      break;
  }
  doc.x = frame.left;
}

/** Typesets the blocks; throws when a block is taller than a page (a layout bug, not a case). */
export async function renderDeed(blocks: Block[], style: DeedStyle): Promise<Buffer> {
  const doc = new PDFDocument({
    size: 'A4',
    margins: { top: style.margins.top, bottom: style.margins.bottom, left: style.margins.side, right: style.margins.side },
    autoFirstPage: false,
    bufferPages: true,
    font: '',
    info: { CreationDate: style.createdAt, Creator: 'Microsoft Word', Producer: 'PDFKit' },
  } as PDFKit.PDFDocumentOptions);
  const done = collect(doc);
  doc.addPage();
  embedFonts(doc);
  const frame: Frame = { left: style.margins.side, width: doc.page.width - style.margins.side * 2, bottom: doc.page.height - style.margins.bottom };
  const pageTop = style.margins.top;
  let empty = true;
  blocks.forEach((block, i) => {
    if (block.kind === 'page-break') {
      if (!empty) doc.addPage();
      empty = true;
      return;
    }
    let height = measure(doc, block, style, frame);
    if (height > frame.bottom - pageTop && block.kind !== 'table') throw new Error(`a ${block.kind} block is taller than a page: ${plain('text' in block ? block.text : '').slice(0, 60)}`);
    // A heading or title keeps with (the start of) what follows it.
    const next = blocks[i + 1];
    if ((block.kind === 'heading' || block.kind === 'title') && next && next.kind !== 'page-break' && next.kind !== 'space') {
      height += Math.min(measure(doc, next, style, frame), style.fontSize * 4);
    }
    if (block.kind === 'table') height = rowHeight(doc, block, block.rows[0]!, style, frame) * Math.min(block.rows.length, 2);
    if (!empty && doc.y + height > frame.bottom) doc.addPage();
    draw(doc, block, style, frame);
    empty = false;
  });
  const { start, count } = doc.bufferedPageRange();
  for (let n = start; n < start + count; n++) {
    const footer = style.footer?.(n - start + 1, count);
    if (!footer) continue;
    doc.switchToPage(n);
    const bottom = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    const y = doc.page.height - bottom / 2 - 4;
    doc.font('regular').fontSize(8);
    if (footer.left) doc.text(footer.left, frame.left, y, { width: frame.width, align: 'left', lineBreak: false });
    if (footer.center) doc.text(footer.center, frame.left, y, { width: frame.width, align: 'center', lineBreak: false });
    if (footer.right) doc.text(footer.right, frame.left, y, { width: frame.width, align: 'right', lineBreak: false });
    doc.page.margins.bottom = bottom;
  }
  doc.end();
  return done;
}

/** Every block's text, in order: what a reader of the born-digital file can find in it. */
export function blocksText(blocks: Block[]): string {
  return blocks
    .map((block) => {
      if (block.kind === 'table') return block.rows.map((row) => row.map(plain).join(' ')).join(' ');
      return 'text' in block ? plain(block.text) : '';
    })
    .join(' ');
}
