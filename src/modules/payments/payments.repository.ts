// Every SQL statement about ATO payments, their links and the attempts their payers made.
import type { Executor } from '../../platform/db/database.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import type { PaymentStatus } from './payments.schemas.ts';

export interface PaymentRow {
  id: string;
  partner_id: string;
  status: PaymentStatus;
  amount: number;
  commission_amount: number;
  /** Sealed (payments.service opens it): a PRN can be built from a tax file number. */
  prn: string;
  description: string | null;
  contact_id: string | null;
  metadata: Record<string, string>;
  attempts: number;
  failure_reason: string | null;
  gateway_charge_ref: string | null;
  completed_at: Date | null;
  created_at: Date;
  updated_at: Date;
  /** The live link's expiry (joined); null when the payment has none. */
  link_expires_at: Date | null;
}

const columns = `p.id, p.partner_id, p.status, p.amount, p.commission_amount, p.prn, p.description, p.contact_id, p.metadata, p.attempts,
  p.failure_reason, p.gateway_charge_ref, p.completed_at, p.created_at, p.updated_at, l.expires_at AS link_expires_at`;
const fromPayments = 'FROM payments p LEFT JOIN payment_links l ON l.payment_id = p.id AND l.replaced_at IS NULL';

export async function insertPayment(
  db: Executor,
  row: Pick<PaymentRow, 'id' | 'partner_id' | 'amount' | 'commission_amount' | 'prn' | 'description' | 'contact_id' | 'metadata' | 'created_at'>,
): Promise<void> {
  await db.query(
    `INSERT INTO payments (id, partner_id, status, amount, commission_amount, prn, description, contact_id, metadata, created_at, updated_at)
     VALUES ($1, $2, 'CREATED', $3, $4, $5, $6, $7, $8, $9, $9)`,
    [row.id, row.partner_id, row.amount, row.commission_amount, row.prn, row.description, row.contact_id, JSON.stringify(row.metadata), row.created_at],
  );
}

/** `lock: true` takes the payment row for update (not its link). */
export async function findPayment(db: Executor, tenant: Tenant, id: string, options: { lock?: boolean } = {}): Promise<PaymentRow | undefined> {
  const lock = options.lock ? ' FOR UPDATE OF p' : '';
  const rows = await db.query<PaymentRow>(`SELECT ${columns} ${fromPayments} WHERE p.partner_id = $1 AND p.id = $2${lock}`, [tenant.partnerId, id]);
  return rows[0];
}

/** Oldest first (the API's order), or newest first (the portal's). */
export async function listPayments(
  db: Executor,
  tenant: Tenant,
  query: { limit: number; from: number; status?: PaymentStatus; contactId?: string; newestFirst?: boolean },
): Promise<PaymentRow[]> {
  return db.query<PaymentRow>(
    `SELECT ${columns} ${fromPayments}
     WHERE p.partner_id = $1 AND ($2::text IS NULL OR p.status = $2) AND ($3::text IS NULL OR p.contact_id = $3)
     ORDER BY p.id ${query.newestFirst ? 'DESC' : 'ASC'} LIMIT $4 OFFSET $5`,
    [tenant.partnerId, query.status ?? null, query.contactId ?? null, query.limit + 1, query.from],
  );
}

/** Moves a payment on, only from one of `from`: undefined when it was no longer there. */
export async function setStatus(
  db: Executor,
  id: string,
  from: readonly PaymentStatus[],
  change: { status: PaymentStatus; failureReason?: string; gatewayChargeRef?: string; completed?: boolean },
  at: Date,
): Promise<PaymentRow | undefined> {
  const rows = await db.query<{ id: string }>(
    `UPDATE payments SET status = $3, failure_reason = coalesce($4, failure_reason), gateway_charge_ref = coalesce($5, gateway_charge_ref),
       completed_at = CASE WHEN $6 THEN $7 ELSE completed_at END, updated_at = $7
     WHERE id = $1 AND status = ANY($2::text[]) RETURNING id`,
    [id, [...from], change.status, change.failureReason ?? null, change.gatewayChargeRef ?? null, change.completed ?? false, at],
  );
  if (rows.length === 0) return undefined;
  return findPaymentById(db, id);
}

export async function findPaymentById(db: Executor, id: string): Promise<PaymentRow | undefined> {
  const rows = await db.query<PaymentRow>(`SELECT ${columns} ${fromPayments} WHERE p.id = $1`, [id]);
  return rows[0];
}

// ---- Links ----

export interface PaymentLinkRow {
  token_hash: string;
  payment_id: string;
  expires_at: Date;
  replaced_at: Date | null;
}

export async function insertLink(db: Executor, link: { token_hash: string; payment_id: string; expires_at: Date; created_at: Date }): Promise<void> {
  await db.query('INSERT INTO payment_links (token_hash, payment_id, expires_at, created_at) VALUES ($1, $2, $3, $4)', [
    link.token_hash,
    link.payment_id,
    link.expires_at,
    link.created_at,
  ]);
}

/** The payment's live link stops working (a new one is about to be inserted). */
export async function replaceLiveLink(db: Executor, paymentId: string, at: Date): Promise<void> {
  await db.query('UPDATE payment_links SET replaced_at = $2 WHERE payment_id = $1 AND replaced_at IS NULL', [paymentId, at]);
}

/** `tokenHashes`: the token's digest under each key of the ring. */
export async function findLink(db: Executor, tokenHashes: string[]): Promise<PaymentLinkRow | undefined> {
  const rows = await db.query<PaymentLinkRow>('SELECT token_hash, payment_id, expires_at, replaced_at FROM payment_links WHERE token_hash = ANY ($1::text[])', [tokenHashes]);
  return rows[0];
}

// ---- Attempts ----

export interface AttemptRow {
  payment_id: string;
  attempt: number;
  payment_token: string;
  status: 'CHARGING' | 'SUCCEEDED' | 'DECLINED';
  decline_code: string | null;
  merchant_advice_code: string | null;
  started_at: Date;
}

const attemptColumns = 'payment_id, attempt, payment_token, status, decline_code, merchant_advice_code, started_at';

/** Counts the attempt on the payment and records it as CHARGING (at most one per payment: a unique index). */
export async function beginAttempt(db: Executor, paymentId: string, paymentToken: string, at: Date): Promise<AttemptRow> {
  const [payment] = await db.query<{ attempts: number }>('UPDATE payments SET attempts = attempts + 1, updated_at = $2 WHERE id = $1 RETURNING attempts', [
    paymentId,
    at,
  ]);
  const [attempt] = await db.query<AttemptRow>(
    `INSERT INTO payment_attempts (payment_id, attempt, payment_token, status, started_at) VALUES ($1, $2, $3, 'CHARGING', $4) RETURNING ${attemptColumns}`,
    [paymentId, payment!.attempts, paymentToken, at],
  );
  return attempt!;
}

export async function findChargingAttempt(db: Executor, paymentId: string): Promise<AttemptRow | undefined> {
  const rows = await db.query<AttemptRow>(`SELECT ${attemptColumns} FROM payment_attempts WHERE payment_id = $1 AND status = 'CHARGING'`, [paymentId]);
  return rows[0];
}

export async function hasDeclinedAttempt(db: Executor, paymentId: string): Promise<boolean> {
  const rows = await db.query("SELECT 1 FROM payment_attempts WHERE payment_id = $1 AND status = 'DECLINED' LIMIT 1", [paymentId]);
  return rows.length > 0;
}

export async function findAttempt(db: Executor, paymentId: string, attempt: number): Promise<AttemptRow | undefined> {
  const rows = await db.query<AttemptRow>(`SELECT ${attemptColumns} FROM payment_attempts WHERE payment_id = $1 AND attempt = $2`, [paymentId, attempt]);
  return rows[0];
}

/** Records the gateway's answer once: false when the attempt was already settled (by the job, or a request). */
export async function settleAttempt(
  db: Executor,
  attempt: { paymentId: string; attempt: number },
  outcome: { status: 'SUCCEEDED'; gatewayChargeRef: string } | { status: 'DECLINED'; declineCode: string; merchantAdviceCode: string | null },
  at: Date,
): Promise<boolean> {
  const declined = outcome.status === 'DECLINED' ? outcome : undefined;
  const rows = await db.query(
    `UPDATE payment_attempts SET status = $3, gateway_charge_ref = $4, decline_code = $5, merchant_advice_code = $6, settled_at = $7
     WHERE payment_id = $1 AND attempt = $2 AND status = 'CHARGING' RETURNING attempt`,
    [
      attempt.paymentId,
      attempt.attempt,
      outcome.status,
      outcome.status === 'SUCCEEDED' ? outcome.gatewayChargeRef : null,
      declined?.declineCode ?? null,
      declined?.merchantAdviceCode ?? null,
      at,
    ],
  );
  return rows.length === 1;
}
