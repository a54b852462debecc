// Every request body example of the partner's document is one a partner could send: each is sent to the
// app as it stands, in the document's order, by a new partner (eligible for monitoring), and none is
// answered 400. An operation that needs nothing made before it answers 2xx; one on a resource in its path
// is sent for the resource an earlier example made (the contact POST /v1/contacts made, say) and answers
// 2xx too, unless no example makes that resource (a monitoring alert) or the resource's state forbids it.
// The failures are listed together, each with its answer.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { OpenAPIV3_1 } from 'openapi-types';
import { pathIdKind } from '../src/platform/http/openapi-examples.ts';
import { idPrefixes, type IdKind } from '../src/platform/ids.ts';
import { createTestContext, type TestContext, type TestPartner } from './helpers/context.ts';

type Json = Record<string, unknown>;
type Operation = Omit<OpenAPIV3_1.OperationObject, 'parameters'> & { parameters?: OpenAPIV3_1.ParameterObject[] };

interface Example {
  key: string;
  path: string;
  operation: Operation;
  type: string;
  body: unknown;
}

/**
 * Operations whose example cannot be answered 2xx by a partner who sends the examples alone, and what
 * they answer instead: each needs something no example makes, or that the sandbox makes later.
 */
const needsMore: Record<string, { status: number[]; why: string }> = {
  'POST /oauth2/token': { status: [401], why: 'the credentials are the example client’s; sent again below with the partner’s own' },
  'POST /hosted/v1/verification-sessions': { status: [404], why: 'a link token from a verification link a person was sent' },
  'PUT /hosted/v1/verification-session/details': { status: [401], why: 'a session opened with such a token' },
  'POST /hosted/v1/card-links/{token}': { status: [404], why: 'a card link and a card tokenised on its page' },
  'POST /hosted/v1/payment-links/{token}': { status: [404], why: 'a payment link and a card tokenised on its page' },
  'POST /v1/monitoring/alerts/{id}/decision': { status: [404], why: 'an alert, raised when a new list version matches the contact' },
};

/**
 * Sent in this order among themselves, as a partner would: people are added before the structure is
 * confirmed, and links are minted for a confirmed structure. The others go in the document's order.
 */
const partnerOrder = ['POST /v1/verifications/{id}/individuals', 'PUT /v1/verifications/{id}/structure-confirmation', 'POST /v1/verifications/{id}/links'];

let t: TestContext;
let partner: TestPartner;
let doc: OpenAPIV3_1.Document;

before(async () => {
  t = await createTestContext();
  partner = await t.f.partner({ monitoring: true });
  const res = await t.app.inject({ method: 'GET', url: '/openapi.json' });
  assert.equal(res.statusCode, 200);
  doc = res.json();
});
after(() => t.close());

function requestExamples(): Example[] {
  const examples: Example[] = [];
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const [method, operation] of Object.entries(item ?? {}) as Array<[string, Operation]>) {
      const content = (operation.requestBody as OpenAPIV3_1.RequestBodyObject | undefined)?.content ?? {};
      for (const [type, media] of Object.entries(content)) {
        if (!/^application\/(json|x-www-form-urlencoded)$/.test(type)) continue;
        assert.ok('example' in media, `${method.toUpperCase()} ${path} ${type} has no example`);
        examples.push({ key: `${method.toUpperCase()} ${path}`, path, operation, type, body: media.example });
      }
    }
  }
  const ordered = examples.filter((e) => partnerOrder.includes(e.key)).sort((a, b) => partnerOrder.indexOf(a.key) - partnerOrder.indexOf(b.key));
  return examples.map((e) => (partnerOrder.includes(e.key) ? ordered.shift()! : e));
}

const kindOfPrefix = new Map<string, IdKind>(Object.entries(idPrefixes).map(([kind, prefix]) => [prefix, kind as IdKind]));

/** Every id an answer holds, the first of each kind: what the later examples' paths name. */
function collectIds(value: unknown, made: Map<IdKind, string>): void {
  if (Array.isArray(value)) return value.forEach((item) => collectIds(item, made));
  if (value && typeof value === 'object') return Object.values(value).forEach((item) => collectIds(item, made));
  const kind = typeof value === 'string' && /^[a-z]{3}_[0-9A-Z]{26}$/.test(value) ? kindOfPrefix.get(value.slice(0, 3)) : undefined;
  if (kind && !made.has(kind)) made.set(kind, value as string);
}

/** The example's path with each parameter an id an earlier example made, or else the parameter's own example. */
function urlOf(example: Example, made: Map<IdKind, string>): { url: string; madeBefore: boolean } {
  let madeBefore = true;
  const url = example.path.replace(/\{([^}]+)\}/g, (_whole, name: string) => {
    const kind = pathIdKind(example.path, name);
    const id = kind && made.get(kind);
    if (id) return id;
    madeBefore = false;
    const parameter = example.operation.parameters?.find((p) => p.in === 'path' && p.name === name);
    assert.ok(parameter && 'example' in parameter, `${example.key}: path parameter ${name} has no example`);
    return encodeURIComponent(String(parameter.example));
  });
  return { url, madeBefore };
}

async function send(example: Example, url: string, body: unknown) {
  const form = example.type === 'application/x-www-form-urlencoded';
  return t.app.inject({
    method: example.key.split(' ')[0] as 'POST',
    url,
    headers: { ...(url.startsWith('/v1/') ? partner.headers : {}), 'content-type': example.type },
    payload: form ? new URLSearchParams(body as Record<string, string>).toString() : JSON.stringify(body),
  });
}

describe('the request body examples of /openapi.json', () => {
  it('are each accepted as they are: never 400, and 2xx unless they need what no example makes', async () => {
    const examples = requestExamples();
    assert.ok(examples.length >= 20, `only ${examples.length} request body examples`);
    const made = new Map<IdKind, string>();
    const failures: string[] = [];
    for (const example of examples) {
      const { url, madeBefore } = urlOf(example, made);
      const res = await send(example, url, example.body);
      if (res.statusCode < 300) collectIds(res.json(), made);
      const expected = needsMore[example.key];
      const ok = res.statusCode === 400 || res.statusCode >= 500 ? false : expected ? expected.status.includes(res.statusCode) || res.statusCode < 300 : res.statusCode < 300;
      if (!ok) {
        const why = expected ? ` (expected ${expected.status.join('/')}: it needs ${expected.why})` : madeBefore ? '' : ' (its path names nothing an example made: add it to needsMore if that is why)';
        failures.push(`${example.key} ${url} answered ${res.statusCode}${why}: ${JSON.stringify(example.body)} → ${res.body.slice(0, 400)}`);
      }
    }
    assert.deepEqual(failures, [], `${failures.length} of ${examples.length} examples failed:\n${failures.join('\n')}`);
  });

  it('exchange the partner’s own credentials for a token with the token example', async () => {
    const example = requestExamples().find((e) => e.key === 'POST /oauth2/token');
    assert.ok(example);
    const res = await send(example, '/oauth2/token', { ...(example.body as Json), client_id: partner.clientId, client_secret: partner.clientSecret });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json<{ scope: string }>().scope, (example.body as Json).scope);
  });

  it('take a person through the hosted flow, with a link minted by the verification examples', async () => {
    const byKey = new Map(requestExamples().map((e) => [e.key, e]));
    const created = await send(byKey.get('POST /v1/verifications')!, '/v1/verifications', byKey.get('POST /v1/verifications')!.body);
    assert.equal(created.statusCode, 201, created.body);
    const linksExample = byKey.get('POST /v1/verifications/{id}/links')!;
    const links = await send(linksExample, `/v1/verifications/${created.json<{ id: string }>().id}/links`, linksExample.body);
    assert.equal(links.statusCode, 200, links.body);
    const token = new URL(links.json<{ individuals: Array<{ verificationUrl: string }> }>().individuals[0]!.verificationUrl).pathname.split('/').pop()!;
    const open = byKey.get('POST /hosted/v1/verification-sessions')!;
    const opened = await send(open, '/hosted/v1/verification-sessions', { ...(open.body as Json), token });
    assert.equal(opened.statusCode, 201, opened.body);
    const details = byKey.get('PUT /hosted/v1/verification-session/details')!;
    const saved = await t.app.inject({
      method: 'PUT',
      url: '/hosted/v1/verification-session/details',
      headers: { authorization: `Bearer ${opened.json<{ sessionToken: string }>().sessionToken}` },
      payload: details.body as Json,
    });
    assert.equal(saved.statusCode, 200, saved.body);
  });

  it('leave out what would name something the partner has not made (a contact to bill)', () => {
    for (const example of requestExamples().filter((e) => e.path.startsWith('/v1/'))) {
      assert.ok(!(example.body && typeof example.body === 'object' && 'contactId' in example.body), `${example.key}: ${JSON.stringify(example.body)}`);
    }
  });
});
