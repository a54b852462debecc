// The OpenAPI document: valid 3.1, complete (every registered route is in it) and honest about /v1
// authentication (bearer token and X-Partner-Id on every partner operation).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import SwaggerParser from '@apidevtools/swagger-parser';
import type { OpenAPIV3_1 } from 'openapi-types';
import { createTestContext, type TestContext } from './helpers/context.ts';

type Document = OpenAPIV3_1.Document;
type Operation = OpenAPIV3_1.OperationObject;

const methods = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

let t: TestContext;
let doc: Document;

before(async () => {
  t = await createTestContext({
    app: {
      // A route added the way every future module adds one must be documented like the others.
      extraPartnerRoutes: (api) => {
        api.get('/test-probes/:probeId', { schema: { summary: 'Probe', operationId: 'getTestProbe' } }, async () => ({}));
      },
    },
  });
  const res = await t.app.inject({ method: 'GET', url: '/openapi.json' });
  assert.equal(res.statusCode, 200);
  doc = res.json();
});
after(() => t.close());

/**
 * Every (method, path) the app serves, read from Fastify's own route tree. With commonPrefix off each
 * line is one node: its label continues its parent's path, and the methods follow in parentheses.
 */
function registeredRoutes(tree: string): Array<{ method: string; url: string }> {
  const routes: Array<{ method: string; url: string }> = [];
  const stack: string[] = [];
  for (const line of tree.split('\n')) {
    if (line.trim() === '') continue;
    const match = /^((?:[│ ] {3})*)[├└]── (.+?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    assert.ok(match, `unexpected printRoutes line: ${JSON.stringify(line)}`);
    const depth = match[1]!.length / 4;
    stack.length = depth;
    const url = `${stack.join('')}${match[2]}`;
    stack.push(match[2]!);
    for (const method of match[3]?.split(', ') ?? []) routes.push({ method, url });
  }
  return routes;
}

// Hosted pages are HTML for people, and the sandbox gateway stands in for another system's API.
function isHidden(url: string): boolean {
  if (url.startsWith('/c/') || url.startsWith('/p/') || url.startsWith('/v/') || url.startsWith('/hosted/assets/') || url.startsWith('/sandbox-gateway/')) return true;
  // The portal's and the console's pages are HTML for people, not API.
  if (url === '/portal' || url.startsWith('/portal/') || url === '/console' || url.startsWith('/console/') || url.startsWith('/web/assets/')) return true;
  return url === '/openapi.json' || url === '/docs' || url.startsWith('/docs/') || url.startsWith('/admin/');
}

function toOpenApiPath(url: string): string {
  return url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

function operations(document: Document): Array<{ method: string; path: string; operation: Operation }> {
  return Object.entries(document.paths ?? {}).flatMap(([path, item]) =>
    methods.filter((m) => item?.[m]).map((method) => ({ method, path, operation: item![method] as Operation })),
  );
}

describe('GET /openapi.json', () => {
  it('is an OpenAPI 3.1 document that swagger-parser validates', async () => {
    assert.equal(doc.openapi, '3.1.0');
    assert.equal(doc.info.title, 'PVS partner API');
    assert.deepEqual(doc.servers, [{ url: 'http://pvs.test' }]);
    assert.deepEqual(doc.components?.securitySchemes?.bearerAuth, {
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'JWT',
      description: 'An access token from POST /oauth2/token.',
    });
    assert.equal(
      (doc.components?.securitySchemes?.clientCredentials as { flows: { clientCredentials: { tokenUrl: string } } }).flows.clientCredentials.tokenUrl,
      'http://pvs.test/oauth2/token',
    );
    // validate() dereferences in place; keep the original intact for the other tests.
    const validated = await SwaggerParser.validate(structuredClone(doc) as never);
    assert.equal((validated as Document).openapi, '3.1.0');
  });

  it('documents every route the app registers, except the hidden ones', () => {
    const routes = registeredRoutes(t.app.printRoutes({ commonPrefix: false }));
    // The parser must see the routes we know of, or an empty list would pass vacuously.
    for (const known of ['POST /oauth2/token', 'GET /health', 'GET /v1/api-clients/:id', 'DELETE /v1/api-clients/:id', 'POST /admin/v1/commands/:name', 'GET /docs']) {
      assert.ok(
        routes.some((r) => `${r.method} ${r.url}` === known),
        `route tree parsing missed ${known}`,
      );
    }
    const expected = routes
      // HEAD is Fastify's automatic twin of each GET; it is not a separate operation.
      .filter((r) => r.method !== 'HEAD' && !isHidden(r.url))
      .map((r) => `${r.method.toLowerCase()} ${toOpenApiPath(r.url)}`);
    assert.ok(expected.length >= 8, `only ${expected.length} documented routes found`);
    const documented = operations(doc).map((o) => `${o.method} ${o.path}`);
    for (const route of expected) assert.ok(documented.includes(route), `${route} is registered but not in the OpenAPI document`);
    assert.deepEqual([...documented].sort(), [...new Set(expected)].sort(), 'the document lists exactly the visible routes');
  });

  it('hides the document itself, the docs UI and the admin endpoint', () => {
    const paths = Object.keys(doc.paths ?? {});
    assert.ok(paths.every((p) => !isHidden(p)), paths.join(', '));
  });

  it('uses OpenAPI path templates for parameters', () => {
    assert.ok(doc.paths?.['/v1/api-clients/{id}']?.get);
    assert.ok(doc.paths?.['/v1/test-probes/{probeId}']?.get);
    assert.ok(Object.keys(doc.paths ?? {}).every((p) => !p.includes(':')));
  });

  it('declares bearer auth and the X-Partner-Id header on every /v1 operation', () => {
    const partnerOperations = operations(doc).filter((o) => o.path.startsWith('/v1/'));
    assert.ok(partnerOperations.length >= 5, 'expected the /v1 operations');
    for (const { method, path, operation } of partnerOperations) {
      const where = `${method} ${path}`;
      assert.deepEqual(operation.security, [{ bearerAuth: [] }, { clientCredentials: ['channel-partner-api/server'] }], where);
      const header = (operation.parameters as OpenAPIV3_1.ParameterObject[] | undefined)?.find((p) => p.in === 'header' && p.name === 'x-partner-id');
      assert.ok(header, `${where} does not document x-partner-id`);
      assert.equal(header.required, true, where);
    }
  });

  it('declares operator bearer auth, and no partner header, on every /ops/v1 operation but the sign-in', () => {
    assert.deepEqual(doc.components?.securitySchemes?.operatorBearer, {
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'JWT',
      description: 'An operator access token from POST /ops/v1/token; not accepted on /v1.',
    });
    const opsOperations = operations(doc).filter((o) => o.path.startsWith('/ops/v1/') && o.path !== '/ops/v1/token');
    assert.ok(opsOperations.some((o) => o.path === '/ops/v1/me'), 'expected GET /ops/v1/me');
    for (const { method, path, operation } of opsOperations) {
      const where = `${method} ${path}`;
      assert.deepEqual(operation.security, [{ operatorBearer: [] }], where);
      assert.ok(operation.tags?.includes('operators'), where);
      const header = (operation.parameters as OpenAPIV3_1.ParameterObject[] | undefined)?.find((p) => p.in === 'header' && p.name === 'x-partner-id');
      assert.equal(header, undefined, where);
    }
    assert.deepEqual(doc.paths?.['/ops/v1/token']?.post?.tags, ['operators']);
  });

  it('declares no bearer auth on the public operations', () => {
    const guarded = (path: string) => path.startsWith('/v1/') || (path.startsWith('/ops/v1/') && path !== '/ops/v1/token');
    for (const { method, path, operation } of operations(doc).filter((o) => !guarded(o.path))) {
      assert.equal(operation.security, undefined, `${method} ${path}`);
    }
  });

  it('documents Idempotency-Key on the creating POST', () => {
    const parameters = doc.paths?.['/v1/api-clients']?.post?.parameters as OpenAPIV3_1.ParameterObject[];
    const key = parameters.find((p) => p.in === 'header' && p.name === 'idempotency-key');
    assert.ok(key);
    assert.notEqual(key.required, true);
  });

  it('gives every operation an operationId, unique across the document', () => {
    const ids = operations(doc).map((o) => o.operation.operationId);
    assert.ok(ids.every((id) => typeof id === 'string' && id.length > 0), JSON.stringify(ids));
    assert.equal(new Set(ids).size, ids.length);
  });
});

describe('GET /docs', () => {
  it('answers the interactive documentation as HTML', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/docs' });
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /^text\/html/);
    assert.match(res.body, /<html/i);
  });
});
