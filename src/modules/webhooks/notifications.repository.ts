// Every SQL statement about webhook notifications and their attempts.
import type { Executor } from '../../platform/db/database.ts';
import type { Tenant } from '../../platform/tenancy.ts';

export interface NotificationRow {
  id: string;
  partner_id: string;
  event_id: string;
  destination_id: string;
  type: string;
  category: string;
  status: 'PENDING' | 'DELIVERED' | 'FAILED';
  attempts: number;
  max_attempts: number;
  next_attempt_at: Date | null;
  last_attempt_at: Date | null;
  last_response_status: number | null;
  delivered_at: Date | null;
  retry_of: string | null;
  created_at: Date;
}

/** A claimed notification with what its delivery needs: the event and the destination. */
export interface ClaimedNotification extends NotificationRow {
  lease_owner: string;
  /** The trace its event was emitted in (W3C traceparent), when tracing was on. */
  trace_parent: string | null;
  occurred_at: Date;
  payload: Record<string, unknown> | null;
  payload_sealed: string | null;
  test: boolean;
  url: string;
  secret_sealed: string;
  previous_secret_sealed: string | null;
  previous_secret_expires_at: Date | null;
  destination_enabled: boolean;
  destination_deleted: boolean;
  first_attempt_at: Date | null;
}

const columns = `n.id, n.partner_id, n.event_id, n.destination_id, n.type, n.category, n.status, n.attempts, n.max_attempts,
  n.next_attempt_at, n.last_attempt_at, n.last_response_status, n.delivered_at, n.retry_of, n.created_at`;

export async function insertNotifications(
  db: Executor,
  rows: Array<{ id: string; partnerId: string; eventId: string; destinationId: string; type: string; category: string; maxAttempts: number; retryOf?: string | null; at: Date; traceParent?: string | null }>,
): Promise<void> {
  if (rows.length === 0) return;
  // Held inside a transaction (see Queryable.write): it may refer to an event held in the same one.
  await db.write(
    `INSERT INTO webhook_notifications (id, partner_id, event_id, destination_id, type, category, status, max_attempts, next_attempt_at, retry_of, created_at, trace_parent)
     SELECT id, partner_id, event_id, destination_id, type, category, 'PENDING', max_attempts, at, retry_of, at, trace_parent
     FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::int[], $8::text[], $9::timestamptz[], $10::text[])
       AS r(id, partner_id, event_id, destination_id, type, category, max_attempts, retry_of, at, trace_parent)`,
    [
      rows.map((r) => r.id),
      rows.map((r) => r.partnerId),
      rows.map((r) => r.eventId),
      rows.map((r) => r.destinationId),
      rows.map((r) => r.type),
      rows.map((r) => r.category),
      rows.map((r) => r.maxAttempts),
      rows.map((r) => r.retryOf ?? null),
      rows.map((r) => r.at),
      rows.map((r) => r.traceParent ?? null),
    ],
  );
}

/**
 * Claims due notifications: pending, due, and not leased (or leased by a worker that died).
 * SKIP LOCKED lets many dispatchers claim at once; the lease keeps one in flight in one place.
 */
export async function claimDue(db: Executor, args: { owner: string; now: Date; limit: number; leaseSeconds: number }): Promise<ClaimedNotification[]> {
  return db.query<ClaimedNotification>(
    `WITH due AS (
       SELECT id FROM webhook_notifications
       WHERE status = 'PENDING' AND next_attempt_at <= $1 AND (lease_expires_at IS NULL OR lease_expires_at < $1)
       ORDER BY next_attempt_at, id
       LIMIT $2
       FOR UPDATE SKIP LOCKED
     ), claimed AS (
       UPDATE webhook_notifications n SET lease_owner = $3, lease_expires_at = $1::timestamptz + make_interval(secs => $4)
       FROM due WHERE n.id = due.id
       RETURNING n.*
     )
     SELECT ${columns}, n.lease_owner, n.trace_parent, e.occurred_at, e.payload, e.payload_sealed, e.test,
       d.url, d.secret_sealed, d.previous_secret_sealed, d.previous_secret_expires_at,
       d.enabled AS destination_enabled, (d.deleted_at IS NOT NULL) AS destination_deleted,
       (SELECT min(a.started_at) FROM webhook_attempts a WHERE a.notification_id = n.id) AS first_attempt_at
     FROM claimed n
     JOIN events e ON e.id = n.event_id
     JOIN webhook_destinations d ON d.id = n.destination_id`,
    [args.now, args.limit, args.owner, args.leaseSeconds],
  );
}

/** Gives back claims that were never sent (a stopping dispatcher), so they need not wait out the lease. */
export async function releaseClaims(db: Executor, ids: string[], owner: string): Promise<void> {
  if (ids.length === 0) return;
  await db.query('UPDATE webhook_notifications SET lease_owner = NULL, lease_expires_at = NULL WHERE id = ANY ($1::text[]) AND lease_owner = $2', [ids, owner]);
}

export interface Outcome {
  id: string;
  owner: string;
  /** The attempt number, or null when nothing was sent (destination removed, payload gone). */
  attempt: number | null;
  status: 'PENDING' | 'DELIVERED' | 'FAILED';
  nextAttemptAt: Date | null;
  startedAt: Date;
  durationMs: number;
  statusCode: number | null;
  errorClass: string;
  excerpt: string | null;
}

/**
 * Records a batch of outcomes, each only while its lease is still held by the recording dispatcher,
 * with an attempt row for each one recorded that made an attempt. One statement (atomic on its own,
 * so the dispatcher needs no transaction around it): a round trip per batch rather than four.
 */
export async function recordOutcomes(db: Executor, outcomes: Outcome[]): Promise<string[]> {
  if (outcomes.length === 0) return [];
  const updated = await db.query<{ id: string }>(
    `WITH o AS (
       SELECT * FROM unnest($1::text[], $2::text[], $3::int[], $4::text[], $5::timestamptz[], $6::timestamptz[], $7::int[], $8::int[], $9::text[], $10::text[])
         AS o(id, owner, attempt, status, next_attempt_at, started_at, duration_ms, status_code, error_class, excerpt)
     ), updated AS (
       UPDATE webhook_notifications n SET
         status = o.status,
         attempts = n.attempts + (CASE WHEN o.attempt IS NULL THEN 0 ELSE 1 END),
         next_attempt_at = o.next_attempt_at,
         last_attempt_at = CASE WHEN o.attempt IS NULL THEN n.last_attempt_at ELSE o.started_at END,
         last_response_status = CASE WHEN o.attempt IS NULL THEN n.last_response_status ELSE o.status_code END,
         delivered_at = CASE WHEN o.status = 'DELIVERED' THEN o.started_at + make_interval(secs => o.duration_ms / 1000.0) ELSE n.delivered_at END,
         lease_owner = NULL, lease_expires_at = NULL
       FROM o
       WHERE n.id = o.id AND n.lease_owner = o.owner
       RETURNING n.id
     ), attempts AS (
       INSERT INTO webhook_attempts (notification_id, attempt, started_at, duration_ms, status_code, error_class, response_excerpt)
       SELECT o.id, o.attempt, o.started_at, o.duration_ms, o.status_code, o.error_class, o.excerpt
       FROM o JOIN updated u ON u.id = o.id
       WHERE o.attempt IS NOT NULL
       ON CONFLICT DO NOTHING
     )
     SELECT id FROM updated`,
    [
      outcomes.map((o) => o.id),
      outcomes.map((o) => o.owner),
      outcomes.map((o) => o.attempt),
      outcomes.map((o) => o.status),
      outcomes.map((o) => o.nextAttemptAt),
      outcomes.map((o) => o.startedAt),
      outcomes.map((o) => o.durationMs),
      outcomes.map((o) => o.statusCode),
      outcomes.map((o) => o.errorClass),
      outcomes.map((o) => o.excerpt),
    ],
  );
  return updated.map((r) => r.id);
}

/** Sealed payloads (deed results) go as soon as no notification of their event is pending. */
export async function purgeDeliveredSealedPayloads(db: Executor, notificationIds: string[], at: Date): Promise<void> {
  if (notificationIds.length === 0) return;
  await db.query(
    `UPDATE events e SET payload_sealed = NULL, payload_purged_at = $2
     WHERE e.payload_sealed IS NOT NULL
       AND e.id IN (SELECT event_id FROM webhook_notifications WHERE id = ANY ($1::text[]))
       AND NOT EXISTS (SELECT 1 FROM webhook_notifications p WHERE p.event_id = e.id AND p.status = 'PENDING')`,
    [notificationIds, at],
  );
}

/** Retention: payloads go 33 h after the event; the notifications then show payload null. */
export async function purgeExpiredPayloads(db: Executor, before: Date, at: Date): Promise<number> {
  const rows = await db.query(
    `UPDATE events SET payload = NULL, payload_sealed = NULL, payload_purged_at = $2
     WHERE created_at < $1 AND payload_purged_at IS NULL RETURNING id`,
    [before, at],
  );
  return rows.length;
}

export interface NotificationView extends NotificationRow {
  payload: Record<string, unknown> | null;
  occurred_at: Date;
  test: boolean;
}

const viewColumns = `${columns}, e.payload, e.occurred_at, e.test`;

export async function listNotifications(
  db: Executor,
  tenant: Tenant,
  filters: { type?: string; status?: string; category?: string },
  page: { limit: number; from: number },
): Promise<NotificationView[]> {
  return db.query<NotificationView>(
    `SELECT ${viewColumns} FROM webhook_notifications n JOIN events e ON e.id = n.event_id
     WHERE n.partner_id = $1 AND ($2::text IS NULL OR n.type = $2) AND ($3::text IS NULL OR n.status = $3) AND ($4::text IS NULL OR n.category = $4)
     ORDER BY n.id DESC LIMIT $5 OFFSET $6`,
    [tenant.partnerId, filters.type ?? null, filters.status ?? null, filters.category ?? null, page.limit + 1, page.from],
  );
}

export async function findNotification(db: Executor, tenant: Tenant, id: string): Promise<NotificationView | undefined> {
  const rows = await db.query<NotificationView>(
    `SELECT ${viewColumns} FROM webhook_notifications n JOIN events e ON e.id = n.event_id WHERE n.partner_id = $1 AND n.id = $2`,
    [tenant.partnerId, id],
  );
  return rows[0];
}

/** A notification of an event about this payment (the event's subject). */
export async function findPaymentNotification(db: Executor, tenant: Tenant, paymentId: string, id: string): Promise<NotificationView | undefined> {
  const rows = await db.query<NotificationView>(
    `SELECT ${viewColumns} FROM webhook_notifications n JOIN events e ON e.id = n.event_id
     WHERE n.partner_id = $1 AND n.id = $2 AND n.category = 'PAYMENTS' AND e.subject_id = $3`,
    [tenant.partnerId, id, paymentId],
  );
  return rows[0];
}

export interface AttemptRow {
  attempt: number;
  started_at: Date;
  duration_ms: number;
  status_code: number | null;
  error_class: string;
  response_excerpt: string | null;
}

export async function listAttempts(db: Executor, notificationId: string): Promise<AttemptRow[]> {
  return db.query<AttemptRow>(
    'SELECT attempt, started_at, duration_ms, status_code, error_class, response_excerpt FROM webhook_attempts WHERE notification_id = $1 ORDER BY attempt',
    [notificationId],
  );
}

export async function findNotificationsByIds(db: Executor, ids: string[]): Promise<NotificationView[]> {
  return db.query<NotificationView>(`SELECT ${viewColumns} FROM webhook_notifications n JOIN events e ON e.id = n.event_id WHERE n.id = ANY ($1::text[]) ORDER BY n.id`, [ids]);
}

export async function findNotificationsOfEvent(db: Executor, eventId: string): Promise<NotificationView[]> {
  return db.query<NotificationView>(`SELECT ${viewColumns} FROM webhook_notifications n JOIN events e ON e.id = n.event_id WHERE n.event_id = $1 ORDER BY n.id`, [
    eventId,
  ]);
}

/** Notifications neither delivered nor failed, across partners (metrics: how far delivery is behind). */
export async function countPending(db: Executor): Promise<number> {
  const [row] = await db.query<{ count: number | string }>(`SELECT count(*) AS count FROM webhook_notifications WHERE status = 'PENDING'`);
  return Number(row?.count ?? 0);
}
