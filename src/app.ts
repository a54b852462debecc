// Builds the HTTP server from the services it is given. It chooses nothing; services.ts does.
import formBody from '@fastify/formbody';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import Fastify, { LogController, type FastifyBaseLogger } from 'fastify';
import { registerAdminRoutes } from './admin/admin.routes.ts';
import { registerOAuthRoutes } from './modules/auth/oauth.routes.ts';
import { registerApiClientRoutes } from './modules/partners/api-clients.routes.ts';
import { registerPartnerRoutes } from './modules/partners/partners.routes.ts';
import { registerSystemRoutes } from './modules/system/system.routes.ts';
import { newId } from './platform/ids.ts';
import { partnerApi, type PartnerApi } from './platform/http/partner-api.ts';
import { installProblemHandling } from './platform/http/problem.ts';
import { apiSecurityHeaders } from './platform/http/security-headers.ts';
import type { HttpApp } from './platform/http/types.ts';
import { validatorCompiler } from './platform/http/validation.ts';
import type { Services } from './services.ts';

export const bodyLimitBytes = 1024 * 1024;

const incomingRequestId = /^[A-Za-z0-9._:-]{1,128}$/;

const Problem = Type.Object(
  {
    type: Type.String(),
    title: Type.String(),
    status: Type.Integer(),
    code: Type.String({ description: 'One of the codes in docs/errors.md.' }),
    detail: Type.String(),
    requestId: Type.String(),
    errors: Type.Optional(Type.Array(Type.Object({ pointer: Type.String(), message: Type.String() }))),
  },
  { $id: 'Problem', title: 'Problem', additionalProperties: true, description: 'application/problem+json (RFC 9457)' },
);

export interface BuildAppOptions {
  /** Extra /v1 routes (tests exercise platform plumbing through routes of their own). */
  extraPartnerRoutes?: (api: PartnerApi) => void;
}

export async function buildApp(services: Services, options: BuildAppOptions = {}): Promise<HttpApp> {
  const { config } = services;
  const app = Fastify({
    loggerInstance: services.logger as FastifyBaseLogger,
    // One access line per request is written by the onResponse hook below, with the route pattern.
    logController: new LogController({ disableRequestLogging: true, requestIdLogLabel: 'requestId' }),
    bodyLimit: bodyLimitBytes,
    genReqId: (req) => {
      const incoming = req.headers['x-request-id'];
      return typeof incoming === 'string' && incomingRequestId.test(incoming) ? incoming : newId('request');
    },
    ajv: { customOptions: { strict: false } },
    return503OnClosing: true,
    forceCloseConnections: 'idle',
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  installProblemHandling(app);
  app.addSchema(Problem);

  // On every answer, 404s and errors included.
  const security = apiSecurityHeaders({ production: config.ENVIRONMENT === 'production' });

  // These hooks run on every request and await nothing, so they take a callback rather than return a
  // promise (Fastify then skips a promise and a microtask per hook).
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(security);
    reply.header('x-request-id', request.id);
    done();
  });
  app.addHook('onSend', (request, reply, payload, done) => {
    // API answers are about one partner at one moment: never cache them unless a route says so.
    if (!reply.hasHeader('cache-control') && !request.url.startsWith('/docs')) reply.header('cache-control', 'no-store');
    done(null, payload);
  });
  app.addHook('onResponse', (request, reply, done) => {
    // One line per request; the route pattern, never the raw URL (hosted links carry tokens in the path).
    request.log.info(
      {
        method: request.method,
        route: request.routeOptions.url ?? '(unmatched)',
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime),
        partnerId: request.tenant?.partnerId,
      },
      'request',
    );
    done();
  });
  app.addHook('onRoute', (route) => {
    const schema = route.schema as Record<string, unknown> | undefined;
    if (!schema || schema.hide) return;
    const response = (schema.response ??= {}) as Record<string, unknown>;
    response['4xx'] ??= Type.Ref(Problem);
    response['5xx'] ??= Type.Ref(Problem);
  });

  await app.register(formBody, { bodyLimit: 16 * 1024 });
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'PVS partner API',
        version: '1.0.0',
        description: 'Business lookups, identity verification, deed analysis, billing, ATO payments and webhooks for channel partners. Errors are application/problem+json; see docs/errors.md.',
      },
      servers: [{ url: config.PUBLIC_BASE_URL }],
      components: {
        securitySchemes: {
          bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'An access token from POST /oauth2/token.' },
        },
      },
      tags: [
        { name: 'auth', description: 'OAuth 2.0 client credentials' },
        { name: 'partners', description: 'The calling partner' },
        { name: 'system', description: 'Liveness and readiness' },
      ],
    },
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`) },
  });
  await app.register(swaggerUi, { routePrefix: '/docs', staticCSP: true });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());

  registerSystemRoutes(app, { isReady: services.isReady });
  registerOAuthRoutes(app, { tokens: services.tokens, keys: services.keys, limiter: services.tokenLimiter });
  registerAdminRoutes(app, services);
  await app.register(
    partnerApi({ tokens: services.tokens, limiter: services.apiLimiter }, (api) => {
      registerPartnerRoutes(api, { partners: services.partners });
      registerApiClientRoutes(api, { apiClients: services.apiClients, idempotency: services.idempotency });
      options.extraPartnerRoutes?.(api);
    }),
    { prefix: '/v1' },
  );

  return app;
}
