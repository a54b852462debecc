// A PDF page as grey pixels, for OCR (and for the tests' "scanner"): pdfjs draws it on an @napi-rs/canvas
// canvas over white, sharp turns the canvas's RGBA into one grey channel. Nothing is written to disk.
//
// The canvas comes from pdfjs's own canvas factory, not from our `@napi-rs/canvas`: pdfjs-dist carries its
// own copy of the package (0.1.x, in its node_modules) and builds glyph paths with that copy's Path2D, which
// a canvas of another copy rejects ("not a valid enum value of type CanvasFillRule").
import sharp from 'sharp';
import type { PdfDocument, PdfPage } from './pdf-document.ts';

/** The part of pdfjs's (untyped) Node canvas factory we use. */
interface CanvasFactory {
  create(width: number, height: number): { canvas: { width: number; height: number; data(): Buffer }; context: { fillStyle: string; fillRect(x: number, y: number, w: number, h: number): void } };
  destroy(canvasAndContext: unknown): void;
}

export interface GreyImage {
  /** One byte a pixel, row by row, 0 black to 255 white. */
  data: Buffer;
  width: number;
  height: number;
}

/**
 * The largest page we render, in pixels (about A3 at 300 dpi): a page whose box claims to be metres wide is
 * drawn at a lower resolution rather than asking for gigabytes of canvas.
 */
const maxPixels = 5000 * 7000;

export async function renderPageGrey(doc: PdfDocument, page: PdfPage, dpi: number): Promise<GreyImage> {
  const unscaled = page.getViewport({ scale: 1 });
  const wanted = dpi / 72;
  const fit = Math.sqrt(maxPixels / Math.max(1, unscaled.width * wanted * unscaled.height * wanted));
  const viewport = page.getViewport({ scale: wanted * Math.min(1, fit) });
  const width = Math.max(1, Math.ceil(viewport.width));
  const height = Math.max(1, Math.ceil(viewport.height));
  const factory = doc.canvasFactory as CanvasFactory;
  const drawing = factory.create(width, height);
  const { canvas, context } = drawing;
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, width, height);
  // pdfjs types its canvas as the DOM's.
  await page.render({ canvas, canvasContext: context, viewport } as unknown as Parameters<PdfPage['render']>[0]).promise;
  // Opaque (drawn over white), so the canvas's premultiplied RGBA is plain RGBA.
  const data = await sharp(canvas.data(), { raw: { width, height, channels: 4 } })
    .removeAlpha()
    .greyscale()
    .raw()
    .toBuffer();
  factory.destroy(drawing);
  page.cleanup();
  return { data, width, height };
}

/** A binary PGM (P5): the cheapest image tesseract reads, a header in front of the pixels. */
export function encodePgm(image: GreyImage): Buffer {
  return Buffer.concat([Buffer.from(`P5\n${image.width} ${image.height}\n255\n`, 'ascii'), image.data]);
}

/**
 * The page with its specks taken out (a 3 × 3 median: a scanner's grain and dust are a pixel or two,
 * strokes of 300 dpi text are wider). Tesseract reads grain as letters (`Sead Shae`, `Fp o`) and loses
 * confidence in the lines around it. (Whitening only dark pixels with at most one dark neighbour was tried
 * too: grain comes in clusters of two and three, and the scans read no better.)
 */
export async function despeckle(image: GreyImage): Promise<GreyImage> {
  const data = await sharp(image.data, { raw: { width: image.width, height: image.height, channels: 1 } })
    .median(3)
    .extractChannel(0)
    .raw()
    .toBuffer();
  return { ...image, data };
}
