import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadConfig } from '../../config.ts';
import { createSealer, deriveKey } from '../crypto.ts';
import { createKeyRing, keyIdOf, sealedBytesKeyId, sealedKeyId, UnknownKeyError } from './key-ring.ts';

const a = 'a'.repeat(40);
const b = 'b'.repeat(40);

describe('the key ring', () => {
  it('names each key by a fingerprint that is not the key', () => {
    assert.match(keyIdOf(a), /^k[0-9a-f]{12}$/);
    assert.notEqual(keyIdOf(a), keyIdOf(b));
    assert.ok(!keyIdOf(a).includes('aaaa'));
  });

  it('seals under the current key, recording its id, and opens under a ring that lists it as previous', () => {
    const sealed = createKeyRing(a).sealer('p').seal('Jane Citizen 1980-02-01');
    assert.equal(sealedKeyId(sealed), keyIdOf(a));
    const rotated = createKeyRing(b, [a]);
    assert.equal(rotated.sealer('p').open(sealed), 'Jane Citizen 1980-02-01');
    // New values are sealed under the new key.
    assert.equal(sealedKeyId(rotated.sealer('p').seal('x')), keyIdOf(b));
  });

  it('refuses a value under a key no longer configured, naming the key id', () => {
    const sealed = createKeyRing(a).sealer('p').seal('x');
    assert.throws(
      () => createKeyRing(b).sealer('p').open(sealed),
      (error) => error instanceof UnknownKeyError && error.keyId === keyIdOf(a) && error.message.includes(keyIdOf(a)),
    );
  });

  it('keeps purposes apart: a value sealed for one purpose does not open as another', () => {
    const ring = createKeyRing(a);
    assert.throws(() => ring.sealer('q').open(ring.sealer('p').seal('x')));
  });

  it('opens values sealed before the ring (v1, no key id) under the current or a previous key', () => {
    const legacy = createSealer(deriveKey(a, 'p')).seal('older');
    assert.equal(sealedKeyId(legacy), null);
    assert.equal(createKeyRing(a).sealer('p').open(legacy), 'older');
    assert.equal(createKeyRing(b, [a]).sealer('p').open(legacy), 'older');
    assert.throws(() => createKeyRing(b).sealer('p').open(legacy));
  });

  it('seals bytes with their context as associated data, recording the key id', () => {
    const ring = createKeyRing(a);
    const sealed = ring.sealer('p').sealBytes(Buffer.from('image bytes'), 'step-1:front');
    assert.equal(sealedBytesKeyId(sealed), keyIdOf(a));
    assert.equal(createKeyRing(b, [a]).sealer('p').openBytes(sealed, 'step-1:front').toString(), 'image bytes');
    assert.throws(() => ring.sealer('p').openBytes(sealed, 'step-2:front'), 'moved to another row, it does not open');
    assert.throws(() => createKeyRing(b).sealer('p').openBytes(sealed, 'step-1:front'), UnknownKeyError);
  });
});

describe('PREVIOUS_SECRET_KEYS', () => {
  const load = (previous: string) => loadConfig({ SECRET_KEY: a, PREVIOUS_SECRET_KEYS: previous, DATA_DIR: '/nonexistent' });
  it('lists the earlier keys, comma-separated', () => {
    assert.deepEqual(load(`${b},${'c'.repeat(32)}`).PREVIOUS_SECRET_KEYS, [b, 'c'.repeat(32)]);
    assert.deepEqual(loadConfig({ SECRET_KEY: a, DATA_DIR: '/nonexistent' }).PREVIOUS_SECRET_KEYS, []);
  });
  it('refuses SECRET_KEY itself, a key twice, and a key shorter than 32 characters', () => {
    assert.throws(() => load(`${b},${a}`), /PREVIOUS_SECRET_KEYS: holds SECRET_KEY itself/);
    assert.throws(() => load(`${b},${b}`), /PREVIOUS_SECRET_KEYS: lists a key twice/);
    assert.throws(() => load(`${b},short`), /PREVIOUS_SECRET_KEYS: invalid value/);
  });
});

it('an invalid key is refused without being shown', () => {
  const secret = 'not-long-enough-secret';
  assert.throws(
    () => loadConfig({ SECRET_KEY: a, PREVIOUS_SECRET_KEYS: secret, DATA_DIR: '/nonexistent' }),
    (error: Error) => error.message.startsWith('PREVIOUS_SECRET_KEYS: invalid value (not shown: it is a secret)') && !error.message.includes(secret),
  );
  assert.throws(() => loadConfig({ SECRET_KEY: secret, DATA_DIR: '/nonexistent' }), (error: Error) => !error.message.includes(secret));
});
