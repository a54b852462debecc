// The /ops/v1 guard as a route the lead adds would meet it: any route registered inside opsApi needs an
// operator token (checked before the body is read or validated), gets `request.operator`, takes JSON only,
// and is documented with the operator scheme under the `operators` tag.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Type } from '@sinclair/typebox';
import { createTestContext, type TestContext, type TestOperator } from '../helpers/context.ts';

let t: TestContext;
let operator: TestOperator;
let handled = 0;

before(async () => {
  t = await createTestContext({
    app: {
      extraOpsRoutes: (api) => {
        api.post(
          '/test-probes/:probeId',
          {
            schema: {
              summary: 'Probe',
              operationId: 'opsTestProbe',
              params: Type.Object({ probeId: Type.String({ maxLength: 64 }) }),
              body: Type.Object({ note: Type.String({ maxLength: 20 }) }, { additionalProperties: false }),
            },
          },
          async (request) => {
            handled++;
            return { operator: request.operator, probeId: request.params.probeId, note: request.body.note };
          },
        );
      },
    },
  });
  operator = await t.f.operator();
});
after(() => t.close());

function probe(headers: Record<string, string>, payload: unknown = { note: 'hello' }) {
  return t.app.inject({ method: 'POST', url: '/ops/v1/test-probes/p1', headers, payload: payload as object });
}

describe('a route registered inside opsApi', () => {
  it('runs with request.operator set to the token\'s operator', async () => {
    const res = await probe(operator.headers);
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.json(), { operator: { operatorId: operator.operatorId, email: operator.email }, probeId: 'p1', note: 'hello' });
  });

  it('refuses a missing or partner token with 401 before the body is validated, and the handler never runs', async () => {
    const partner = await t.f.partner();
    const before = handled;
    for (const headers of [{}, partner.headers]) {
      const res = await probe(headers, { unknown: 'field' });
      assert.equal(res.statusCode, 401, res.body);
      assert.equal(res.json<{ code: string }>().code, 'UNAUTHENTICATED');
    }
    assert.equal(handled, before);
  });

  it('takes JSON only', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/ops/v1/test-probes/p1',
      headers: { ...operator.headers, 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'note=hello',
    });
    assert.equal(res.statusCode, 415, res.body);
  });

  it("is documented with the operator scheme under the operators tag, in the operators' document only", async () => {
    type Paths = { paths: Record<string, Record<string, { security?: unknown; tags?: string[] }>> };
    const doc = (await t.app.inject({ method: 'GET', url: '/ops/openapi.json' })).json<Paths>();
    const operation = doc.paths['/ops/v1/test-probes/{probeId}']?.post;
    assert.ok(operation, 'the probe is in the document');
    const partnerDoc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json<Paths>();
    assert.equal(partnerDoc.paths['/ops/v1/test-probes/{probeId}'], undefined, "the probe is not in the partner's document");
    assert.deepEqual(operation.security, [{ operatorBearer: [] }]);
    assert.deepEqual(operation.tags, ['operators']);
  });

  it('writes the operator id on the access log line', async () => {
    await probe(operator.headers);
    const line = t.logs.find((l) => l.msg === 'request' && l.route === '/ops/v1/test-probes/:probeId' && l.status === 200);
    assert.equal(line?.operatorId, operator.operatorId);
  });
});
