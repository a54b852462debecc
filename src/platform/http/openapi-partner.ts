// What the partner's document says beyond what each route's schema does, because it holds for whole
// groups of routes at once: the webhooks PVS sends, the rate-limit headers and the 401/429/500 answers of
// /v1 (partner-api.ts sets the headers, problem.ts writes the problems), that a route outside /v1 needs no
// partner credentials, the integer formats, and an example on every operation. The linters' view of it,
// and what they ask for that PVS does not do, is in docs/openapi.md.
import { addOperationExamples } from './openapi-examples.ts';
import type { OpenApiDocument } from './openapi-documents.ts';

type Json = Record<string, unknown>;

export interface PartnerDocumentOptions {
  /** The `webhooks` object (modules/webhooks/webhooks.openapi.ts), built from the event catalogue. */
  webhooks?: { operations: Record<string, unknown>; tag: { name: string; description: string } };
}

const problem = (description: string, headers?: Json) => ({
  description,
  ...(headers ? { headers } : {}),
  content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
});

const header = (name: string) => ({ $ref: `#/components/headers/${name}` });

// docs/conventions.md#rate-limits: every /v1 answer once the partner is known carries these.
const rateLimitHeaders = {
  'RateLimit-Limit': header('RateLimit-Limit'),
  'RateLimit-Remaining': header('RateLimit-Remaining'),
  'RateLimit-Reset': header('RateLimit-Reset'),
  'RateLimit-Policy': header('RateLimit-Policy'),
};

const seconds = { type: 'integer', format: 'int32', minimum: 0, maximum: 86_400 };
const headerComponents = {
  'RateLimit-Limit': { description: "The bucket's size: requests you may make at once (docs/conventions.md#rate-limits).", schema: { ...seconds, maximum: 1_000_000 } },
  'RateLimit-Remaining': { description: 'Requests left in the bucket after this one.', schema: { ...seconds, maximum: 1_000_000 } },
  'RateLimit-Reset': { description: 'Seconds until the bucket is full again.', schema: seconds },
  'RateLimit-Policy': { description: 'The policy, as `<burst>;w=<seconds to refill>;burst=<burst>`.', schema: { type: 'string', maxLength: 64, pattern: '^[0-9]+;w=[0-9]+;burst=[0-9]+$' } },
  'Retry-After': { description: 'Seconds to wait before trying again.', schema: seconds },
};

/** A request refused for its rate: the partner's bucket on /v1, or the token endpoint's own limits. */
const tooManyRequests = (withBucket: boolean) =>
  problem(
    '`RATE_LIMITED` (or, for a lookup, `READ_BUDGET_EXHAUSTED`): wait `Retry-After` seconds (docs/conventions.md#rate-limits).',
    { 'Retry-After': header('Retry-After'), ...(withBucket ? rateLimitHeaders : {}) },
  );

const internal = problem('`INTERNAL`: a bug on our side; the detail holds only the request id to quote (docs/errors.md).');

/** Integers get the format their bounds allow; every PVS integer is a JSON-safe one. */
function addIntegerFormats(value: unknown): void {
  if (Array.isArray(value)) return value.forEach(addIntegerFormats);
  if (!value || typeof value !== 'object') return;
  const schema = value as Json;
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  if (types.includes('integer') && schema.format === undefined) {
    const int32 = typeof schema.minimum === 'number' && typeof schema.maximum === 'number' && schema.minimum >= -(2 ** 31) && schema.maximum < 2 ** 31;
    schema.format = int32 ? 'int32' : 'int64';
  }
  for (const member of Object.values(schema)) addIntegerFormats(member);
}

/** Completes the partner's document in place (it is a copy: selectDocument). */
export function completePartnerDocument(document: OpenApiDocument, options: PartnerDocumentOptions): void {
  const paths = (document.paths ??= {});
  for (const [path, item] of Object.entries(paths)) {
    for (const operation of Object.values(item)) {
      const responses = (operation.responses ??= {}) as Record<string, Json>;
      if (operation.security === undefined) {
        // Stated, not left out: these answer without partner credentials (health, the token endpoint, the
        // JWKS, and the links and signed URLs that carry their own permission).
        operation.security = [];
      } else if (path.startsWith('/v1/')) {
        for (const [status, answer] of Object.entries(responses)) {
          if (/^[24]/.test(status)) answer.headers = { ...(answer.headers as Json | undefined), ...rateLimitHeaders };
        }
        responses['401'] ??= problem('`UNAUTHENTICATED`: the token is missing, invalid, expired or revoked (`WWW-Authenticate: Bearer`); sent before the partner is known, so without rate-limit headers.');
        responses['429'] ??= tooManyRequests(true);
      }
      if (path === '/oauth2/token') responses['429'] ??= tooManyRequests(false);
      responses['500'] ??= internal;
    }
  }
  // One server, public: the address partners reach (PUBLIC_BASE_URL).
  document.servers = (document.servers ?? []).map((server) => ({ ...server, description: 'This PVS (sandbox or production: a token works in its own environment only)', 'x-internal': false }));
  document.components = { ...document.components, headers: { ...(document.components?.headers as Json | undefined), ...headerComponents } };
  if (options.webhooks) {
    // A copy: the catalogue's schemas are the ones emit validates with, and must not be annotated here.
    (document as unknown as Json).webhooks = structuredClone(options.webhooks.operations);
    document.tags = [...(document.tags ?? []), options.webhooks.tag];
  }
  addIntegerFormats(document);
  addOperationExamples(paths, (document.components?.schemas ?? {}) as Json);
}
