import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createKeyRing } from '../../platform/keys/key-ring.ts';
import { generateRecoveryCode, hashRecoveryCode, normaliseRecoveryCode, recoveryCodeAlphabet, recoveryCodeCandidates } from './recovery-codes.ts';

describe('recovery codes', () => {
  it('are three groups of four characters without look-alikes, different each time', () => {
    const codes = new Set(Array.from({ length: 200 }, () => generateRecoveryCode()));
    assert.equal(codes.size, 200);
    for (const code of codes) assert.match(code, /^[a-hjkmnp-z2-9]{4}-[a-hjkmnp-z2-9]{4}-[a-hjkmnp-z2-9]{4}$/);
    assert.doesNotMatch(recoveryCodeAlphabet, /[01ilo]/);
  });

  it('are found however they are typed: any case, with spaces or without hyphens', () => {
    const key = createKeyRing('a test key of at least thirty-two characters').digester('mfa-recovery-codes');
    const code = generateRecoveryCode();
    const stored = hashRecoveryCode(key, code);
    for (const typed of [code.toUpperCase(), code.replace(/-/g, ''), code.replace(/-/g, ' '), ` ${code} `]) assert.equal(hashRecoveryCode(key, typed), stored, typed);
    assert.equal(normaliseRecoveryCode('abcd-efgh-jkm'), undefined, 'too short');
    assert.equal(normaliseRecoveryCode('abcd-efgh-jkm0'), undefined, 'not of the alphabet');
    assert.notEqual(hashRecoveryCode(createKeyRing('another key of at least thirty-two characters').digester('mfa-recovery-codes'), code), stored, 'keyed');
    // After a rotation the code is looked for under the previous key too.
    const rotated = createKeyRing('another key of at least thirty-two characters', ['a test key of at least thirty-two characters']).digester('mfa-recovery-codes');
    assert.ok(recoveryCodeCandidates(rotated, code.toUpperCase()).includes(stored!));
  });
});
