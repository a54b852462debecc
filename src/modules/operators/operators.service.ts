// PVS's own operators: accounts made by `pvs operator create`, signed in at POST /ops/v1/token or at
// /console, and the identity behind every /ops/v1 call (platform/http/ops-api.ts). The password rules
// (scrypt hashes, one-time passwords, lockout) and the second factor are the accounts module's
// (password-accounts.ts, second-factors.ts). An operator gets no token on a password alone: the second
// factor is set up in the console first, and its code is asked for at every token.
import type { Clock } from '../../platform/clock.ts';
import type { Database } from '../../platform/db/database.ts';
import { AppError, notFound, validationError } from '../../platform/errors.ts';
import type { OperatorIdentity } from '../../platform/http/ops-api.ts';
import type { Logger } from '../../platform/logger.ts';
import { createPasswordAccounts, newPasswordProblem, type PasswordAccounts } from '../accounts/password-accounts.ts';
import type { SecondFactors } from '../accounts/second-factors.ts';
import type { OperatorTokens } from './operator-tokens.ts';
import type { CreatedOperator, CreateOperatorInput, Operator, OperatorToken, OperatorTokenBody } from './operators.schemas.ts';

export { normaliseEmail } from '../accounts/password-accounts.ts';

export interface OperatorService {
  create(input: CreateOperatorInput): Promise<CreatedOperator>;
  disable(input: CreateOperatorInput): Promise<{ operatorId: string; email: string; disabledAt: string }>;
  /**
   * POST /ops/v1/token: checks the password, then the second factor's code, then replaces the password
   * when asked, and issues a token. Throws the refusal.
   */
  signIn(input: OperatorTokenBody): Promise<OperatorToken>;
  /** The operator a bearer token stands for, or undefined: bad or expired token, disabled operator, or a password changed since. */
  authenticate(token: string): Promise<OperatorIdentity | undefined>;
  get(operatorId: string): Promise<Operator>;
  /** The password accounts behind operators, for the console's sign-in. */
  accounts: PasswordAccounts;
}

export function createOperatorService(deps: {
  db: Database;
  clock: Clock;
  tokens: OperatorTokens;
  logger: Logger;
  /**
   * The operators' second factors. A getter: the accounts module makes them from this module's password
   * accounts, after this one, and they are first needed when a token is asked for.
   */
  secondFactors: () => Pick<SecondFactors, 'verify'>;
  /** Where an operator without a second factor sets one up: the console. */
  consoleUrl: string;
  /** PASSWORD_HASH_COST. */
  passwordHashCost: number;
}): OperatorService {
  const accounts = createPasswordAccounts({ db: deps.db, clock: deps.clock, logger: deps.logger, table: 'operators', idKind: 'operator', passwordHashCost: deps.passwordHashCost });

  function noSecondFactor(operatorId: string, passwordChanged: boolean): AppError {
    deps.logger.info({ operatorId }, 'operator token refused: no second factor yet');
    return new AppError(
      'FORBIDDEN',
      `${passwordChanged ? 'The new password is saved, but this' : 'This'} operator has no second factor yet, and no token is issued without one: ` +
        `sign in to the console (${deps.consoleUrl}) first to set up an authenticator app, then send the code it shows as code here`,
    );
  }

  /** The second factor's check, after the right password: the method that passed, or the refusal thrown. */
  async function checkCode(operatorId: string, code: string | undefined): Promise<'TOTP' | 'RECOVERY_CODE'> {
    // Not a failed attempt: the count the password left running goes on until a right code (password-accounts.ts).
    if (code === undefined) {
      throw new AppError(
        'UNAUTHENTICATED',
        'This operator signs in with a second factor: send the code your authenticator app shows (or one of your recovery codes: a passkey works only in the console) as code',
        { pointer: '/code' },
      );
    }
    const checked = await deps.secondFactors().verify(operatorId, code);
    if (checked.ok) return checked.method;
    // The factor was removed (pvs operator reset-mfa) since the password was checked.
    if (checked.reason === 'NOT_ENROLLED') throw noSecondFactor(operatorId, false);
    if (checked.reason === 'REPLAYED') {
      throw new AppError('UNAUTHENTICATED', 'That code has been used already: wait for your authenticator app to show the next one, and send that as code', { pointer: '/code' });
    }
    throw new AppError('UNAUTHENTICATED', 'The code is wrong: send the code your authenticator app shows now, or a recovery code not used before, as code', { pointer: '/code' });
  }

  return {
    accounts,

    async create(input) {
      const created = await accounts.create({ email: input.email });
      return { operatorId: created.id, email: created.email, password: created.password };
    },

    async disable(input) {
      const row = await accounts.disable(input.email);
      return { operatorId: row.id, email: row.email, disabledAt: row.disabled_at!.toISOString() };
    },

    async signIn(input) {
      const { newPassword } = input;
      // Said before any password is checked: a new password that breaks the rule is not worth a code.
      const problem = newPassword === undefined ? undefined : newPasswordProblem(newPassword, input.password);
      if (problem) throw validationError('/newPassword', problem);
      // The password first, unchanged: an operator with a second factor gives its code before the password
      // is replaced, so that the password alone changes nothing (nor ends the operator's other sessions).
      // A one-time password is let through here only when newPassword replaces it below.
      let { row } = await accounts.verify({ email: input.email, password: input.password }, { allowOneTime: newPassword !== undefined });
      // Any factor counts: an operator with passkeys only (which need a browser) answers with a recovery code.
      const secondFactor = row.second_factor_enrolled_at ? await checkCode(row.id, input.code) : undefined;
      if (newPassword !== undefined) ({ row } = await accounts.verify({ email: input.email, password: input.password, newPassword }));
      // Without a factor the password change stands (it is how the first sign-in begins), but no token.
      if (!secondFactor) throw noSecondFactor(row.id, newPassword !== undefined);
      const issued = await deps.tokens.issue(row.id);
      deps.logger.info({ operatorId: row.id, secondFactor }, 'operator token issued');
      return { access_token: issued.token, token_type: 'Bearer', expires_in: issued.expiresIn };
    },

    async authenticate(token) {
      const claims = await deps.tokens.verify(token);
      if (!claims) return undefined;
      // Read on every call (an indexed row; operators are few): disabling an operator, or changing the
      // password, ends their other tokens at once rather than after a cache lifetime.
      const row = await accounts.current(claims.operatorId, new Date(claims.issuedAt * 1000));
      return row ? { operatorId: row.id, email: row.email } : undefined;
    },

    async get(operatorId) {
      const row = await accounts.current(operatorId);
      if (!row) throw notFound(`The operator ${operatorId}`);
      return { id: row.id, email: row.email, createdAt: row.created_at.toISOString() };
    },
  };
}
