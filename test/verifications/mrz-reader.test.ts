// The MRZ reader on generated passport pages (OCR: slow and independent of the database, so it runs in
// the PGlite pass only): clean and photographed pages read with valid check digits; a wrong check digit
// is found, not fixed; a photo that is no passport page, or no image at all, answers found: false.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { allValid } from '../../src/modules/verifications/mrz/icao9303.ts';
import { createMrzReader } from '../../src/modules/verifications/mrz/mrz-reader.ts';
import { generatePassport } from '../helpers/passport-images.ts';
import { photo } from '../helpers/verifications.ts';

const skip = process.env.TEST_DATABASE === 'postgres' ? 'OCR does not depend on the database: it runs in the PGlite pass' : false;
const reader = createMrzReader();
after(() => reader.close());

describe('the MRZ reader', () => {
  it('reads clean, turned and small pages with every check digit valid', { skip }, async () => {
    let read = 0;
    for (const [seed, variant] of [[1003, 'clean'], [1005, 'clean'], [1000, 'sheared'], [1001, 'smallPhone']] as const) {
      const page = await generatePassport(seed, variant);
      const result = await reader.read(page.image);
      if (result.found && allValid(result.td3) && result.td3.lines[1] === page.lines[1]) read += 1;
    }
    assert.ok(read >= 3, `${read} of 4 read`);
  });

  it('finds a wrong check digit and leaves it wrong', { skip }, async () => {
    const page = await generatePassport(1003, 'wrongCheckDigit');
    const result = await reader.read(page.image);
    assert.ok(result.found);
    const invalid = result.td3.checkDigits.filter((c) => !c.valid).map((c) => c.field);
    assert.ok(invalid.includes('dateOfBirth') && invalid.includes('composite'), invalid.join(', '));
  });

  it('answers found: false for a photo that is no passport page, and for bytes that are no image', { skip }, async () => {
    assert.deepEqual(await reader.read({ contentType: 'image/jpeg', bytes: photo().bytes }), { found: false, reason: 'too_small' });
    assert.deepEqual(await reader.read({ contentType: 'image/png', bytes: Buffer.from('not a picture') }), { found: false, reason: 'not_an_image' });
  });
});
