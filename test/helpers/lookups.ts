// Business lookups the way a partner makes and reads them: POST, let the worker run, GET.
import assert from 'node:assert/strict';
import type { Lookup, Ownership, Registry } from '../../src/modules/lookups/lookups.schemas.ts';
import { runDueJobs } from './billing.ts';
import type { TestContext, TestPartner } from './context.ts';

export async function postLookup(t: TestContext, partner: TestPartner, body: Record<string, unknown>, headers: Record<string, string> = {}) {
  return t.app.inject({ method: 'POST', url: '/v1/business-lookups', headers: { ...partner.headers, ...headers }, payload: body });
}

export async function getLookup(t: TestContext, partner: TestPartner, id: string): Promise<Lookup> {
  const res = await t.app.inject({ method: 'GET', url: `/v1/business-lookups/${id}`, headers: partner.headers });
  assert.equal(res.statusCode, 200, res.body);
  return res.json<Lookup>();
}

/** Creates a lookup, runs the jobs that are due, and answers the record. */
export async function settledLookup(t: TestContext, partner: TestPartner, body: Record<string, unknown>): Promise<Lookup> {
  const res = await postLookup(t, partner, body);
  assert.equal(res.statusCode, 202, res.body);
  await runDueJobs(t);
  return getLookup(t, partner, res.json<{ lookupRequestId: string }>().lookupRequestId);
}

export async function readView(t: TestContext, partner: TestPartner, id: string, view: 'registry' | 'ownership', headers: Record<string, string> = {}) {
  return t.app.inject({ method: 'GET', url: `/v1/business-lookups/${id}/${view}`, headers: { ...partner.headers, ...headers } });
}

export async function ownershipOf(t: TestContext, partner: TestPartner, id: string): Promise<Ownership> {
  const res = await readView(t, partner, id, 'ownership');
  assert.equal(res.statusCode, 200, res.body);
  return res.json<Ownership>();
}

export async function registryOf(t: TestContext, partner: TestPartner, id: string): Promise<Registry> {
  const res = await readView(t, partner, id, 'registry');
  assert.equal(res.statusCode, 200, res.body);
  return res.json<Registry>();
}
