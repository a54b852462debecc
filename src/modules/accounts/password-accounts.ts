// Accounts people sign in to with an email and a password: PVS's operators and partners' portal users.
// One set of rules for both: the one-time password `pvs … create` prints, replaced at the first sign-in;
// scrypt hashes only, never a password in a log; one answer for an unknown email and a wrong password,
// taking the same time; consecutive failures lock the account (lockout.ts).
import type { Clock } from '../../platform/clock.ts';
import { decoyHash, hashSecret, verifySecret } from '../../platform/crypto.ts';
import type { Database } from '../../platform/db/database.ts';
import { AppError, notFound, validationError } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import type { Logger } from '../../platform/logger.ts';
import * as repo from './accounts.repository.ts';
import { lockSeconds } from './lockout.ts';
import { generateOneTimePassword, newPasswordMinLength, passwordMaxLength } from './passwords.ts';

/** Emails are compared and stored in lower case: `Ana@Example.com` and `ana@example.com` are one account. */
export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

// One answer for an unknown email and a wrong password, so the answer does not tell which it was.
const wrongCredentials = () => new AppError('UNAUTHENTICATED', 'Unknown email or wrong password');

export interface PasswordCheck {
  email: string;
  password: string;
  /** Replaces the password once the current one is verified. */
  newPassword?: string;
}

/** A verified account: who it is, and whether it still has its one-time password. */
export interface VerifiedAccount {
  row: repo.AccountRow;
  mustChangePassword: boolean;
}

/** The rule for a new password, in words a sign-in form can show; undefined when it is acceptable. */
export function newPasswordProblem(newPassword: string, current?: string): string | undefined {
  if (newPassword.length < newPasswordMinLength) return `must be at least ${newPasswordMinLength} characters`;
  if (newPassword.length > passwordMaxLength) return `must be at most ${passwordMaxLength} characters`;
  if (current !== undefined && newPassword === current) return 'must differ from the current password';
  return undefined;
}

export function createPasswordAccounts(deps: {
  db: Database;
  clock: Clock;
  logger: Logger;
  table: repo.AccountTable;
  idKind: 'operator' | 'portalUser';
  /** scrypt's cost for new hashes (PASSWORD_HASH_COST); a stored hash is verified at its own. */
  passwordHashCost: number;
}) {
  const { db, clock, logger, table, passwordHashCost } = deps;
  const label = table === 'operators' ? 'operator' : 'portal user';
  const article = table === 'operators' ? 'An' : 'A';
  // Logs name the account as the rest of PVS does: operatorId or portalUserId.
  const idField = table === 'operators' ? 'operatorId' : 'portalUserId';

  /** Counts a failure under a row lock, so concurrent failures all count, and locks the account at the threshold. */
  async function recordFailure(id: string): Promise<void> {
    const locked = await db.transaction(async (tx) => {
      const row = await repo.findAccountById(tx, table, id, { lock: true });
      if (!row) return undefined;
      const now = clock.now();
      const failures = row.failed_logins + 1;
      const seconds = lockSeconds(failures);
      const lockedUntil = seconds > 0 ? new Date(now.getTime() + seconds * 1000) : null;
      await repo.recordFailedLogin(tx, table, id, { failures, lockedUntil, at: now });
      return lockedUntil ? { failures, seconds } : undefined;
    });
    if (locked) logger.warn({ [idField]: id, failedLogins: locked.failures, lockedSeconds: locked.seconds }, `${label} account locked after failed sign-ins`);
  }

  /** Refuses an account that is locked: RATE_LIMITED with the seconds left. */
  function refuseIfLocked(row: Pick<repo.AccountRow, 'locked_until'> | undefined, now: Date): void {
    if (row?.locked_until && row.locked_until > now) {
      const retryAfter = Math.ceil((row.locked_until.getTime() - now.getTime()) / 1000);
      throw new AppError('RATE_LIMITED', `Too many failed sign-ins: this account is locked; try again in ${retryAfter} s`, { retryAfter });
    }
  }

  return {
    async create(input: { email: string; partnerId?: string }): Promise<{ id: string; email: string; password: string }> {
      const email = normaliseEmail(input.email);
      const now = clock.now();
      const password = generateOneTimePassword();
      // Hash before writing: scrypt is slow on purpose and must not hold a connection.
      const passwordHash = await hashSecret(password, passwordHashCost);
      const id = newId(deps.idKind, now.getTime());
      if (!(await repo.insertAccount(db, table, { id, email, passwordHash, createdAt: now, partnerId: input.partnerId }))) {
        throw new AppError('INVALID_STATE', `${article} ${label} with the email ${email} already exists; each person signs in with an address of their own`);
      }
      logger.info({ [idField]: id }, `${label} created`);
      return { id, email, password };
    },

    async disable(email: string): Promise<repo.AccountRow> {
      const row = await repo.disableAccount(db, table, normaliseEmail(email), clock.now());
      if (!row) throw notFound(`The ${label} ${normaliseEmail(email)}`);
      logger.info({ [idField]: row.id }, `${label} disabled`);
      return row;
    },

    /**
     * Checks the password (and replaces it when `newPassword` is given). Throws the refusal: locked
     * (RATE_LIMITED with retryAfter), wrong (UNAUTHENTICATED), disabled (UNAUTHENTICATED). An account
     * still on its one-time password is refused (FORBIDDEN) unless `allowOneTime`: the console and portal
     * then let the session do nothing but replace it.
     */
    async verify(input: PasswordCheck, options: { allowOneTime?: boolean } = {}): Promise<VerifiedAccount> {
      const row = await repo.findAccountByEmail(db, table, normaliseEmail(input.email));
      refuseIfLocked(row, clock.now());
      // Verify against a decoy when the email is unknown, so the time taken does not tell.
      const matches = await verifySecret(input.password, row?.password_hash ?? (await decoyHash(passwordHashCost)));
      if (!row || !matches) {
        if (row) await recordFailure(row.id);
        throw wrongCredentials();
      }
      // Said only to whoever knows the password.
      if (row.disabled_at) throw new AppError('UNAUTHENTICATED', `This ${label} account is disabled`);

      const now = clock.now();
      let mustChangePassword = row.must_change_password;
      if (input.newPassword === undefined) {
        if (mustChangePassword && !options.allowOneTime) {
          if (row.failed_logins > 0) await repo.clearFailedLogins(db, table, row.id, now, { signedIn: false });
          throw new AppError(
            'FORBIDDEN',
            `The one-time password must be replaced before the first sign-in: send it again as password, with newPassword (at least ${newPasswordMinLength} characters)`,
          );
        }
      } else {
        if (input.newPassword === input.password) throw validationError('/newPassword', 'must differ from the current password');
        const newHash = await hashSecret(input.newPassword, passwordHashCost);
        // Another request changed the password since it was read: this one's password is no longer current.
        if (!(await repo.changePassword(db, table, row.id, { previousHash: row.password_hash, newHash, at: now }))) throw wrongCredentials();
        mustChangePassword = false;
      }
      // With a second factor the sign-in is not over: the count goes on until the code is right too, so
      // that signing in again with the password does not buy another five guesses at the code.
      const secondFactorFollows = row.second_factor_enrolled_at !== null;
      if (!secondFactorFollows) await repo.clearFailedLogins(db, table, row.id, now, { signedIn: true });
      logger.info({ [idField]: row.id, passwordChanged: input.newPassword !== undefined, secondFactorFollows }, `${label} ${secondFactorFollows ? 'gave the right password' : 'signed in'}`);
      return { row, mustChangePassword };
    },

    /** A wrong second-factor code counts like a wrong password (lockout.ts). */
    recordFailure,

    /** Throws RATE_LIMITED while the account is locked. */
    async refuseIfLocked(id: string): Promise<void> {
      refuseIfLocked(await repo.findAccountById(db, table, id), clock.now());
    },

    /** The second factor was right too: the sign-in is complete and the failure count starts again. */
    async completeSignIn(id: string): Promise<void> {
      await repo.clearFailedLogins(db, table, id, clock.now(), { signedIn: true });
    },

    /**
     * Replaces the one-time password of an account whose session already proved it (the session was
     * opened with it, moments ago). Refused once the account has a password of its own.
     */
    async replaceOneTimePassword(id: string, newPassword: string): Promise<void> {
      const row = await repo.findAccountById(db, table, id);
      if (!row || row.disabled_at) throw wrongCredentials();
      if (!row.must_change_password) throw new AppError('INVALID_STATE', 'This account already has a password of its own');
      if (await verifySecret(newPassword, row.password_hash)) throw validationError('/newPassword', 'must differ from the one-time password');
      const newHash = await hashSecret(newPassword, passwordHashCost);
      if (!(await repo.changePassword(db, table, id, { previousHash: row.password_hash, newHash, at: clock.now() }))) throw wrongCredentials();
      logger.info({ [idField]: id }, `${label} replaced the one-time password`);
    },

    /** The account behind a session or a token, if it may still act: not disabled, password unchanged since `since`. */
    async current(id: string, since?: Date): Promise<repo.AccountRow | undefined> {
      const row = await repo.findAccountById(db, table, id);
      if (!row || row.disabled_at) return undefined;
      if (since && since.getTime() < Math.floor(row.password_changed_at.getTime() / 1000) * 1000) return undefined;
      return row;
    },

    list: (filter: { partnerId?: string } = {}) => repo.listAccounts(db, table, filter),

    /** The account with this email (any case), disabled or not; NOT_FOUND naming the email. */
    async byEmail(email: string): Promise<repo.AccountRow> {
      const row = await repo.findAccountByEmail(db, table, normaliseEmail(email));
      if (!row) throw notFound(`The ${label} ${normaliseEmail(email)}`);
      return row;
    },
  };
}

export type PasswordAccounts = ReturnType<typeof createPasswordAccounts>;
