// How the reports look: the page, the fonts, the colours, and the badge. Noto Sans is embedded from the npm
// package, never a PDF standard font: those cover Latin-1 only, and a name like Łukasiewicz or Nguyễn
// must print as the person entered it.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

export const fontFiles = {
  regular: require.resolve('@expo-google-fonts/noto-sans/400Regular/NotoSans_400Regular.ttf'),
  semibold: require.resolve('@expo-google-fonts/noto-sans/600SemiBold/NotoSans_600SemiBold.ttf'),
  bold: require.resolve('@expo-google-fonts/noto-sans/700Bold/NotoSans_700Bold.ttf'),
  italic: require.resolve('@expo-google-fonts/noto-sans/400Regular_Italic/NotoSans_400Regular_Italic.ttf'),
};

export type FontName = keyof typeof fontFiles;

export type Doc = PDFKit.PDFDocument;

type LayoutRun = (text: string, features?: unknown) => unknown;
/** The parts of pdfkit's EmbeddedFont used below: its fontkit font and its layout of a run of text. */
interface EmbeddedFont {
  font: object;
  layoutRun?: LayoutRun;
}

/**
 * One fontkit font per face for the whole process, for shaping. fontkit reads a font's GSUB and GPOS tables
 * on its first layout, which for Noto Sans costs tens of milliseconds a face, and pdfkit opens every face
 * afresh for each document: shared, a report renders several times faster. Sharing is safe: shaping
 * keeps no per-document state, and each document's subset (the glyphs it embeds) stays its own.
 */
const shapers = new Map<string, object>();

/**
 * Registers the fonts under their names and prepares their shaping. Noto Sans's `ccmp` feature splits
 * some precomposed letters into a base and a mark (ị → i + ◌̣), and pdfkit maps each glyph to the text
 * it first drew, so "Thị" would be copied and searched as "Thi". With `ccmp` off the font's precomposed
 * glyph is used: one glyph, one letter (and text is composed to NFC first, so a name typed with
 * combining marks finds the same glyphs). pdfkit has no document-wide setting for features, and passing
 * them on each call bypasses its layout cache, so each embedded font's layout is given them here.
 */
export function embedFonts(doc: Doc): void {
  for (const [name, file] of Object.entries(fontFiles)) {
    doc.registerFont(name, file);
    doc.font(name);
    const font = (doc as unknown as { _font: EmbeddedFont })._font;
    if (typeof font.layoutRun !== 'function' || typeof font.font !== 'object') throw new Error('pdfkit’s EmbeddedFont has changed: see embedFonts in pdf-style.ts');
    const shaper = shapers.get(name) ?? font.font;
    shapers.set(name, shaper);
    font.font = shaper;
    const layoutRun = font.layoutRun.bind(font);
    font.layoutRun = (text, features) => layoutRun(text.normalize('NFC'), features ?? { ccmp: false });
  }
  doc.font('regular');
}

/** A4 in points, with room above and below the content for the header and the footer. */
export const page = { top: 80, bottom: 66, side: 50 } as const;

export const colours = { ink: '#1f2328', muted: '#57606a', rule: '#d0d7de', panel: '#f6f8fa', accent: '#0b4f8a' } as const;

/**
 * Tones for badges, bars and notes. Each badge also says its state in words, and its text and border are
 * dark enough to read on a greyscale print, where the fills all turn pale grey.
 */
export type Tone = 'good' | 'warn' | 'bad' | 'neutral';

export const toneColours: Record<Tone, { fill: string; text: string }> = {
  good: { fill: '#dafbe1', text: '#116329' },
  warn: { fill: '#fff1c2', text: '#7d4e00' },
  bad: { fill: '#ffebe9', text: '#a40e26' },
  neutral: { fill: '#eaeef2', text: '#424a53' },
};

export const badgeHeight = 15;

export function badgeWidth(doc: Doc, label: string): number {
  return doc.font('bold').fontSize(8).widthOfString(label) + 14;
}

/** A rounded badge with its left edge at `x`. */
export function drawBadge(doc: Doc, label: string, tone: Tone, x: number, y: number): void {
  const w = badgeWidth(doc, label);
  doc.roundedRect(x, y, w, badgeHeight, badgeHeight / 2).lineWidth(0.6).fillAndStroke(toneColours[tone].fill, toneColours[tone].text);
  doc.font('bold').fontSize(8).fillColor(toneColours[tone].text).text(label, x + 7, y + 3, { lineBreak: false });
}

/** `value` cut with an ellipsis so that it fits in `width` on one line, in the current font. */
export function fitLine(doc: Doc, value: string, width: number): string {
  if (doc.widthOfString(value) <= width) return value;
  let cut = value;
  while (cut.length > 1 && doc.widthOfString(`${cut}…`) > width) cut = cut.slice(0, -1);
  return `${cut.trimEnd()}…`;
}
