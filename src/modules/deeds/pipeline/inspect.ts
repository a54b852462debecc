// The check `POST /v1/deed-analyses/{id}/start` makes before it accepts a file (CONTRACT §7): a real PDF
// pdfjs can parse, readable without a password, and how many pages it has (TOO_MANY_PAGES is the caller's).
//
// It runs in the HTTP request, so it parses only what the answer needs: the cross-reference table, the
// catalogue and each page's dictionary, never a content stream, a font or an image. Measured on a
// 150-page PDF: ~15–80 ms (bench/tools/deed-pipeline-measure.ts); the first call in a process also loads pdfjs (~1–1.5 s).
//
// pdfjs failing to load is not the file's fault: it is the reader being unavailable, answered as storage's
// outage is (503 with Retry-After to the partner's `start`, a retry to the analysis job), the load's error
// as the cause; the next call loads again.
import { AppError } from '../../../platform/errors.ts';
import { openPdf } from './pdf-document.ts';

export type PdfInspection = { ok: true; pageCount: number } | { ok: false; reason: 'NOT_A_PDF' };

export async function inspectPdf(bytes: Buffer): Promise<PdfInspection> {
  const opened = await openPdf(bytes).catch((error: unknown) => {
    throw new AppError('SERVICE_UNAVAILABLE', 'The deed reader is unavailable; try again shortly', { retryAfter: 5, cause: error });
  });
  if (!opened.ok) return opened;
  const { doc } = opened;
  try {
    const pageCount = doc.numPages;
    if (!Number.isInteger(pageCount) || pageCount < 1) return { ok: false, reason: 'NOT_A_PDF' };
    // Every page must resolve: a page tree that claims pages it cannot find is a broken file, and the
    // pipeline would fail on it later with a less useful reason.
    for (let n = 1; n <= pageCount; n++) await doc.getPage(n);
    return { ok: true, pageCount };
  } catch {
    return { ok: false, reason: 'NOT_A_PDF' };
  } finally {
    await doc.destroy().catch(() => undefined);
  }
}
