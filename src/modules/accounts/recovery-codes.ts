// Recovery codes: ten per enrolment, for when the phone with the authenticator app is lost. Each is 12
// characters of an alphabet without look-alikes (about 59 bits), shown once in groups of four, and
// stored only as an HMAC: random codes this long need no slow hash. A code works once.
import { randomInt } from 'node:crypto';
import { hmacHex } from '../../platform/crypto.ts';

export const recoveryCodeCount = 10;
/** Lower-case letters and digits without the ones that read alike (0/o, 1/l/i). */
export const recoveryCodeAlphabet = 'abcdefghjkmnpqrstuvwxyz23456789';
const codeLength = 12;

/** A new code as shown: `abcd-efgh-jkmn`. */
export function generateRecoveryCode(random: (max: number) => number = randomInt): string {
  let code = '';
  for (let i = 0; i < codeLength; i++) code += recoveryCodeAlphabet[random(recoveryCodeAlphabet.length)];
  return code.replace(/(.{4})(?=.)/g, '$1-');
}

/** What a person typed, as it was generated: any case, with or without the hyphens or spaces. */
export function normaliseRecoveryCode(typed: string): string | undefined {
  const code = typed.toLowerCase().replace(/[\s-]/g, '');
  return code.length === codeLength && [...code].every((c) => recoveryCodeAlphabet.includes(c)) ? code : undefined;
}

/** The stored form of a code: an HMAC of its normalised text, so `ABCD EFGH JKMN` finds `abcd-efgh-jkmn`. */
export function hashRecoveryCode(key: Buffer, code: string): string | undefined {
  const normalised = normaliseRecoveryCode(code);
  return normalised && hmacHex(key, `recovery-code:${normalised}`);
}
