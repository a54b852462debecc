// The /v1 partner API. Every route registered through this plugin is authenticated (bearer token),
// checked against X-Partner-Id, rate limited per partner, and documented with both in OpenAPI.
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../errors.ts';
import { exampleId } from '../ids.ts';
import type { RateLimiter } from '../rate-limit.ts';
import { tenantOf } from '../tenancy.ts';
import { sendProblem } from './problem.ts';
import type { HttpApp } from './types.ts';

export type PartnerApi = HttpApp;

/** What the guard needs of the token service (modules/auth): who a valid bearer token stands for. */
export interface TokenVerifier {
  /** The claims of a valid token for this environment, or undefined. */
  verify(token: string): Promise<{ partnerId: string; clientId: string } | undefined>;
}

const partnerHeader = {
  'x-partner-id': Type.String({ maxLength: 64, description: 'Your partner id (`ptn_…`); must match the credentials.', examples: [exampleId('partner')] }),
};

/** The token of `Authorization: Bearer <token>`, or undefined when the header is missing or malformed. */
export function bearer(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const match = /^Bearer ([A-Za-z0-9._~+/-]+=*)$/.exec(header);
  return match?.[1];
}

export function setRateLimitHeaders(reply: FastifyReply, decision: ReturnType<RateLimiter['take']>): void {
  reply.header('ratelimit-limit', String(decision.limit));
  reply.header('ratelimit-remaining', String(decision.remaining));
  reply.header('ratelimit-reset', String(decision.resetSeconds));
  reply.header('ratelimit-policy', decision.policy);
}

export function partnerApi(deps: { tokens: TokenVerifier; limiter: RateLimiter }, register: (api: PartnerApi) => void) {
  return async function plugin(api: HttpApp) {
    // The partner API takes JSON only. Without this, Fastify's text/plain parser (and the form parser
    // the token endpoint needs) would hand a string or a form to the body schema: a confusing 400, or
    // worse, a form that happens to validate. They answer 415 UNSUPPORTED_MEDIA_TYPE instead.
    api.removeContentTypeParser(['text/plain', 'application/x-www-form-urlencoded']);

    // Document the two headers on every route; the hooks below enforce them before validation runs.
    api.addHook('onRoute', (route) => {
      const schema = (route.schema ??= {}) as Record<string, unknown>;
      const headers = (schema.headers as ReturnType<typeof Type.Object> | undefined) ?? Type.Object({});
      schema.headers = Type.Object({ ...headers.properties, ...partnerHeader });
      schema.security = [{ bearerAuth: [] }, { clientCredentials: ['channel-partner-api/server'] }];
    });

    api.addHook('onRequest', async (request, reply) => {
      const token = bearer(request);
      const claims = token ? await deps.tokens.verify(token) : undefined;
      if (!claims) {
        reply.header('www-authenticate', 'Bearer realm="pvs"');
        return sendProblem(
          reply,
          new AppError('UNAUTHENTICATED', token ? 'The access token is invalid, expired or for another environment' : 'Send Authorization: Bearer <access token> from POST /oauth2/token'),
        );
      }
      const partnerId = request.headers['x-partner-id'];
      if (typeof partnerId !== 'string' || partnerId.trim() === '') {
        return sendProblem(reply, new AppError('VALIDATION_ERROR', 'X-Partner-Id is required on every partner call', { pointer: 'header:X-Partner-Id' }));
      }
      if (partnerId !== claims.partnerId) {
        return sendProblem(reply, new AppError('PARTNER_MISMATCH', 'X-Partner-Id does not match the partner these credentials belong to'));
      }
      const decision = deps.limiter.take(`partner:${claims.partnerId}`);
      setRateLimitHeaders(reply, decision);
      if (!decision.allowed) {
        return sendProblem(reply, new AppError('RATE_LIMITED', `Rate limit exceeded; retry after ${decision.retryAfterSeconds} s`, { retryAfter: decision.retryAfterSeconds }));
      }
      request.tenant = tenantOf(claims.partnerId);
      request.apiClientId = claims.clientId;
    });

    register(api);
  };
}
