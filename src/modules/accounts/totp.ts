// Time-based one-time passwords (RFC 6238) as authenticator apps make them: SHA-1, 6 digits, 30-second
// steps. Pure, so the rules are tested without a database (totp.test.ts): a code of the current step or
// the one either side is accepted (a phone's clock may be a little off), and only once: a code whose step
// is not after the last accepted step is refused, so a code seen over a shoulder cannot be used again.
import { Secret, TOTP } from 'otpauth';

export const totpDigits = 6;
export const totpPeriodSeconds = 30;
/** Steps either side of the current one that are still accepted. */
export const totpWindow = 1;

export type TotpCheck = { ok: true; step: number } | { ok: false; reason: 'WRONG' | 'REPLAYED' };

const totpOf = (secret: string, labels: { issuer?: string; label?: string } = {}) =>
  new TOTP({ ...labels, secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: totpDigits, period: totpPeriodSeconds });

/** A new random secret, base32 (160 bits, as RFC 4226 recommends). */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** The `otpauth://totp/…` address a QR code carries to an authenticator app. */
export function totpUri(secret: string, labels: { issuer: string; label: string }): string {
  return totpOf(secret, labels).toString();
}

/** The secret as a person types it: groups of four. */
export function groupedSecret(secret: string): string {
  return secret.replace(/(.{4})(?=.)/g, '$1 ');
}

/** A typed code, without the spaces an app shows in the middle of it; undefined unless it is 6 digits. */
export function totpCodeOf(typed: string): string | undefined {
  const code = typed.replace(/[\s-]/g, '');
  return /^\d{6}$/.test(code) ? code : undefined;
}

/** Whether `code` is the secret's code at `at` (± one step) and newer than the last accepted step. */
export function checkTotp(input: { secret: string; code: string; at: Date; lastStep: number | null }): TotpCheck {
  const code = totpCodeOf(input.code);
  if (!code) return { ok: false, reason: 'WRONG' };
  const totp = totpOf(input.secret);
  const timestamp = input.at.getTime();
  const delta = totp.validate({ token: code, timestamp, window: totpWindow });
  if (delta === null) return { ok: false, reason: 'WRONG' };
  const step = totp.counter({ timestamp }) + delta;
  if (input.lastStep !== null && step <= input.lastStep) return { ok: false, reason: 'REPLAYED' };
  return { ok: true, step };
}

/** The code an app shows at `at` (the tests' authenticator app, and nothing else in PVS needs it). */
export function totpCodeAt(secret: string, at: Date): string {
  return totpOf(secret).generate({ timestamp: at.getTime() });
}
