// Errors: every code's problem+json shape (unit level over the catalogue), then every error a client
// can reach through HTTP, with its status, content type, body shape and field pointers.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Type } from '@sinclair/typebox';
import type { LightMyRequestResponse } from 'fastify';
import { bodyLimitBytes } from '../src/app.ts';
import { createManualClock } from '../src/platform/clock.ts';
import { AppError, errorCatalogue, errorCodes, type ErrorCode } from '../src/platform/errors.ts';
import { problemBody } from '../src/platform/http/problem.ts';
import { createTestContext, type TestContext, type TestPartner } from './helpers/context.ts';

const typeBase = 'https://docs.pvs.example/errors/';

/** CONTRACT §3, hard-coded so that a change to the catalogue is caught here. */
const contractStatuses: Record<string, number> = {
  VALIDATION_ERROR: 400,
  UNAUTHENTICATED: 401,
  PARTNER_MISMATCH: 403,
  LOOKUP_NOT_OWNED: 403,
  NOT_FOUND: 404,
  LOOKUP_NOT_COMPLETED: 409,
  STRUCTURE_NOT_CONFIRMED: 409,
  INVALID_STATE: 409,
  IDEMPOTENCY_KEY_REUSED: 422,
  PAYMENT_METHOD_REQUIRED: 402,
  CONTACT_BILLING_BLOCKED: 402,
  CONTACT_INVALID: 422,
  UPLOAD_NOT_FOUND: 422,
  FILE_TOO_LARGE: 422,
  NOT_A_PDF: 422,
  TOO_MANY_PAGES: 422,
  PAYLOAD_EXPIRED: 410,
  READ_BUDGET_EXHAUSTED: 429,
  CARD_DECLINED: 402,
  PAYLOAD_TOO_LARGE: 413,
  LINK_INVALID: 410,
  RATE_LIMITED: 429,
  SERVICE_UNAVAILABLE: 503,
  INTERNAL: 500,
};

/** Codes PVS adds beyond the contract's table. */
const addedStatuses: Record<string, number> = {
  FORBIDDEN: 403,
  UNSUPPORTED_MEDIA_TYPE: 415,
};

const expectedStatuses = { ...contractStatuses, ...addedStatuses };

describe('error catalogue and problemBody', () => {
  it('holds exactly the contract codes plus FORBIDDEN and UNSUPPORTED_MEDIA_TYPE', () => {
    assert.deepEqual([...errorCodes].sort(), Object.keys(expectedStatuses).sort());
    assert.deepEqual(Object.keys(errorCatalogue).sort(), Object.keys(expectedStatuses).sort());
  });

  for (const code of Object.keys(expectedStatuses) as ErrorCode[]) {
    it(`${code}: ${expectedStatuses[code]} with the RFC 9457 members`, () => {
      const expected = expectedStatuses[code]!;
      assert.equal(errorCatalogue[code].status, expected);
      const error = new AppError(code, `What went wrong (${code})`);
      assert.equal(error.status, expected);
      assert.equal(error.code, code);

      const body = problemBody(error, 'req_01J0000000000000000000TEST');
      assert.deepEqual(Object.keys(body).sort(), ['code', 'detail', 'requestId', 'status', 'title', 'type']);
      assert.equal(body.type, `${typeBase}${code}`);
      assert.equal(body.title, errorCatalogue[code].title);
      assert.equal(typeof body.title, 'string');
      assert.ok(body.title.length > 0);
      assert.equal(body.status, expected);
      assert.equal(body.code, code);
      assert.equal(body.detail, `What went wrong (${code})`);
      assert.equal(body.requestId, 'req_01J0000000000000000000TEST');
      assert.equal('errors' in body, false, 'errors[] only when given');
      // The body survives JSON as it is (no undefined members, no class instances).
      assert.deepEqual(JSON.parse(JSON.stringify(body)), body);

      const withPointer = problemBody(new AppError(code, 'Bad field', { pointer: '/a/0/b' }), 'req_x');
      assert.deepEqual(withPointer.errors, [{ pointer: '/a/0/b', message: 'Bad field' }]);

      const withErrors = problemBody(
        new AppError(code, 'Two bad fields', { errors: [{ pointer: '/x', message: 'is required' }, { pointer: 'query:limit', message: 'must be >= 1' }] }),
        'req_y',
      );
      assert.deepEqual(withErrors.errors, [
        { pointer: '/x', message: 'is required' },
        { pointer: 'query:limit', message: 'must be >= 1' },
      ]);
    });
  }

  it('titles are distinct, so a title names one code', () => {
    const titles = Object.values(errorCatalogue).map((e) => e.title);
    assert.equal(new Set(titles).size, titles.length);
  });

  it('extensions add members but never replace the standard ones', () => {
    const error = new AppError('CARD_DECLINED', 'The card was declined by the issuer', {
      extensions: { declineCode: 'insufficient_funds', status: 200, code: 'OK', type: 'x', requestId: 'forged', detail: 'forged', title: 'forged' },
    });
    const body = problemBody(error, 'req_z');
    assert.equal(body.declineCode, 'insufficient_funds');
    assert.equal(body.status, 402);
    assert.equal(body.code, 'CARD_DECLINED');
    assert.equal(body.type, `${typeBase}CARD_DECLINED`);
    assert.equal(body.title, errorCatalogue.CARD_DECLINED.title);
    assert.equal(body.detail, 'The card was declined by the issuer');
    assert.equal(body.requestId, 'req_z');
  });
});

// ---------------------------------------------------------------------------------------------------

const generatedRequestId = /^req_[0-9A-HJKMNP-TV-Z]{26}$/;

interface Problem {
  type: string;
  title: string;
  status: number;
  code: string;
  detail: string;
  requestId: string;
  errors?: Array<{ pointer: string; message: string }>;
  [member: string]: unknown;
}

/** Asserts one problem+json answer; `pointers` are the expected errors[] pointers (absent: no errors[]). */
function assertProblem(res: LightMyRequestResponse, status: number, code: ErrorCode, pointers?: string[]): Problem {
  assert.equal(res.statusCode, status, `${status} ${code} expected, got ${res.statusCode}: ${res.body}`);
  assert.match(String(res.headers['content-type']), /^application\/problem\+json(;|$)/);
  const body = res.json() as Problem;
  assert.equal(body.type, `${typeBase}${code}`);
  assert.equal(body.title, errorCatalogue[code].title);
  assert.equal(body.status, status);
  assert.equal(body.code, code);
  assert.equal(typeof body.detail, 'string');
  assert.ok(body.detail.length > 0, 'detail is not empty');
  assert.equal(body.requestId, res.headers['x-request-id'], 'the body carries the request id of the X-Request-Id header');
  assert.match(body.requestId, generatedRequestId);
  assert.equal('stack' in body, false);
  if (pointers === undefined) {
    assert.equal('errors' in body, false, `no errors[] expected: ${res.body}`);
  } else {
    assert.ok(Array.isArray(body.errors), `errors[] expected: ${res.body}`);
    // Order is not part of the contract; the set of pointers is.
    assert.deepEqual(body.errors.map((e) => e.pointer).sort(), [...pointers].sort(), res.body);
    for (const e of body.errors) {
      assert.deepEqual(Object.keys(e).sort(), ['message', 'pointer']);
      assert.equal(typeof e.message, 'string');
      assert.ok(e.message.length > 0);
    }
  }
  return body;
}

function problemFor(body: Problem, pointer: string): string {
  const found = body.errors?.find((e) => e.pointer === pointer);
  assert.ok(found, `no problem at ${pointer}`);
  return found.message;
}

describe('errors through HTTP', () => {
  let t: TestContext;
  let alice: TestPartner;
  let bob: TestPartner;

  before(async () => {
    t = await createTestContext({
      app: {
        extraPartnerRoutes: (api) => {
          api.post(
            '/test/nested',
            {
              schema: {
                body: Type.Object(
                  {
                    individuals: Type.Array(Type.Object({ role: Type.String() }, { additionalProperties: false })),
                  },
                  { additionalProperties: false },
                ),
              },
            },
            async () => ({ ok: true }),
          );
          api.get('/test/boom', async () => {
            throw new Error('secret detail');
          });
          api.get('/test/unavailable', async () => {
            throw Object.assign(new Error('connect ECONNREFUSED 10.9.8.7:5432 (db-internal.example)'), { code: 'ECONNREFUSED' });
          });
        },
      },
    });
    alice = await t.f.partner({ name: 'Alice Accounting' });
    bob = await t.f.partner({ name: 'Bob Tax' });
  });
  after(() => t.close());

  function createClient(payload: string | object, headers: Record<string, string> = {}) {
    return t.app.inject({
      method: 'POST',
      url: '/v1/api-clients',
      headers: { ...alice.headers, ...(typeof payload === 'string' ? { 'content-type': 'application/json' } : {}), ...headers },
      payload,
    });
  }

  describe('400 VALIDATION_ERROR', () => {
    it('an unknown body field, pointed at', async () => {
      const body = assertProblem(await createClient({ label: 'ok', foo: 1 }), 400, 'VALIDATION_ERROR', ['/foo']);
      assert.match(problemFor(body, '/foo'), /not a known field/);
    });

    it('a field of the wrong type, pointed at', async () => {
      const body = assertProblem(await createClient({ label: 5 }), 400, 'VALIDATION_ERROR', ['/label']);
      assert.match(problemFor(body, '/label'), /string/);
    });

    it('a rule violation (too long), pointed at', async () => {
      assertProblem(await createClient({ label: 'x'.repeat(101) }), 400, 'VALIDATION_ERROR', ['/label']);
    });

    it('every problem at once, not only the first', async () => {
      assertProblem(await createClient({ label: 5, foo: 1, bar: 2 }), 400, 'VALIDATION_ERROR', ['/bar', '/foo', '/label']);
    });

    it('a field name with / and ~ is escaped in its pointer (RFC 6901)', async () => {
      assertProblem(await createClient({ 'a/b~c': 1 }), 400, 'VALIDATION_ERROR', ['/a~1b~0c']);
    });

    it('a body that is not JSON', async () => {
      const body = assertProblem(await createClient('{"label": "unterminated'), 400, 'VALIDATION_ERROR', ['']);
      assert.match(body.detail, /not valid JSON/);
      assert.equal(body.detail.includes('unterminated'), false);
    });

    it('an empty JSON body', async () => {
      const body = assertProblem(await createClient(''), 400, 'VALIDATION_ERROR', ['']);
      assert.match(body.detail, /empty/);
    });

    it('a JSON body that is not an object', async () => {
      assertProblem(await createClient('[1, 2]'), 400, 'VALIDATION_ERROR', ['']);
    });

    it('an unknown nested field: /individuals/0/firstName', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/v1/test/nested',
        headers: alice.headers,
        payload: { individuals: [{ role: 'X', firstName: 'A' }] },
      });
      const body = assertProblem(res, 400, 'VALIDATION_ERROR', ['/individuals/0/firstName']);
      assert.match(problemFor(body, '/individuals/0/firstName'), /not a known field/);
    });

    it('a missing required nested field: /individuals/0/role', async () => {
      const res = await t.app.inject({ method: 'POST', url: '/v1/test/nested', headers: alice.headers, payload: { individuals: [{}] } });
      const body = assertProblem(res, 400, 'VALIDATION_ERROR', ['/individuals/0/role']);
      assert.equal(problemFor(body, '/individuals/0/role'), 'is required');
    });

    it('nested problems in several array items, each pointed at', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/v1/test/nested',
        headers: alice.headers,
        payload: { individuals: [{ role: 'X' }, { role: 7 }, { firstName: 'A' }] },
      });
      assertProblem(res, 400, 'VALIDATION_ERROR', ['/individuals/1/role', '/individuals/2/firstName', '/individuals/2/role']);
    });

    it('control: a valid nested body passes', async () => {
      const res = await t.app.inject({ method: 'POST', url: '/v1/test/nested', headers: alice.headers, payload: { individuals: [{ role: 'X' }] } });
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(res.json(), { ok: true });
    });

    it('a query parameter out of range: query:limit', async () => {
      for (const limit of ['0', '101', 'ten']) {
        const res = await t.app.inject({ method: 'GET', url: `/v1/api-clients?limit=${limit}`, headers: alice.headers });
        assertProblem(res, 400, 'VALIDATION_ERROR', ['query:limit']);
      }
    });

    it('an unknown query parameter: query:<name>', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/v1/api-clients?colour=red', headers: alice.headers });
      assertProblem(res, 400, 'VALIDATION_ERROR', ['query:colour']);
    });

    it('a missing X-Partner-Id: header:X-Partner-Id', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/v1/api-clients', headers: { authorization: alice.headers.authorization } });
      assertProblem(res, 400, 'VALIDATION_ERROR', ['header:X-Partner-Id']);
    });
  });

  it('401 UNAUTHENTICATED without a token or with a bad one', async () => {
    const missing = await t.app.inject({ method: 'GET', url: '/v1/api-clients', headers: { 'x-partner-id': alice.partnerId } });
    assertProblem(missing, 401, 'UNAUTHENTICATED');
    assert.match(String(missing.headers['www-authenticate']), /^Bearer /);
    const bad = await t.app.inject({ method: 'GET', url: '/v1/api-clients', headers: { authorization: 'Bearer not.a.jwt', 'x-partner-id': alice.partnerId } });
    assertProblem(bad, 401, 'UNAUTHENTICATED');
  });

  it('403 PARTNER_MISMATCH when X-Partner-Id is another partner', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v1/api-clients', headers: { authorization: alice.headers.authorization, 'x-partner-id': bob.partnerId } });
    assertProblem(res, 403, 'PARTNER_MISMATCH');
  });

  it('404 NOT_FOUND for an unknown route, inside and outside /v1', async () => {
    for (const url of ['/nope', '/v1/nope', '/v1/api-clients/cli_x/extra']) {
      const res = await t.app.inject({ method: 'GET', url, headers: alice.headers });
      const body = assertProblem(res, 404, 'NOT_FOUND');
      assert.match(body.detail, /No route GET/);
    }
  });

  it('404 NOT_FOUND for an unknown method on a known path', async () => {
    const res = await t.app.inject({ method: 'PATCH', url: '/v1/api-clients', headers: alice.headers, payload: {} });
    assertProblem(res, 404, 'NOT_FOUND');
  });

  it('404 NOT_FOUND for an unknown id', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v1/api-clients/cli_01M7YSX1AMSAS76PW5S6WMSP39', headers: alice.headers });
    const body = assertProblem(res, 404, 'NOT_FOUND');
    assert.match(body.detail, /cli_01M7YSX1AMSAS76PW5S6WMSP39/);
  });

  it('the detail of an unknown route never echoes the query string', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v1/nope?token=abc123secret', headers: alice.headers });
    const body = assertProblem(res, 404, 'NOT_FOUND');
    assert.equal(res.body.includes('abc123secret'), false, body.detail);
  });

  it('409 INVALID_STATE when revoking the last active API client', async () => {
    const carol = await t.f.partner();
    const res = await t.app.inject({ method: 'DELETE', url: `/v1/api-clients/${carol.clientId}`, headers: carol.headers });
    assertProblem(res, 409, 'INVALID_STATE');
    const still = await t.app.inject({ method: 'GET', url: `/v1/api-clients/${carol.clientId}`, headers: carol.headers });
    assert.equal(still.json().revokedAt, null);
  });

  it('422 IDEMPOTENCY_KEY_REUSED for the same key with a different body', async () => {
    const first = await createClient({ label: 'one' }, { 'idempotency-key': 'errors-test-key-1' });
    assert.equal(first.statusCode, 201, first.body);
    const second = await createClient({ label: 'two' }, { 'idempotency-key': 'errors-test-key-1' });
    assertProblem(second, 422, 'IDEMPOTENCY_KEY_REUSED', ['header:Idempotency-Key']);
  });

  it('413 PAYLOAD_TOO_LARGE for a JSON body over 1 MiB; exactly 1 MiB is still read', async () => {
    const frame = '{"label":""}';
    const atLimit = `{"label":"${'x'.repeat(bodyLimitBytes - frame.length)}"}`;
    assert.equal(Buffer.byteLength(atLimit), bodyLimitBytes);
    // Read and validated: the label is too long, which is a 400, not a 413.
    assertProblem(await createClient(atLimit), 400, 'VALIDATION_ERROR', ['/label']);

    const overLimit = `{"label":"${'x'.repeat(bodyLimitBytes - frame.length + 1)}"}`;
    const body = assertProblem(await createClient(overLimit), 413, 'PAYLOAD_TOO_LARGE');
    assert.match(body.detail, /1 MiB/);
  });

  it('415 UNSUPPORTED_MEDIA_TYPE for text/plain or a form to a JSON route', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded']) {
      const res = await createClient('label=x', { 'content-type': type });
      const body = assertProblem(res, 415, 'UNSUPPORTED_MEDIA_TYPE');
      assert.ok(body.detail.includes(type), body.detail);
    }
  });

  it('500 INTERNAL for a bug: no internals in the body, the request id in it, the error in the log', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v1/test/boom', headers: alice.headers });
    const body = assertProblem(res, 500, 'INTERNAL');
    assert.equal(res.body.includes('secret detail'), false);
    assert.equal(/\bat .+:\d+:\d+/.test(res.body), false, 'no stack frames');
    assert.equal(res.body.includes('.ts'), false, 'no source paths');
    assert.ok(body.detail.includes(body.requestId), 'the detail quotes the request id');

    const line = t.logs.find((l) => l.requestId === body.requestId && l.msg === 'unhandled error');
    assert.ok(line, `no error log line for ${body.requestId}`);
    assert.equal(line.level, 'error');
    const err = line.err as { message?: string; stack?: string };
    assert.equal(err.message, 'secret detail');
    assert.match(String(err.stack), /secret detail/);
  });

  it('503 SERVICE_UNAVAILABLE with Retry-After when a dependency refuses connections', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v1/test/unavailable', headers: alice.headers });
    const body = assertProblem(res, 503, 'SERVICE_UNAVAILABLE');
    assert.equal(res.headers['retry-after'], '5');
    for (const internal of ['ECONNREFUSED', '10.9.8.7', '5432', 'db-internal']) assert.equal(res.body.includes(internal), false, internal);
    const line = t.logs.find((l) => l.requestId === body.requestId && l.msg === 'dependency unavailable');
    assert.ok(line, 'the outage is logged');
    assert.equal(line.level, 'error');
  });

  it('every problem answer is also no-store', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v1/test/boom', headers: alice.headers });
    assert.equal(res.headers['cache-control'], 'no-store');
  });
});

describe('429 RATE_LIMITED', () => {
  const clock = createManualClock(new Date());
  let t: TestContext;

  before(async () => {
    t = await createTestContext({ clock, env: { RATE_LIMIT_PER_SECOND: '1', RATE_LIMIT_BURST: '2' } });
  });
  after(() => t.close());

  it('answers a problem with Retry-After and RateLimit-* headers once the burst is spent', async () => {
    const dave = await t.f.partner();
    const call = () => t.app.inject({ method: 'GET', url: '/v1/channel-partners/me', headers: dave.headers });
    assert.equal((await call()).statusCode, 200);
    const second = await call();
    assert.equal(second.statusCode, 200);
    assert.equal(second.headers['ratelimit-remaining'], '0');
    const res = await call();
    assertProblem(res, 429, 'RATE_LIMITED');
    assert.equal(res.headers['retry-after'], '1');
    assert.equal(res.headers['ratelimit-limit'], '2');
    assert.equal(res.headers['ratelimit-remaining'], '0');
    assert.ok(res.headers['ratelimit-policy']);
    clock.advance(1_000);
    assert.equal((await call()).statusCode, 200, 'one request per second refills');
  });
});
