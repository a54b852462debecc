// Loads pdfjs natively, before anything registers tsx: both entries of the page reader's child import this
// first (read-pages.child.mjs from source, read-pages.child-entry.ts compiled). Loaded through tsx's loader,
// pdfjs's two large modules (pdf.mjs, pdf.worker.mjs: 3 MB) take ~1.5 s to load on the 2-core machine this
// was written on; loaded natively, before tsx is registered, ~0.2 s (child start to first page: ~2.1 s
// before, ~0.5 s now). The worker module, set as `globalThis.pdfjsWorker`, is what pdfjs's parser, running
// in this thread, takes instead of importing the module on the first getDocument. pdf-document.ts's own
// import of pdfjs then finds it loaded.
import 'pdfjs-dist/legacy/build/pdf.mjs';
import * as pdfjsWorker from 'pdfjs-dist/legacy/build/pdf.worker.mjs';

globalThis.pdfjsWorker = pdfjsWorker;
