// The OpenAPI 3.1 documents, generated from the same TypeBox schemas that validate requests. One swagger
// document holds every documented route; PVS serves two parts of it (openapi-documents.ts), chosen by the
// scope a route was registered in rather than by its path:
//   the partner API     /openapi.json       shown at /docs       the partner and hosted routes
//   the operators' API  /ops/openapi.json   shown at /docs/ops   what app.ts registers under /ops/v1
// The operators' document is open in sandbox; in production it needs an operator token and has no
// page (decision 123). The pages are src/web/docs/reference/. Every documented route gets the problem+json schema for its 4xx and 5xx
// answers.
import swagger from '@fastify/swagger';
import { Type } from '@sinclair/typebox';
import { errorCodes } from '../errors.ts';
import { documentKeyword, selectDocument, type ApiDocumentName, type OpenApiDocument } from './openapi-documents.ts';
import { completePartnerDocument, type PartnerDocumentOptions } from './openapi-partner.ts';
import { operatorGuard, type OperatorAuthenticator } from './ops-api.ts';
import type { HttpApp } from './types.ts';
import { isOptionalBody } from './validation.ts';

export type { ApiDocumentName };

const Problem = Type.Object(
  {
    type: Type.String({ description: 'Identifies the code: `https://docs.pvs.example/errors/<code>`.' }),
    title: Type.String(),
    status: Type.Integer(),
    // The closed list itself (errors.ts), so the document cannot name a code PVS does not answer, or miss one.
    code: Type.String({ enum: errorCodes, description: 'One of the codes in [the list of errors](docs/errors.md); branch on it.' }),
    detail: Type.String(),
    requestId: Type.String(),
    errors: Type.Optional(Type.Array(Type.Object({ pointer: Type.String(), message: Type.String() }))),
  },
  { $id: 'Problem', title: 'Problem', additionalProperties: true, description: 'application/problem+json (RFC 9457)' },
);

// What the token checks are (modules/auth/tokens.service.ts), in the words OWASP's linter looks for.
const jwtPractice =
  'Tokens follow RFC8725 (JSON Web Token Best Current Practices): ES256 only (the `alg` is pinned, never taken from the token), keys by `kid` from /.well-known/jwks.json, issuer, expiry (1 hour), environment and scope checked on every call.';

const documentInfo: Record<ApiDocumentName, OpenApiDocument['info']> = {
  partner: {
    title: 'PVS partner API',
    version: '1.0.0',
    description:
      'Business lookups, identity verification, deed analysis, billing, ATO payments and webhooks for channel partners. Errors are application/problem+json; see [the list of errors](docs/errors.md). The guides: [PVS documentation](docs/README.md).',
  },
  operators: {
    title: 'PVS operator API',
    version: '1.0.0',
    description:
      "For PVS's own operators (staff), never partners: sign in at `POST /ops/v1/token` and send the token as `Authorization: Bearer …` on every other `/ops/v1` route; partner tokens are refused here, and operator tokens on `/v1`. Accounts, sign-in, lockout and runtime settings: [Operators](docs/operators.md). Errors are application/problem+json; see [the list of errors](docs/errors.md).",
  },
};

/** Every route registered in `scope` (and in the plugins it registers) is described in `document`. */
export function describeRoutesIn(scope: HttpApp, document: ApiDocumentName): void {
  scope.addHook('onRoute', (route) => {
    const schema = (route.schema ??= {}) as Record<string, unknown>;
    schema[documentKeyword] = document;
  });
}

export interface OpenApiOptions {
  publicBaseUrl: string;
  /** `open` (sandbox): anyone reads the operators' document; `operators` (production): an operator token. */
  operatorsDocument: 'open' | 'operators';
  operators: OperatorAuthenticator;
  /** The webhooks PVS sends, for the partner's document (the platform does not know the event catalogue). */
  webhooks?: PartnerDocumentOptions['webhooks'];
}

/** Registers the documents; answers how to read each, for the pages that show them (src/web/docs/reference/). */
export async function registerOpenApi(app: HttpApp, options: OpenApiOptions): Promise<{ documentOf: (name: ApiDocumentName) => OpenApiDocument; operatorsPage: boolean }> {
  const { publicBaseUrl } = options;
  app.addSchema(Problem);
  app.addHook('onRoute', (route) => {
    const schema = route.schema as Record<string, unknown> | undefined;
    if (!schema || schema.hide) return;
    const response = (schema.response ??= {}) as Record<string, unknown>;
    const problem = { description: 'A problem (RFC 9457); see [the list of errors](docs/errors.md)', content: { 'application/problem+json': { schema: Type.Ref(Problem) } } };
    response['4xx'] ??= problem;
    response['5xx'] ??= problem;
  });

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: documentInfo.partner,
      servers: [{ url: publicBaseUrl }],
      components: {
        // Every scheme of both documents: each keeps the ones its operations name.
        securitySchemes: {
          bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: `An access token from POST /oauth2/token. ${jwtPractice}` },
          // The same tokens, obtained by the docs page itself: "Authorize" with a client id and secret.
          clientCredentials: {
            type: 'oauth2',
            description: `Client credentials exchanged at /oauth2/token for a bearer token. ${jwtPractice}`,
            flows: { clientCredentials: { tokenUrl: `${publicBaseUrl}/oauth2/token`, scopes: { 'channel-partner-api/server': 'The partner API' } } },
          },
          // PVS's own operators (/ops/v1), never partners: a token from POST /ops/v1/token.
          operatorBearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'An operator access token from POST /ops/v1/token; not accepted on /v1.' },
        },
      },
      // Every tag a route uses, in the order a partner meets them; each document keeps the ones its
      // operations use (a test holds every used tag to this list).
      tags: [
        { name: 'auth', description: 'OAuth 2.0 client credentials, and the public keys that verify the access tokens' },
        { name: 'partners', description: 'The calling partner and its API clients' },
        { name: 'business lookups', description: 'ABN and ACN lookups: register facts, officers and beneficial owners (docs/lookups.md)' },
        { name: 'verifications', description: 'Identity verification of the people behind a business, their links, evidence and reports (docs/verifications.md)' },
        { name: 'deed analyses', description: 'Trust deeds: upload a PDF, and receive its parties and beneficiary classes by webhook (docs/deeds.md)' },
        { name: 'contacts', description: 'Your customers: the contacts checks can be billed to, and their saved cards (docs/billing.md)' },
        { name: 'charges', description: 'What each check cost, and whom it was billed to (docs/billing.md)' },
        { name: 'payments', description: 'ATO payments by card through a hosted payment page (docs/payments.md)' },
        { name: 'monitoring', description: 'Ongoing sanctions and PEP screening of contacts, and the alerts it raises (docs/monitoring.md)' },
        { name: 'webhooks', description: 'Destinations, delivery history, manual retry and test events (docs/webhooks.md)' },
        { name: 'hosted', description: 'What the hosted pages call for the person: the verification session, card links and payment links; not for partners' },
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

  // Cut once, at the first request (every route is registered by then); swagger caches the whole.
  let documents: Record<ApiDocumentName, OpenApiDocument> | undefined;
  const documentOf = (name: ApiDocumentName): OpenApiDocument => {
    documents ??= {
      partner: selectDocument(app.swagger() as unknown as OpenApiDocument, 'partner', {
        info: documentInfo.partner,
        publicBaseUrl,
        complete: (document) => completePartnerDocument(document, { webhooks: options.webhooks }),
      }),
      operators: selectDocument(app.swagger() as unknown as OpenApiDocument, 'operators', { info: documentInfo.operators, publicBaseUrl }),
    };
    return documents[name];
  };

  app.get('/openapi.json', { schema: { hide: true } }, async () => documentOf('partner'));

  if (options.operatorsDocument === 'open') {
    app.get('/ops/openapi.json', { schema: { hide: true } }, async () => documentOf('operators'));
  } else {
    // The reference page is public, and the operators' document needs a token in production, so
    // production has no page for it: an operator fetches the document with their token (docs/operators.md).
    app.get('/ops/openapi.json', { schema: { hide: true }, onRequest: operatorGuard(options) }, async () => documentOf('operators'));
  }
  return { documentOf, operatorsPage: options.operatorsDocument === 'open' };
}
