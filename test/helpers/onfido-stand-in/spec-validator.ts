// Validation against Onfido's OpenAPI 3.0 description with Ajv (JSON Schema draft-07). OpenAPI 3.0's
// schema object is a dialect of its own, so the spec's schemas are translated first, once for each
// direction (what a client sends, what the API answers):
//   nullable: true         → anyOf [the schema, { type: 'null' }]; draft-07 has no `nullable`
//   discriminator + oneOf  → the discriminator's value picks its mapped schema (an if/then per entry).
//                            A plain oneOf cannot work: every report schema accepts every report, so
//                            "exactly one matches" always fails.
//   readOnly / writeOnly   → in a request a readOnly property is neither required nor allowed; in a
//                            response the same for writeOnly
//   example, deprecated    → dropped: annotations only
//   format binary, float   → known to ajv-formats: binary is any string (a multipart file is validated
//                            as a placeholder string), float any finite number
// `errata` lists where the published spec contradicts Onfido's own documentation for something the
// stand-in sends; those fixes are made here, in memory, and the vendored file stays as published.
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { OnfidoSpec, Schema, SpecOperation } from './spec.ts';

type Direction = 'request' | 'response';

export interface Problem {
  /** The top-level field the problem is in, as Onfido's `fields` names it; `(body)` for the whole. */
  field: string;
  message: string;
  /** Allowed by the spec and ignored by Onfido (a field it does not name): a violation, not refused. */
  ignoredByOnfido?: boolean;
}

const errata: Record<string, (schema: Schema) => Schema> = {
  // The payload Onfido documents, and this schema's own properties, carry `action`; `event` and
  // `resource_id` are named nowhere else and no check.completed event carries them.
  webhook_event_payload: (schema) => ({ ...schema, required: ['resource_type', 'action'] }),
};

const annotations = new Set(['example', 'deprecated', 'xml', 'externalDocs', 'nullable', 'discriminator', 'readOnly', 'writeOnly']);
const documentIds: Record<Direction, string> = { request: 'onfido-request', response: 'onfido-response' };

function translate(node: Schema, dir: Direction, all: Record<string, Schema>): Schema {
  const out: Schema = {};
  const properties = (node.properties ?? {}) as Record<string, Schema>;
  for (const [key, value] of Object.entries(node)) {
    if (annotations.has(key) || (key === 'oneOf' && node.discriminator)) continue;
    if (key === '$ref') out.$ref = absoluteRef(value as string, dir);
    else if (key === 'properties') {
      out.properties = Object.fromEntries(
        Object.entries(properties).map(([name, member]) => [name, hiddenIn(dir, member, all) ? { not: {}, 'x-hidden': hiddenWord[dir] } : translate(member, dir, all)]),
      );
    } else if (key === 'required') out.required = (value as string[]).filter((name) => !properties[name] || !hiddenIn(dir, properties[name], all));
    else if (key === 'allOf' || key === 'anyOf' || key === 'oneOf') out[key] = (value as Schema[]).map((s) => translate(s, dir, all));
    else if (key === 'items' || key === 'not' || (key === 'additionalProperties' && typeof value === 'object')) out[key] = translate(value as Schema, dir, all);
    else out[key] = value;
  }
  const discriminator = node.discriminator as { propertyName: string; mapping?: Record<string, string> } | undefined;
  if (discriminator && Array.isArray(node.oneOf)) {
    // Without a mapping, each schema's name is its discriminator value.
    const mapping: Record<string, string> = discriminator.mapping ?? Object.fromEntries((node.oneOf as Schema[]).map((s) => [String(s.$ref).split('/').pop(), String(s.$ref)]));
    const name = discriminator.propertyName;
    out.allOf = [
      ...((out.allOf as Schema[] | undefined) ?? []),
      { type: 'object', required: [name], properties: { [name]: { enum: Object.keys(mapping) } } },
      ...Object.entries(mapping).map(([value, ref]) => ({ if: { properties: { [name]: { const: value } } }, then: { $ref: absoluteRef(ref, dir) } })),
    ];
  }
  return node.nullable === true ? { anyOf: [out, { type: 'null' }] } : out;
}

const hiddenWord: Record<Direction, string> = { request: 'read-only', response: 'write-only' };

function hiddenIn(dir: Direction, member: Schema, all: Record<string, Schema>): boolean {
  const target = typeof member.$ref === 'string' ? (all[member.$ref.split('/').pop()!] ?? member) : member;
  return dir === 'request' ? target.readOnly === true || member.readOnly === true : target.writeOnly === true || member.writeOnly === true;
}

function absoluteRef(ref: string, dir: Direction): string {
  return ref.startsWith('#/') ? `${documentIds[dir]}${ref}` : ref;
}

function newAjv(coerce: boolean) {
  // strict: false for the OpenAPI document wrapper (`components`) and x- keywords; logger off so the
  // stand-in prints nothing.
  const ajv = new Ajv.default({ allErrors: true, strict: false, strictNumbers: true, verbose: true, coerceTypes: coerce, logger: false });
  addFormats.default(ajv);
  return ajv;
}

/** The properties a schema names at its top level, through `$ref` and `allOf`, as the spec writes them. */
export function propertiesOf(schema: Schema, all: Record<string, Schema>): Map<string, Schema> {
  const found = new Map<string, Schema>();
  const visit = (node: Schema) => {
    const target = deref(node, all);
    for (const [name, member] of Object.entries((target.properties ?? {}) as Record<string, Schema>)) found.set(name, member);
    for (const part of (target.allOf ?? []) as Schema[]) visit(part);
  };
  visit(schema);
  return found;
}

/** A schema's JSON type, through `$ref` and `allOf` (`location` is an allOf of a $ref of an object). */
export function typeOf(schema: Schema, all: Record<string, Schema>): string | undefined {
  const target = deref(schema, all);
  if (typeof target.type === 'string') return target.type;
  for (const part of (target.allOf ?? []) as Schema[]) {
    const type = typeOf(part, all);
    if (type) return type;
  }
  return target.properties ? 'object' : undefined;
}

function deref(schema: Schema, all: Record<string, Schema>): Schema {
  return typeof schema.$ref === 'string' ? deref(all[schema.$ref.split('/').pop()!] ?? {}, all) : schema;
}

export function describeErrors(errors: ErrorObject[] | null | undefined): Problem[] {
  const problems: Problem[] = [];
  for (const error of errors ?? []) {
    // Summaries of what the errors below them already say.
    if (error.keyword === 'if' || error.keyword === 'anyOf' || error.keyword === 'allOf') continue;
    const path = error.instancePath.split('/').slice(1).map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
    let message = error.message ?? 'is invalid';
    if (error.keyword === 'required') {
      path.push(String(error.params.missingProperty));
      message = 'is required';
    } else if (error.keyword === 'enum') {
      const allowed = (error.params.allowedValues as unknown[]).map(String);
      message = `must be one of ${allowed.slice(0, 6).join(', ')}${allowed.length > 6 ? `, … (${allowed.length} values)` : ''}`;
    } else if (error.keyword === 'not' && (error.parentSchema as Schema | undefined)?.['x-hidden']) {
      message = `is ${String((error.parentSchema as Schema)['x-hidden'])}`;
    }
    const where = path.length > 1 ? `${path.slice(1).join('.')} ` : '';
    problems.push({ field: path[0] ?? '(body)', message: `${where}${message}` });
  }
  return problems;
}

export interface SpecValidator {
  /** Path and query parameters, as text (coerced to their types); undocumented query names too. */
  checkParameters(operation: SpecOperation, path: Record<string, string>, query: URLSearchParams): { path: Problem[]; query: Problem[] };
  /** A request body as parsed (multipart already turned into typed values). */
  checkRequestBody(operation: SpecOperation, contentType: string, body: Record<string, unknown>): Problem[];
  /** What an answer breaks of the operation's documented response (the `Error` schema when there is none). */
  checkResponse(operation: SpecOperation | null, status: number, answer: { json?: unknown; bytes?: Buffer }): string[];
  /** A value against one of `components.schemas`, as the API sends it. */
  checkSchema(name: string, value: unknown): Problem[];
  schemas: Record<string, Schema>;
}

let shared: SpecValidator | undefined;

/** One per process: compiling the spec's 330 schemas is the slow part, and they never change. */
export function specValidator(spec: OnfidoSpec): SpecValidator {
  if (shared) return shared;
  const all = Object.fromEntries(Object.entries(spec.schemas).map(([name, schema]) => [name, errata[name]?.(schema) ?? schema]));
  const body = newAjv(false);
  const text = newAjv(true);
  for (const dir of ['request', 'response'] as const) {
    const document = { $id: documentIds[dir], components: { schemas: Object.fromEntries(Object.entries(all).map(([n, s]) => [n, translate(s, dir, all)])) } };
    body.addSchema(document);
    text.addSchema(document);
  }
  const compiled = new Map<string, ValidateFunction>();
  const compile = (key: string, ajv: typeof body, make: () => Schema) => {
    let validate = compiled.get(key);
    if (!validate) compiled.set(key, (validate = ajv.compile(make())));
    return validate;
  };

  const checkParameters: SpecValidator['checkParameters'] = (operation, path, query) => {
    const part = (where: 'path' | 'query', values: Record<string, unknown>) => {
      const params = operation.parameters.filter((p) => p.in === where);
      const validate = compile(`${operation.operationId}:${where}`, text, () => ({
        type: 'object',
        properties: Object.fromEntries(params.map((p) => [p.name, translate(p.schema ?? {}, 'request', all)])),
        required: params.filter((p) => p.required).map((p) => p.name),
      }));
      const problems = validate(values) ? [] : describeErrors(validate.errors);
      for (const name of Object.keys(values)) {
        if (!params.some((p) => p.name === name)) problems.push({ field: name, message: 'is not a documented parameter', ignoredByOnfido: true });
      }
      return problems;
    };
    return { path: part('path', { ...path }), query: part('query', Object.fromEntries(query)) };
  };

  const checkRequestBody: SpecValidator['checkRequestBody'] = (operation, contentType, value) => {
    const schema = operation.requestBody?.content[contentType]?.schema;
    if (!schema) return [{ field: '(body)', message: `is ${contentType}, which ${operation.method} ${operation.path} does not take` }];
    const validate = compile(`${operation.operationId}:${contentType}`, body, () => translate(schema, 'request', all));
    const problems = validate(value) ? [] : describeErrors(validate.errors);
    // The spec allows fields it does not name, and Onfido ignores them; from PVS one is a typo.
    const known = propertiesOf(schema, all);
    for (const name of Object.keys(value)) if (!known.has(name)) problems.push({ field: name, message: 'is not a documented field', ignoredByOnfido: true });
    return problems;
  };

  const checkResponse: SpecValidator['checkResponse'] = (operation, status, answer) => {
    const documented = operation ? (operation.responses[String(status)] ?? operation.responses.default) : { content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };
    if (!documented) return [`status ${status} is not documented`];
    const content = documented.content;
    if (!content) return answer.json !== undefined || answer.bytes ? [`status ${status} is documented without a body, but one was sent`] : [];
    const json = content['application/json'];
    if (json) {
      if (answer.json === undefined) return [`status ${status} is documented as JSON, but none was sent`];
      const key = `${operation?.operationId ?? '(none)'}:${status}`;
      const validate = compile(key, body, () => translate(json.schema, 'response', all));
      return validate(answer.json) ? [] : describeErrors(validate.errors).map((p) => `${p.field === '(body)' ? '' : `${p.field}: `}${p.message}`);
    }
    return answer.bytes ? [] : [`status ${status} is documented as bytes (${Object.keys(content).join(', ')}), but none were sent`];
  };

  const checkSchema: SpecValidator['checkSchema'] = (name, value) => {
    const validate = compile(`schema:${name}`, body, () => ({ $ref: `${documentIds.response}#/components/schemas/${name}` }));
    return validate(value) ? [] : describeErrors(validate.errors);
  };

  shared = { checkParameters, checkRequestBody, checkResponse, checkSchema, schemas: all };
  return shared;
}
