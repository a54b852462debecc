// The file read-pages.ts forks when it runs from source (tests, tsx): it starts the child of
// read-pages.child.ts without paying tsx for pdfjs. pdfjs is loaded natively first (pdfjs-preload.mjs says
// why), then tsx is registered for the child's TypeScript. Compiled, read-pages.ts forks
// read-pages.child-entry.js instead, which needs no tsx.
import './pdfjs-preload.mjs';
import { register } from 'tsx/esm/api';

register();
await import('./read-pages.child.ts');
