// Request validation. The body is validated strictly (no coercion, unknown fields rejected, every
// problem reported); query strings, path parameters and headers are text, so they are coerced.
// Validation errors become FieldProblems with a JSON Pointer into the body, or `query:name`,
// `header:Name`, `path:name` for the other parts.
import Ajv, { type ErrorObject } from 'ajv';
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
  });
  addFormats.default(ajv);
  return ajv;
}

const bodyAjv = newAjv({ coerce: false });
const textAjv = newAjv({ coerce: true });

export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) => {
  const ajv = httpPart === 'body' ? bodyAjv : textAjv;
  return ajv.compile(schema as object) as ReturnType<FastifySchemaCompiler<unknown>>;
};

const headerNames: Record<string, string> = {
  'x-partner-id': 'X-Partner-Id',
  'idempotency-key': 'Idempotency-Key',
  authorization: 'Authorization',
};

function messageFor(error: ErrorObject, context: string | undefined): string {
  switch (error.keyword) {
    case 'required':
      return 'is required';
    case 'additionalProperties':
      return `is not a known ${context === 'querystring' ? 'parameter' : 'field'}; remove it`;
    case 'enum':
      return `must be one of ${(error.params as { allowedValues: unknown[] }).allowedValues.map((v) => JSON.stringify(v)).join(', ')}`;
    default:
      return error.message ?? 'is invalid';
  }
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
  for (const error of errors as ErrorObject[]) {
    // anyOf/oneOf wrappers repeat what their branches already said.
    if (error.keyword === 'anyOf' || error.keyword === 'oneOf') continue;
    const path = pathOf(error);
    const name = path.split('/')[1] ?? '';
    let pointer: string;
    switch (context) {
      case 'querystring':
        pointer = `query:${name}`;
        break;
      case 'headers':
        pointer = `header:${headerNames[name] ?? name}`;
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
  }
  return problems;
}
