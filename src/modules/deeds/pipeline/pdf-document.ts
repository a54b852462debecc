// Opening an uploaded PDF with pdfjs, the one way every stage of the pipeline does it.
//
// pdfjs runs on Node with its parser in this thread (no worker thread), and reads the helper files it
// needs from the pdfjs-dist package on disk: the standard 14 fonts (to render a PDF that does not embed them),
// CMaps (CJK text), the ICC profile and the WASM decoders (JPEG 2000 and JBIG2, which scanners use).
// Nothing is fetched from the network and nothing is written.
//
// pdfjs's exceptions can carry text from the file (a name in a broken object, a font name): callers map
// them to a reason and never pass a message on. `verbosity: 0` keeps pdfjs's own warnings off stdout.
//
// pdfjs (3 MB, and @napi-rs/canvas, which it loads for its own use) is imported at the first openPdf,
// once (platform/lazy.ts): the HTTP process loads it at the first deed `start`, not when it starts. In the
// page reader's child it is already loaded natively (pdfjs-preload.mjs) and the import finds it there.
import { createRequire } from 'node:module';
import path from 'node:path';
import type * as Pdfjs from 'pdfjs-dist/legacy/build/pdf.mjs';
import { lazy } from '../../../platform/lazy.ts';

export type PdfDocument = Awaited<ReturnType<typeof Pdfjs.getDocument>['promise']>;
export type PdfPage = Awaited<ReturnType<PdfDocument['getPage']>>;

const require = createRequire(import.meta.url);
const pdfjsRoot = path.dirname(require.resolve('pdfjs-dist/package.json'));
/** pdfjs joins file names onto these as strings: each must end with a separator. */
const packageDir = (name: string) => path.join(pdfjsRoot, name) + path.sep;

/**
 * pdfjs, loaded at the first call. A failed load rejects (callers treat it as the reader being
 * unavailable, never as the document's fault) and the next call loads again.
 */
export const loadPdfjs: () => Promise<typeof Pdfjs> = lazy(() => keepingNatives(() => import('pdfjs-dist/legacy/build/pdf.mjs')));

/**
 * Built-ins pdfjs's legacy build (the one for Node 20) replaces with core-js polyfills when it loads,
 * for the whole process: `JSON.stringify` for `JSON.rawJSON` (absent before Node 22), `JSON.parse` for
 * its reviver's source, `Array.prototype.push` for a V8 bug with non-writable lengths. Measured on Node
 * 20, a webhook body's `JSON.stringify` took 11 times as long after pdfjs loaded (1.7 µs → 19.6 µs) and
 * ten pushes 12 times: every answer and every log line of a process that had opened one PDF. pdfjs uses
 * none of what they add, so the process's own are put back once it has loaded.
 */
const replacedByPdfjs = [
  [JSON, 'stringify'],
  [JSON, 'parse'],
  [Array.prototype, 'push'],
  [Function.prototype, 'toString'],
] as const;

export async function keepingNatives<T>(load: () => Promise<T>): Promise<T> {
  const natives = replacedByPdfjs.map(([owner, key]) => [owner, key, Object.getOwnPropertyDescriptor(owner, key)!] as const);
  try {
    return await load();
  } finally {
    for (const [owner, key, descriptor] of natives) Object.defineProperty(owner, key, descriptor);
  }
}

/** Why a file is not one we can read: its bytes are no PDF pdfjs can parse, or it needs a password. */
export type PdfOpenFailure = 'NOT_A_PDF';

/**
 * The `%PDF-` header within the first 1 024 bytes, where Acrobat looks for it (some producers put a few
 * bytes before it). pdfjs alone would open more, e.g. a file whose header is missing but whose objects and
 * trailer it can recover: not what a partner should be uploading as a PDF.
 */
export function hasPdfHeader(bytes: Buffer): boolean {
  return bytes.subarray(0, 1024).indexOf('%PDF-') >= 0;
}

/** Rejects only when pdfjs itself cannot be loaded (loadPdfjs); a file it cannot read is NOT_A_PDF. */
export async function openPdf(bytes: Buffer): Promise<{ ok: true; doc: PdfDocument } | { ok: false; reason: PdfOpenFailure }> {
  if (!hasPdfHeader(bytes)) return { ok: false, reason: 'NOT_A_PDF' };
  const { getDocument } = await loadPdfjs();
  const task = getDocument({
    // A copy: pdfjs may transfer (detach) the buffer it is given, and the caller's Buffer must stay whole.
    data: new Uint8Array(bytes),
    // No password is ever tried: a PDF that needs one throws PasswordException, which is NOT_A_PDF.
    verbosity: 0,
    isEvalSupported: false,
    useSystemFonts: false,
    standardFontDataUrl: packageDir('standard_fonts'),
    cMapUrl: packageDir('cmaps'),
    cMapPacked: true,
    iccUrl: packageDir('iccs'),
    wasmUrl: packageDir('wasm'),
    // No XFA forms, no scripting, no font faces to install: text and pixels are all we want.
    enableXfa: false,
    stopAtErrors: false,
  });
  try {
    return { ok: true, doc: await task.promise };
  } catch {
    // InvalidPDFException, PasswordException, or anything else the parser threw: the message is not read.
    await task.destroy().catch(() => undefined);
    return { ok: false, reason: 'NOT_A_PDF' };
  }
}
