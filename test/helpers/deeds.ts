// Deed analyses as a partner drives them in tests: create, upload through the signed URL exactly as a
// partner would (the URL's path and query, the headers as given, the raw body), start; and a short deed
// (typeset into a PDF with deed-scans.ts's typesetPdf).
import assert from 'node:assert/strict';
import type { TestContext, TestPartner } from './context.ts';

export interface CreatedDeed {
  deedAnalysis: { id: string; status: string };
  upload: { url: string; headers: Record<string, string>; expiresAt: string };
}

export async function createDeed(t: TestContext, partner: TestPartner, body: Record<string, unknown> = {}): Promise<CreatedDeed> {
  const res = await t.app.inject({ method: 'POST', url: '/v1/deed-analyses', headers: partner.headers, payload: body });
  assert.equal(res.statusCode, 201, res.body);
  return res.json<CreatedDeed>();
}

/** PUTs `bytes` to the signed URL; `headers` replaces what the upload asked for (to test a changed one). */
export function upload(t: TestContext, created: CreatedDeed, bytes: Buffer, headers: Record<string, string> = created.upload.headers) {
  const url = new URL(created.upload.url);
  return t.app.inject({ method: 'PUT', url: url.pathname + url.search, headers, payload: bytes });
}

export function start(t: TestContext, partner: TestPartner, id: string) {
  return t.app.inject({ method: 'POST', url: `/v1/deed-analyses/${id}/start`, headers: partner.headers });
}

export async function deedOf(t: TestContext, partner: TestPartner, id: string) {
  const res = await t.app.inject({ method: 'GET', url: `/v1/deed-analyses/${id}`, headers: partner.headers });
  assert.equal(res.statusCode, 200, res.body);
  return res.json<{ id: string; status: string; partyCount: number | null; pageCount: number | null; failureReason: string | null; documentPurgedAt: string | null }>();
}

/** A short discretionary trust deed: a corporate trustee, an appointor, named and class beneficiaries. */
export function shortDeedPages(extra = ''): string[] {
  return [
    [
      'DEED OF SETTLEMENT',
      'WATTLE CREEK FAMILY TRUST',
      'THIS DEED is made on 1 July 2012',
      'BY Margaret Anne Fairbairn of 4 Wattle Lane, Toowong QLD 4066 (the Settlor)',
      'AND WATTLE CREEK NOMINEES PTY LTD ACN 111 111 114 of 12 Banksia Parade, Toowong QLD 4066 (the Trustee)',
      extra,
    ].join('\n'),
    [
      'SCHEDULE',
      'Item 1. Trust name: Wattle Creek Family Trust',
      'Item 2. Trustee: WATTLE CREEK NOMINEES PTY LTD ACN 111 111 114',
      'Item 3. Appointor: Priscilla Mary Fairbairn of 4 Wattle Lane, Toowong QLD 4066',
      'Item 4. Primary Beneficiaries: Daniel Hugh Merriweather',
      'Item 5. General Beneficiaries: the children and remoter issue of the Primary Beneficiaries',
      'Item 6. Vesting Day: the day before the eightieth anniversary of the date of this deed',
      'This deed is governed by the law of Queensland.',
    ].join('\n'),
  ];
}
