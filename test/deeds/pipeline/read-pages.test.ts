// readDeedPages on born-digital PDFs: the text layer, the TFN scan over it, refusals. Each call runs a real
// child process (~0.5–1 s) but no OCR and no database. OCR is read-pages-ocr.test.ts's.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readDeedPages } from '../../../src/modules/deeds/pipeline/read-pages.ts';
import { typesetPdf } from '../../helpers/deed-scans.ts';
import { childPids } from './processes.ts';

const options = { deadlineMs: 60_000, concurrency: 2 };

const recitals = 'THIS DEED OF SETTLEMENT is made on 14 March 2019 BETWEEN Margaret Eleanor Whitfield of 27 Banksia Crescent, Toowong QLD 4066 (the Settlor) AND Whitfield Nominees Pty Ltd ACN 004 085 616 ABN 51 824 753 556 (the Trustee).';
const appointor = 'The Appointor of the Whitfield Family Trust is Gregory James Whitfield of 9 Jacaranda Avenue, Indooroopilly QLD 4068.';
const vesting = 'The Vesting Day is the day before the eightieth anniversary of the date of this deed. Signed sealed and delivered.';

describe('reading a born-digital deed', () => {
  it('returns every page’s text from the text layer, in order, without OCR', async () => {
    const result = await readDeedPages(await typesetPdf([recitals, appointor, vesting]), options);
    assert.ok(result.ok, JSON.stringify(result));
    assert.equal(result.ocrPages, 0);
    assert.deepEqual(
      result.pages.map((p) => [p.number, p.source]),
      [
        [1, 'TEXT_LAYER'],
        [2, 'TEXT_LAYER'],
        [3, 'TEXT_LAYER'],
      ],
    );
    // Wrapped lines come back as lines; joined, the page reads as typeset.
    assert.equal(result.pages[0]!.text.replace(/\n/g, ' '), recitals);
    assert.equal(result.pages[1]!.text.replace(/\n/g, ' '), appointor);
    assert.match(result.pages[2]!.text, /^The Vesting Day/);
    // The ACN and ABN on page 1 are not taken for TFNs.
  });

  it('answers TFN_CONTENT_DETECTED, and nothing else, for a TFN in the text layer', async () => {
    const tfnPage = `${appointor} For the trust's records the Trustee's tax file number is 876 543 210 and it is kept with the accountant.`;
    const result = await readDeedPages(await typesetPdf([recitals, tfnPage, vesting]), options);
    assert.deepEqual(result, { ok: false, reason: 'TFN_CONTENT_DETECTED' });
    assert.doesNotMatch(JSON.stringify(result), /876|543|210/);
  });

  it('finds a TFN on a page whose text layer is too thin to use', async () => {
    const result = await readDeedPages(await typesetPdf([recitals, 'TFN 123 456 782']), options);
    assert.deepEqual(result, { ok: false, reason: 'TFN_CONTENT_DETECTED' });
  });

  it('answers NOT_A_PDF for a file that is no PDF, one cut short and one that needs a password', async () => {
    const pdf = await typesetPdf([recitals]);
    for (const bytes of [Buffer.from('not a deed'), pdf.subarray(0, pdf.length / 2), await typesetPdf([recitals], { userPassword: 'secret' })]) {
      assert.deepEqual(await readDeedPages(bytes, options), { ok: false, reason: 'NOT_A_PDF' });
    }
  });

  it('refuses options that make no sense, before starting anything', async () => {
    const pdf = await typesetPdf([recitals]);
    for (const bad of [{ deadlineMs: 0, concurrency: 1 }, { deadlineMs: 1000, concurrency: 0 }, { deadlineMs: 1000, concurrency: 1.5 }, { deadlineMs: Number.NaN, concurrency: 1 }]) {
      await assert.rejects(readDeedPages(pdf, bad), RangeError);
    }
  });

  it('leaves no child process behind', async () => {
    const before = childPids();
    const result = await readDeedPages(await typesetPdf([recitals]), options);
    assert.ok(result.ok);
    assert.deepEqual(childPids(), before);
  });
});
