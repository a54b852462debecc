// PVS's own operators: accounts made by `pvs operator create`, signed in at POST /ops/v1/token or at
// /console, and the identity behind every /ops/v1 call (platform/http/ops-api.ts). The password rules
// (scrypt hashes, one-time passwords, lockout) are the accounts module's (password-accounts.ts).
import type { Clock } from '../../platform/clock.ts';
import type { Database } from '../../platform/db/database.ts';
import { notFound } from '../../platform/errors.ts';
import type { OperatorIdentity } from '../../platform/http/ops-api.ts';
import type { Logger } from '../../platform/logger.ts';
import { createPasswordAccounts, type PasswordAccounts } from '../accounts/password-accounts.ts';
import type { OperatorTokens } from './operator-tokens.ts';
import type { CreatedOperator, CreateOperatorInput, Operator, OperatorToken, OperatorTokenBody } from './operators.schemas.ts';

export { normaliseEmail } from '../accounts/password-accounts.ts';

export interface OperatorService {
  create(input: CreateOperatorInput): Promise<CreatedOperator>;
  disable(input: CreateOperatorInput): Promise<{ operatorId: string; email: string; disabledAt: string }>;
  /** POST /ops/v1/token: checks the password (and replaces it when asked), then issues a token. Throws the refusal. */
  signIn(input: OperatorTokenBody): Promise<OperatorToken>;
  /** The operator a bearer token stands for, or undefined: bad or expired token, disabled operator, or a password changed since. */
  authenticate(token: string): Promise<OperatorIdentity | undefined>;
  get(operatorId: string): Promise<Operator>;
  /** The password accounts behind operators, for the console's sign-in. */
  accounts: PasswordAccounts;
}

export function createOperatorService(deps: { db: Database; clock: Clock; tokens: OperatorTokens; logger: Logger }): OperatorService {
  const accounts = createPasswordAccounts({ db: deps.db, clock: deps.clock, logger: deps.logger, table: 'operators', idKind: 'operator' });

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
      const { row } = await accounts.verify(input);
      const issued = await deps.tokens.issue(row.id);
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
