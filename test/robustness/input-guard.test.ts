// The edge (platform/http/input-guard.ts): text PVS cannot take is refused as 400 VALIDATION_ERROR with
// the pointer, wherever it comes in, and an empty body on an operation that takes none is no body. The
// first tests are the reports that opened the robustness issue, kept by name. The fuzz suite
// (fuzz.test.ts) throws the same battery at every route; these pin the exact answers.
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { createTestContext, type TestContext, type TestPartner } from '../helpers/context.ts';

let ctx: TestContext;
let partner: TestPartner;

before(async () => {
  ctx = await createTestContext();
  partner = await ctx.f.partner();
});
after(() => ctx.close());

interface Problem {
  code: string;
  detail: string;
  errors?: Array<{ pointer: string; message: string }>;
  [member: string]: unknown;
}

function assertRefused(response: { statusCode: number; headers: Record<string, unknown>; json<T>(): T }, pointer: string, message: RegExp): Problem {
  assert.equal(response.statusCode, 400);
  assert.match(String(response.headers['content-type']), /^application\/problem\+json/);
  const body = response.json<Problem>();
  assert.equal(body.code, 'VALIDATION_ERROR');
  assert.equal(body.errors?.[0]?.pointer, pointer, JSON.stringify(body));
  assert.match(body.errors![0]!.message, message);
  return body;
}

const json = (extra: Record<string, string> = {}) => ({ ...partner.headers, 'content-type': 'application/json', ...extra });

describe('the reports that opened the issue', () => {
  it('POST /oauth2/token with client_id %00 answers 400 at /client_id, with RFC 6749 members too', async () => {
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/oauth2/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'grant_type=client_credentials&client_id=%00&client_secret=x',
    });
    const body = assertRefused(response, '/client_id', /^contains a NUL character \(U\+0000\) at position 1$/);
    assert.equal(body.error, 'invalid_request');
    assert.equal(body.error_description, 'Field /client_id contains a NUL character (U+0000) at position 1');
  });

  it('GET /v1/contacts/%00 answers 400 at path:id, with the headers of every answer', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/v1/contacts/%00', headers: partner.headers });
    assertRefused(response, 'path:id', /NUL/);
    assert.equal(response.headers['x-content-type-options'], 'nosniff');
    assert.equal(response.headers['x-request-id'], response.json<{ requestId: string }>().requestId);
  });

  it('GET /v1/webhook-notifications?type=%00 answers 400 at query:type', async () => {
    assertRefused(await ctx.app.inject({ method: 'GET', url: '/v1/webhook-notifications?type=%00', headers: partner.headers }), 'query:type', /NUL/);
  });

  it('a lone surrogate in a contact name is refused, not stored as U+FFFD', async () => {
    const response = await ctx.app.inject({ method: 'POST', url: '/v1/contacts', headers: json(), payload: '{"name":"Ann\\ud800e"}' });
    assertRefused(response, '/name', /unpaired UTF-16 surrogate \(U\+D800\) at position 4/);
    const list = await ctx.app.inject({ method: 'GET', url: '/v1/contacts', headers: partner.headers });
    assert.deepEqual(list.json<{ data: unknown[] }>().data, []);
  });
});

describe('every way text comes in', () => {
  it('headers PVS reads', async () => {
    const response = await ctx.app.inject({ method: 'POST', url: '/v1/contacts', headers: json({ 'idempotency-key': 'key\u0001' }), payload: { name: 'A' } });
    assertRefused(response, 'header:Idempotency-Key', /U\+0001/);
    const tag = await ctx.app.inject({ method: 'GET', url: '/v1/contacts', headers: { ...partner.headers, 'if-none-match': 'W/"\u0000"' } });
    assertRefused(tag, 'header:If-None-Match', /NUL/);
  });

  it('query values and names, with no newline even where JSON would take one', async () => {
    assertRefused(await ctx.app.inject({ method: 'GET', url: '/v1/contacts?externalId=a%0Ab', headers: partner.headers }), 'query:externalId', /U\+000A/);
    assertRefused(await ctx.app.inject({ method: 'GET', url: '/v1/contacts?%01=1', headers: partner.headers }), 'query:\\u0001', /field name contains/);
  });

  it('hosted pages and their calls, which need no credentials', async () => {
    // A person opens the page: a mangled link is the page for a link that does not exist, not JSON.
    for (const url of ['/c/%00', '/c/ab%01cd']) {
      const page = await ctx.app.inject({ method: 'GET', url });
      assert.equal(page.statusCode, 404, url);
      assert.match(String(page.headers['content-type']), /^text\/html/);
      assert.match(page.headers['content-security-policy'] as string, /default-src 'none'/);
    }
    const save = await ctx.app.inject({ method: 'POST', url: '/hosted/v1/card-links/abc', headers: { 'content-type': 'application/json' }, payload: '{"paymentToken":"tok\\u0000"}' });
    assertRefused(save, '/paymentToken', /NUL/);
  });

  it('a URL the router cannot decode', async () => {
    assertRefused(await ctx.app.inject({ method: 'GET', url: '/v1/contacts/%E0%A4%A', headers: partner.headers }), 'path:', /not valid percent-encoded UTF-8/);
  });
});

describe('JSON bodies', () => {
  const post = (payload: string | Buffer) => ctx.app.inject({ method: 'POST', url: '/v1/contacts', headers: json(), payload });

  it('refuses what JSON.parse would let through', async () => {
    assertRefused(await post('{"name":"a","name":"b"}'), '/name', /appears twice/);
    assertRefused(await post(Buffer.from('{"name":"\xff"}', 'latin1')), '', /not valid UTF-8/);
    assertRefused(await post('{"name":"a","email":1e309}'), '/email', /too large to represent/);
    assertRefused(await post(`{"name":${'['.repeat(100)}${']'.repeat(100)}}`), `/name${'/0'.repeat(31)}`, /deeper than 32 levels/);
    assertRefused(await post(JSON.stringify({ name: Array(5000).fill('x') })), '/name', /5000 items/);
  });

  it('checks sizes before patterns: a 60 000-space name is refused for its length', async () => {
    const body = assertRefused(await post(JSON.stringify({ name: ' '.repeat(60_000) })), '/name', /must NOT have more than 200 characters/);
    assert.equal(body.errors!.length, 1);
  });

  it('takes free text with line breaks, emoji and right-to-left text', async () => {
    const response = await post(JSON.stringify({ name: 'مرحبا 👩‍👩‍👧 O\'Brien <b>' }));
    assert.equal(response.statusCode, 201, response.body);
  });

  it('an empty body where one is needed says so', async () => {
    assertRefused(await post(''), '', /^The body is empty; send a JSON object$/);
  });

  it('a body over 1 MiB is 413', async () => {
    const response = await post(JSON.stringify({ name: 'x'.repeat(1024 * 1024) }));
    assert.equal(response.statusCode, 413);
    assert.equal(response.json<Problem>().code, 'PAYLOAD_TOO_LARGE');
  });
});

describe('operations that take nothing', () => {
  async function contactId(): Promise<string> {
    const response = await ctx.app.inject({ method: 'POST', url: '/v1/contacts', headers: json(), payload: { name: 'Card holder' } });
    return response.json<{ id: string }>().id;
  }

  it('take an empty body whatever its content type, and {}', async () => {
    const id = await contactId();
    for (const headers of [json(), { ...partner.headers, 'content-type': 'text/plain' }, { ...partner.headers, 'content-type': 'application/xml' }]) {
      const response = await ctx.app.inject({ method: 'POST', url: `/v1/contacts/${id}/card-link`, headers });
      assert.equal(response.statusCode, 201, `${headers['content-type']}: ${response.body}`);
    }
    const braces = await ctx.app.inject({ method: 'POST', url: `/v1/contacts/${id}/card-link`, headers: json(), payload: '{}' });
    assert.equal(braces.statusCode, 201, braces.body);
  });

  it('refuse a body that says something', async () => {
    const id = await contactId();
    const response = await ctx.app.inject({ method: 'POST', url: `/v1/contacts/${id}/card-link`, headers: json(), payload: '{"expiresInHours":1}' });
    assertRefused(response, '/expiresInHours', /this operation takes no body/);
    const array = await ctx.app.inject({ method: 'POST', url: `/v1/contacts/${id}/card-link`, headers: json(), payload: '[]' });
    assertRefused(array, '', /this operation takes no body/);
  });

  it('an optional body may be left out: test events take their parameters from the query', async () => {
    await ctx.app.inject({ method: 'POST', url: '/v1/webhook-destinations', headers: json(), payload: { url: 'http://127.0.0.1:9/hooks' } });
    const response = await ctx.app.inject({ method: 'POST', url: '/v1/webhook-notifications/test?type=contact&variant=card_removed', headers: json() });
    assert.equal(response.statusCode, 202, response.body);
    const doc = (await ctx.app.inject({ method: 'GET', url: '/openapi.json' })).json<{ paths: Record<string, Record<string, { requestBody?: { required?: boolean } }>> }>();
    // The document shows test events' body alone (one way to send them), and it names both fields; minting links takes an optional body.
    assert.equal(doc.paths['/v1/webhook-notifications/test']!.post!.requestBody!.required, true);
    assert.equal(doc.paths['/v1/verifications/{id}/links']!.post!.requestBody!.required, false);
    assert.equal(doc.paths['/v1/contacts']!.post!.requestBody!.required, true);
  });
});

describe('over a real socket', () => {
  let port: number;
  before(async () => {
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    port = (ctx.app.server.address() as AddressInfo).port;
  });

  async function raw(request: string): Promise<{ status: number; contentType: string; body: string }> {
    const socket = connect(port, '127.0.0.1');
    socket.end(request);
    const chunks: Buffer[] = [];
    for await (const chunk of socket) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const [head, body = ''] = text.split('\r\n\r\n');
    return { status: Number(head!.split(' ')[1]), contentType: /content-type: ([^\r\n]+)/i.exec(head!)?.[1] ?? '', body };
  }

  it('a header Node refuses to parse is answered as a problem', async () => {
    const answer = await raw(`GET /v1/contacts HTTP/1.1\r\nHost: x\r\nX-Partner-Id: a\u0001b\r\n\r\n`);
    assert.equal(answer.status, 400);
    assert.equal(answer.contentType, 'application/problem+json');
    assert.equal(JSON.parse(answer.body).code, 'VALIDATION_ERROR');
  });

  it('a path the router cannot decode is answered as a problem', async () => {
    const answer = await raw(`GET /v1/contacts/%E0%A4%A HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
    assert.equal(answer.status, 400);
    assert.match(answer.contentType, /^application\/problem\+json/);
  });
});
