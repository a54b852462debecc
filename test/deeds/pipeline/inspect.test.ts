// inspectPdf: the check `POST …/start` makes before it accepts a deed (CONTRACT §7: a real parseable PDF,
// password-protected files refused, its page count). No OCR and no database.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import sharp from 'sharp';
import { inspectPdf } from '../../../src/modules/deeds/pipeline/inspect.ts';
import { typesetPdf } from '../../helpers/deed-scans.ts';

const deedText = (n: number) => `Page ${n}. THIS DEED OF SETTLEMENT is made by the Settlor and Whitfield Nominees Pty Ltd ACN 004 085 616 as trustee. `.repeat(20);

describe('inspecting an uploaded deed', () => {
  let threePages: Buffer;
  before(async () => {
    threePages = await typesetPdf([deedText(1), deedText(2), deedText(3)]);
    // The first call loads pdfjs (about a second); the measured ones below should not pay for it.
    await inspectPdf(threePages);
  });

  it('counts the pages of a born-digital PDF', async () => {
    assert.deepEqual(await inspectPdf(threePages), { ok: true, pageCount: 3 });
  });

  it('counts 150 pages quickly: it parses no page content', async () => {
    const pdf = await typesetPdf(Array.from({ length: 150 }, (_, i) => deedText(i + 1)));
    const started = performance.now();
    assert.deepEqual(await inspectPdf(pdf), { ok: true, pageCount: 150 });
    const ms = performance.now() - started;
    // ~20–80 ms measured; the bound leaves room for a busy CI machine.
    assert.ok(ms < 2000, `${Math.round(ms)} ms`);
  });

  it('refuses a PDF that needs a password to open', async () => {
    const encrypted = await typesetPdf([deedText(1)], { userPassword: 'secret' });
    assert.ok(encrypted.subarray(0, 8).toString('latin1').startsWith('%PDF-'));
    assert.deepEqual(await inspectPdf(encrypted), { ok: false, reason: 'NOT_A_PDF' });
  });

  it('accepts a PDF encrypted with an owner password only: it opens without one', async () => {
    const restricted = await typesetPdf([deedText(1)], { ownerPassword: 'owner' });
    assert.deepEqual(await inspectPdf(restricted), { ok: true, pageCount: 1 });
  });

  it('refuses what is not a PDF: text, an image, nothing, a header with garbage, a PDF cut short', async () => {
    const png = await sharp({ create: { width: 20, height: 20, channels: 3, background: '#fff' } }).png().toBuffer();
    const cases: [string, Buffer][] = [
      ['text', Buffer.from('THIS DEED OF SETTLEMENT is made by …')],
      ['png', png],
      ['empty', Buffer.alloc(0)],
      ['header and garbage', Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(5000, 7)])],
      ['first half', threePages.subarray(0, Math.floor(threePages.length / 2))],
      ['header after 1 024 bytes', Buffer.concat([Buffer.alloc(2000, 0x20), threePages])],
    ];
    for (const [name, bytes] of cases) assert.deepEqual(await inspectPdf(bytes), { ok: false, reason: 'NOT_A_PDF' }, name);
  });

  it('accepts a few bytes before the header, as PDF readers do', async () => {
    assert.deepEqual(await inspectPdf(Buffer.concat([Buffer.from('\r\n\r\n'), threePages])), { ok: true, pageCount: 3 });
  });
});
