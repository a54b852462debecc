// The OpenAPI 3.1 document, generated from the same TypeBox schemas that validate requests, served at
// /openapi.json with interactive docs at /docs. Every documented route gets the problem+json schema
// for its 4xx and 5xx answers.
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { Type } from '@sinclair/typebox';
import type { HttpApp } from './types.ts';
import { isOptionalBody } from './validation.ts';

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

export async function registerOpenApi(app: HttpApp, options: { publicBaseUrl: string }): Promise<void> {
  app.addSchema(Problem);
  app.addHook('onRoute', (route) => {
    const schema = route.schema as Record<string, unknown> | undefined;
    if (!schema || schema.hide) return;
    const response = (schema.response ??= {}) as Record<string, unknown>;
    const problem = { description: 'A problem (RFC 9457); see docs/errors.md', content: { 'application/problem+json': { schema: Type.Ref(Problem) } } };
    response['4xx'] ??= problem;
    response['5xx'] ??= problem;
  });

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'PVS partner API',
        version: '1.0.0',
        description:
          'Business lookups, identity verification, deed analysis, billing, ATO payments and webhooks for channel partners. Errors are application/problem+json; see docs/errors.md.',
      },
      servers: [{ url: options.publicBaseUrl }],
      components: {
        securitySchemes: {
          bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'An access token from POST /oauth2/token.' },
          // The same tokens, obtained by the docs page itself: "Authorize" with a client id and secret.
          clientCredentials: {
            type: 'oauth2',
            description: 'Client credentials exchanged at /oauth2/token for a bearer token.',
            flows: { clientCredentials: { tokenUrl: `${options.publicBaseUrl}/oauth2/token`, scopes: { 'channel-partner-api/server': 'The partner API' } } },
          },
          // PVS's own operators (/ops/v1), never partners: a token from POST /ops/v1/token.
          operatorBearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'An operator access token from POST /ops/v1/token; not accepted on /v1.' },
        },
      },
      tags: [
        { name: 'auth', description: 'OAuth 2.0 client credentials' },
        { name: 'partners', description: 'The calling partner and its API clients' },
        { name: 'webhooks', description: 'Destinations, delivery history, manual retry and test events' },
        { name: 'system', description: 'Liveness and readiness' },
        { name: 'operators', description: "PVS's own operators (staff), not partners: sign-in and the /ops/v1 operator API" },
      ],
    },
    // A body marked optional (validation.ts) may be left out; Fastify's swagger marks every body required.
    transformObject: (document) => {
      if (!('openapiObject' in document)) return document.swaggerObject;
      const { openapiObject } = document;
      for (const operations of Object.values(openapiObject.paths ?? {})) {
        for (const operation of Object.values(operations ?? {}) as Array<{ requestBody?: { required?: boolean; content?: Record<string, { schema?: unknown }> } }>) {
          const body = operation?.requestBody;
          if (body && Object.values(body.content ?? {}).some((media) => isOptionalBody(media.schema))) body.required = false;
        }
      }
      return openapiObject;
    },
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`) },
  });
  // staticCSP: the docs page replaces the API's `default-src 'none'` with the policy its scripts need;
  // Swagger UI also sets inline styles, which its default policy forgets.
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    staticCSP: true,
    transformStaticCSP: (header) => header.replace("style-src 'self' https:", "style-src 'self' 'unsafe-inline' https:"),
    uiConfig: { persistAuthorization: false, tryItOutEnabled: true },
  });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
