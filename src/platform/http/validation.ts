// Request validation. The body is validated strictly (no coercion, unknown fields rejected, every
// problem reported); query strings, path parameters and headers are text, so they are coerced.
// Validation errors become FieldProblems with a JSON Pointer into the body, or `query:name`,
// `header:Name`, `path:name` for the other parts. Text PVS cannot take at all (NUL, lone surrogates,
// control characters) is refused before this, by the input guard (input-guard.ts).
// Messages are words, never an expression: a failed `format` says what the value must be, and a failed
// `pattern` says what its schema's `x-message` says (messageKeyword below).
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifyRequest, FastifySchemaCompiler } from 'fastify';
import type { FieldProblem } from '../errors.ts';

function newAjv(options: { coerce: boolean }) {
  const ajv = new Ajv.default({
    allErrors: true,
    coerceTypes: options.coerce ? 'array' : false,
    useDefaults: true,
    removeAdditional: false,
    strict: false,
    // 1e309 parses as Infinity: a number, to Ajv's default, and `null` once written back as JSON.
    strictNumbers: true,
    // Errors carry the schema that failed, so a message can be the schema's own words (x-message).
    verbose: true,
  });
  addFormats.default(ajv);
  return ajv;
}

const bodyAjv = newAjv({ coerce: false });
const textAjv = newAjv({ coerce: true });

/** Keywords whose members are names (a field called `pattern` is not the keyword). */
const namedSchemas = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);
/** Keywords holding data, not schemas. */
const dataKeywords = new Set(['enum', 'const', 'default', 'examples']);

/** The schema without its regular expressions (pattern, format): types, sizes and enums only. */
function withoutExpressions(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withoutExpressions);
  if (!schema || typeof schema !== 'object') return schema;
  const kept: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'pattern' || key === 'format' || key === '$id') continue;
    if (dataKeywords.has(key)) kept[key] = value;
    else if (namedSchemas.has(key) && value && typeof value === 'object') {
      kept[key] = Object.fromEntries(Object.entries(value).map(([name, member]) => [name, withoutExpressions(member)]));
    } else kept[key] = withoutExpressions(value);
  }
  return kept;
}

/**
 * With allErrors, Ajv runs every keyword, so a pattern would run on a string far over its maxLength: a
 * 60 000-character name against a backtracking pattern costs seconds. Sizes and types are checked first,
 * and patterns and formats only run on values that passed them.
 */
function boundsFirst(bounds: ValidateFunction, full: ValidateFunction): ValidateFunction {
  const validate = ((data: unknown, context?: never) => {
    if (!bounds(data, context)) {
      validate.errors = bounds.errors;
      return false;
    }
    const valid = full(data, context);
    validate.errors = full.errors;
    return valid;
  }) as ValidateFunction;
  // Fastify passes the parent to validators that have it, so that Ajv can coerce a root value in place.
  return Object.assign(validate, { schemaEnv: full.schemaEnv, schema: full.schema });
}

/**
 * Each route's validator is compiled at the route's first request, not when the server starts: compiling
 * every route's schemas twice took about 0.4 s of a 2 s start (bench/README.md, cli), for routes a
 * process may never serve. The fuzz suite reaches every route, so a schema Ajv refuses still fails a test.
 */
export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) => {
  const ajv = httpPart === 'body' ? bodyAjv : textAjv;
  let compiled: ValidateFunction | undefined;
  const validate = ((data: unknown, context?: never) => {
    compiled ??= boundsFirst(ajv.compile(withoutExpressions(schema) as object), ajv.compile(schema as object));
    const valid = compiled(data, context);
    validate.errors = compiled.errors;
    return valid;
  }) as ValidateFunction;
  // Fastify passes the parent to a validator that has a schemaEnv, so that Ajv can coerce a root value in place.
  return Object.assign(validate, { schemaEnv: {}, schema }) as unknown as ReturnType<FastifySchemaCompiler<unknown>>;
};

/** Marks a route's body schema optional: no body (or an empty one) is taken as `{}`. */
export const optionalBodyKeyword = 'x-optional-body';

export function isOptionalBody(schema: unknown): boolean {
  return Boolean(schema && typeof schema === 'object' && (schema as Record<string, unknown>)[optionalBodyKeyword] === true);
}

const headerNames: Record<string, string> = {
  'x-partner-id': 'X-Partner-Id',
  'idempotency-key': 'Idempotency-Key',
  authorization: 'Authorization',
  'if-none-match': 'If-None-Match',
  'content-type': 'Content-Type',
};

/** How a header is named in a pointer: `header:X-Partner-Id`. */
export function headerLabel(name: string): string {
  return headerNames[name] ?? name;
}

/** Problems reported in one answer at the most; the rest are the same mistake repeated. */
export const maxProblems = 20;

/**
 * A schema's own words for what its value must be, answered instead of Ajv's message when the value
 * fails the schema's `pattern` or `format`, where Ajv's would show the expression
 * (`must match pattern "^[^\u0000-…"`). Every request schema with a `pattern` should carry one:
 * `Type.String({ pattern: '…', 'x-message': 'must be visible ASCII characters without spaces' })`.
 */
export const messageKeyword = 'x-message';

/** The formats request schemas use, in words; a schema's x-message still wins. */
const formatWords: Record<string, string> = {
  email: 'must be an email address',
  'date-time': 'must be a date and time with its offset (ISO 8601, such as 2026-11-21T10:00:00Z)',
  date: 'must be a date (YYYY-MM-DD)',
  uri: 'must be an absolute URL',
  uuid: 'must be a UUID',
};

function messageFor(error: ErrorObject, context: string | undefined): string {
  switch (error.keyword) {
    case 'required':
      return 'is required';
    case 'additionalProperties':
      return `is not a known ${context === 'querystring' ? 'parameter' : 'field'}; remove it`;
    case 'enum':
      return `must be one of ${(error.params as { allowedValues: unknown[] }).allowedValues.map((v) => JSON.stringify(v)).join(', ')}`;
    case 'pattern':
    case 'format': {
      const own = (error.parentSchema as Record<string, unknown> | undefined)?.[messageKeyword];
      if (typeof own === 'string') return own;
      const format = (error.params as { format?: string }).format;
      return (error.keyword === 'format' && format && formatWords[format]) || (error.message ?? 'is invalid');
    }
    default:
      return error.message ?? 'is invalid';
  }
}

/**
 * A nullable field (`anyOf: [schema, null]`) that fails its schema also fails "must be null"; the
 * schema's own problem says what is wrong, so the null branch's is left out when there is one.
 */
function isNullBranchNoise(error: ErrorObject, all: ErrorObject[]): boolean {
  if (error.keyword !== 'type' || (error.params as { type?: unknown }).type !== 'null') return false;
  return all.some((other) => other !== error && other.instancePath === error.instancePath && other.keyword !== 'anyOf' && other.keyword !== 'oneOf');
}

function pathOf(error: ErrorObject): string {
  const params = error.params as { missingProperty?: string; additionalProperty?: string };
  const child = params.missingProperty ?? params.additionalProperty;
  const escaped = child === undefined ? '' : `/${child.replace(/~/g, '~0').replace(/\//g, '~1')}`;
  return `${error.instancePath}${escaped}`;
}

export function fieldProblems(errors: ErrorObject[] | readonly unknown[], context: string | undefined, _request?: FastifyRequest): FieldProblem[] {
  const seen = new Set<string>();
  const problems: FieldProblem[] = [];
  const all = errors as ErrorObject[];
  for (const error of all) {
    // anyOf/oneOf wrappers repeat what their branches already said.
    if (error.keyword === 'anyOf' || error.keyword === 'oneOf' || isNullBranchNoise(error, all)) continue;
    const path = pathOf(error);
    const name = path.split('/')[1] ?? '';
    let pointer: string;
    switch (context) {
      case 'querystring':
        pointer = `query:${name}`;
        break;
      case 'headers':
        pointer = `header:${headerLabel(name)}`;
        break;
      case 'params':
        pointer = `path:${name}`;
        break;
      default:
        pointer = path;
    }
    const problem = { pointer, message: messageFor(error, context) };
    const key = `${problem.pointer}|${problem.message}`;
    if (!seen.has(key)) {
      seen.add(key);
      problems.push(problem);
    }
    if (problems.length >= maxProblems) break;
  }
  return problems;
}
