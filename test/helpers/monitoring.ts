// Monitoring as a partner drives it: subscriptions through /v1/contacts/{id}/monitoring, alerts through
// /v1/monitoring/alerts, list versions imported as an operator imports them, and the events raised.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestContext, TestPartner } from './context.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'pvs-monitoring-'));
const header = 'id,kind,name,aliases,dateOfBirth,countries,categories,source';
let files = 0;

/** A simple-CSV list (CONTRACT §11) written to a new file, imported as `list` (one version). */
export async function importList(t: TestContext, rows: string[], list = 'watch'): Promise<number> {
  files += 1;
  const file = path.join(dir, `list-${files}.csv`);
  writeFileSync(file, `${[header, ...rows].join('\n')}\n`);
  const imported = await t.services.screening.importList({ format: 'csv', filePath: file, list });
  return imported.version;
}

export const listRows = {
  karlov: 'fx-karlov,person,Boris Ivanovich KARLOV,Boris Karlof;Борис Иванович Карлов,1961-03-14,RU,SANCTIONS,Test sanctions',
  elSayed: 'fx-el-sayed,person,Amira Hassan EL-SAYED,,1975-09-02,AU,PEP,Test PEP list',
  northwind: 'fx-northwind,business,Northwind Trading FZE,,,AE,SANCTIONS,Test sanctions',
  unrelated: 'fx-unrelated,person,Zoltan QUIBBLEWORTH,,1950-01-01,HU,SANCTIONS,Test sanctions',
  // Added later: an alias in another script and spelling of a name the tests monitor.
  dunmore: 'fx-dunmore,business,Dunmore Shipping Holdings LLC,Данмор Шиппинг Холдингс,,RU,SANCTIONS,Test sanctions',
};

export async function putMonitoring(t: TestContext, partner: TestPartner, contactId: string, body: Record<string, unknown>) {
  return t.app.inject({ method: 'PUT', url: `/v1/contacts/${contactId}/monitoring`, headers: partner.headers, payload: body });
}

export async function enable(t: TestContext, partner: TestPartner, contactId: string, body: Record<string, unknown> = {}) {
  const res = await putMonitoring(t, partner, contactId, { enabled: true, coverage: ['SANCTIONS', 'PEP'], ...body });
  assert.equal(res.statusCode, 200, res.body);
  return res.json<Record<string, unknown>>();
}

export async function subscriptionOf(t: TestContext, partner: TestPartner, contactId: string) {
  const res = await t.app.inject({ method: 'GET', url: `/v1/contacts/${contactId}/monitoring`, headers: partner.headers });
  assert.equal(res.statusCode, 200, res.body);
  return res.json<Record<string, unknown>>();
}

export interface AlertBody {
  id: string;
  contactId: string;
  status: string;
  categories: string[];
  score: number;
  listVersion: number;
  matchedName: string;
  entry: { list: string; entryId: string; name: string; categories: string[] };
  decision: { decision: string; note: string | null; decidedBy: string; decidedAt: string } | null;
}

export async function alertsOf(t: TestContext, partner: TestPartner, query = ''): Promise<AlertBody[]> {
  const res = await t.app.inject({ method: 'GET', url: `/v1/monitoring/alerts${query}`, headers: partner.headers });
  assert.equal(res.statusCode, 200, res.body);
  return res.json<{ data: AlertBody[] }>().data;
}

/** The partner's monitoring events, oldest first: type and payload. */
export async function monitoringEvents(t: TestContext, partnerId: string) {
  return t.services.db.query<{ type: string; payload: Record<string, unknown> }>(
    "SELECT type, payload FROM events WHERE partner_id = $1 AND type LIKE 'monitoring.%' AND NOT test ORDER BY id",
    [partnerId],
  );
}
