// What the partner's document says beyond what each route's schema does, because it holds for whole
// groups of routes at once: the webhooks PVS sends, the rate-limit headers and the 401/429/500 answers of
// /v1 (partner-api.ts sets the headers, problem.ts writes the problems), that a route outside /v1 needs no
// partner credentials, the integer formats, and examples: on every operation's body and success answer,
// on every parameter, and a problem of each kind an operation answers. The linters' view of it, and what
// they ask for that PVS does not do, is in docs/openapi.md.
import { AppError, errorCatalogue, errorCodes, type AppErrorOptions, type ErrorCode } from '../errors.ts';
import { exampleId, type IdKind } from '../ids.ts';
import { addOperationExamples, addParameterExamples, pathIdKind } from './openapi-examples.ts';
import type { OpenApiDocument } from './openapi-documents.ts';
import { problemBody } from './problem.ts';

type Json = Record<string, unknown>;

export interface PartnerDocumentOptions {
  /** The `webhooks` object (modules/webhooks/webhooks.openapi.ts), built from the event catalogue. */
  webhooks?: { operations: Record<string, unknown>; tag: { name: string; description: string } };
}

// Each answer is an object of its own: the guide links are written into the descriptions in place
// (selectDocument), and an object shared by several operations would be linked once for each.
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
const headerComponents = () => ({
  'RateLimit-Limit': { description: "The bucket's size: requests you may make at once (docs/conventions.md#rate-limits).", schema: { ...seconds, maximum: 1_000_000 }, example: 100 },
  'RateLimit-Remaining': { description: 'Requests left in the bucket after this one.', schema: { ...seconds, maximum: 1_000_000 }, example: 99 },
  'RateLimit-Reset': { description: 'Seconds until the bucket is full again.', schema: seconds, example: 1 },
  'RateLimit-Policy': { description: 'The policy, as `<burst>;w=<seconds to refill>;burst=<burst>`.', schema: { type: 'string', maxLength: 64, pattern: '^[0-9]+;w=[0-9]+;burst=[0-9]+$' }, example: '100;w=2;burst=100' },
  'Retry-After': { description: 'Seconds to wait before trying again.', schema: seconds, example: 2 },
});

/** A request refused for its rate: the partner's bucket on /v1, or the token endpoint's own limits. */
const tooManyRequests = (withBucket: boolean) =>
  problem(
    '`RATE_LIMITED` (or, for a lookup, `READ_BUDGET_EXHAUSTED`): wait `Retry-After` seconds (docs/conventions.md#rate-limits).',
    { 'Retry-After': header('Retry-After'), ...(withBucket ? rateLimitHeaders : {}) },
  );

const internal = () => problem('`INTERNAL`: a bug on our side; the detail holds only the request id to quote (docs/errors.md).');

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

// ---------------------------------------------------------------------------------------------------
// Problem examples: a problem+json body as problem.ts writes it, for each kind of refusal an operation
// answers. Every operation that takes input gets a 400 with its pointer, every /v1 operation a 403
// PARTNER_MISMATCH, one that names a resource in its path a 404, one that bills a contact a 422
// CONTACT_INVALID, one that takes an Idempotency-Key a 422 IDEMPOTENCY_KEY_REUSED; and every code the
// operation's description names together with its status (`409 INVALID_STATE`, `422 with code
// NOT_A_PDF`) gets one too. 401, 429, 500 and 5XX show the codes the error table gives them.

const exampleRequestId = exampleId('request');

interface ProblemExample {
  summary: string;
  value: Json;
}

function problemExample(code: ErrorCode, detail: string, options: AppErrorOptions = {}): ProblemExample {
  return { summary: `${errorCatalogue[code].status} ${code}`, value: problemBody(new AppError(code, detail, options), exampleRequestId) };
}

/** What each kind of id is called in a detail (`Contact con_… was not found`). */
const nouns: Partial<Record<IdKind, string>> = {
  apiClient: 'API client',
  lookup: 'Business lookup',
  verification: 'Verification request',
  individual: 'Individual',
  deedAnalysis: 'Deed analysis',
  contact: 'Contact',
  charge: 'Charge',
  payment: 'Payment',
  destination: 'Webhook destination',
  notification: 'Webhook notification',
  monitoringAlert: 'Monitoring alert',
};

/** The resource an operation's path names last (`/v1/verifications/{id}/individuals/{individualId}`: the individual). */
function namedResource(path: string): { noun: string; id: string } | undefined {
  const names = [...path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]!);
  for (const name of names.reverse()) {
    const kind = pathIdKind(path, name);
    if (kind && nouns[kind]) return { noun: nouns[kind], id: exampleId(kind) };
  }
  return undefined;
}

/** The detail PVS writes for a code an operation's description names, in words that hold for any operation. */
function describedProblem(code: ErrorCode, path: string): ProblemExample {
  const resource = namedResource(path);
  const hosted = path.startsWith('/hosted/');
  const details: Partial<Record<ErrorCode, () => ProblemExample>> = {
    UNAUTHENTICATED: () =>
      problemExample(code, hosted ? 'The verification session is unknown, has expired or was replaced; open your latest link again' : 'The access token is invalid, expired or for another environment'),
    PAYMENT_METHOD_REQUIRED: () => problemExample(code, `Contact ${exampleId('contact')} has no saved card; send them a card link first`),
    CONTACT_BILLING_BLOCKED: () => problemExample(code, `Billing to contact ${exampleId('contact')} is blocked by your account (PATCH billingBlocked: false to allow it)`),
    CARD_DECLINED: () => problemExample(code, 'Your card was declined.', { extensions: { declineCode: 'generic_decline' } }),
    LOOKUP_NOT_OWNED: () => problemExample(code, `Business lookup ${exampleId('lookup')} is not one of yours`, { pointer: '/lookupRequestId' }),
    FORBIDDEN: () =>
      problemExample(
        code,
        path.includes('monitoring')
          ? 'Monitoring is available only to partners eligible for it; ask PVS to enable it for your account'
          : path.startsWith('/reports/')
            ? 'This report URL has expired (they last 15 minutes); ask for a new one with POST …/report.'
            : 'The upload URL has expired; create a new deed analysis for a new one',
      ),
    LOOKUP_NOT_COMPLETED: () => problemExample(code, `Business lookup ${exampleId('lookup')} is PENDING; bind it once it is COMPLETED`, { pointer: '/lookupRequestId' }),
    STRUCTURE_NOT_CONFIRMED: () =>
      problemExample(code, `Verification request ${exampleId('verification')} is in UBO_REVIEW; confirm its structure (PUT …/structure-confirmation) before sending links`),
    INVALID_STATE: () =>
      problemExample(code, resource ? `${resource.noun} ${resource.id} is not in a status that allows this; read it for its status` : 'Your documents are being checked; nothing can be changed until the checks finish'),
    PAYLOAD_EXPIRED: () => problemExample(code, 'The payload of this notification is no longer held (33 h retention; deed analysis results are delivered once)'),
    LINK_INVALID: () => problemExample(code, 'This link was already used, was replaced or has expired; ask for a new one'),
    PAYLOAD_TOO_LARGE: () => problemExample(code, 'The body is larger than 26214400 bytes, the most an upload may be; a deed may be at most 25 MB'),
    UNSUPPORTED_MEDIA_TYPE: () => problemExample(code, 'Content-Type text/plain is not accepted here; send multipart/form-data'),
    CONTACT_INVALID: () => problemExample(code, `Contact ${exampleId('contact')} was not found`, { pointer: '/contactId' }),
    UPLOAD_NOT_FOUND: () =>
      problemExample(code, `No file has been uploaded for deed analysis ${exampleId('deedAnalysis')}: PUT the PDF to upload.url with upload.headers first (the URL lasts 15 minutes; create a new analysis for a new one)`),
    FILE_TOO_LARGE: () => problemExample(code, 'The uploaded file is 31457280 bytes; a deed may be at most 25 MB (26,214,400 bytes). Upload a smaller file and start again'),
    NOT_A_PDF: () =>
      problemExample(code, 'The uploaded file is not a PDF that can be read (it is another kind of file, damaged, or protected by a password). Upload the deed as an unprotected PDF and start again'),
    TOO_MANY_PAGES: () => problemExample(code, 'The PDF has 212 pages; a deed may have at most 150. Remove the pages that are not the deed and start again'),
  };
  return details[code]?.() ?? problemExample(code, errorCatalogue[code].title);
}

/** The codes a description names with their status: `409 INVALID_STATE`, or `422 with code UPLOAD_NOT_FOUND (…), NOT_A_PDF`. */
function describedCodes(description: string): ErrorCode[] {
  return errorCodes.filter((code) => new RegExp(`\\b${code}\\b`).test(description) && new RegExp(`\\b${errorCatalogue[code].status}\\b`).test(description));
}

/** Resolves `$ref`s into the document's component schemas. */
const resolve = (schema: unknown, components: Json): Json | undefined => {
  const s = schema as Json | undefined;
  return typeof s?.$ref === 'string' ? resolve(components[decodeURIComponent(s.$ref.split('/').pop()!)], components) : s;
};

/** A 400 of the operation's own input: a required field left out, or a value of the wrong size or type. */
function validationProblem(path: string, operation: Json, components: Json): ProblemExample | undefined {
  if (path === '/oauth2/token') {
    // Its refusals of the form are RFC 6749's (the 400 answer); text PVS cannot take at all is refused
    // before them, as a problem that carries RFC 6749's members too (problem.ts).
    const problem = { pointer: '/client_id', message: 'contains a NUL character (U+0000) at position 5' };
    const detail = `Field ${problem.pointer} ${problem.message}`;
    return problemExample('VALIDATION_ERROR', detail, { errors: [problem], extensions: { error: 'invalid_request', error_description: detail } });
  }
  const content = (operation.requestBody as { content?: Record<string, Json> } | undefined)?.content ?? {};
  const body = resolve(content['application/json']?.schema ?? content['application/x-www-form-urlencoded']?.schema, components);
  const properties = Object.entries((body?.properties ?? {}) as Record<string, Json>);
  const required = ((body?.required ?? []) as string[]).filter((name) => properties.some(([key]) => key === name));
  let problem: { pointer: string; message: string } | undefined;
  if (required.length > 0) problem = { pointer: `/${required[0]}`, message: 'is required' };
  else if (properties.length > 0) {
    const [name, schema] = properties[0]!;
    const field = resolve(schema, components) ?? {};
    const type = Array.isArray(field.type) ? field.type[0] : field.type;
    const message =
      typeof field.minLength === 'number' && field.minLength > 0
        ? `must NOT have fewer than ${field.minLength} characters`
        : typeof field.maxLength === 'number'
          ? `must NOT have more than ${field.maxLength} characters`
          : `must be ${typeof type === 'string' && type !== 'string' ? type : 'object'}`;
    problem = { pointer: `/${name}`, message };
  } else {
    const query = ((operation.parameters ?? []) as Json[]).filter((parameter) => parameter.in === 'query');
    const limit = query.find((parameter) => parameter.name === 'limit');
    const first = limit ?? query[0];
    const schema = (first?.schema ?? {}) as Json;
    if (first && typeof schema.maximum === 'number') problem = { pointer: `query:${String(first.name)}`, message: `must be <= ${schema.maximum}` };
    else if (first && typeof schema.maxLength === 'number') problem = { pointer: `query:${String(first.name)}`, message: `must NOT have more than ${schema.maxLength} characters` };
  }
  return problem && problemExample('VALIDATION_ERROR', 'The request does not match the schema; see errors[]', { errors: [problem] });
}

/** The examples of an operation's 4XX answer, keyed by code, in the order of their status. */
function clientProblems(path: string, operation: Json, components: Json): Record<string, ProblemExample> {
  const examples = new Map<ErrorCode, ProblemExample>();
  const validation = validationProblem(path, operation, components);
  if (validation) examples.set('VALIDATION_ERROR', validation);
  if (path.startsWith('/v1/')) examples.set('PARTNER_MISMATCH', problemExample('PARTNER_MISMATCH', 'X-Partner-Id does not match the partner these credentials belong to'));
  const resource = namedResource(path);
  if (resource) examples.set('NOT_FOUND', problemExample('NOT_FOUND', `${resource.noun} ${resource.id} was not found`));
  const parameters = (operation.parameters ?? []) as Json[];
  if (parameters.some((parameter) => parameter.in === 'header' && parameter.name === 'idempotency-key')) {
    examples.set('IDEMPOTENCY_KEY_REUSED', problemExample('IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was already used with a different request; use a new key for a new request'));
  }
  const body = resolve((operation.requestBody as { content?: Record<string, Json> } | undefined)?.content?.['application/json']?.schema, components);
  if (body?.properties && 'contactId' in (body.properties as Json)) examples.set('CONTACT_INVALID', describedProblem('CONTACT_INVALID', path));
  for (const code of describedCodes(String(operation.description ?? ''))) {
    const status = errorCatalogue[code].status;
    if (status >= 400 && status < 500 && status !== 429 && !examples.has(code)) examples.set(code, describedProblem(code, path));
  }
  const byStatus = [...examples].sort(([a], [b]) => errorCatalogue[a].status - errorCatalogue[b].status);
  return Object.fromEntries(byStatus);
}

/** Sets the examples of the problem answer `status` of `responses`, if it has one. */
function setProblemExamples(responses: Record<string, Json>, status: string, examples: Record<string, ProblemExample>): void {
  const media = (responses[status]?.content as Record<string, Json> | undefined)?.['application/problem+json'];
  if (!media || Object.keys(examples).length === 0) return;
  delete media.example;
  media.examples = examples;
}

function addProblemExamples(path: string, operation: Json, components: Json): void {
  const responses = (operation.responses ?? {}) as Record<string, Json>;
  const description = String(operation.description ?? '');
  setProblemExamples(responses, '4XX', clientProblems(path, operation, components));
  setProblemExamples(responses, '401', { UNAUTHENTICATED: describedProblem('UNAUTHENTICATED', path) });
  const rateLimited = path === '/oauth2/token' ? 'Too many token requests for this client; cache tokens until they expire' : 'Rate limit exceeded; retry after 2 s';
  setProblemExamples(responses, '429', {
    RATE_LIMITED: problemExample('RATE_LIMITED', rateLimited, { retryAfter: 2 }),
    ...(/\bREAD_BUDGET_EXHAUSTED\b/.test(description)
      ? {
          READ_BUDGET_EXHAUSTED: problemExample(
            'READ_BUDGET_EXHAUSTED',
            `Business lookup ${exampleId('lookup')} has had its 50 registry and ownership reads for today (UTC). Keep the answers you have (they carry an ETag and may be cached for 5 minutes), or run a new lookup for fresh register data.`,
          ),
        }
      : {}),
  });
  setProblemExamples(responses, '500', { INTERNAL: problemExample('INTERNAL', `Something went wrong on our side. Quote request id ${exampleRequestId} to support.`) });
  setProblemExamples(responses, '5XX', { SERVICE_UNAVAILABLE: problemExample('SERVICE_UNAVAILABLE', 'A dependency of the service is unavailable; try again shortly', { retryAfter: 5 }) });
}

// ---------------------------------------------------------------------------------------------------
// Examples for the operations whose schemas carry none of their own yet (their modules: auth, partners):
// the token exchange with the only scope, an API client, and the keys that verify a token.

const exampleClient = { id: exampleId('apiClient'), secret: 'pvs_secret_2Xw7Qk9rTb4LmN1pVz6cHs3Fd8Jy5Ga0Ue-WoKi_RtE' };
const exampleToken =
  'eyJhbGciOiJFUzI1NiIsImtpZCI6ImtleV8wMUpEMDAwMDAwMDAwMDAwMDAwMDAwMDAwMCJ9.eyJzdWIiOiJjbGlfMDFKRDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAifQ.dGhpcyBpcyBub3QgYSByZWFsIHNpZ25hdHVyZQ';
const apiClient = { id: exampleClient.id, label: 'Production server', createdAt: '2026-11-21T09:00:00.000Z', revokedAt: null };
const knownExamples: Record<string, { request?: unknown; answers?: Record<string, unknown> }> = {
  issueToken: {
    request: { grant_type: 'client_credentials', client_id: exampleClient.id, client_secret: exampleClient.secret, scope: 'channel-partner-api/server' },
    answers: {
      200: { access_token: exampleToken, token_type: 'Bearer', expires_in: 3600, scope: 'channel-partner-api/server' },
      400: { error: 'invalid_scope', error_description: 'The only scope is channel-partner-api/server' },
      401: { error: 'invalid_client', error_description: 'Unknown client or wrong secret' },
    },
  },
  getJwks: {
    answers: {
      200: { keys: [{ kty: 'EC', crv: 'P-256', x: 'f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU', y: 'x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0', kid: exampleId('signingKey'), alg: 'ES256', use: 'sig' }] },
    },
  },
  getCurrentPartner: {
    answers: { 200: { id: exampleId('partner'), name: 'Harbour Accounting Partners', environment: 'sandbox', monitoringEligible: true, commissionBps: 100, createdAt: '2026-11-01T09:00:00.000Z' } },
  },
  createApiClient: { request: { label: 'Production server' }, answers: { 201: { ...apiClient, clientSecret: exampleClient.secret } } },
  listApiClients: { answers: { 200: { data: [apiClient], limit: 20, from: 0, nextFrom: null } } },
  getApiClient: { answers: { 200: apiClient } },
  revokeApiClient: { answers: { 200: { ...apiClient, revokedAt: '2026-11-28T09:00:00.000Z' } } },
};

function addKnownExamples(operation: Json): void {
  const known = knownExamples[String(operation.operationId)];
  if (!known) return;
  const media = (content: unknown) => Object.values((content ?? {}) as Record<string, Json>)[0];
  const body = media((operation.requestBody as Json | undefined)?.content);
  if (known.request !== undefined && body) body.example = known.request;
  for (const [status, example] of Object.entries(known.answers ?? {})) {
    const answer = media(((operation.responses ?? {}) as Record<string, Json>)[status]?.content);
    if (answer) answer.example = example;
  }
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
      responses['500'] ??= internal();
    }
  }
  // One server, public: the address partners reach (PUBLIC_BASE_URL).
  document.servers = (document.servers ?? []).map((server) => ({ ...server, description: 'This PVS (sandbox or production: a token works in its own environment only)', 'x-internal': false }));
  document.components = { ...document.components, headers: { ...(document.components?.headers as Json | undefined), ...headerComponents() } };
  if (options.webhooks) {
    // A copy: the catalogue's schemas are the ones emit validates with, and must not be annotated here.
    (document as unknown as Json).webhooks = structuredClone(options.webhooks.operations);
    document.tags = [...(document.tags ?? []), structuredClone(options.webhooks.tag)];
  }
  addIntegerFormats(document);
  const components = (document.components?.schemas ?? {}) as Json;
  for (const item of Object.values(paths)) for (const operation of Object.values(item)) addKnownExamples(operation);
  addOperationExamples(paths, components);
  addParameterExamples(paths, components);
  for (const [path, item] of Object.entries(paths)) for (const operation of Object.values(item)) addProblemExamples(path, operation, components);
}
