import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkTotp, groupedSecret, newTotpSecret, totpCodeAt, totpCodeOf, totpPeriodSeconds, totpUri } from './totp.ts';

// RFC 6238's SHA-1 test secret ("12345678901234567890"), base32.
const rfcSecret = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';
const step = totpPeriodSeconds * 1000;

describe('TOTP', () => {
  it('computes RFC 6238’s SHA-1 test vectors (the last 6 digits)', () => {
    assert.equal(totpCodeAt(rfcSecret, new Date(59_000)), '287082');
    assert.equal(totpCodeAt(rfcSecret, new Date(1_111_111_109_000)), '081804');
    assert.equal(totpCodeAt(rfcSecret, new Date(2_000_000_000_000)), '279037');
  });

  it('accepts the current step and one step either side, and nothing further', () => {
    const secret = newTotpSecret();
    const at = new Date(1_700_000_000_000);
    const current = Math.floor(at.getTime() / step);
    for (const offset of [-1, 0, 1]) {
      const code = totpCodeAt(secret, new Date(at.getTime() + offset * step));
      assert.deepEqual(checkTotp({ secret, code, at, lastStep: null }), { ok: true, step: current + offset }, `offset ${offset}`);
    }
    for (const offset of [-2, 2]) {
      const code = totpCodeAt(secret, new Date(at.getTime() + offset * step));
      assert.deepEqual(checkTotp({ secret, code, at, lastStep: null }), { ok: false, reason: 'WRONG' }, `offset ${offset}`);
    }
  });

  it('refuses a code whose step is not after the last accepted one (a replay), and accepts the next', () => {
    const secret = newTotpSecret();
    const at = new Date(1_700_000_000_000);
    const first = checkTotp({ secret, code: totpCodeAt(secret, at), at, lastStep: null });
    assert.equal(first.ok, true);
    const lastStep = first.ok ? first.step : 0;
    assert.deepEqual(checkTotp({ secret, code: totpCodeAt(secret, at), at: new Date(at.getTime() + 10_000), lastStep }), { ok: false, reason: 'REPLAYED' });
    // An earlier step's code, still inside the window, is as spent as the one used.
    assert.deepEqual(checkTotp({ secret, code: totpCodeAt(secret, new Date(at.getTime() - step)), at, lastStep }), { ok: false, reason: 'REPLAYED' });
    const later = new Date(at.getTime() + step);
    assert.deepEqual(checkTotp({ secret, code: totpCodeAt(secret, later), at: later, lastStep }), { ok: true, step: lastStep + 1 });
  });

  it('reads a code typed with a space or a hyphen in the middle; refuses anything but six digits', () => {
    assert.equal(totpCodeOf(' 123 456 '), '123456');
    assert.equal(totpCodeOf('123-456'), '123456');
    for (const typed of ['12345', '1234567', 'abcdef', '', '１２３４５６']) assert.equal(totpCodeOf(typed), undefined, typed);
    const secret = newTotpSecret();
    assert.deepEqual(checkTotp({ secret, code: 'not a code', at: new Date(), lastStep: null }), { ok: false, reason: 'WRONG' });
  });

  it('makes 160-bit base32 secrets, an otpauth address for the QR code, and groups of four for typing', () => {
    const secret = newTotpSecret();
    assert.match(secret, /^[A-Z2-7]{32}$/);
    assert.notEqual(newTotpSecret(), secret);
    const uri = new URL(totpUri(secret, { issuer: 'PVS sandbox', label: 'ana@pvs.test' }));
    assert.equal(uri.protocol, 'otpauth:');
    assert.equal(uri.searchParams.get('secret'), secret);
    assert.equal(uri.searchParams.get('issuer'), 'PVS sandbox');
    assert.equal(uri.searchParams.get('period'), '30');
    assert.equal(groupedSecret('ABCDEFGHIJ'), 'ABCD EFGH IJ');
  });
});
