// PVS's own operators: accounts made by `pvs operator create`, signed in at POST /ops/v1/token, and the
// identity behind every /ops/v1 call (platform/http/ops-api.ts). Passwords are kept only as scrypt
// hashes and never logged; repeated failures lock the account (lockout.ts).
import type { Clock } from '../../platform/clock.ts';
import { decoyHash, hashSecret, verifySecret } from '../../platform/crypto.ts';
import type { Database } from '../../platform/db/database.ts';
import { AppError, notFound, validationError } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import type { Logger } from '../../platform/logger.ts';
import { lockSeconds } from './lockout.ts';
import type { OperatorTokens } from './operator-tokens.ts';
import * as repo from './operators.repository.ts';
import type { CreatedOperator, CreateOperatorInput, Operator, OperatorToken, OperatorTokenBody } from './operators.schemas.ts';
import { generateOneTimePassword } from './passwords.ts';

/** Who is calling an /ops/v1 route; set by the ops guard as `request.operator`. */
export interface OperatorIdentity {
  operatorId: string;
  email: string;
}

/** Emails are compared and stored in lower case: `Ana@Example.com` and `ana@example.com` are one operator. */
export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

// One answer for an unknown email and a wrong password, so the answer does not tell which it was.
const wrongCredentials = () => new AppError('UNAUTHENTICATED', 'Unknown email or wrong password');

export interface OperatorService {
  create(input: CreateOperatorInput): Promise<CreatedOperator>;
  disable(input: CreateOperatorInput): Promise<{ operatorId: string; email: string; disabledAt: string }>;
  /** POST /ops/v1/token: checks the password (and replaces it when asked), then issues a token. Throws the refusal. */
  signIn(input: OperatorTokenBody): Promise<OperatorToken>;
  /** The operator a bearer token stands for, or undefined: bad or expired token, disabled operator, or a password changed since. */
  authenticate(token: string): Promise<OperatorIdentity | undefined>;
  get(operatorId: string): Promise<Operator>;
}

export function createOperatorService(deps: { db: Database; clock: Clock; tokens: OperatorTokens; logger: Logger }): OperatorService {
  const { db, clock, logger } = deps;

  /** Counts a failure under a row lock, so concurrent failures all count, and locks the account at the threshold. */
  async function recordFailure(operatorId: string): Promise<void> {
    const locked = await db.transaction(async (tx) => {
      const row = await repo.findOperatorById(tx, operatorId, { lock: true });
      if (!row) return undefined;
      const now = clock.now();
      const failures = row.failed_logins + 1;
      const seconds = lockSeconds(failures);
      const lockedUntil = seconds > 0 ? new Date(now.getTime() + seconds * 1000) : null;
      await repo.recordFailedLogin(tx, operatorId, { failures, lockedUntil, at: now });
      return lockedUntil ? { failures, seconds } : undefined;
    });
    if (locked) logger.warn({ operatorId, failedLogins: locked.failures, lockedSeconds: locked.seconds }, 'operator account locked after failed sign-ins');
  }

  return {
    async create(input) {
      const email = normaliseEmail(input.email);
      const now = clock.now();
      const password = generateOneTimePassword();
      // Hash before writing: scrypt is slow on purpose and must not hold a connection.
      const passwordHash = await hashSecret(password);
      const operatorId = newId('operator', now.getTime());
      if (!(await repo.insertOperator(db, { id: operatorId, email, passwordHash, createdAt: now }))) {
        throw new AppError('INVALID_STATE', `An operator with the email ${email} already exists; each operator signs in with an address of their own`);
      }
      logger.info({ operatorId }, 'operator created');
      return { operatorId, email, password };
    },

    async disable(input) {
      const row = await repo.disableOperator(db, normaliseEmail(input.email), clock.now());
      if (!row) throw notFound(`The operator ${normaliseEmail(input.email)}`);
      logger.info({ operatorId: row.id }, 'operator disabled');
      return { operatorId: row.id, email: row.email, disabledAt: row.disabled_at!.toISOString() };
    },

    async signIn(input) {
      const row = await repo.findOperatorByEmail(db, normaliseEmail(input.email));
      const started = clock.now();
      if (row?.locked_until && row.locked_until > started) {
        const retryAfter = Math.ceil((row.locked_until.getTime() - started.getTime()) / 1000);
        throw new AppError('RATE_LIMITED', `Too many failed sign-ins: this account is locked; try again in ${retryAfter} s`, { retryAfter });
      }
      // Verify against a decoy when the email is unknown, so the time taken does not tell.
      const matches = await verifySecret(input.password, row?.password_hash ?? (await decoyHash()));
      if (!row || !matches) {
        if (row) await recordFailure(row.id);
        throw wrongCredentials();
      }
      // Said only to whoever knows the password.
      if (row.disabled_at) throw new AppError('UNAUTHENTICATED', 'This operator account is disabled');

      const now = clock.now();
      if (input.newPassword === undefined) {
        if (row.must_change_password) {
          if (row.failed_logins > 0) await repo.clearFailedLogins(db, row.id, now, { signedIn: false });
          throw new AppError(
            'FORBIDDEN',
            'The one-time password must be replaced before the first sign-in: send it again as password, with newPassword (at least 12 characters)',
          );
        }
      } else {
        if (input.newPassword === input.password) throw validationError('/newPassword', 'must differ from the current password');
        const newHash = await hashSecret(input.newPassword);
        // Another request changed the password since it was read: this one's password is no longer current.
        if (!(await repo.changePassword(db, row.id, { previousHash: row.password_hash, newHash, at: now }))) throw wrongCredentials();
      }
      await repo.clearFailedLogins(db, row.id, now, { signedIn: true });
      const issued = await deps.tokens.issue(row.id);
      logger.info({ operatorId: row.id, passwordChanged: input.newPassword !== undefined }, 'operator signed in');
      return { access_token: issued.token, token_type: 'Bearer', expires_in: issued.expiresIn };
    },

    async authenticate(token) {
      const claims = await deps.tokens.verify(token);
      if (!claims) return undefined;
      // Read on every call (an indexed row; operators are few): disabling an operator, or changing the
      // password, ends their other tokens at once rather than after a cache lifetime.
      const row = await repo.findOperatorById(db, claims.operatorId);
      if (!row || row.disabled_at) return undefined;
      if (claims.issuedAt < Math.floor(row.password_changed_at.getTime() / 1000)) return undefined;
      return { operatorId: row.id, email: row.email };
    },

    async get(operatorId) {
      const row = await repo.findOperatorById(db, operatorId);
      if (!row) throw notFound(`The operator ${operatorId}`);
      return { id: row.id, email: row.email, createdAt: row.created_at.toISOString() };
    },
  };
}
