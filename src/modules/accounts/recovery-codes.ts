// Recovery codes: ten per enrolment, for when the phone with the authenticator app is lost. Each is 12
// characters of an alphabet without look-alikes (about 59 bits), shown once in groups of four, and
// stored only as an HMAC (the key ring's digest, platform/keys): random codes this long need no slow hash.
// A code works once.
import { randomInt } from 'node:crypto';
import type { Digester } from '../../platform/keys/key-ring.ts';

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

/** The stored form of a code: a digest of its normalised text, so `ABCD EFGH JKMN` finds `abcd-efgh-jkmn`. */
export function hashRecoveryCode(digester: Pick<Digester, 'digest'>, code: string): string | undefined {
  const normalised = normaliseRecoveryCode(code);
  return normalised && digester.digest(`recovery-code:${normalised}`);
}

/** Every stored form a typed code may have (under each key of the ring); none for what is not a code. */
export function recoveryCodeCandidates(digester: Pick<Digester, 'candidates'>, typed: string): string[] {
  const normalised = normaliseRecoveryCode(typed);
  return normalised ? digester.candidates(`recovery-code:${normalised}`) : [];
}
