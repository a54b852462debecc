// The passport zone reader on generated pages (test/helpers/passport-images.ts): real OCR, so seconds
// rather than milliseconds, and no database, so it runs in one CI pass only (skipped on PostgreSQL's).
// The read rate over many pages is the bench's business (bench/scenarios/mrz-read-rate.ts); these check
// that each kind of page reads, that a wrong check digit is reported and not repaired, and that what is
// no passport comes back `found: false` without an exception.
// test-pass: pglite
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { judgeMrz } from '../../src/modules/verifications/mrz/mrz-check.ts';
import { createMrzReader, type MrzRead } from '../../src/modules/verifications/mrz/mrz-reader.ts';
import { generateOtherPhoto, generatePassport, type PassportCase, type PassportVariant } from '../helpers/passport-images.ts';

// Each test skips (and so is counted as skipped) rather than the suite, whose skip the runner does not count.
const skip = process.env.TEST_DATABASE === 'postgres' ? 'OCR needs no database: it runs in the PGlite pass only' : false;

const reader = createMrzReader();

async function readCase(variant: PassportVariant, seed: number): Promise<{ page: PassportCase; read: MrzRead }> {
  const page = await generatePassport(seed, variant);
  return { page, read: await reader.read(page.image) };
}

function assertReads(page: PassportCase, read: MrzRead) {
  assert.ok(read.found, `${page.variant} (${page.transform}): found`);
  assert.deepEqual(read.lines, page.mrz, `${page.variant} (${page.transform})`);
}

describe('reading a passport’s machine-readable zone', () => {
  after(() => reader.close());

  it('reads a clean page exactly, and it matches what the person entered', { skip }, async () => {
    const { page, read } = await readCase('clean', 1001);
    assertReads(page, read);
    assert.equal(read.found && read.valid, true);
    assert.deepEqual(judgeMrz(read, page.typed).check.code, 'MRZ_VALID_AND_MATCHING');
  });

  it('reads a page photographed at an angle', { skip }, async () => {
    for (const seed of [1002, 1003]) {
      const { page, read } = await readCase('rotated', seed);
      assertReads(page, read);
    }
  });

  it('reads a blurred page, a sheared one and a small phone photo', { skip }, async () => {
    for (const [variant, seed] of [
      ['blurred', 1004],
      ['skewed', 1005],
      ['smallPhone', 1006],
    ] as const) {
      const { page, read } = await readCase(variant, seed);
      assertReads(page, read);
    }
  });

  it('reports a wrong check digit, as printed, instead of repairing it', { skip }, async () => {
    const { page, read } = await readCase('wrongCheckDigit', 1007);
    assertReads(page, read);
    assert.ok(read.found);
    assert.equal(read.valid, false);
    assert.deepEqual(
      Object.entries(read.checkDigits)
        .filter(([, valid]) => !valid)
        .map(([field]) => field),
      page.invalidCheckDigits,
    );
    const { check } = judgeMrz(read, page.typed);
    assert.equal(check.code, 'MRZ_CHECK_DIGIT_INVALID');
    assert.equal(check.result, 'INCONCLUSIVE');
  });

  it('answers found: false for a small photo at once, a large photo of something else, and bytes that are no image', { skip }, async () => {
    const started = performance.now();
    assert.deepEqual(await reader.read(await generateOtherPhoto(1, { width: 100, height: 100 })), { found: false, reason: 'TOO_SMALL' });
    assert.ok(performance.now() - started < 1000, 'no OCR for a thumbnail');
    const other = await reader.read(await generateOtherPhoto(2, { width: 1000, height: 700 }));
    assert.equal(other.found, false);
    assert.deepEqual(await reader.read({ contentType: 'image/jpeg', bytes: Buffer.from('not a jpeg at all') }), { found: false, reason: 'UNREADABLE_IMAGE' });
    const page = await generatePassport(1008, 'clean');
    assert.deepEqual(await reader.read({ contentType: 'image/jpeg', bytes: page.image.bytes.subarray(0, 2000) }), { found: false, reason: 'UNREADABLE_IMAGE' });
  });

  it('reads one image at a time: reads asked for together all answer, each its own', { skip }, async () => {
    const pages = await Promise.all([1009, 1010].map((seed) => generatePassport(seed, 'clean')));
    const reads = await Promise.all(pages.map((p) => reader.read(p.image)));
    reads.forEach((read, i) => assertReads(pages[i]!, read));
  });

  it('closes safely before any read, twice, and answers READER_CLOSED after', { skip }, async () => {
    const unused = createMrzReader();
    await unused.close();
    await unused.close();
    const page = await generatePassport(1011, 'clean');
    assert.deepEqual(await unused.read(page.image), { found: false, reason: 'READER_CLOSED' });
  });
});
