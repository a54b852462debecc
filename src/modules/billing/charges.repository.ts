// Every SQL statement about charges and billing runs.
import type { Executor } from '../../platform/db/database.ts';
import type { Tenant } from '../../platform/tenancy.ts';

export interface ChargeRow {
  id: string;
  partner_id: string;
  contact_id: string | null;
  billed_to: 'PARTNER' | 'CONTACT';
  product: string;
  reference_id: string;
  amount: number;
  status: 'PENDING' | 'BILLED' | 'CAPTURED' | 'FAILED' | 'VOID';
  billing_run_id: string | null;
  refund_ref: string | null;
  created_at: Date;
  updated_at: Date;
}

const chargeColumns = 'id, partner_id, contact_id, billed_to, product, reference_id, amount, status, billing_run_id, refund_ref, created_at, updated_at';

const insertChargeSql = `INSERT INTO charges (id, partner_id, contact_id, billed_to, product, reference_id, amount, status, billing_run_id, created_at, updated_at)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $10)`;

type NewCharge = Omit<ChargeRow, 'refund_ref' | 'updated_at'>;

const chargeParams = (row: NewCharge) => [row.id, row.partner_id, row.contact_id, row.billed_to, row.product, row.reference_id, row.amount, row.status, row.billing_run_id, row.created_at];

export async function insertCharge(db: Executor, row: NewCharge): Promise<ChargeRow> {
  const [inserted] = await db.query<ChargeRow>(`${insertChargeSql} RETURNING ${chargeColumns}`, chargeParams(row));
  return inserted!;
}

/** insertCharge as a held write (Queryable.write): for a charge whose reference is new in this transaction. */
export async function writeCharge(db: Executor, row: NewCharge): Promise<void> {
  await db.write(insertChargeSql, chargeParams(row));
}

export async function findChargeByReference(db: Executor, tenant: Tenant, product: string, referenceId: string): Promise<ChargeRow | undefined> {
  const rows = await db.query<ChargeRow>(`SELECT ${chargeColumns} FROM charges WHERE partner_id = $1 AND product = $2 AND reference_id = $3 FOR UPDATE`, [
    tenant.partnerId,
    product,
    referenceId,
  ]);
  return rows[0];
}

export async function findCharge(db: Executor, tenant: Tenant, id: string): Promise<ChargeRow | undefined> {
  const rows = await db.query<ChargeRow>(`SELECT ${chargeColumns} FROM charges WHERE partner_id = $1 AND id = $2`, [tenant.partnerId, id]);
  return rows[0];
}

export async function findChargeById(db: Executor, id: string): Promise<ChargeRow | undefined> {
  const rows = await db.query<ChargeRow>(`SELECT ${chargeColumns} FROM charges WHERE id = $1`, [id]);
  return rows[0];
}

export async function listCharges(db: Executor, tenant: Tenant, query: { limit: number; from: number; contactId?: string }): Promise<ChargeRow[]> {
  return db.query<ChargeRow>(
    `SELECT ${chargeColumns} FROM charges WHERE partner_id = $1 AND ($2::text IS NULL OR contact_id = $2) ORDER BY id DESC LIMIT $3 OFFSET $4`,
    [tenant.partnerId, query.contactId ?? null, query.limit + 1, query.from],
  );
}

export async function voidCharge(db: Executor, id: string, reason: string, at: Date): Promise<void> {
  await db.query(`UPDATE charges SET status = 'VOID', void_reason = $2, voided_at = $3, updated_at = $3 WHERE id = $1`, [id, reason, at]);
}

export async function markRefunded(db: Executor, id: string, refundRef: string, at: Date): Promise<void> {
  await db.query('UPDATE charges SET refund_ref = $2, updated_at = $3 WHERE id = $1', [id, refundRef, at]);
}

/** Every charge of the run that is not void takes the run's outcome. */
export async function settleRunCharges(db: Executor, runId: string, status: 'CAPTURED' | 'FAILED', at: Date): Promise<void> {
  await db.query(`UPDATE charges SET status = $2, updated_at = $3 WHERE billing_run_id = $1 AND status <> 'VOID'`, [runId, status, at]);
}

export async function sumRunCharges(db: Executor, runId: string): Promise<number> {
  const [row] = await db.query<{ total: string | number | null }>(`SELECT sum(amount) AS total FROM charges WHERE billing_run_id = $1 AND status <> 'VOID'`, [runId]);
  return Number(row?.total ?? 0);
}

export interface RunRow {
  id: string;
  partner_id: string;
  contact_id: string;
  status: 'OPEN' | 'CAPTURING' | 'CAPTURED' | 'FAILED' | 'VOID';
  amount: number;
  capture_at: Date;
  attempts: number;
  card_attempts: number;
  payment_method_ref: string | null;
  next_retry_at: Date | null;
  failure_reason: string | null;
  merchant_advice_code: string | null;
  gateway_charge_ref: string | null;
  captured_at: Date | null;
  /** When the current (or last) attempt began. */
  attempt_started_at: Date | null;
}

const runColumns = `id, partner_id, contact_id, status, amount, capture_at, attempts, card_attempts, payment_method_ref, next_retry_at,
  failure_reason, merchant_advice_code, gateway_charge_ref, captured_at, attempt_started_at`;

/** The contact's open run, locked so that it cannot close before this transaction's charge is in it. */
export async function findOpenRun(db: Executor, contactId: string): Promise<RunRow | undefined> {
  const rows = await db.query<RunRow>(`SELECT ${runColumns} FROM billing_runs WHERE contact_id = $1 AND status = 'OPEN' FOR UPDATE`, [contactId]);
  return rows[0];
}

/** Opens a run unless the contact has one open already (then undefined). */
export async function openRun(db: Executor, row: { id: string; partner_id: string; contact_id: string; capture_at: Date; at: Date }): Promise<RunRow | undefined> {
  const rows = await db.query<RunRow>(
    `INSERT INTO billing_runs (id, partner_id, contact_id, status, capture_at, created_at, updated_at) VALUES ($1, $2, $3, 'OPEN', $4, $5, $5)
     ON CONFLICT (contact_id) WHERE status = 'OPEN' DO NOTHING RETURNING ${runColumns}`,
    [row.id, row.partner_id, row.contact_id, row.capture_at, row.at],
  );
  return rows[0];
}

export async function findRun(db: Executor, id: string): Promise<RunRow | undefined> {
  const rows = await db.query<RunRow>(`SELECT ${runColumns} FROM billing_runs WHERE id = $1`, [id]);
  return rows[0];
}

/**
 * Starts an attempt: an OPEN run that is due, or a FAILED one whose retry is due, becomes CAPTURING
 * with the attempt counted and the card frozen. Undefined when the run is not in such a state.
 */
export async function beginAttempt(db: Executor, id: string, paymentMethodRef: string | null, at: Date): Promise<RunRow | undefined> {
  const rows = await db.query<RunRow>(
    `UPDATE billing_runs SET status = 'CAPTURING', attempts = attempts + 1, card_attempts = card_attempts + 1, payment_method_ref = $2,
       next_retry_at = NULL, attempt_started_at = $3, updated_at = $3
     WHERE id = $1 AND ((status = 'OPEN' AND capture_at <= $3) OR (status = 'FAILED' AND next_retry_at <= $3))
     RETURNING ${runColumns}`,
    [id, paymentMethodRef, at],
  );
  return rows[0];
}

export async function setRunAmount(db: Executor, id: string, amount: number): Promise<void> {
  await db.query('UPDATE billing_runs SET amount = $2 WHERE id = $1', [id, amount]);
}

/** The attempt's outcome, recorded once: only while the run is still CAPTURING that attempt. */
export async function finishAttempt(
  db: Executor,
  id: string,
  attempt: number,
  outcome:
    | { status: 'CAPTURED'; chargeRef: string }
    | { status: 'FAILED'; failureReason: string; merchantAdviceCode: string | null; nextRetryAt: Date | null }
    | { status: 'VOID' },
  at: Date,
): Promise<RunRow | undefined> {
  const rows = await db.query<RunRow>(
    `UPDATE billing_runs SET status = $3, gateway_charge_ref = $4, captured_at = $5, failure_reason = $6, merchant_advice_code = $7,
       next_retry_at = $8, updated_at = $9
     WHERE id = $1 AND attempts = $2 AND status = 'CAPTURING' RETURNING ${runColumns}`,
    [
      id,
      attempt,
      outcome.status,
      outcome.status === 'CAPTURED' ? outcome.chargeRef : null,
      outcome.status === 'CAPTURED' ? at : null,
      outcome.status === 'FAILED' ? outcome.failureReason : null,
      outcome.status === 'FAILED' ? outcome.merchantAdviceCode : null,
      outcome.status === 'FAILED' ? outcome.nextRetryAt : null,
      at,
    ],
  );
  return rows[0];
}

/** A new card: every failed run of the contact is due now, with a fresh count of attempts on the card. */
export async function retryFailedRunsNow(db: Executor, contactId: string, at: Date): Promise<string[]> {
  const rows = await db.query<{ id: string }>(
    `UPDATE billing_runs SET next_retry_at = $2, card_attempts = 0, updated_at = $2 WHERE contact_id = $1 AND status = 'FAILED' RETURNING id`,
    [contactId, at],
  );
  return rows.map((r) => r.id);
}

/** A declined run whose charges were all voided closes; undefined when it was no longer FAILED. */
export async function voidFailedRun(db: Executor, id: string, at: Date): Promise<RunRow | undefined> {
  const rows = await db.query<RunRow>(
    `UPDATE billing_runs SET status = 'VOID', next_retry_at = NULL, updated_at = $2 WHERE id = $1 AND status = 'FAILED' RETURNING ${runColumns}`,
    [id, at],
  );
  return rows[0];
}

/** Runs whose attempt began before `startedBefore` and is still CAPTURING, oldest first. */
export async function findStuckRuns(db: Executor, startedBefore: Date, limit: number): Promise<RunRow[]> {
  return db.query<RunRow>(
    `SELECT ${runColumns} FROM billing_runs WHERE status = 'CAPTURING' AND attempt_started_at < $1 ORDER BY attempt_started_at, id LIMIT $2`,
    [startedBefore, limit],
  );
}

/** The run's charges voided at or after `since` and not refunded: those an attempt begun then included. */
export async function findChargesVoidedSince(db: Executor, runId: string, since: Date): Promise<string[]> {
  const rows = await db.query<{ id: string }>(
    `SELECT id FROM charges WHERE billing_run_id = $1 AND status = 'VOID' AND voided_at >= $2 AND refund_ref IS NULL ORDER BY id`,
    [runId, since],
  );
  return rows.map((r) => r.id);
}

export async function countVoidedCharges(db: Executor, runId: string): Promise<number> {
  const [row] = await db.query<{ n: string | number }>(`SELECT count(*) AS n FROM charges WHERE billing_run_id = $1 AND status = 'VOID'`, [runId]);
  return Number(row?.n ?? 0);
}

/** The contact's declined runs still waiting to be paid (the partner's own, by tenant), the latest first. */
export async function listFailedRuns(db: Executor, tenant: Tenant, contactId: string): Promise<RunRow[]> {
  return db.query<RunRow>(
    `SELECT ${runColumns} FROM billing_runs WHERE partner_id = $1 AND contact_id = $2 AND status = 'FAILED' ORDER BY id DESC`,
    [tenant.partnerId, contactId],
  );
}

export async function countFailedRuns(db: Executor, contactId: string): Promise<number> {
  const [row] = await db.query<{ n: string | number }>(`SELECT count(*) AS n FROM billing_runs WHERE contact_id = $1 AND status = 'FAILED'`, [contactId]);
  return Number(row?.n ?? 0);
}
