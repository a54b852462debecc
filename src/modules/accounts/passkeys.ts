// Passkeys (WebAuthn, @simplewebauthn/server, loaded at the first use): a second factor beside the
// authenticator app. The browser's authenticator (a phone, a laptop's fingerprint reader, a security key)
// signs a challenge PVS chose; PVS keeps only the public key and the signature count. A challenge is
// signed for PVS's own origin and relying-party id (PUBLIC_BASE_URL), so a look-alike site cannot use it.
// The web session holds the challenge (web/session); the rules here: the first factor an account
// enrols, passkey or app, brings its ten recovery codes; a refused passkey counts toward the lockout like
// a wrong code; a count that went backwards is refused (a cloned authenticator); the last factor is
// never removed from a page (a reset is an administrator's: `pvs operator reset-mfa`).
import type { AuthenticatorTransport, PublicKeyCredentialCreationOptionsJSON, PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/server';
import type { Clock } from '../../platform/clock.ts';
import type { Database, Executor } from '../../platform/db/database.ts';
import { newId } from '../../platform/ids.ts';
import type { Logger } from '../../platform/logger.ts';
import { findAccountById, type AccountTable } from './accounts.repository.ts';
import type { PasswordAccounts } from './password-accounts.ts';
import * as repo from './passkeys.repository.ts';

/** Who the passkeys are for: PUBLIC_BASE_URL's host and origin, and the name an authenticator shows. */
export interface RelyingParty {
  id: string;
  name: string;
  origin: string;
}

/**
 * 'preferred', not 'required': the passkey follows a password, so holding the authenticator is the second
 * factor; requiring a PIN or fingerprint on it too would turn away the security keys that have neither.
 */
const userVerification = 'preferred';
/** How long the browser waits for the person, and how long the challenge is kept for (web/session). */
export const passkeyTimeoutSeconds = 300;
const nameMaxLength = 60;

export interface PasskeySummary {
  id: string;
  name: string;
  createdAt: Date;
  lastUsedAt: Date | null;
}

export type PasskeyRegistration =
  | { ok: true; passkey: PasskeySummary; firstFactor: true; recoveryCodes: string[] }
  | { ok: true; passkey: PasskeySummary; firstFactor: false }
  | { ok: false; reason: 'REFUSED' | 'REGISTERED' };

export type PasskeyCheck = { ok: true; method: 'PASSKEY'; passkeyId: string } | { ok: false; reason: 'WRONG' | 'NOT_ENROLLED' };

/** A name for a passkey as typed: trimmed, one line, not too long; a default when empty. */
export function passkeyNameOf(typed: string | undefined): string {
  const name = (typed ?? '').replace(/\s+/g, ' ').trim().slice(0, nameMaxLength);
  return name || 'Passkey';
}

/** The browser's answer as the form carried it (JSON text); undefined when it is not even that. */
export function credentialResponseOf(text: string | undefined): Record<string, unknown> | undefined {
  if (!text) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
    const { id, response } = value as { id?: unknown; response?: unknown };
    return typeof id === 'string' && id.length > 0 && id.length <= 1400 && typeof response === 'object' && response !== null ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

const summaryOf = (row: repo.PasskeyRow): PasskeySummary => ({ id: row.id, name: row.name, createdAt: row.created_at, lastUsedAt: row.last_used_at });
const webauthn = () => import('@simplewebauthn/server');

export function createPasskeys(deps: {
  db: Database;
  clock: Clock;
  logger: Logger;
  table: AccountTable;
  accounts: Pick<PasswordAccounts, 'recordFailure' | 'refuseIfLocked' | 'completeSignIn'>;
  relyingParty: RelyingParty;
  /** Issues the account's ten recovery codes (second-factors.ts), in the enrolment's transaction. */
  newRecoveryCodes(executor: Executor, accountId: string, at: Date): Promise<string[]>;
}) {
  const { db, clock, logger, table, relyingParty } = deps;
  const idField = table === 'operators' ? 'operatorId' : 'portalUserId';
  const transportsOf = (row: repo.PasskeyRow) => row.transports as AuthenticatorTransport[];

  return {
    list: async (accountId: string): Promise<PasskeySummary[]> => (await repo.listPasskeys(db, accountId)).map(summaryOf),

    /** What the browser needs to make a passkey; its challenge is the caller's to keep (the web session). */
    async registrationOptions(account: { id: string; email: string }): Promise<PublicKeyCredentialCreationOptionsJSON> {
      const existing = await repo.listPasskeys(db, account.id);
      const { generateRegistrationOptions } = await webauthn();
      return generateRegistrationOptions({
        rpName: relyingParty.name,
        rpID: relyingParty.id,
        userName: account.email,
        userID: new TextEncoder().encode(account.id),
        attestationType: 'none',
        timeout: passkeyTimeoutSeconds * 1000,
        // The same authenticator twice would be no second passkey at all.
        excludeCredentials: existing.map((row) => ({ id: row.credential_id, transports: transportsOf(row) })),
        authenticatorSelection: { residentKey: 'preferred', userVerification },
      });
    },

    /**
     * Checks the browser's new passkey against the challenge it was given, and keeps it. The account's
     * first factor (no app, no passkey yet) comes with its ten recovery codes, answered this once.
     */
    async register(accountId: string, input: { response: string | undefined; challenge: string | undefined; name: string | undefined }): Promise<PasskeyRegistration> {
      const response = credentialResponseOf(input.response);
      if (!response || !input.challenge) return { ok: false, reason: 'REFUSED' };
      const { verifyRegistrationResponse } = await webauthn();
      let verified;
      try {
        verified = await verifyRegistrationResponse({
          response: response as unknown as Parameters<typeof verifyRegistrationResponse>[0]['response'],
          expectedChallenge: input.challenge,
          expectedOrigin: relyingParty.origin,
          expectedRPID: relyingParty.id,
          requireUserVerification: false,
        });
      } catch (error) {
        // The library throws for every answer it refuses (wrong origin, challenge, malformed data).
        logger.info({ [idField]: accountId, reason: (error as Error).message }, 'passkey registration refused');
        return { ok: false, reason: 'REFUSED' };
      }
      if (!verified.verified) return { ok: false, reason: 'REFUSED' };
      const { credential } = verified.registrationInfo;
      const now = clock.now();
      const row = { id: newId('passkey', now.getTime()), accountId, credentialId: credential.id, publicKey: credential.publicKey, counter: credential.counter, transports: credential.transports ?? [], name: passkeyNameOf(input.name), at: now };
      const done = await db.transaction(async (tx) => {
        // Locked: two first passkeys at once issue one set of recovery codes.
        const account = await findAccountById(tx, table, accountId, { lock: true });
        if (!account || !(await repo.insertPasskey(tx, row))) return undefined;
        return account.second_factor_enrolled_at ? { recoveryCodes: undefined } : { recoveryCodes: await deps.newRecoveryCodes(tx, accountId, now) };
      });
      if (!done) return { ok: false, reason: 'REGISTERED' };
      logger.info({ [idField]: accountId, passkeyId: row.id, firstFactor: Boolean(done.recoveryCodes) }, 'passkey registered');
      const passkey: PasskeySummary = { id: row.id, name: row.name, createdAt: now, lastUsedAt: null };
      return done.recoveryCodes ? { ok: true, passkey, firstFactor: true, recoveryCodes: done.recoveryCodes } : { ok: true, passkey, firstFactor: false };
    },

    /** What the browser needs to sign in with one of the account's passkeys; undefined when it has none. */
    async authenticationOptions(accountId: string): Promise<PublicKeyCredentialRequestOptionsJSON | undefined> {
      const rows = await repo.listPasskeys(db, accountId);
      if (rows.length === 0) return undefined;
      const { generateAuthenticationOptions } = await webauthn();
      return generateAuthenticationOptions({
        rpID: relyingParty.id,
        allowCredentials: rows.map((row) => ({ id: row.credential_id, transports: transportsOf(row) })),
        userVerification,
        timeout: passkeyTimeoutSeconds * 1000,
      });
    },

    /**
     * Checks a passkey's signature after the password (or for a step-up), as second-factors.ts's verify
     * checks a code: RATE_LIMITED thrown while the account is locked; a refusal counts as a failed sign-in;
     * a right one completes it. Only the account's own passkeys are looked at: another's is WRONG.
     */
    async verify(accountId: string, input: { response: string | undefined; challenge: string | undefined }): Promise<PasskeyCheck> {
      await deps.accounts.refuseIfLocked(accountId);
      if ((await repo.countPasskeys(db, accountId)) === 0) return { ok: false, reason: 'NOT_ENROLLED' };
      const result = await check(accountId, input);
      if (result.ok) await deps.accounts.completeSignIn(accountId);
      else await deps.accounts.recordFailure(accountId);
      logger.info({ [idField]: accountId, ok: result.ok, ...(result.ok ? { method: result.method, passkeyId: result.passkeyId } : { reason: result.reason }) }, 'second factor checked');
      return result;
    },

    /** Removes one of the account's passkeys, unless it is the account's last second factor. */
    async remove(accountId: string, passkeyId: string): Promise<{ ok: true; passkey: PasskeySummary } | { ok: false; reason: 'NOT_FOUND' | 'LAST_FACTOR' }> {
      const outcome = await db.transaction(async (tx) => {
        const account = await findAccountById(tx, table, accountId, { lock: true });
        const removed = account && (await repo.deletePasskey(tx, accountId, passkeyId));
        if (!removed) return { ok: false as const, reason: 'NOT_FOUND' as const };
        if (!account.totp_enrolled_at && (await repo.countPasskeys(tx, accountId)) === 0) throw new LastFactor();
        return { ok: true as const, passkey: summaryOf(removed) };
      }).catch((error: unknown) => {
        if (error instanceof LastFactor) return { ok: false as const, reason: 'LAST_FACTOR' as const };
        throw error;
      });
      if (outcome.ok) logger.info({ [idField]: accountId, passkeyId }, 'passkey removed');
      return outcome;
    },
  };

  async function check(accountId: string, input: { response: string | undefined; challenge: string | undefined }): Promise<PasskeyCheck> {
    const response = credentialResponseOf(input.response);
    if (!response || !input.challenge) return { ok: false, reason: 'WRONG' };
    const row = await repo.findPasskeyByCredential(db, accountId, response.id as string);
    if (!row) return { ok: false, reason: 'WRONG' };
    const { verifyAuthenticationResponse } = await webauthn();
    const previousCounter = Number(row.counter);
    let verified;
    try {
      // The library refuses a count not above the stored one when either is non-zero (a cloned authenticator).
      verified = await verifyAuthenticationResponse({
        response: response as unknown as Parameters<typeof verifyAuthenticationResponse>[0]['response'],
        expectedChallenge: input.challenge,
        expectedOrigin: relyingParty.origin,
        expectedRPID: relyingParty.id,
        credential: { id: row.credential_id, publicKey: new Uint8Array(row.public_key), counter: previousCounter, transports: transportsOf(row) },
        requireUserVerification: false,
      });
    } catch (error) {
      logger.info({ [idField]: accountId, passkeyId: row.id, reason: (error as Error).message }, 'passkey refused');
      return { ok: false, reason: 'WRONG' };
    }
    if (!verified.verified) return { ok: false, reason: 'WRONG' };
    // Another request signed with the same count first.
    const recorded = await repo.recordUse(db, row.id, { previousCounter, counter: verified.authenticationInfo.newCounter, at: clock.now() });
    return recorded ? { ok: true, method: 'PASSKEY', passkeyId: row.id } : { ok: false, reason: 'WRONG' };
  }
}

/** Thrown inside the removal's transaction to undo it. */
class LastFactor extends Error {}

export type Passkeys = ReturnType<typeof createPasskeys>;
