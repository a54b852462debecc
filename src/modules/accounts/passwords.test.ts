import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { generateOneTimePassword, oneTimePasswordAlphabet, oneTimePasswordLength } from './passwords.ts';

describe('generateOneTimePassword', () => {
  it('is 20 characters of the unambiguous alphabet', () => {
    for (let i = 0; i < 50; i++) {
      const password = generateOneTimePassword();
      assert.equal(password.length, oneTimePasswordLength);
      assert.match(password, /^[A-HJ-NP-Za-km-np-z2-9]{20}$/);
    }
    assert.doesNotMatch(oneTimePasswordAlphabet, /[0O1lIo]/);
  });

  it('differs each time', () => {
    const seen = new Set(Array.from({ length: 200 }, () => generateOneTimePassword()));
    assert.equal(seen.size, 200);
  });

  it('uses every character of the alphabet, the random source deciding which', () => {
    let next = 0;
    const password = generateOneTimePassword(() => next++ % oneTimePasswordAlphabet.length);
    assert.equal(password, oneTimePasswordAlphabet.slice(0, oneTimePasswordLength));
  });
});
