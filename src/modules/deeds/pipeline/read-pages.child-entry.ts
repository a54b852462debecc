// The file read-pages.ts forks when it runs compiled (dist/, no tsx): pdfjs loaded natively first
// (pdfjs-preload.mjs says why, and is copied beside this file by the build), then the compiled child.
// From source, read-pages.ts forks read-pages.child.mjs instead, which registers tsx after the same preload.
import './pdfjs-preload.mjs';

await import('./read-pages.child.ts');
