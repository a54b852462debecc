// Operator passwords: the one-time password `pvs operator create` prints, and what a new password must be.
import { randomInt } from 'node:crypto';

/** Letters and digits without the ones that read alike (0/O/o, 1/l/I), so a password can be read out. */
export const oneTimePasswordAlphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnpqrstuvwxyz23456789';
/** 20 characters of 56: about 116 bits, far beyond guessing within the lockout's limits. */
export const oneTimePasswordLength = 20;

export const newPasswordMinLength = 12;
export const passwordMaxLength = 200;

/** A one-time password drawn uniformly from the alphabet (randomInt has no modulo bias). */
export function generateOneTimePassword(random: (max: number) => number = randomInt): string {
  let password = '';
  for (let i = 0; i < oneTimePasswordLength; i++) password += oneTimePasswordAlphabet[random(oneTimePasswordAlphabet.length)];
  return password;
}
