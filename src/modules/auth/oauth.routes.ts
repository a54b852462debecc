// POST /oauth2/token (RFC 6749 client credentials; errors in RFC 6749 §5.2 shape, not problem+json)
// and the public keys that verify the tokens it issues.
import { Type, type Static } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../platform/errors.ts';
import { setRateLimitHeaders } from '../../platform/http/partner-api.ts';
import { sendProblem } from '../../platform/http/problem.ts';
import type { HttpApp } from '../../platform/http/types.ts';
import type { RateLimiter } from '../../platform/rate-limit.ts';
import { jwksCacheSeconds, type SigningKeys } from './signing-keys.ts';
import { apiScope, type TokenService } from './tokens.service.ts';

const TokenRequest = Type.Object({
  grant_type: Type.Literal('client_credentials'),
  client_id: Type.Optional(Type.String({ maxLength: 256, description: 'Or send the client id and secret as HTTP Basic credentials.' })),
  client_secret: Type.Optional(Type.String({ maxLength: 256 })),
  scope: Type.Optional(Type.String({ maxLength: 256, description: `Optional; the only scope is \`${apiScope}\`.` })),
});

const TokenResponse = Type.Object({
  access_token: Type.String(),
  token_type: Type.Literal('Bearer'),
  expires_in: Type.Integer({ description: 'Seconds; cache the token until shortly before this.' }),
  scope: Type.String(),
});

// The published keys (RFC 7517): EC P-256 public keys, the ones that verify ES256 tokens. Key members
// beyond these would pass through unchanged, as JWKS readers expect. Every key PVS makes is one of these
// (signing-keys.ts), which is what the cast in the handler relies on.
const Jwks = Type.Object({
  keys: Type.Array(
    Type.Object(
      {
        kty: Type.Literal('EC'),
        crv: Type.Literal('P-256'),
        x: Type.String({ description: 'base64url' }),
        y: Type.String({ description: 'base64url' }),
        kid: Type.String({ description: 'The key id a token names in its header.' }),
        alg: Type.Literal('ES256'),
        use: Type.Literal('sig'),
      },
      { additionalProperties: true },
    ),
    { description: 'The keys that may have signed a token still valid; several during a rotation (docs/security.md).' },
  ),
});

// Every other 400 of this route (text PVS cannot take, such as a NUL in client_id, or a body that cannot
// be read) is a VALIDATION_ERROR problem with the pointer that also carries these two members
// (sendProblem, for routes with `config.oauth`); hence the extra properties.
const OAuthError = Type.Object(
  {
    error: Type.Union(['invalid_request', 'invalid_client', 'unsupported_grant_type', 'invalid_scope'].map((e) => Type.Literal(e))),
    error_description: Type.String(),
  },
  { additionalProperties: true },
);

type OAuthErrorCode = 'invalid_request' | 'invalid_client' | 'unsupported_grant_type' | 'invalid_scope';

function oauthError(reply: FastifyReply, error: OAuthErrorCode, description: string) {
  const status = error === 'invalid_client' ? 401 : 400;
  if (status === 401) reply.header('www-authenticate', 'Basic realm="pvs"');
  return reply.code(status).header('cache-control', 'no-store').header('pragma', 'no-cache').send({ error, error_description: description });
}

function mediaType(request: FastifyRequest): string {
  return (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
}

function basicCredentials(request: FastifyRequest): { clientId: string; clientSecret: string } | 'malformed' | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const match = /^Basic ([A-Za-z0-9+/]+=*)$/.exec(header);
  if (!match) return 'malformed';
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return 'malformed';
  // RFC 6749 §2.3.1: both parts are form-urlencoded before base64.
  try {
    return { clientId: decodeURIComponent(decoded.slice(0, colon)), clientSecret: decodeURIComponent(decoded.slice(colon + 1)) };
  } catch {
    return 'malformed';
  }
}

export function registerOAuthRoutes(app: HttpApp, deps: { tokens: TokenService; keys: SigningKeys; limiter: RateLimiter }): void {
  app.post(
    '/oauth2/token',
    {
      attachValidation: true,
      config: { oauth: true },
      schema: {
        tags: ['auth'],
        summary: 'Exchange client credentials for an access token',
        operationId: 'issueToken',
        consumes: ['application/x-www-form-urlencoded'],
        body: TokenRequest,
        response: { 200: TokenResponse, 400: OAuthError, 401: OAuthError },
      },
    },
    async (request, reply) => {
      const ip = request.ip;
      const byIp = deps.limiter.take(`token-ip:${ip}`);
      if (!byIp.allowed) {
        setRateLimitHeaders(reply, byIp);
        return sendProblem(reply, new AppError('RATE_LIMITED', 'Too many token requests from this address', { retryAfter: byIp.retryAfterSeconds }));
      }
      if (mediaType(request) !== 'application/x-www-form-urlencoded') {
        return oauthError(reply, 'invalid_request', 'Send the token request as application/x-www-form-urlencoded');
      }
      const form = (request.body ?? {}) as Record<string, unknown>;
      for (const [name, value] of Object.entries(form)) {
        if (typeof value !== 'string') return oauthError(reply, 'invalid_request', `${name} was sent more than once`);
      }
      if (form.grant_type === undefined) return oauthError(reply, 'invalid_request', 'grant_type is required');
      if (form.grant_type !== 'client_credentials') return oauthError(reply, 'unsupported_grant_type', 'Only client_credentials is supported');

      const basic = basicCredentials(request);
      if (basic === 'malformed') return oauthError(reply, 'invalid_client', 'Malformed Basic credentials');
      if (basic && (form.client_id !== undefined || form.client_secret !== undefined)) {
        return oauthError(reply, 'invalid_request', 'Send client credentials either as Basic auth or in the body, not both');
      }
      const clientId = basic?.clientId ?? (form.client_id as string | undefined);
      const clientSecret = basic?.clientSecret ?? (form.client_secret as string | undefined);
      if (!clientId || !clientSecret) return oauthError(reply, 'invalid_request', 'client_id and client_secret are required');

      const byClient = deps.limiter.take(`token-client:${clientId}`);
      if (!byClient.allowed) {
        setRateLimitHeaders(reply, byClient);
        return sendProblem(reply, new AppError('RATE_LIMITED', 'Too many token requests for this client; cache tokens until they expire', { retryAfter: byClient.retryAfterSeconds }));
      }
      const result = await deps.tokens.issue({ clientId, clientSecret, scope: form.scope as string | undefined });
      if (!result.ok) return oauthError(reply, result.error, result.description);
      return reply.header('cache-control', 'no-store').header('pragma', 'no-cache').send(result.body);
    },
  );

  app.get(
    '/.well-known/jwks.json',
    { schema: { tags: ['auth'], summary: 'Public keys that verify access tokens', operationId: 'getJwks', response: { 200: Jwks } } },
    async (_request, reply) => reply.header('cache-control', `public, max-age=${jwksCacheSeconds}`).send((await deps.keys.jwks()) as Static<typeof Jwks>),
  );
}
