// The operations the fuzz suite sends requests to: every operation of the served OpenAPI document, and
// every route the document hides, read from its Fastify route schema. Both are read at run time, so a
// route is fuzzed the day it is registered.
import type { RouteOptions } from 'fastify';
import { createResolver, type JsonSchema } from './schema.ts';

export interface FuzzParameter {
  in: 'path' | 'query' | 'header';
  name: string;
  required: boolean;
  schema: JsonSchema;
}

export interface FuzzOperation {
  /** Unique and stable: `POST /v1/contacts`, or with a variant, `POST /admin/v1/commands/{name} [migrate]`. */
  key: string;
  method: string;
  /** OpenAPI path template: `/v1/contacts/{id}`. */
  path: string;
  /** The Fastify route it lands on: `GET /v1/contacts/:id`. */
  route: string;
  documented: boolean;
  parameters: FuzzParameter[];
  body?: { schema: JsonSchema; contentType: string; required: boolean };
  /** Values this operation always starts from (a variant's path parameter, a credential header). */
  fixed: { path?: Record<string, string>; headers?: Record<string, string>; body?: unknown };
  /** Sends the partner's bearer token and X-Partner-Id. */
  partnerAuth: boolean;
  resolve: (schema: JsonSchema | undefined) => JsonSchema | undefined;
}

const httpMethods = ['get', 'put', 'post', 'delete', 'patch', 'options'] as const;

export const toRoutePath = (template: string) => template.replace(/\{([^}]+)\}/g, ':$1');
export const toTemplate = (url: string) => url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

interface OpenApiParameter {
  in: string;
  name: string;
  required?: boolean;
  schema?: JsonSchema;
}

interface OpenApiOperation {
  parameters?: OpenApiParameter[];
  requestBody?: { required?: boolean; content?: Record<string, { schema?: JsonSchema }> };
  security?: unknown[];
}

/** Every operation of an OpenAPI 3.1 document. */
export function documentedOperations(document: { paths?: Record<string, Record<string, OpenApiOperation>> }): FuzzOperation[] {
  const resolve = createResolver(document);
  const operations: FuzzOperation[] = [];
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const method of httpMethods) {
      const operation = item[method];
      if (!operation) continue;
      const content = Object.entries(operation.requestBody?.content ?? {});
      const [contentType, media] = content.find(([type]) => type === 'application/json') ?? content[0] ?? [];
      operations.push({
        key: `${method.toUpperCase()} ${path}`,
        method: method.toUpperCase(),
        path,
        route: `${method.toUpperCase()} ${toRoutePath(path)}`,
        documented: true,
        parameters: (operation.parameters ?? [])
          .filter((p): p is OpenApiParameter & { in: FuzzParameter['in'] } => ['path', 'query', 'header'].includes(p.in))
          .map((p) => ({ in: p.in, name: p.name, required: p.in === 'path' || p.required === true, schema: p.schema ?? {} })),
        body: contentType ? { schema: media?.schema ?? {}, contentType, required: operation.requestBody?.required !== false } : undefined,
        fixed: {},
        partnerAuth: (operation.security?.length ?? 0) > 0,
        resolve,
      });
    }
  }
  return operations;
}

function parametersOf(schema: unknown, where: FuzzParameter['in']): FuzzParameter[] {
  const s = schema as JsonSchema | undefined;
  return Object.entries(s?.properties ?? {}).map(([name, member]) => ({
    in: where,
    name,
    required: where === 'path' || (s?.required ?? []).includes(name),
    schema: member,
  }));
}

/**
 * The routes Fastify registered that the document does not list (hidden pages, the admin endpoint, the
 * sandbox gateway, the document itself), from their own schemas. A path parameter without a schema is
 * a string. HEAD is Fastify's twin of each GET and is not fuzzed apart.
 */
export function hiddenOperations(routes: RouteOptions[], documented: FuzzOperation[], skip: (url: string) => boolean): FuzzOperation[] {
  const known = new Set(documented.map((o) => o.route));
  const resolve = createResolver({});
  const operations: FuzzOperation[] = [];
  for (const route of routes) {
    for (const method of [route.method].flat()) {
      const key = `${method} ${route.url}`;
      if (method === 'HEAD' || known.has(key) || skip(route.url)) continue;
      known.add(key);
      const schema = (route.schema ?? {}) as Record<string, unknown>;
      const declared = parametersOf(schema.params, 'path');
      const pathNames = [...route.url.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]!);
      const path = pathNames.map((name) => declared.find((p) => p.name === name) ?? { in: 'path' as const, name, required: true, schema: { type: 'string' } });
      operations.push({
        key: `${method} ${toTemplate(route.url)}`,
        method,
        path: toTemplate(route.url),
        route: key,
        documented: false,
        parameters: [...path, ...parametersOf(schema.querystring, 'query'), ...parametersOf(schema.headers, 'header')],
        body: schema.body ? { schema: schema.body as JsonSchema, contentType: 'application/json', required: true } : undefined,
        fixed: {},
        partnerAuth: false,
        resolve,
      });
    }
  }
  return operations;
}
