// The PDF document the reports are drawn on: A4, buffered (the header and footer are drawn on every page
// at the end), and Noto Sans embedded from the npm package, never a PDF standard font: those cover
// Latin-1 only, and a name like Łukasiewicz or Nguyễn must print as the person entered it.
import { createRequire } from 'node:module';
import type PDFDocument from 'pdfkit';
import { AppError } from '../../../platform/errors.ts';

const require = createRequire(import.meta.url);

/**
 * pdfkit (with fontkit and a dozen packages under them), loaded at the first report, once, not when the
 * service starts (docs/architecture.md, "What a process loads"). Loaded with `require` because a document is made
 * synchronously; one thread, so two reports cannot both load it, and a load that throws is not kept (Node
 * caches only modules that loaded) and is tried again by the next report. Failing, the report is not
 * drawn: 503 with Retry-After, as when a provider the report needs is not answering; the load's error is
 * the cause, never in the answer.
 */
let pdfkit: typeof PDFDocument | undefined;
function loadPdfkit(): typeof PDFDocument {
  try {
    pdfkit ??= require('pdfkit') as typeof PDFDocument;
  } catch (error) {
    throw new AppError('SERVICE_UNAVAILABLE', 'The report cannot be drawn just now; open the same URL again in a minute.', { retryAfter: 60, cause: error });
  }
  return pdfkit;
}

export const fontFiles = {
  regular: require.resolve('@expo-google-fonts/noto-sans/400Regular/NotoSans_400Regular.ttf'),
  semibold: require.resolve('@expo-google-fonts/noto-sans/600SemiBold/NotoSans_600SemiBold.ttf'),
  bold: require.resolve('@expo-google-fonts/noto-sans/700Bold/NotoSans_700Bold.ttf'),
  italic: require.resolve('@expo-google-fonts/noto-sans/400Regular_Italic/NotoSans_400Regular_Italic.ttf'),
};

export type FontName = keyof typeof fontFiles;

export type Doc = PDFKit.PDFDocument;

/** A4 in points, with room above and below the content for the header and the footer. */
export const page = { top: 80, bottom: 66, side: 50 } as const;

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

/**
 * A buffered A4 document with the fonts embedded and nothing else open. `font: ''` keeps pdfkit from
 * opening a first font of its own: by default Helvetica, a standard font; and a face opened both by path
 * and by registered name is opened again from disk on every `doc.font(name)` (pdfkit finds it equal to
 * the first and does not cache the name), which made a report ten times slower.
 */
export function createPdfDocument(info: PDFKit.DocumentInfo): Doc {
  const PdfKitDocument = loadPdfkit();
  const doc = new PdfKitDocument({
    size: 'A4',
    bufferPages: true,
    margins: { top: page.top, bottom: page.bottom, left: page.side, right: page.side },
    info,
    lang: 'en-AU',
    displayTitle: true,
    font: '',
  });
  embedFonts(doc);
  return doc;
}
