// When the OCR of a document has failed (page-reader.ts): the rule that turns each OCR'd page's outcome
// into OCR_FAILED or not. The OCR itself is test/deeds/pipeline/read-pages-ocr.test.ts's.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ocrFailed } from './page-reader.ts';

describe('ocrFailed', () => {
  it('is false when nothing needed OCR', () => {
    assert.equal(ocrFailed([]), false);
  });

  it('is true when no OCR page was read: blank scans only, unreadable ones only, or both', () => {
    assert.equal(ocrFailed(['BLANK']), true);
    assert.equal(ocrFailed(['BLANK', 'BLANK', 'BLANK']), true);
    assert.equal(ocrFailed(['UNREADABLE']), true);
    assert.equal(ocrFailed(['BLANK', 'UNREADABLE']), true);
  });

  it('lets blank pages (a duplex scan’s backs) count for neither side', () => {
    assert.equal(ocrFailed(['READ', 'BLANK', 'READ', 'BLANK', 'READ', 'BLANK']), false);
    assert.equal(ocrFailed(['READ', 'BLANK', 'BLANK', 'BLANK', 'BLANK']), false);
  });

  it('is true when unreadable pages outnumber read ones, false at a tie', () => {
    assert.equal(ocrFailed(['READ', 'UNREADABLE', 'UNREADABLE']), true);
    assert.equal(ocrFailed(['READ', 'UNREADABLE']), false);
    assert.equal(ocrFailed(['READ', 'READ', 'UNREADABLE', 'BLANK']), false);
  });
});
