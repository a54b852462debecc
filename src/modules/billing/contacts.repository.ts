// Every SQL statement about contacts, their saved cards and their card links.
import type { Executor } from '../../platform/db/database.ts';
import type { Tenant } from '../../platform/tenancy.ts';

export interface ContactRow {
  id: string;
  partner_id: string;
  name: string;
  email: string | null;
  external_id: string | null;
  gateway_customer_ref: string | null;
  payment_method_ref: string | null;
  card_brand: string | null;
  card_last4: string | null;
  card_exp_month: number | null;
  card_exp_year: number | null;
  card_saved_at: Date | null;
  payment_failed_at: Date | null;
  billing_blocked: boolean;
  archived_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

const columns = `id, partner_id, name, email, external_id, gateway_customer_ref, payment_method_ref, card_brand, card_last4,
  card_exp_month, card_exp_year, card_saved_at, payment_failed_at, billing_blocked, archived_at, created_at, updated_at`;

export async function insertContact(db: Executor, row: Pick<ContactRow, 'id' | 'partner_id' | 'name' | 'email' | 'external_id' | 'created_at'>): Promise<ContactRow> {
  const [inserted] = await db.query<ContactRow>(
    `INSERT INTO contacts (id, partner_id, name, email, external_id, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $6) RETURNING ${columns}`,
    [row.id, row.partner_id, row.name, row.email, row.external_id, row.created_at],
  );
  return inserted!;
}

/** `lock: true` takes the row for update; `'share'` only keeps others from changing it meanwhile. */
export async function findContact(db: Executor, tenant: Tenant, id: string, options: { lock?: boolean | 'share' } = {}): Promise<ContactRow | undefined> {
  const lock = options.lock === 'share' ? ' FOR SHARE' : options.lock ? ' FOR UPDATE' : '';
  const rows = await db.query<ContactRow>(`SELECT ${columns} FROM contacts WHERE partner_id = $1 AND id = $2${lock}`, [tenant.partnerId, id]);
  return rows[0];
}

// The SQL form of contacts.service's billingStatusOf: blocked by the partner or by a declined run first.
const billingStatusSql = `CASE WHEN billing_blocked OR payment_failed_at IS NOT NULL THEN 'BLOCKED'
  WHEN payment_method_ref IS NOT NULL THEN 'BILLABLE' ELSE 'NO_PAYMENT_METHOD' END`;

/** Oldest first (the API's order), or newest first (the portal's); `billingStatus` filters by billingStatusOf's answer. */
export async function listContacts(
  db: Executor,
  tenant: Tenant,
  query: { limit: number; from: number; externalId?: string; billingStatus?: string; newestFirst?: boolean },
): Promise<ContactRow[]> {
  return db.query<ContactRow>(
    `SELECT ${columns} FROM contacts WHERE partner_id = $1 AND ($2::text IS NULL OR external_id = $2) AND ($3::text IS NULL OR ${billingStatusSql} = $3)
     ORDER BY id ${query.newestFirst ? 'DESC' : 'ASC'} LIMIT $4 OFFSET $5`,
    [tenant.partnerId, query.externalId ?? null, query.billingStatus ?? null, query.limit + 1, query.from],
  );
}

/** The partner's contacts that are not archived and cannot be billed now (BLOCKED), with how many there are in all. */
export async function listBlockedContacts(db: Executor, tenant: Tenant, limit: number): Promise<{ rows: ContactRow[]; total: number }> {
  const rows = await db.query<ContactRow & { total: string | number }>(
    `SELECT ${columns}, count(*) OVER () AS total FROM contacts
     WHERE partner_id = $1 AND archived_at IS NULL AND (billing_blocked OR payment_failed_at IS NOT NULL) ORDER BY updated_at DESC, id LIMIT $2`,
    [tenant.partnerId, limit],
  );
  return { rows: rows.map(({ total: _total, ...row }) => row), total: Number(rows[0]?.total ?? 0) };
}

export async function updateContact(
  db: Executor,
  tenant: Tenant,
  id: string,
  changes: { name?: string; email?: string | null; externalId?: string | null; billingBlocked?: boolean },
  at: Date,
): Promise<ContactRow | undefined> {
  // email and externalId may be set to null, so "not given" is told apart by a flag.
  const rows = await db.query<ContactRow>(
    `UPDATE contacts SET name = coalesce($3, name),
       email = CASE WHEN $4 THEN $5 ELSE email END,
       external_id = CASE WHEN $6 THEN $7 ELSE external_id END,
       billing_blocked = coalesce($8, billing_blocked), updated_at = $9
     WHERE partner_id = $1 AND id = $2 AND archived_at IS NULL RETURNING ${columns}`,
    [
      tenant.partnerId,
      id,
      changes.name ?? null,
      changes.email !== undefined,
      changes.email ?? null,
      changes.externalId !== undefined,
      changes.externalId ?? null,
      changes.billingBlocked ?? null,
      at,
    ],
  );
  return rows[0];
}

export async function archiveContact(db: Executor, tenant: Tenant, id: string, at: Date): Promise<ContactRow | undefined> {
  const rows = await db.query<ContactRow>(
    `UPDATE contacts SET archived_at = coalesce(archived_at, $3), updated_at = $3 WHERE partner_id = $1 AND id = $2 RETURNING ${columns}`,
    [tenant.partnerId, id, at],
  );
  return rows[0];
}

/** A new card replaces the old one and lifts a block left by a declined run. */
export async function saveCard(
  db: Executor,
  tenant: Tenant,
  id: string,
  card: { customerRef: string; paymentMethodRef: string; brand: string; last4: string; expMonth: number; expYear: number },
  at: Date,
): Promise<ContactRow> {
  const [row] = await db.query<ContactRow>(
    `UPDATE contacts SET gateway_customer_ref = $3, payment_method_ref = $4, card_brand = $5, card_last4 = $6, card_exp_month = $7,
       card_exp_year = $8, card_saved_at = $9, payment_failed_at = NULL, updated_at = $9
     WHERE partner_id = $1 AND id = $2 RETURNING ${columns}`,
    [tenant.partnerId, id, card.customerRef, card.paymentMethodRef, card.brand, card.last4, card.expMonth, card.expYear, at],
  );
  return row!;
}

export async function removeCard(db: Executor, tenant: Tenant, id: string, at: Date): Promise<ContactRow | undefined> {
  const rows = await db.query<ContactRow>(
    `UPDATE contacts SET payment_method_ref = NULL, card_brand = NULL, card_last4 = NULL, card_exp_month = NULL, card_exp_year = NULL,
       card_saved_at = NULL, updated_at = $3
     WHERE partner_id = $1 AND id = $2 RETURNING ${columns}`,
    [tenant.partnerId, id, at],
  );
  return rows[0];
}

export async function markPaymentFailed(db: Executor, tenant: Tenant, id: string, at: Date): Promise<void> {
  await db.query('UPDATE contacts SET payment_failed_at = coalesce(payment_failed_at, $3), updated_at = $3 WHERE partner_id = $1 AND id = $2', [
    tenant.partnerId,
    id,
    at,
  ]);
}

export async function clearPaymentFailed(db: Executor, tenant: Tenant, id: string, at: Date): Promise<void> {
  await db.query('UPDATE contacts SET payment_failed_at = NULL, updated_at = $3 WHERE partner_id = $1 AND id = $2 AND payment_failed_at IS NOT NULL', [
    tenant.partnerId,
    id,
    at,
  ]);
}

export interface CardLinkRow {
  token_hash: string;
  partner_id: string;
  contact_id: string;
  expires_at: Date;
  used_at: Date | null;
  replaced_at: Date | null;
  created_at: Date;
}

/** The contact's live link (if any) stops working; the new one takes its place. */
export async function replaceCardLink(db: Executor, tenant: Tenant, row: Omit<CardLinkRow, 'partner_id' | 'used_at' | 'replaced_at'>): Promise<void> {
  await db.query('UPDATE card_links SET replaced_at = $3 WHERE partner_id = $1 AND contact_id = $2 AND used_at IS NULL AND replaced_at IS NULL', [
    tenant.partnerId,
    row.contact_id,
    row.created_at,
  ]);
  await db.query('INSERT INTO card_links (token_hash, partner_id, contact_id, expires_at, created_at) VALUES ($1, $2, $3, $4, $5)', [
    row.token_hash,
    tenant.partnerId,
    row.contact_id,
    row.expires_at,
    row.created_at,
  ]);
}

/** `tokenHashes`: the token's digest under each key of the ring. */
export async function findCardLink(db: Executor, tokenHashes: string[]): Promise<CardLinkRow | undefined> {
  const rows = await db.query<CardLinkRow>(
    'SELECT token_hash, partner_id, contact_id, expires_at, used_at, replaced_at, created_at FROM card_links WHERE token_hash = ANY ($1::text[])',
    [tokenHashes],
  );
  return rows[0];
}

/** Spends a live link; undefined when it was spent, replaced or expired meanwhile. */
export async function spendCardLink(db: Executor, tokenHash: string, at: Date): Promise<CardLinkRow | undefined> {
  const rows = await db.query<CardLinkRow>(
    `UPDATE card_links SET used_at = $2 WHERE token_hash = $1 AND used_at IS NULL AND replaced_at IS NULL AND expires_at > $2
     RETURNING token_hash, partner_id, contact_id, expires_at, used_at, replaced_at, created_at`,
    [tokenHash, at],
  );
  return rows[0];
}
