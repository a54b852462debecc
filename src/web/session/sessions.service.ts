// Server-side sessions for the portal and the console. The browser holds a random token in an HttpOnly
// cookie; the database holds only its SHA-256, so the table signs nobody in. A session ends after
// `idleSeconds` without use, after `absoluteSeconds` in any case, or when revoked. Every form carries a
// CSRF token derived from the session (an HMAC of its hash): nothing more to store, and a token is
// worthless outside its session.
import { createHash } from 'node:crypto';
import type { Clock } from '../../platform/clock.ts';
import { constantTimeEqual, hmacHex, randomToken } from '../../platform/crypto.ts';
import type { MacKeys } from '../../platform/keys/key-ring.ts';
import type { Database } from '../../platform/db/database.ts';
import * as repo from './sessions.repository.ts';

export type { WebArea } from './sessions.repository.ts';

export interface WebSession {
  tokenHash: string;
  area: repo.WebArea;
  accountId: string;
  /** The account still has its one-time password: this session may only replace it. */
  passwordChangeRequired: boolean;
  createdAt: Date;
  /** When this session last checked a second factor; null until it has (web/sign-in-steps.ts). */
  secondFactorAt: Date | null;
  /** Put in every form of the session as `_csrf`. */
  csrfToken: string;
  /** The form tokens accepted: this one, and those a previous SECRET_KEY made (a form shown before a rotation). */
  csrfAccepted: readonly string[];
}

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** Whether `sent` is one of the accepted form tokens (compared in constant time). */
export function sameToken(sent: string | undefined, accepted: readonly string[]): boolean {
  return typeof sent === 'string' && accepted.some((token) => constantTimeEqual(sent, token));
}

export function createSessionService(deps: { db: Database; clock: Clock; csrfKeys: MacKeys; idleSeconds: number; absoluteSeconds: number }) {
  const { db, clock, csrfKeys } = deps;
  const csrfOf = (text: string) => csrfKeys.all.map((key) => hmacHex(key, text));
  // The idle deadline is moved on at most once a minute: a page view is then a read, not a write.
  const extendAfterMs = 60_000;

  const toSession = (row: repo.SessionRow): WebSession => ({
    tokenHash: row.token_hash,
    area: row.area,
    accountId: row.account_id,
    passwordChangeRequired: row.password_change_required,
    createdAt: row.created_at,
    secondFactorAt: row.second_factor_at,
    csrfToken: hmacHex(csrfKeys.current, `session:${row.token_hash}`),
    csrfAccepted: csrfOf(`session:${row.token_hash}`),
  });

  return {
    idleSeconds: deps.idleSeconds,

    /** A new session; the token goes in the cookie and nowhere else. */
    async open(area: repo.WebArea, accountId: string, options: { passwordChangeRequired: boolean; secondFactorAt?: Date | null }): Promise<{ token: string; session: WebSession }> {
      const token = randomToken(32);
      const now = clock.now();
      const row: repo.SessionRow = {
        token_hash: hashToken(token),
        area,
        account_id: accountId,
        password_change_required: options.passwordChangeRequired,
        created_at: now,
        idle_expires_at: new Date(now.getTime() + deps.idleSeconds * 1000),
        expires_at: new Date(now.getTime() + deps.absoluteSeconds * 1000),
        revoked_at: null,
        second_factor_at: options.secondFactorAt ?? null,
      };
      await repo.insertSession(db, {
        tokenHash: row.token_hash,
        area,
        accountId,
        passwordChangeRequired: row.password_change_required,
        createdAt: now,
        idleExpiresAt: row.idle_expires_at,
        expiresAt: row.expires_at,
        secondFactorAt: row.second_factor_at,
      });
      return { token, session: toSession(row) };
    },

    /** The live session of this area the token stands for, or undefined. */
    async find(area: repo.WebArea, token: string | undefined): Promise<WebSession | undefined> {
      if (!token || token.length > 100) return undefined;
      const row = await repo.findSession(db, hashToken(token));
      const now = clock.now();
      if (!row || row.area !== area || row.revoked_at || row.expires_at <= now || row.idle_expires_at <= now) return undefined;
      const idleDeadline = now.getTime() + deps.idleSeconds * 1000;
      if (idleDeadline - row.idle_expires_at.getTime() > extendAfterMs) await repo.extendSession(db, row.token_hash, new Date(idleDeadline));
      return toSession(row);
    },

    /** The session has just checked a second factor; answers when. */
    async markSecondFactor(session: Pick<WebSession, 'tokenHash'>): Promise<Date> {
      const now = clock.now();
      await repo.markSecondFactor(db, session.tokenHash, now);
      return now;
    },

    /** Keeps the challenge a passkey is to sign in this session, for `seconds`; any earlier one is replaced. */
    async putChallenge(session: Pick<WebSession, 'tokenHash'>, purpose: repo.ChallengePurpose, challenge: string, seconds: number): Promise<void> {
      await repo.putChallenge(db, session.tokenHash, { purpose, challenge, expiresAt: new Date(clock.now().getTime() + seconds * 1000) });
    },

    /** The session's challenge for this purpose, once: the answer that uses it takes it away. */
    takeChallenge: (session: Pick<WebSession, 'tokenHash'>, purpose: repo.ChallengePurpose) => repo.takeChallenge(db, session.tokenHash, purpose, clock.now()),

    async revoke(session: Pick<WebSession, 'tokenHash'>): Promise<void> {
      await repo.revokeSession(db, session.tokenHash, clock.now());
    },

    /** Signs these accounts out everywhere. */
    revokeAccounts: (area: repo.WebArea, accountIds: string[]) => (accountIds.length === 0 ? Promise.resolve(0) : repo.revokeAccountSessions(db, area, accountIds, clock.now())),

    /** The CSRF token of the sign-in form, before there is a session: bound to a random cookie (`pvs_signin`). */
    signInCsrf(nonce: string): string {
      return hmacHex(csrfKeys.current, `sign-in:${nonce}`);
    },

    /** The sign-in form's tokens accepted for this cookie (SECRET_KEY's, and previous keys'). */
    signInCsrfAccepted: (nonce: string): readonly string[] => csrfOf(`sign-in:${nonce}`),
  };
}

export type SessionService = ReturnType<typeof createSessionService>;
