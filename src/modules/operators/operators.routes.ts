// POST /ops/v1/token (public: an operator's email, password and second factor's code for a token) and the /ops/v1 routes of
// the operators domain itself, which sit behind the ops guard (platform/http/ops-api.ts).
import { AppError } from '../../platform/errors.ts';
import type { OpsApi } from '../../platform/http/ops-api.ts';
import { setRateLimitHeaders } from '../../platform/http/partner-api.ts';
import type { HttpApp } from '../../platform/http/types.ts';
import type { RateLimiter } from '../../platform/rate-limit.ts';
import { Operator, OperatorToken, OperatorTokenBody } from './operators.schemas.ts';
import type { OperatorService } from './operators.service.ts';

const tags = ['operators'];

/** A plugin for the token route: register it under the `/ops/v1` prefix, beside (not inside) opsApi. */
export function operatorTokenRoutes(deps: { operators: OperatorService; limiter: RateLimiter }) {
  return async function plugin(app: HttpApp) {
    // JSON only: a form that happened to hold email and password must not be read as a sign-in.
    app.removeContentTypeParser(['text/plain', 'application/x-www-form-urlencoded']);

    app.post(
      '/token',
      {
        schema: {
          tags,
          summary: 'Sign an operator in: email, password and a code from their authenticator app for a short-lived operator token',
          description:
            'For PVS operators, not partners. While the account has its one-time password, send `newPassword` too (403 FORBIDDEN without it). ' +
            'No token without a second factor: an operator who has not set up an authenticator app gets 403 FORBIDDEN, and sets one up by signing in ' +
            'to the console (`/console`) first (a `newPassword` sent with that request is saved all the same). Once set up, send `code` (the code the app shows, ' +
            'or a recovery code): without it 401 UNAUTHENTICATED, nothing counted; a wrong code, or one used already, 401 UNAUTHENTICATED at `/code`. ' +
            'For an operator with a second factor, `newPassword` replaces the password only once the code is right. ' +
            'Wrong email or password: 401 UNAUTHENTICATED. Five failures in a row (wrong passwords and wrong codes alike) lock the account (429 RATE_LIMITED with Retry-After), ' +
            'for a minute, doubling with each further failure up to an hour. The token works on /ops/v1 only, for 15 minutes.',
          operationId: 'issueOperatorToken',
          body: OperatorTokenBody,
          response: { 200: OperatorToken },
        },
      },
      async (request, reply) => {
        const byIp = deps.limiter.take(`ops-token-ip:${request.ip}`);
        if (!byIp.allowed) {
          setRateLimitHeaders(reply, byIp);
          throw new AppError('RATE_LIMITED', 'Too many sign-in requests from this address', { retryAfter: byIp.retryAfterSeconds });
        }
        const token = await deps.operators.signIn(request.body);
        return reply.header('cache-control', 'no-store').header('pragma', 'no-cache').send(token);
      },
    );
  };
}

export function registerOperatorRoutes(api: OpsApi, deps: { operators: OperatorService }): void {
  api.get(
    '/me',
    { schema: { tags, summary: 'The operator this token belongs to', operationId: 'getCurrentOperator', response: { 200: Operator } } },
    async (request) => deps.operators.get(request.operator.operatorId),
  );
}
