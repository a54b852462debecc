import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { it } from 'node:test';
import { loadPdfjs, openPdf } from './pdf-document.ts';

it('leaves the process its own JSON and Array.prototype.push once pdfjs has loaded, and pdfjs still reads', async () => {
  assert.equal((globalThis as { pdfjsLib?: unknown }).pdfjsLib, undefined, 'pdfjs is not loaded yet, so the comparison means something');
  const before = { stringify: JSON.stringify, parse: JSON.parse, push: Array.prototype.push, toString: Function.prototype.toString };
  await loadPdfjs();
  assert.ok((globalThis as { pdfjsLib?: unknown }).pdfjsLib, 'pdfjs is loaded');
  assert.equal(JSON.stringify, before.stringify);
  assert.equal(JSON.parse, before.parse);
  assert.equal(Array.prototype.push, before.push);
  assert.equal(Function.prototype.toString, before.toString);
  const opened = await openPdf(readFileSync(new URL('../../../../examples/deed.pdf', import.meta.url)));
  assert.ok(opened.ok && opened.doc.numPages > 0);
  if (opened.ok) await opened.doc.destroy();
});
