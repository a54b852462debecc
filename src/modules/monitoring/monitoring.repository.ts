// Every SQL statement about monitoring subscriptions, alerts and re-screen progress.
import type { Executor } from '../../platform/db/database.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import type { AlertStatus, Coverage, Decision, ScreenAs, SubscriptionErrorCode, SubscriptionStatus } from './monitoring.schemas.ts';

export interface SubscriptionRow {
  contact_id: string;
  partner_id: string;
  enabled: boolean;
  status: SubscriptionStatus;
  error_code: SubscriptionErrorCode | null;
  coverage: Coverage[];
  observed_coverage: Coverage[] | null;
  screen_as: ScreenAs;
  date_of_birth_sealed: string | null;
  countries: string[];
  screened_version: number | null;
  screened_subject: string | null;
  last_screened_at: Date | null;
  revision: number;
  enabled_at: Date | null;
  disabled_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

/** A subscription with the contact's name: what a screening needs. */
export interface MonitoredRow extends SubscriptionRow {
  name: string;
}

const columns = `s.contact_id, s.partner_id, s.enabled, s.status, s.error_code, s.coverage, s.observed_coverage, s.screen_as,
  s.date_of_birth_sealed, s.countries, s.screened_version, s.screened_subject, s.last_screened_at, s.revision, s.enabled_at, s.disabled_at,
  s.created_at, s.updated_at`;

export async function findSubscription(db: Executor, tenant: Tenant, contactId: string, options: { lock?: boolean } = {}): Promise<SubscriptionRow | undefined> {
  const rows = await db.query<SubscriptionRow>(
    `SELECT ${columns} FROM monitoring_subscriptions s WHERE s.partner_id = $1 AND s.contact_id = $2${options.lock ? ' FOR UPDATE' : ''}`,
    [tenant.partnerId, contactId],
  );
  return rows[0];
}

export async function saveSubscription(db: Executor, row: Omit<SubscriptionRow, 'revision'>): Promise<void> {
  await db.query(
    `INSERT INTO monitoring_subscriptions (contact_id, partner_id, enabled, status, error_code, coverage, observed_coverage, screen_as,
       date_of_birth_sealed, countries, screened_version, screened_subject, last_screened_at, enabled_at, disabled_at, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)
     ON CONFLICT (contact_id) DO UPDATE SET enabled = $3, status = $4, error_code = $5, coverage = $6, observed_coverage = $7, screen_as = $8,
       date_of_birth_sealed = $9, countries = $10, screened_version = $11, screened_subject = $12, last_screened_at = $13,
       enabled_at = $14, disabled_at = $15, updated_at = $17, revision = monitoring_subscriptions.revision + 1`,
    [
      row.contact_id,
      row.partner_id,
      row.enabled,
      row.status,
      row.error_code,
      row.coverage,
      row.observed_coverage,
      row.screen_as,
      row.date_of_birth_sealed,
      row.countries,
      row.screened_version,
      row.screened_subject,
      row.last_screened_at,
      row.enabled_at,
      row.disabled_at,
      row.created_at,
      row.updated_at,
    ],
  );
}

/** Enabled subscriptions of contacts with ids after `afterContactId` (or of the given contacts), in id order. */
export async function monitoredBatch(db: Executor, afterContactId: string | null, limit: number, options: { contactIds?: readonly string[] } = {}): Promise<MonitoredRow[]> {
  return db.query<MonitoredRow>(
    `SELECT ${columns}, c.name FROM monitoring_subscriptions s JOIN contacts c ON c.id = s.contact_id
      WHERE s.enabled AND ($1::text IS NULL OR s.contact_id > $1) AND ($3::text[] IS NULL OR s.contact_id = ANY($3::text[]))
      ORDER BY s.contact_id LIMIT $2`,
    [afterContactId, limit, options.contactIds ?? null],
  );
}

/** The given contacts' enabled subscriptions, locked: a batch re-read inside its transaction. */
export async function lockMonitored(db: Executor, contactIds: readonly string[]): Promise<MonitoredRow[]> {
  return db.query<MonitoredRow>(
    `SELECT ${columns}, c.name FROM monitoring_subscriptions s JOIN contacts c ON c.id = s.contact_id
      WHERE s.enabled AND s.contact_id = ANY($1::text[]) ORDER BY s.contact_id FOR UPDATE OF s`,
    [contactIds],
  );
}

export interface ScreenedUpdate {
  contactId: string;
  status: SubscriptionStatus;
  errorCode: SubscriptionErrorCode | null;
  observedCoverage: Coverage[] | null;
  screenedVersion: number | null;
  screenedSubject: string | null;
  screenedAt: Date | null;
}

/** Records a batch's outcomes in one statement. */
export async function recordScreened(db: Executor, updates: readonly ScreenedUpdate[], at: Date): Promise<void> {
  if (updates.length === 0) return;
  await db.query(
    `UPDATE monitoring_subscriptions s SET status = u.status, error_code = u.error_code,
       observed_coverage = CASE WHEN u.observed IS NULL THEN s.observed_coverage ELSE string_to_array(u.observed, ',') END,
       screened_version = coalesce(u.version, s.screened_version), screened_subject = coalesce(u.subject, s.screened_subject),
       last_screened_at = coalesce(u.screened_at, s.last_screened_at), updated_at = $8, revision = s.revision + 1
     FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::int[], $6::text[], $7::timestamptz[])
       AS u(contact_id, status, error_code, observed, version, subject, screened_at)
     WHERE s.contact_id = u.contact_id`,
    [
      updates.map((u) => u.contactId),
      updates.map((u) => u.status),
      updates.map((u) => u.errorCode),
      updates.map((u) => (u.observedCoverage === null ? null : u.observedCoverage.join(','))),
      updates.map((u) => u.screenedVersion),
      updates.map((u) => u.screenedSubject),
      updates.map((u) => u.screenedAt),
      at,
    ],
  );
}

export interface AlertRow {
  id: string;
  partner_id: string;
  contact_id: string;
  list: string;
  entry_id: string;
  list_version: number;
  categories: string[];
  score: number;
  matched_name: string;
  features: Record<string, unknown>;
  status: AlertStatus;
  decision: Decision | null;
  note: string | null;
  decided_by_kind: 'PARTNER' | 'OPERATOR' | null;
  decided_by: string | null;
  decided_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export type NewAlert = Pick<AlertRow, 'id' | 'partner_id' | 'contact_id' | 'list' | 'entry_id' | 'list_version' | 'categories' | 'score' | 'matched_name' | 'features' | 'created_at'>;

/** Inserts the alerts no earlier screening opened for that contact and entry; answers the ids inserted. */
export async function insertNewAlerts(db: Executor, alerts: readonly NewAlert[]): Promise<Set<string>> {
  if (alerts.length === 0) return new Set();
  const rows = await db.query<{ id: string }>(
    `INSERT INTO monitoring_alerts (id, partner_id, contact_id, list, entry_id, list_version, categories, score, matched_name, features, status, created_at, updated_at)
     SELECT a.id, a.partner_id, a.contact_id, a.list, a.entry_id, a.list_version, string_to_array(a.categories, ','), a.score, a.matched_name, a.features::jsonb, 'OPEN', a.created_at, a.created_at
       FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::int[], $7::text[], $8::float8[], $9::text[], $10::text[], $11::timestamptz[])
         AS a(id, partner_id, contact_id, list, entry_id, list_version, categories, score, matched_name, features, created_at)
     ON CONFLICT (contact_id, list, entry_id) DO NOTHING
     RETURNING id`,
    [
      alerts.map((a) => a.id),
      alerts.map((a) => a.partner_id),
      alerts.map((a) => a.contact_id),
      alerts.map((a) => a.list),
      alerts.map((a) => a.entry_id),
      alerts.map((a) => a.list_version),
      alerts.map((a) => a.categories.join(',')),
      alerts.map((a) => a.score),
      alerts.map((a) => a.matched_name),
      alerts.map((a) => JSON.stringify(a.features)),
      alerts.map((a) => a.created_at),
    ],
  );
  return new Set(rows.map((r) => r.id));
}

/** An alert with the list entry it matched, as the matched version held it. */
export interface AlertWithEntryRow extends AlertRow {
  entry_kind: 'person' | 'business';
  entry_name: string;
  entry_aliases: string[];
  entry_dates_of_birth: string[];
  entry_countries: string[];
  entry_categories: string[];
  entry_source: string;
}

const alertColumns = `a.id, a.partner_id, a.contact_id, a.list, a.entry_id, a.list_version, a.categories, a.score, a.matched_name, a.features,
    a.status, a.decision, a.note, a.decided_by_kind, a.decided_by, a.decided_at, a.created_at, a.updated_at,
    e.kind AS entry_kind, e.name AS entry_name, e.aliases AS entry_aliases, e.dates_of_birth AS entry_dates_of_birth,
    e.countries AS entry_countries, e.categories AS entry_categories, e.source AS entry_source`;

const alertFrom = `FROM monitoring_alerts a
  JOIN screening_version_lists v ON v.version = a.list_version AND v.list = a.list
  JOIN screening_entries e ON e.import_id = v.import_id AND e.entry_id = a.entry_id`;

const alertSelect = `SELECT ${alertColumns}
  ${alertFrom}`;

export async function findAlert(db: Executor, tenant: Tenant, id: string): Promise<AlertWithEntryRow | undefined> {
  const rows = await db.query<AlertWithEntryRow>(`${alertSelect} WHERE a.partner_id = $1 AND a.id = $2`, [tenant.partnerId, id]);
  return rows[0];
}

export async function listAlerts(
  db: Executor,
  tenant: Tenant,
  query: { limit: number; from: number; status?: AlertStatus; contactId?: string },
): Promise<AlertWithEntryRow[]> {
  return db.query<AlertWithEntryRow>(
    `${alertSelect} WHERE a.partner_id = $1 AND ($2::text IS NULL OR a.status = $2) AND ($3::text IS NULL OR a.contact_id = $3)
      ORDER BY a.id DESC LIMIT $4 OFFSET $5`,
    [tenant.partnerId, query.status ?? null, query.contactId ?? null, query.limit + 1, query.from],
  );
}

/** An alert as an operator reviews it: with the contact as screened (its name, kind and countries). */
export interface OperatorAlertRow extends AlertWithEntryRow {
  contact_name: string;
  contact_screen_as: ScreenAs | null;
  contact_countries: string[] | null;
}

// The contact's name is read from billing's contacts table, as the screening of monitored contacts reads it.
const operatorAlertSelect = `SELECT ${alertColumns}, c.name AS contact_name, s.screen_as AS contact_screen_as, s.countries AS contact_countries
  ${alertFrom}
  JOIN contacts c ON c.id = a.contact_id
  LEFT JOIN monitoring_subscriptions s ON s.contact_id = a.contact_id`;

/** Every partner's alerts, for operators: OPEN first (the work), newest first within each status. */
export async function listAllAlerts(db: Executor, query: { limit: number; from: number; status?: AlertStatus }): Promise<OperatorAlertRow[]> {
  return db.query<OperatorAlertRow>(
    `${operatorAlertSelect} WHERE ($1::text IS NULL OR a.status = $1) ORDER BY a.status = 'OPEN' DESC, a.id DESC LIMIT $2 OFFSET $3`,
    [query.status ?? null, query.limit + 1, query.from],
  );
}

export async function findAnyAlert(db: Executor, id: string): Promise<OperatorAlertRow | undefined> {
  const rows = await db.query<OperatorAlertRow>(`${operatorAlertSelect} WHERE a.id = $1`, [id]);
  return rows[0];
}

/** Decides an OPEN alert; undefined when it is not OPEN (or not the tenant's). */
export async function decideAlert(
  db: Executor,
  tenant: Tenant,
  id: string,
  decision: { decision: Decision; status: AlertStatus; note: string | null; byKind: 'PARTNER' | 'OPERATOR'; by: string; at: Date },
): Promise<AlertRow | undefined> {
  const rows = await db.query<AlertRow>(
    `UPDATE monitoring_alerts SET status = $3, decision = $4, note = $5, decided_by_kind = $6, decided_by = $7, decided_at = $8, updated_at = $8
      WHERE partner_id = $1 AND id = $2 AND status = 'OPEN' RETURNING *`,
    [tenant.partnerId, id, decision.status, decision.decision, decision.note, decision.byKind, decision.by, decision.at],
  );
  return rows[0];
}

export interface RescreenRow {
  version: number;
  after_contact_id: string | null;
  screened: number;
  alerts: number;
  started_at: Date;
  finished_at: Date | null;
}

/** The version's progress, created at nothing done the first time. */
export async function openRescreen(db: Executor, version: number, at: Date): Promise<RescreenRow> {
  await db.query(`INSERT INTO monitoring_rescreens (version, screened, alerts, started_at) VALUES ($1, 0, 0, $2) ON CONFLICT (version) DO NOTHING`, [version, at]);
  const rows = await db.query<RescreenRow>(`SELECT * FROM monitoring_rescreens WHERE version = $1`, [version]);
  return rows[0]!;
}

export async function advanceRescreen(db: Executor, version: number, afterContactId: string, screened: number, alerts: number): Promise<void> {
  await db.query(`UPDATE monitoring_rescreens SET after_contact_id = $2, screened = screened + $3, alerts = alerts + $4 WHERE version = $1`, [
    version,
    afterContactId,
    screened,
    alerts,
  ]);
}

export async function finishRescreen(db: Executor, version: number, at: Date): Promise<void> {
  await db.query(`UPDATE monitoring_rescreens SET finished_at = $2 WHERE version = $1 AND finished_at IS NULL`, [version, at]);
}

/**
 * Enabled subscriptions not already in ERROR, locked: those a failed screening puts in error. Either
 * those after `afterContactId` (a re-screen's cursor) or the given contacts.
 */
export async function lockHealthySubscriptions(
  db: Executor,
  which: { afterContactId: string | null; contactIds: readonly string[] | null },
): Promise<Array<Pick<SubscriptionRow, 'contact_id' | 'partner_id'>>> {
  return db.query(
    `SELECT contact_id, partner_id FROM monitoring_subscriptions
      WHERE enabled AND status <> 'ERROR' AND ($1::text IS NULL OR contact_id > $1) AND ($2::text[] IS NULL OR contact_id = ANY($2::text[]))
      ORDER BY contact_id FOR UPDATE`,
    [which.afterContactId, which.contactIds],
  );
}

export async function markErrored(db: Executor, contactIds: readonly string[], code: SubscriptionErrorCode, at: Date): Promise<void> {
  if (contactIds.length === 0) return;
  await db.query(`UPDATE monitoring_subscriptions SET status = 'ERROR', error_code = $2, updated_at = $3, revision = revision + 1 WHERE contact_id = ANY($1::text[])`, [contactIds, code, at]);
}
