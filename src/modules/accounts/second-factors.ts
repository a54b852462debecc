// Second factors of password accounts (operators and portal users): an authenticator app (TOTP,
// totp.ts), passkeys (passkeys.ts), and ten recovery codes (recovery-codes.ts) issued with the first of them. One service per account table, made by the
// accounts module, which holds the keys. The secret is sealed at rest and shown once, at enrolment; a
// code is accepted once; a wrong code counts toward the account's lockout like a wrong password.
import type { Clock } from '../../platform/clock.ts';
import type { Database } from '../../platform/db/database.ts';
import type { Logger } from '../../platform/logger.ts';
import type { AccountTable } from './accounts.repository.ts';
import type { PasswordAccounts } from './password-accounts.ts';
import { generateRecoveryCode, hashRecoveryCode, recoveryCodeCandidates, recoveryCodeCount } from './recovery-codes.ts';
import type { Digester } from '../../platform/keys/key-ring.ts';
import { createPasskeys, type RelyingParty } from './passkeys.ts';
import { deletePasskeys } from './passkeys.repository.ts';
import * as repo from './second-factors.repository.ts';
import { checkTotp, newTotpSecret, totpCodeOf, totpUri } from './totp.ts';

export interface Sealer {
  seal(plaintext: string): string;
  open(sealed: string): string;
}

/** What the enrolment page shows: the secret as text, and the address its QR code carries. */
export interface Enrolment {
  secret: string;
  uri: string;
}

export type SecondFactorCheck =
  | { ok: true; method: 'TOTP' }
  | { ok: true; method: 'RECOVERY_CODE'; recoveryCodesLeft: number }
  | { ok: false; reason: 'WRONG' | 'REPLAYED' | 'NOT_ENROLLED' };

export function createSecondFactors(deps: {
  db: Database;
  clock: Clock;
  logger: Logger;
  table: AccountTable;
  accounts: Pick<PasswordAccounts, 'recordFailure' | 'refuseIfLocked' | 'completeSignIn' | 'byEmail'>;
  sealer: Sealer;
  /** Digests of recovery codes (platform/keys). */
  recoveryCodes: Digester;
  /** The name the authenticator app shows above the code. */
  issuer: string;
  /** PVS as the passkeys know it (PUBLIC_BASE_URL). */
  relyingParty: RelyingParty;
}) {
  const { db, clock, logger, table, sealer } = deps;
  const idField = table === 'operators' ? 'operatorId' : 'portalUserId';

  async function newRecoveryCodes(executor: Parameters<typeof repo.replaceRecoveryCodes>[0], accountId: string, at: Date): Promise<string[]> {
    const codes = Array.from({ length: recoveryCodeCount }, () => generateRecoveryCode());
    await repo.replaceRecoveryCodes(executor, accountId, codes.map((c) => hashRecoveryCode(deps.recoveryCodes, c)!), at);
    return codes;
  }

  const hasFactor = (row: repo.FactorRow) => Boolean(row.totp_enrolled_at) || Number(row.passkeys) > 0;

  return {
    passkeys: createPasskeys({ db, clock, logger, table, accounts: deps.accounts, relyingParty: deps.relyingParty, newRecoveryCodes }),

    /**
     * The secret to enrol: the one already shown if it was not confirmed yet (a reload must not change the
     * QR code someone has just scanned), else a new one. Undefined once the account has a factor (an app
     * or a passkey): adding an app then would be a second enrolment, with new recovery codes.
     */
    async enrolment(account: { id: string; email: string }): Promise<Enrolment | undefined> {
      const row = await repo.findFactor(db, table, account.id);
      if (!row || hasFactor(row)) return undefined;
      let secret = row.totp_pending_sealed ? sealer.open(row.totp_pending_sealed) : undefined;
      if (!secret) {
        secret = newTotpSecret();
        await repo.setPendingSecret(db, table, account.id, sealer.seal(secret), clock.now());
      }
      return { secret, uri: totpUri(secret, { issuer: deps.issuer, label: account.email }) };
    },

    /**
     * Confirms the enrolment with a code from the app. Right: the factor is the account's, and its ten
     * recovery codes are answered, this once. Wrong codes here do not count toward the lockout: whoever
     * is here is signed in already, and proves only that their app works.
     */
    async confirm(accountId: string, code: string): Promise<{ ok: true; recoveryCodes: string[] } | { ok: false; reason: 'WRONG' | 'ENROLLED' }> {
      const row = await repo.findFactor(db, table, accountId);
      if (!row || hasFactor(row)) return { ok: false, reason: 'ENROLLED' };
      if (!row.totp_pending_sealed) return { ok: false, reason: 'WRONG' };
      const now = clock.now();
      const checked = checkTotp({ secret: sealer.open(row.totp_pending_sealed), code, at: now, lastStep: null });
      if (!checked.ok) return { ok: false, reason: 'WRONG' };
      const recoveryCodes = await db.transaction(async (tx) => {
        if (!(await repo.enrolSecret(tx, table, accountId, { sealed: row.totp_pending_sealed!, step: checked.step, at: now }))) return undefined;
        return newRecoveryCodes(tx, accountId, now);
      });
      if (!recoveryCodes) return { ok: false, reason: 'ENROLLED' };
      logger.info({ [idField]: accountId }, 'second factor enrolled');
      return { ok: true, recoveryCodes };
    },

    /**
     * Checks a code from the app, or a recovery code, after the password (or for a step-up). Throws
     * RATE_LIMITED while the account is locked, without looking at the code. A wrong or replayed code
     * counts as a failed sign-in; a right one completes the sign-in (the count starts again).
     */
    async verify(accountId: string, typed: string): Promise<SecondFactorCheck> {
      await deps.accounts.refuseIfLocked(accountId);
      const row = await repo.findFactor(db, table, accountId);
      if (!row || !hasFactor(row)) return { ok: false, reason: 'NOT_ENROLLED' };
      const now = clock.now();
      let result: SecondFactorCheck;
      // An account with passkeys alone still has its recovery codes; a 6-digit code is then simply wrong.
      if (totpCodeOf(typed) && !row.totp_secret_sealed) result = { ok: false, reason: 'WRONG' };
      else if (totpCodeOf(typed) && row.totp_secret_sealed) {
        const lastStep = row.totp_last_step === null ? null : Number(row.totp_last_step);
        const checked = checkTotp({ secret: sealer.open(row.totp_secret_sealed), code: typed, at: now, lastStep });
        if (!checked.ok) result = checked;
        // Another request took this step first (the same code sent twice at once).
        else result = (await repo.acceptStep(db, table, accountId, checked.step)) ? { ok: true, method: 'TOTP' } : { ok: false, reason: 'REPLAYED' };
      } else {
        const hashes = recoveryCodeCandidates(deps.recoveryCodes, typed);
        result =
          hashes.length > 0 && (await repo.useRecoveryCode(db, accountId, hashes, now))
            ? { ok: true, method: 'RECOVERY_CODE', recoveryCodesLeft: await repo.countUnusedRecoveryCodes(db, accountId) }
            : { ok: false, reason: 'WRONG' };
      }
      if (result.ok) await deps.accounts.completeSignIn(accountId);
      else await deps.accounts.recordFailure(accountId);
      logger.info({ [idField]: accountId, ok: result.ok, ...(result.ok ? { method: result.method } : { reason: result.reason }) }, 'second factor checked');
      return result;
    },

    recoveryCodesLeft: (accountId: string) => repo.countUnusedRecoveryCodes(db, accountId),

    /**
     * `pvs operator reset-mfa` and `pvs portal-user reset-mfa`: removes the factors (app and passkeys) and the recovery codes;
     * the person enrols again at the next sign-in. Throws NOT_FOUND for an unknown email.
     */
    async reset(email: string): Promise<{ accountId: string; email: string; partnerId?: string; hadSecondFactor: boolean; recoveryCodesRemoved: number; passkeysRemoved: number }> {
      const account = await deps.accounts.byEmail(email);
      const now = clock.now();
      const { had, removed, passkeys } = await db.transaction(async (tx) => ({
        had: await repo.clearFactor(tx, table, account.id, now),
        removed: await repo.deleteRecoveryCodes(tx, account.id),
        passkeys: await deletePasskeys(tx, account.id),
      }));
      logger.info({ [idField]: account.id, hadSecondFactor: had || passkeys > 0, passkeysRemoved: passkeys }, 'second factor reset');
      return { accountId: account.id, email: account.email, partnerId: account.partner_id, hadSecondFactor: had || passkeys > 0, recoveryCodesRemoved: removed, passkeysRemoved: passkeys };
    },
  };
}

export type SecondFactors = ReturnType<typeof createSecondFactors>;
