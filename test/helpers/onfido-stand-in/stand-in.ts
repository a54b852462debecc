// A stand-in for Onfido's API v3.6 on a local port, for PVS's tests and for operators trying production
// mode by hand. Every request goes, in order, through: a simulated outage (failNext), authentication
// (`Authorization: Token token=<apiToken>`, as @onfido/api sends it), the spec's routing, validation of
// its parameters and body against the operation (a request that breaks the spec is refused with 422, or
// 404 for a malformed id in the path, and recorded as a violation), then the operation itself. Every
// answer is checked against the operation's documented response before it is sent. It logs nothing.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { errorAnswer, fieldsOf, notFound, outageAnswers, unauthorised, type Answer, type Handler } from './answers.ts';
import { applicantHandlers } from './applicants.ts';
import { checkHandlers } from './checks.ts';
import { mediaHandlers } from './media.ts';
import { parseBody } from './request-body.ts';
import { loadSpec, matchOperation, type SpecOperation } from './spec.ts';
import { specValidator } from './spec-validator.ts';
import { createStore, timestamp } from './store.ts';
import { createWebhookSender } from './webhooks.ts';

export interface OnfidoStandIn {
  /** Base URL ending in /v3.6, e.g. http://127.0.0.1:PORT/v3.6: what PVS's ONFIDO_API_URL is set to. */
  url: string;
  apiToken: string;
  webhookToken: string;
  /** Where check.completed webhooks are POSTed (PVS's /providers/onfido/webhooks); null: none sent. */
  setWebhookUrl(url: string | null): void;
  /**
   * The next `count` requests (optionally only those whose "METHOD /path" matches `match`) answer
   * `status` (500 by default; 502, 503, or 429 with Retry-After: 1) without doing anything. `match` is
   * tried on the path both with and without the base path: `/^POST \/checks$/` and
   * `/^POST \/v3\.6\/checks$/` both match a check's creation.
   */
  failNext(count: number, options?: { status?: number; match?: RegExp }): void;
  /** Requests received, in order, without bodies: { method, path (as received, no query), status }. */
  readonly requests: ReadonlyArray<{ method: string; path: string; status: number }>;
  /** Every place a request PVS sent or a response the stand-in gave does not match the spec; tests assert it stays empty. */
  readonly violations: readonly string[];
  /** What it holds, for tests: applicant ids and whether each was deleted; how many checks exist. */
  applicants(): Array<{ id: string; deleted: boolean; checks: number; documents: number; livePhotos: number }>;
  /** The hex HMAC-SHA256 of a body under webhookToken, as X-SHA2-Signature carries it: for tests that replay or forge a notification. */
  signature(rawBody: string | Buffer): string;
  close(): Promise<void>;
}

export interface StandInOptions {
  port?: number;
  host?: string;
  apiToken?: string;
  webhookToken?: string;
  webhookUrl?: string | null;
  completeAfterMs?: number;
}

const tokenShapes = { apiToken: /^api_(sandbox|live)(_[a-z]{2})?\.[A-Za-z0-9._-]{8,}$/, webhookToken: /^[A-Za-z0-9_-]{16,}$/ };
/** Larger than the largest upload Onfido takes (a 10 MB live photo) with its multipart framing. */
const maxBodyBytes = 12 * 1024 * 1024;

export async function startOnfidoStandIn(options: StandInOptions = {}): Promise<OnfidoStandIn> {
  const apiToken = options.apiToken ?? 'api_live.standin.0123456789abcdef';
  const webhookToken = options.webhookToken ?? 'standin_webhook_token_0123456789';
  for (const [name, value] of Object.entries({ apiToken, webhookToken })) {
    if (!tokenShapes[name as keyof typeof tokenShapes].test(value)) throw new Error(`onfido stand-in: ${name} does not have the shape PVS's configuration requires`);
  }
  const spec = loadSpec();
  const validator = specValidator(spec);
  const store = createStore();
  const presenter = { basePath: spec.basePath, sandbox: apiToken.startsWith('api_sandbox') };
  const requests: Array<{ method: string; path: string; status: number }> = [];
  const violations: string[] = [];
  const failures: Array<{ remaining: number; status: number; match?: RegExp }> = [];
  const timers = new Set<NodeJS.Timeout>();
  let origin = '';

  const webhooks = createWebhookSender({
    token: webhookToken,
    url: options.webhookUrl ?? null,
    check: (event) => validator.checkSchema('webhook_event', event).map((p) => `${p.field}: ${p.message}`),
    onViolation: (v) => violations.push(v),
  });
  const deps = { store, presenter };
  const handlers: Record<string, Handler> = {
    ...applicantHandlers(deps),
    ...mediaHandlers(deps),
    ...checkHandlers({
      ...deps,
      completeAfterMs: options.completeAfterMs ?? 300,
      timers,
      onCompleted: (check) => webhooks.checkCompleted({ id: check.id, completedAt: timestamp(), href: `${origin}${spec.basePath}/checks/${check.id}` }),
    }),
  };

  const takeFailure = (method: string, path: string): Answer | null => {
    const short = path.startsWith(`${spec.basePath}/`) ? path.slice(spec.basePath.length) : path;
    const rule = failures.find((f) => !f.match || `${method} ${path}`.search(f.match) !== -1 || `${method} ${short}`.search(f.match) !== -1);
    if (!rule) return null;
    if (--rule.remaining === 0) failures.splice(failures.indexOf(rule), 1);
    return outageAnswers[rule.status]!();
  };

  /** The answer to a request, and the operation it was for (whose documented responses it must match). */
  const answerFor = async (req: IncomingMessage, raw: Buffer, size: number, url: URL): Promise<{ operation: SpecOperation | null; answer: Answer }> => {
    const method = req.method ?? 'GET';
    const where = `${method} ${url.pathname}`;
    const note = (problems: Array<{ field: string; message: string }>) => {
      for (const p of problems) violations.push(`${where}: ${p.field} ${p.message}`);
    };
    const refuse = (operation: SpecOperation | null, problems: Array<{ field: string; message: string }>, answer: Answer) => {
      note(problems);
      return { operation, answer };
    };
    const outage = takeFailure(method, url.pathname);
    if (outage) return { operation: null, answer: outage };
    if (req.headers.authorization !== `Token token=${apiToken}`) return { operation: null, answer: unauthorised() };
    if (size > maxBodyBytes) return { operation: null, answer: errorAnswer(413, 'request_too_large', 'The request is too large') };
    if (!url.pathname.startsWith(`${spec.basePath}/`)) return refuse(null, [{ field: 'path', message: `is not below ${spec.basePath}` }], notFound());

    const match = matchOperation(spec, method, url.pathname.slice(spec.basePath.length));
    if (!match.operation) return refuse(null, [{ field: 'path', message: match.pathKnown ? 'does not take this method' : 'is not in Onfido\'s API' }], notFound());
    const { operation, params } = match;
    const handler = handlers[operation.operationId];
    // Documented but not simulated: not PVS's mistake, so no violation; the 404 shows in the test.
    if (!handler) return { operation: null, answer: errorAnswer(404, 'resource_not_found', `The stand-in does not simulate ${operation.operationId}`) };

    const checked = validator.checkParameters(operation, params, url.searchParams);
    if (checked.path.length > 0) return refuse(operation, checked.path, notFound());
    const parsed = await parseBody(validator, operation, req.headers['content-type'], raw);
    const problems = [...checked.query, ...parsed.problems];
    const refused = problems.filter((p) => !p.ignoredByOnfido);
    if (refused.some((p) => p.field === '(body)')) return refuse(operation, problems, errorAnswer(400, 'bad_request', refused.map((p) => p.message).join('; ')));
    if (refused.length > 0) return refuse(operation, problems, errorAnswer(422, 'validation_error', 'There was a validation error on this request', fieldsOf(refused)));
    note(problems);
    try {
      return { operation, answer: await handler({ params, query: url.searchParams, body: parsed.body, files: parsed.files }) };
    } catch (error) {
      violations.push(`${where}: the stand-in failed: ${(error as Error).stack ?? String(error)}`);
      return { operation: null, answer: errorAnswer(500, 'internal_server_error', 'There was an internal server error') };
    }
  };

  const respond = (res: ServerResponse, where: string, operation: SpecOperation | null, answer: Answer) => {
    for (const problem of validator.checkResponse(operation, answer.status, { json: answer.json, bytes: answer.bytes?.data })) {
      violations.push(`${where} → ${answer.status}: ${problem}`);
    }
    const headers: Record<string, string> = { ...answer.headers };
    let payload: Buffer | string = '';
    if (answer.bytes) {
      headers['Content-Type'] = answer.bytes.contentType;
      headers['Content-Disposition'] = `attachment; filename="${answer.bytes.fileName.replace(/[^A-Za-z0-9._-]/g, '_')}"`;
      payload = answer.bytes.data;
    } else if (answer.json !== undefined) {
      headers['Content-Type'] = 'application/json; charset=utf-8';
      payload = JSON.stringify(answer.json);
    }
    res.writeHead(answer.status, headers).end(payload);
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= maxBodyBytes) chunks.push(chunk);
    });
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://stand-in.invalid');
      const record = { method: req.method ?? 'GET', path: url.pathname, status: 0 };
      requests.push(record);
      void answerFor(req, Buffer.concat(chunks), size, url).then(({ operation, answer }) => {
        record.status = answer.status;
        respond(res, `${record.method} ${record.path}`, operation, answer);
      });
    });
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, resolve);
  });
  const { port } = server.address() as AddressInfo;
  origin = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;

  return {
    url: `${origin}${spec.basePath}`,
    apiToken,
    webhookToken,
    setWebhookUrl: (url) => webhooks.setUrl(url),
    failNext: (count, failOptions = {}) => {
      const status = failOptions.status ?? 500;
      if (!Number.isInteger(count) || count < 1) throw new RangeError('failNext: count must be a positive integer');
      if (!outageAnswers[status]) throw new RangeError(`failNext: status must be one of ${Object.keys(outageAnswers).join(', ')}`);
      failures.push({ remaining: count, status, match: failOptions.match });
    },
    requests,
    violations,
    applicants: () =>
      [...store.applicants.values()].map((a) => ({
        id: a.id,
        deleted: a.deleted,
        checks: [...store.checks.values()].filter((c) => c.applicantId === a.id).length,
        documents: [...store.documents.values()].filter((d) => d.applicantId === a.id).length,
        livePhotos: [...store.livePhotos.values()].filter((p) => p.applicantId === a.id).length,
      })),
    signature: (rawBody) => webhooks.signature(rawBody),
    close: () =>
      new Promise((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        timers.clear();
        webhooks.close();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
