import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { operatorTokenLifetimeSeconds } from '../operators/operator-tokens.ts';
import { isPublished, publishLeadSeconds, reloadSeconds, retireAfterSeconds, signingKeyAt, tokenLifetimeLimitSeconds, type KeyTimes } from './signing-keys.ts';
import { tokenLifetimeSeconds } from './tokens.service.ts';

const at = (minutes: number) => new Date(Date.UTC(2026, 0, 1, 0, minutes));

// Newest first, as loaded: k0 made first; k1 replaced it (signing from minute 10); k2 about to sign (minute 100).
const keys: KeyTimes[] = [
  { kid: 'k2', signsFrom: at(100), retiresAt: null },
  { kid: 'k1', signsFrom: at(10), retiresAt: at(100 + 65) },
  { kid: 'k0', signsFrom: at(0), retiresAt: at(10 + 65) },
];

describe('signingKeyAt', () => {
  it('is the newest key whose signsFrom has come', () => {
    assert.equal(signingKeyAt(keys, at(5))?.kid, 'k0');
    assert.equal(signingKeyAt(keys, at(10))?.kid, 'k1');
    assert.equal(signingKeyAt(keys, at(99))?.kid, 'k1');
    assert.equal(signingKeyAt(keys, at(100))?.kid, 'k2');
  });

  it('never signs with a key that has left, and with the oldest left when the clock is behind them all', () => {
    assert.equal(signingKeyAt(keys, at(-5))?.kid, 'k0');
    assert.equal(signingKeyAt([keys[0]!, keys[1]!], at(5))?.kid, 'k1');
    assert.equal(signingKeyAt(keys, at(1000))?.kid, 'k2');
  });
});

describe('isPublished', () => {
  it('holds until retiresAt, not at it; always for the newest key', () => {
    assert.equal(isPublished(keys[2]!, at(74)), true);
    assert.equal(isPublished(keys[2]!, at(75)), false);
    assert.equal(isPublished(keys[0]!, at(1_000_000)), true);
  });
});

describe('the rotation times', () => {
  it('hold every token of the keys: no issuer signs a token that outlives the retirement rule', () => {
    assert.ok(tokenLifetimeSeconds <= tokenLifetimeLimitSeconds, 'partner tokens');
    assert.ok(operatorTokenLifetimeSeconds <= tokenLifetimeLimitSeconds, 'operator tokens');
    assert.equal(retireAfterSeconds, tokenLifetimeLimitSeconds + 300);
  });

  it('publish a key for longer than a node goes without reading the keys, before it signs', () => {
    assert.ok(publishLeadSeconds > reloadSeconds);
  });
});
