// The edge every request crosses before a route sees it. Whatever the route, text PVS cannot take (NUL,
// unpaired surrogates, control characters, over-long values) is refused here with 400 VALIDATION_ERROR
// and the pointer to where it was: in the headers PVS reads, the path, the query string and the body.
// Routes get this by being registered; a new route needs nothing of its own. The rules themselves are in
// platform/text-safety.ts, shared with the CLI and the file importers. A body parser added later (a
// multipart form, say) gets the same checks by leaving its fields, file names included, in request.body.
//
// Bodies: the JSON parser (json-body.ts) refuses bytes that are not UTF-8 and keys given twice. An empty
// body is no body, whatever Content-Type says: an operation that takes nothing accepts it (and `{}`), an
// operation whose body is optional takes it as `{}`, and one that needs a body says it is empty.
import type { FastifyRequest } from 'fastify';
import { AppError, type FieldProblem } from '../errors.ts';
import { inspectDocument, jsonBodyLimits, textProblem, type ShapeLimits } from '../text-safety.ts';
import { parseJsonBody } from './json-body.ts';
import { maxPathParameterLength } from './problem.ts';
import type { HttpApp } from './types.ts';
import { headerLabel, isOptionalBody, maxProblems } from './validation.ts';

/** Headers any route may read; a route's own `schema.headers` adds its names. */
const headersPvsReads = ['authorization', 'x-partner-id', 'idempotency-key', 'if-none-match', 'content-type'];
const headerMaxLength = 8_192;
const queryLimits: ShapeLimits = { maxDepth: 2, maxArrayItems: 20, maxObjectKeys: 50, maxStringLength: 2_048 };
const pathLimits: ShapeLimits = { maxDepth: 1, maxArrayItems: 0, maxObjectKeys: 20, maxStringLength: maxPathParameterLength };
const methodsWithBody = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

function refusal(problems: FieldProblem[]): AppError {
  const [first] = problems;
  const detail = problems.length === 1 ? `${describe(first!.pointer)} ${first!.message}` : 'The request holds values PVS cannot take; see errors[]';
  return new AppError('VALIDATION_ERROR', detail, { errors: problems.slice(0, maxProblems) });
}

function describe(pointer: string): string {
  const [part, name] = pointer.split(/:(.*)/s);
  if (name !== undefined && part === 'header') return `Header ${name}`;
  if (name !== undefined && part === 'query') return `Query parameter ${name}`;
  if (name !== undefined && part === 'path') return `Path parameter ${name}`;
  return pointer === '' ? 'The body' : `Field ${pointer}`;
}

function headerProblems(request: FastifyRequest): FieldProblem[] {
  const declared = Object.keys((request.routeOptions.schema?.headers as { properties?: object } | undefined)?.properties ?? {});
  const problems: FieldProblem[] = [];
  for (const name of new Set([...headersPvsReads, ...declared])) {
    const value = request.headers[name];
    for (const text of Array.isArray(value) ? value : value === undefined ? [] : [value]) {
      const problem = textProblem(text, { maxLength: headerMaxLength });
      if (problem) problems.push({ pointer: `header:${headerLabel(name)}`, message: problem });
    }
  }
  return problems;
}

/** A text part (path or query): single-line text, pointers as `path:name` / `query:name`. */
function textPartProblems(value: unknown, part: 'path' | 'query', limits: ShapeLimits): FieldProblem[] {
  if (value === undefined || value === null) return [];
  return inspectDocument(value, limits, { multiline: false, max: maxProblems }).map((p) => ({
    pointer: `${part}:${p.pointer.split('/')[1] ?? ''}`,
    message: p.message,
  }));
}

function bodyProblems(request: FastifyRequest): FieldProblem[] {
  const { body } = request;
  const schema = request.routeOptions.schema?.body;
  if (body === undefined) {
    if (isOptionalBody(schema)) request.body = {};
    return [];
  }
  if (!schema && methodsWithBody.has(request.method)) {
    // The operation takes nothing: `{}` is nothing too; anything else is a mistake worth saying.
    if (body && typeof body === 'object' && !Array.isArray(body) && Object.keys(body).length === 0) {
      request.body = undefined;
      return [];
    }
    const key = body && typeof body === 'object' && !Array.isArray(body) ? Object.keys(body)[0] : undefined;
    return [{ pointer: key === undefined ? '' : `/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`, message: 'is not accepted: this operation takes no body' }];
  }
  // A form (the token endpoint) is text fields, one line each; JSON strings may be free text, and so may
  // the fields of the portal's and console's forms (a decision's note).
  const form =
    typeof request.headers['content-type'] === 'string' &&
    request.headers['content-type'].startsWith('application/x-www-form-urlencoded') &&
    request.routeOptions.config.webForm !== true;
  return inspectDocument(body, jsonBodyLimits, { multiline: !form, max: maxProblems });
}

export function installInputGuard(app: HttpApp, options: { bodyLimit: number }): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: options.bodyLimit }, (_request, raw, done) => {
    try {
      done(null, parseJsonBody(raw as Buffer));
    } catch (error) {
      done(error as Error, undefined);
    }
  });

  app.addHook('onRequest', (request, _reply, done) => {
    // A request with no body (HTTP/1.1: no Transfer-Encoding, and no Content-Length or zero) has none,
    // whatever its Content-Type says: without the header, Fastify parses nothing.
    const { headers } = request;
    const length = headers['content-length'];
    if (headers['transfer-encoding'] === undefined && (length === undefined || length === '0')) delete headers['content-type'];
    const problems = headerProblems(request);
    done(problems.length > 0 ? refusal(problems) : undefined);
  });

  app.addHook('preValidation', (request, _reply, done) => {
    if (request.is404) return done();
    const problems = [
      ...textPartProblems(request.params, 'path', pathLimits),
      ...textPartProblems(request.query, 'query', queryLimits),
      ...bodyProblems(request),
    ];
    done(problems.length > 0 ? refusal(problems) : undefined);
  });
}
