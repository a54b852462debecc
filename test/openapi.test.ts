// The OpenAPI documents: the partner's (/openapi.json, /docs) and the operators' (/ops/openapi.json,
// /docs/ops). Both valid 3.1; together complete (every registered route is in one of them); apart, each
// holds only its own: no /ops route, operator scheme or operator schema in the partner's, every /ops/v1
// route in the operators'. Honest about authentication, and every guide a description cites is a link
// that leads to the guide's page. In production the operators' document needs an operator token.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import SwaggerParser from '@apidevtools/swagger-parser';
import type { OpenAPIV3_1 } from 'openapi-types';
import { buildApp } from '../src/app.ts';
import type { HttpApp } from '../src/platform/http/types.ts';
import { createTestContext, type TestContext, type TestOperator } from './helpers/context.ts';

type Document = OpenAPIV3_1.Document;
type Operation = OpenAPIV3_1.OperationObject;

const methods = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

let t: TestContext;
/** The partner's document. */
let doc: Document;
/** The operators' document. */
let opsDoc: Document;
let routes: Array<{ method: string; url: string }>;

before(async () => {
  t = await createTestContext({
    app: {
      // A route added the way every future module adds one must be documented like the others.
      extraPartnerRoutes: (api) => {
        api.get('/test-probes/:probeId', { schema: { summary: 'Probe', operationId: 'getTestProbe' } }, async () => ({}));
      },
      // And an operator route so added goes to the operators' document, never the partner's.
      extraOpsRoutes: (api) => {
        api.get('/test-probes/:probeId', { schema: { summary: 'Operator probe', operationId: 'getOpsTestProbe' } }, async () => ({}));
      },
    },
  });
  const res = await t.app.inject({ method: 'GET', url: '/openapi.json' });
  assert.equal(res.statusCode, 200);
  doc = res.json();
  const ops = await t.app.inject({ method: 'GET', url: '/ops/openapi.json' });
  assert.equal(ops.statusCode, 200, 'the operators\' document is open in sandbox');
  opsDoc = ops.json();
  routes = registeredRoutes(t.app.printRoutes({ commonPrefix: false }));
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
  // The documents, their pages and the guides; the loopback-only admin endpoint of the `pvs` command.
  return url === '/openapi.json' || url === '/ops/openapi.json' || url === '/docs' || url.startsWith('/docs/') || url.startsWith('/admin/');
}

/** Every (method, OpenAPI path) the app serves that a document should list. */
function visibleRoutes(): string[] {
  return [
    ...new Set(
      routes
        // HEAD is Fastify's automatic twin of each GET; it is not a separate operation.
        .filter((r) => r.method !== 'HEAD' && !isHidden(r.url))
        .map((r) => `${r.method.toLowerCase()} ${toOpenApiPath(r.url)}`),
    ),
  ];
}

function toOpenApiPath(url: string): string {
  return url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

function operations(document: Document): Array<{ method: string; path: string; operation: Operation }> {
  return Object.entries(document.paths ?? {}).flatMap(([path, item]) =>
    methods.filter((m) => item?.[m]).map((method) => ({ method, path, operation: item![method] as Operation })),
  );
}

const opsPath = (path: string) => path.startsWith('/ops/');

describe('GET /openapi.json: the partner API', () => {
  it('is an OpenAPI 3.1 document that swagger-parser validates', async () => {
    assert.equal(doc.openapi, '3.1.0');
    assert.equal(doc.info.title, 'PVS partner API');
    assert.deepEqual(doc.servers?.map((server) => ({ url: server.url, internal: (server as { 'x-internal'?: boolean })['x-internal'] })), [{ url: 'http://pvs.test', internal: false }]);
    assert.deepEqual(doc.components?.securitySchemes?.bearerAuth, {
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'JWT',
      description: (doc.components?.securitySchemes?.bearerAuth as { description: string }).description,
    });
    assert.match((doc.components?.securitySchemes?.bearerAuth as { description: string }).description, /^An access token from POST \/oauth2\/token\. .*RFC8725/);
    assert.equal(
      (doc.components?.securitySchemes?.clientCredentials as { flows: { clientCredentials: { tokenUrl: string } } }).flows.clientCredentials.tokenUrl,
      'http://pvs.test/oauth2/token',
    );
    // validate() dereferences in place; keep the original intact for the other tests.
    const validated = await SwaggerParser.validate(structuredClone(doc) as never);
    assert.equal((validated as Document).openapi, '3.1.0');
  });

  it('lists no operator route, no operator scheme and no operators tag', () => {
    const paths = Object.keys(doc.paths ?? {});
    assert.deepEqual(paths.filter(opsPath), []);
    assert.deepEqual(Object.keys(doc.components?.securitySchemes ?? {}).sort(), ['bearerAuth', 'clientCredentials']);
    assert.ok(!doc.tags?.some((tag) => tag.name === 'operators'), JSON.stringify(doc.tags));
    for (const { method, path, operation } of operations(doc)) {
      assert.ok(!operation.tags?.includes('operators'), `${method} ${path} is tagged operators`);
      assert.ok(!JSON.stringify(operation.security ?? []).includes('operatorBearer'), `${method} ${path} names the operator scheme`);
    }
    assert.doesNotMatch(JSON.stringify(doc), /operatorBearer|\/ops\/v1\/(?!token)|x-pvs-document/);
  });

  it('hides the documents themselves, the docs pages, the guides and the admin endpoint', () => {
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

  it('declares the public operations public, with an empty security list rather than none', () => {
    for (const { method, path, operation } of operations(doc).filter((o) => !o.path.startsWith('/v1/'))) {
      assert.deepEqual(operation.security, [], `${method} ${path}`);
    }
  });

  it('documents Idempotency-Key on the creating POST', () => {
    const parameters = doc.paths?.['/v1/api-clients']?.post?.parameters as OpenAPIV3_1.ParameterObject[];
    const key = parameters.find((p) => p.in === 'header' && p.name === 'idempotency-key');
    assert.ok(key);
    assert.notEqual(key.required, true);
  });
});

describe("GET /ops/openapi.json: the operators' API", () => {
  it('is an OpenAPI 3.1 document that swagger-parser validates, with the operator scheme alone', async () => {
    assert.equal(opsDoc.openapi, '3.1.0');
    assert.equal(opsDoc.info.title, 'PVS operator API');
    assert.deepEqual(opsDoc.servers, [{ url: 'http://pvs.test' }]);
    assert.deepEqual(opsDoc.components?.securitySchemes, {
      operatorBearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'An operator access token from POST /ops/v1/token; not accepted on /v1.' },
    });
    assert.deepEqual(opsDoc.tags?.map((tag) => tag.name), ['operators']);
    const validated = await SwaggerParser.validate(structuredClone(opsDoc) as never);
    assert.equal((validated as Document).openapi, '3.1.0');
  });

  it('lists every route registered under /ops/v1, and nothing else', () => {
    const registered = visibleRoutes().filter((r) => opsPath(r.split(' ')[1]!));
    // The parser must see the routes we know of, or an empty list would pass vacuously.
    for (const known of ['post /ops/v1/token', 'get /ops/v1/me', 'get /ops/v1/settings', 'get /ops/v1/test-probes/{probeId}']) assert.ok(registered.includes(known), `route tree parsing missed ${known}`);
    const documented = operations(opsDoc).map((o) => `${o.method} ${o.path}`);
    assert.deepEqual([...documented].sort(), [...registered].sort());
  });

  it('declares operator bearer auth, and no partner header, on every operation but the sign-in', () => {
    const guarded = operations(opsDoc).filter((o) => o.path !== '/ops/v1/token');
    assert.ok(guarded.some((o) => o.path === '/ops/v1/me'), 'expected GET /ops/v1/me');
    for (const { method, path, operation } of guarded) {
      const where = `${method} ${path}`;
      assert.deepEqual(operation.security, [{ operatorBearer: [] }], where);
      assert.ok(operation.tags?.includes('operators'), where);
      const header = (operation.parameters as OpenAPIV3_1.ParameterObject[] | undefined)?.find((p) => p.in === 'header' && p.name === 'x-partner-id');
      assert.equal(header, undefined, where);
    }
    assert.deepEqual(opsDoc.paths?.['/ops/v1/token']?.post?.tags, ['operators']);
    assert.equal(opsDoc.paths?.['/ops/v1/token']?.post?.security, undefined);
  });

  it('holds only the schemas its operations use', () => {
    const text = JSON.stringify(opsDoc);
    for (const name of Object.keys(opsDoc.components?.schemas ?? {})) assert.ok(text.includes(`"#/components/schemas/${name}"`), `${name} is used by no operator operation`);
    assert.ok(!('Contact' in (opsDoc.components?.schemas ?? {})), 'a partner schema in the operators\' document');
  });
});

describe('both documents', () => {
  it('document every route the app registers but the hidden ones, each in exactly one of them', () => {
    for (const known of ['POST /oauth2/token', 'GET /health', 'GET /v1/api-clients/:id', 'DELETE /v1/api-clients/:id', 'POST /admin/v1/commands/:name', 'GET /docs', 'GET /docs/ops', 'GET /docs/guides/:name']) {
      assert.ok(
        routes.some((r) => `${r.method} ${r.url}` === known),
        `route tree parsing missed ${known}`,
      );
    }
    const expected = visibleRoutes();
    assert.ok(expected.length >= 8, `only ${expected.length} documented routes found`);
    const partner = operations(doc).map((o) => `${o.method} ${o.path}`);
    const ops = operations(opsDoc).map((o) => `${o.method} ${o.path}`);
    assert.deepEqual(partner.filter((route) => ops.includes(route)), [], 'in both documents');
    for (const route of expected) assert.ok(partner.includes(route) || ops.includes(route), `${route} is registered but in neither document`);
    assert.deepEqual([...partner, ...ops].sort(), [...expected].sort(), 'the documents list exactly the visible routes');
  });

  it('give every operation an operationId, unique across both documents', () => {
    const ids = [...operations(doc), ...operations(opsDoc)].map((o) => o.operation.operationId);
    assert.ok(ids.every((id) => typeof id === 'string' && id.length > 0), JSON.stringify(ids));
    assert.equal(new Set(ids).size, ids.length);
  });

  it('link every guide a description cites to its page, and every such link leads to the page and its anchor', async () => {
    const links = new Set<string>();
    for (const [name, document] of [['partner', doc], ['operators', opsDoc]] as const) {
      const descriptions = descriptionsOf(document);
      assert.ok(descriptions.length > 10, `${name}: only ${descriptions.length} descriptions`);
      for (const description of descriptions) {
        // A repository path left as words (`see docs/errors.md`) is a path nobody off the repository can follow.
        assert.doesNotMatch(description.replace(/\[[^\]]*\]\([^)]*\)/g, ''), /\bdocs\/[\w-]+\.md|\.\.\/|\bsrc\//, `${name}: ${description}`);
        for (const [, url] of description.matchAll(/\]\(([^)\s]+)\)/g)) links.add(url!);
      }
    }
    // The info texts, the problem answers and the schemas that cite a guide: all of them are links now.
    for (const expected of ['http://pvs.test/docs/guides/errors', 'http://pvs.test/docs/guides', 'http://pvs.test/docs/guides/operators', 'http://pvs.test/docs/guides/verifications#2-request-states']) {
      assert.ok(links.has(expected), `no link to ${expected} in ${[...links].join(', ')}`);
    }
    for (const link of links) {
      // Absolute, from PUBLIC_BASE_URL: the document is read off the server too.
      assert.ok(link.startsWith('http://pvs.test/docs/guides'), `${link} is not a guide of this PVS`);
      const url = new URL(link);
      const response = await t.app.inject({ method: 'GET', url: url.pathname });
      assert.equal(response.statusCode, 200, `${link}: ${response.statusCode}`);
      if (url.hash) assert.ok(response.body.includes(` id="${url.hash.slice(1)}"`), `${link}: the page has no such anchor`);
    }
  });
});

describe('the docs pages', () => {
  it('answer the reference as HTML, each page showing its own document', async () => {
    for (const [page, document] of [['/docs', doc], ['/docs/ops', opsDoc]] as const) {
      const res = await t.app.inject({ method: 'GET', url: page });
      assert.equal(res.statusCode, 200, page);
      assert.match(String(res.headers['content-type']), /^text\/html/);
      assert.match(res.body, /<html/i);
      assert.match(res.body, /<meta name="viewport" content="width=device-width, initial-scale=1">/, 'a phone shows it at its own width');
      // `<page>/json` and `<page>/yaml`: the document of that page, never swagger's whole.
      const json = await t.app.inject({ method: 'GET', url: `${page}/json` });
      assert.deepEqual(json.json(), document, `${page}/json`);
      const yaml = await t.app.inject({ method: 'GET', url: `${page}/yaml` });
      assert.equal(yaml.statusCode, 200);
      assert.equal(yaml.body.includes('/ops/v1/me'), page === '/docs/ops', `${page}/yaml`);
    }
  });

  it('serve the reference page by page under a policy of this host only, with a nonce of each answer’s own', async () => {
    const first = await t.app.inject({ method: 'GET', url: '/docs' });
    const strip = /<nav class="reference-sections"[^>]*>(.*?)<\/nav>/s.exec(first.body)![1]!;
    const pages = [...strip.matchAll(/<li><a href="([^"]+)"/g)].map((m) => m[1]!);
    assert.deepEqual(pages.slice(0, 3), ['/docs', '/docs/reference/auth', '/docs/reference/partners']);
    assert.deepEqual(pages.filter((p) => p.startsWith('/docs/reference/events-')), ['payment', 'verification', 'business-lookup', 'contact', 'deed-analysis', 'monitoring'].map((kind) => `/docs/reference/events-${kind}`), 'a page per kind of event');
    assert.ok(pages.slice(1).every((p) => first.body.split(`href="${p}"`).length === 3), 'the introduction lists every page, beside the strip');
    assert.match(first.body, /Security Scheme Type/, 'and says how to authenticate');
    const nonces = new Set<string>();
    for (const url of ['/docs', '/docs/reference/business-lookups', '/docs/reference/business-lookups']) {
      const res = await t.app.inject({ method: 'GET', url });
      assert.equal(res.statusCode, 200, url);
      const policy = String(res.headers['content-security-policy']);
      const nonce = /style-src 'self' 'nonce-([^']+)'/.exec(policy)?.[1];
      assert.ok(nonce && policy.startsWith("default-src 'none'; script-src 'self';"), policy);
      assert.ok(res.body.includes(`<meta property="csp-nonce" nonce="${nonce}">`), 'the page names its answer’s nonce');
      assert.equal(res.headers['cache-control'], 'no-store');
      // No inline script or style for the policy to refuse, and nothing from another host.
      assert.doesNotMatch(res.body, /<script>|<style|\sstyle="|src="https?:/);
      nonces.add(nonce);
    }
    assert.equal(nonces.size, 3, 'every answer has a nonce of its own');
    const lookups = await t.app.inject({ method: 'GET', url: '/docs/reference/business-lookups' });
    assert.match(lookups.body, /\/v1\/business-lookups/);
    assert.doesNotMatch(lookups.body, /\/v1\/contacts\b/, 'a tag’s page shows that tag’s operations only');
    const stylesheet = /href="(\/docs\/reference\/assets\/redoc-[0-9a-f]{16}\.css)"/.exec(lookups.body)![1]!;
    const css = await t.app.inject({ method: 'GET', url: stylesheet });
    assert.equal(css.statusCode, 200);
    assert.match(String(css.headers['content-type']), /^text\/css/);
    const state = await t.app.inject({ method: 'GET', url: '/docs/reference/business-lookups/state.json' });
    assert.equal(state.statusCode, 200);
    assert.ok(Object.keys(state.json<{ spec: { data: { paths: Record<string, unknown> } } }>().spec.data.paths).every((path) => path.startsWith('/v1/business-lookups')));
  });

  it('answer 404 for a page, a state or an asset the reference does not have', async () => {
    for (const url of ['/docs/reference/nothing', '/docs/reference/nothing/state.json', '/docs/reference/assets/redoc-0000000000000000.css', '/docs/reference/assets/..%2F..%2Fpackage.json', '/docs/ops/reference/contacts']) {
      const res = await t.app.inject({ method: 'GET', url });
      assert.equal(res.statusCode, 404, url);
    }
  });
});

describe('in production', () => {
  let production: HttpApp;
  let operator: TestOperator;
  before(async () => {
    operator = await t.f.operator();
    // The same services behind an HTTP layer built for production (a production configuration needs real
    // providers; only the HTTP layer reads ENVIRONMENT here).
    production = await buildApp({ ...t.services, config: Object.freeze({ ...t.config, ENVIRONMENT: 'production' as const }) });
    await production.ready();
  });
  after(() => production?.close());

  it("answers the operators' document to an operator token only, and has no page for it", async () => {
    const anonymous = await production.inject({ method: 'GET', url: '/ops/openapi.json' });
    assert.equal(anonymous.statusCode, 401);
    assert.equal(anonymous.json<{ code: string }>().code, 'UNAUTHENTICATED');
    assert.equal(anonymous.headers['www-authenticate'], 'Bearer realm="pvs-ops"');
    const partner = await t.f.partner();
    const withPartnerToken = await production.inject({ method: 'GET', url: '/ops/openapi.json', headers: partner.headers });
    assert.equal(withPartnerToken.statusCode, 401, 'a partner token is not an operator token');
    const withToken = await production.inject({ method: 'GET', url: '/ops/openapi.json', headers: operator.headers });
    assert.equal(withToken.statusCode, 200);
    assert.equal(withToken.headers['cache-control'], 'no-store');
    assert.deepEqual(Object.keys(withToken.json<Document>().paths ?? {}).sort(), Object.keys(opsDoc.paths ?? {}).filter((p) => !p.includes('test-probes')).sort());
    for (const url of ['/docs/ops', '/docs/ops/json', '/docs/ops/yaml']) assert.equal((await production.inject({ method: 'GET', url })).statusCode, 404, url);
  });

  it('still answers the partner document and its page to anyone', async () => {
    const document = await production.inject({ method: 'GET', url: '/openapi.json' });
    assert.equal(document.statusCode, 200);
    assert.deepEqual(Object.keys(document.json<Document>().paths ?? {}).filter(opsPath), []);
    assert.equal((await production.inject({ method: 'GET', url: '/docs' })).statusCode, 200);
    assert.equal((await production.inject({ method: 'GET', url: '/docs/guides/errors' })).statusCode, 200);
  });
});

/** Every description in a document, wherever it is (info, tags, operations, parameters, schemas). */
function descriptionsOf(value: unknown, found: string[] = []): string[] {
  if (Array.isArray(value)) for (const item of value) descriptionsOf(item, found);
  else if (value && typeof value === 'object') {
    for (const [key, member] of Object.entries(value)) {
      if (key === 'description' && typeof member === 'string') found.push(member);
      else descriptionsOf(member, found);
    }
  }
  return found;
}
