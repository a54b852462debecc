// Deeds for the pipeline's tests and the corpus: a born-digital PDF typeset from page texts (pdfkit), and a
// "scanned" copy of any PDF: each page drawn to pixels (pdfjs + @napi-rs/canvas, the pipeline's own
// renderer), made to look scanned (sharp: grain, specks, a slight skew, JPEG), and put back one image per
// page into a PDF without a text layer (pdfkit). The same seed gives the same scan.
import PDFDocument from 'pdfkit';
import sharp from 'sharp';
import { openPdf } from "../../src/modules/deeds/pipeline/pdf-document.js";
import { renderPageGrey } from "../../src/modules/deeds/pipeline/page-render.js";
/** Mulberry32: small, seeded, the same sequence everywhere. */
function createRandom(seed) {
    let state = seed >>> 0;
    return () => {
        state = (state + 0x6d2b79f5) >>> 0;
        let t = state;
        t = Math.imul(t ^ (t >>> 15), t | 1);
        t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
        return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
}
function collect(doc) {
    const chunks = [];
    doc.on('data', (chunk) => chunks.push(chunk));
    return new Promise((resolve, reject) => {
        doc.on('end', () => resolve(Buffer.concat(chunks)));
        doc.on('error', reject);
    });
}
/** Grain on every pixel and a few dark specks, as a cheap flatbed scanner leaves them. */
function dirty(grey, width, noise, random) {
    const grain = 60 * noise;
    const speckRate = 0.002 * noise;
    for (let i = 0; i < grey.length; i++) {
        const value = grey[i] + (random() + random() - 1) * grain;
        grey[i] = Math.max(0, Math.min(255, value));
    }
    const specks = Math.round(grey.length * speckRate);
    for (let s = 0; s < specks; s++) {
        const at = Math.floor(random() * grey.length);
        const size = 1 + Math.floor(random() * 2);
        for (let dy = 0; dy < size; dy++)
            for (let dx = 0; dx < size; dx++)
                if (at + dy * width + dx < grey.length)
                    grey[at + dy * width + dx] = 40;
    }
}
/** A scanned copy of `pdf`: image-only pages of the same size, no text layer. */
export async function scanPdf(bytes, options) {
    const random = createRandom(options.seed);
    const noise = options.noise ?? 0.15;
    const dpi = options.dpi ?? 200;
    const opened = await openPdf(bytes);
    if (!opened.ok)
        throw new Error('scanPdf: the input is not a PDF pdfjs can open');
    const { doc } = opened;
    const out = new PDFDocument({ autoFirstPage: false, compress: true });
    const done = collect(out);
    try {
        for (let n = 1; n <= doc.numPages; n++) {
            const page = await doc.getPage(n);
            const [x0, y0, x1, y1] = page.view;
            const grey = await renderPageGrey(doc, page, dpi);
            dirty(grey.data, grey.width, noise, random);
            const skew = options.skewDegrees ?? (random() * 2 - 1);
            const rotated = await sharp(grey.data, { raw: { width: grey.width, height: grey.height, channels: 1 } })
                .rotate(skew, { background: '#ffffff' })
                .raw()
                .toBuffer({ resolveWithObject: true });
            // Rotating grows the picture; the scanner's glass is the page's size, so the middle is kept.
            const jpeg = await sharp(rotated.data, { raw: { width: rotated.info.width, height: rotated.info.height, channels: rotated.info.channels } })
                .extract({
                left: Math.floor((rotated.info.width - grey.width) / 2),
                top: Math.floor((rotated.info.height - grey.height) / 2),
                width: grey.width,
                height: grey.height,
            })
                .greyscale()
                .jpeg({ quality: 80 })
                .toBuffer();
            out.addPage({ size: [x1 - x0, y1 - y0], margin: 0 });
            out.image(jpeg, 0, 0, { width: x1 - x0, height: y1 - y0 });
        }
    }
    finally {
        await doc.destroy();
    }
    out.end();
    return done;
}
/** A born-digital A4 PDF: each string one page of Helvetica, wrapped within 2.5 cm margins. An empty string is a blank page. */
export async function typesetPdf(pages, options = {}) {
    const doc = new PDFDocument({
        size: 'A4',
        margin: 72,
        autoFirstPage: false,
        ...(options.userPassword ? { userPassword: options.userPassword } : {}),
        ...(options.ownerPassword ? { ownerPassword: options.ownerPassword, permissions: { printing: 'highResolution' } } : {}),
    });
    const done = collect(doc);
    for (const text of pages) {
        doc.addPage();
        if (text)
            doc.font('Helvetica').fontSize(options.fontSize ?? 11).text(text, { lineGap: 2 });
    }
    doc.end();
    return done;
}
//# sourceMappingURL=deed-scans.js.map