// Every SQL statement about verification requests, their individuals and their links.
import type { Executor } from '../../platform/db/database.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import type { VerificationRole } from './roles.ts';
import type { IndividualStatus, RequestStatus } from './verifications.schemas.ts';

export type RiskLevel = 'LOW' | 'MEDIUM' | 'HIGH';

export interface Issue {
  individualId?: string;
  code: string;
  message: string;
}

export type CheckResultItem = { name: string; checkType: string; result: string; code: string; message?: string };

export interface RequestRow {
  id: string;
  partner_id: string;
  mode: 'AUSTRAC_CDD' | 'TPB_POI';
  status: RequestStatus;
  lookup_id: string | null;
  entity_name: string | null;
  contact_id: string | null;
  structure_confirmed: boolean;
  risk_level: RiskLevel | 'UNKNOWN';
  issue_list: Issue[];
  completed_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

const requestColumns = 'id, partner_id, mode, status, lookup_id, entity_name, contact_id, structure_confirmed, risk_level, issue_list, completed_at, created_at, updated_at';

export async function insertRequest(
  db: Executor,
  row: Pick<RequestRow, 'id' | 'partner_id' | 'mode' | 'status' | 'lookup_id' | 'entity_name' | 'contact_id' | 'structure_confirmed' | 'created_at'>,
): Promise<void> {
  await db.query(
    `INSERT INTO verification_requests (id, partner_id, mode, status, lookup_id, entity_name, contact_id, structure_confirmed, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9)`,
    [row.id, row.partner_id, row.mode, row.status, row.lookup_id, row.entity_name, row.contact_id, row.structure_confirmed, row.created_at],
  );
}

export async function findRequest(db: Executor, tenant: Tenant, id: string, options: { lock?: boolean } = {}): Promise<RequestRow | undefined> {
  const rows = await db.query<RequestRow>(`SELECT ${requestColumns} FROM verification_requests WHERE partner_id = $1 AND id = $2${options.lock ? ' FOR UPDATE' : ''}`, [
    tenant.partnerId,
    id,
  ]);
  return rows[0];
}

/** Oldest first (the API's order), or newest first (the portal's). */
export async function listRequests(
  db: Executor,
  tenant: Tenant,
  query: { limit: number; from: number; status?: RequestStatus; lookupRequestId?: string; newestFirst?: boolean },
): Promise<RequestRow[]> {
  return db.query<RequestRow>(
    `SELECT ${requestColumns} FROM verification_requests
     WHERE partner_id = $1 AND ($2::text IS NULL OR status = $2) AND ($3::text IS NULL OR lookup_id = $3)
     ORDER BY id ${query.newestFirst ? 'DESC' : 'ASC'} LIMIT $4 OFFSET $5`,
    [tenant.partnerId, query.status ?? null, query.lookupRequestId ?? null, query.limit + 1, query.from],
  );
}

/** How many of the partner's requests were created since `since`, by status (the portal's overview). */
export async function countRequestsSince(db: Executor, tenant: Tenant, since: Date): Promise<Array<{ status: RequestStatus; n: number }>> {
  const rows = await db.query<{ status: RequestStatus; n: string | number }>(
    'SELECT status, count(*) AS n FROM verification_requests WHERE partner_id = $1 AND created_at >= $2 GROUP BY status',
    [tenant.partnerId, since],
  );
  return rows.map((r) => ({ status: r.status, n: Number(r.n) }));
}

export async function updateRequest(db: Executor, id: string, change: { status?: RequestStatus; structureConfirmed?: boolean }, at: Date): Promise<void> {
  await db.query(
    `UPDATE verification_requests SET status = coalesce($2, status), structure_confirmed = coalesce($3, structure_confirmed), updated_at = $4 WHERE id = $1`,
    [id, change.status ?? null, change.structureConfirmed ?? null, at],
  );
}

/** For the checks and operators, who act across partners: the request by id alone. */
export async function findRequestById(db: Executor, id: string, options: { lock?: boolean } = {}): Promise<RequestRow | undefined> {
  const rows = await db.query<RequestRow>(`SELECT ${requestColumns} FROM verification_requests WHERE id = $1${options.lock ? ' FOR UPDATE' : ''}`, [id]);
  return rows[0];
}

export async function setRequestRisk(db: Executor, id: string, change: { riskLevel: RequestRow['risk_level']; issueList: Issue[] }, at: Date): Promise<void> {
  await db.query('UPDATE verification_requests SET risk_level = $2, issue_list = $3, updated_at = $4 WHERE id = $1', [id, change.riskLevel, JSON.stringify(change.issueList), at]);
}

export async function completeRequest(db: Executor, id: string, at: Date): Promise<void> {
  await db.query("UPDATE verification_requests SET status = 'COMPLETED', completed_at = $2, updated_at = $2 WHERE id = $1", [id, at]);
}

// ---- Individuals ----

export interface IndividualRow {
  id: string;
  request_id: string;
  partner_id: string;
  external_id: string | null;
  idv_entity_id: string | null;
  role: VerificationRole;
  role_description: string | null;
  status: IndividualStatus;
  attempt_count: number;
  max_attempts: number;
  manual_override: boolean;
  check_results: CheckResultItem[];
  /** The identity provider's subject, made when the person saves their first step. */
  subject_ref: string | null;
  /** When the provider was told to forget the subject under the retention rules (identity-retention.ts). */
  subject_forgotten_at: Date | null;
  /** From the latest outcome; null until checks have run. */
  risk_level: RiskLevel | null;
  completed_at: Date | null;
  created_at: Date;
}

const individualColumns =
  'id, request_id, partner_id, external_id, idv_entity_id, role, role_description, status, attempt_count, max_attempts, manual_override, check_results, subject_ref, subject_forgotten_at, risk_level, completed_at, created_at';

/** The same columns of `verification_individuals i`, for joins. */
const individualColumnsOfI = individualColumns
  .split(', ')
  .map((column) => `i.${column}`)
  .join(', ');

export async function insertIndividual(
  db: Executor,
  row: Pick<IndividualRow, 'id' | 'request_id' | 'partner_id' | 'external_id' | 'idv_entity_id' | 'role' | 'role_description' | 'max_attempts' | 'created_at'>,
): Promise<void> {
  await db.query(
    `INSERT INTO verification_individuals (id, request_id, partner_id, external_id, idv_entity_id, role, role_description, status, max_attempts, position, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, 'PENDING', $8,
       (SELECT count(*) FROM verification_individuals WHERE request_id = $2), $9, $9)`,
    [row.id, row.request_id, row.partner_id, row.external_id, row.idv_entity_id, row.role, row.role_description, row.max_attempts, row.created_at],
  );
}

export async function listIndividuals(db: Executor, requestIds: string[]): Promise<IndividualRow[]> {
  return db.query<IndividualRow>(`SELECT ${individualColumns} FROM verification_individuals WHERE request_id = ANY($1::text[]) ORDER BY request_id, position`, [requestIds]);
}

/** The partner's individuals in one status, the longest waiting first, with how many there are in all. */
export async function listIndividualsInStatus(
  db: Executor,
  tenant: Tenant,
  status: IndividualStatus,
  limit: number,
): Promise<{ rows: Array<Pick<IndividualRow, 'id' | 'request_id' | 'external_id' | 'role'> & { updated_at: Date }>; total: number }> {
  const rows = await db.query<Pick<IndividualRow, 'id' | 'request_id' | 'external_id' | 'role'> & { updated_at: Date; total: string | number }>(
    `SELECT id, request_id, external_id, role, updated_at, count(*) OVER () AS total FROM verification_individuals
     WHERE partner_id = $1 AND status = $2 ORDER BY updated_at, id LIMIT $3`,
    [tenant.partnerId, status, limit],
  );
  return { rows: rows.map(({ total: _total, ...row }) => row), total: Number(rows[0]?.total ?? 0) };
}

// ---- Links ----

export interface LinkStateRow {
  individual_id: string;
  created_at: Date;
  expires_at: Date;
  used_at: Date | null;
}

/**
 * Each individual's latest link (minting replaces the earlier ones): when it was made, until when it
 * works, when it was opened. Never the token's digest.
 */
export async function listLatestLinks(db: Executor, individualIds: string[]): Promise<LinkStateRow[]> {
  return db.query<LinkStateRow>(
    `SELECT DISTINCT ON (individual_id) individual_id, created_at, expires_at, used_at FROM verification_links
     WHERE individual_id = ANY($1::text[]) ORDER BY individual_id, created_at DESC`,
    [individualIds],
  );
}

/** The individual's live link stops working (a new one is about to be inserted). */
export async function replaceLiveLink(db: Executor, individualId: string, at: Date): Promise<void> {
  await db.query('UPDATE verification_links SET replaced_at = $2 WHERE individual_id = $1 AND used_at IS NULL AND replaced_at IS NULL', [individualId, at]);
}

export async function insertLink(db: Executor, link: { token_hash: string; individual_id: string; expires_at: Date; created_at: Date }): Promise<void> {
  await db.query('INSERT INTO verification_links (token_hash, individual_id, expires_at, created_at) VALUES ($1, $2, $3, $4)', [
    link.token_hash,
    link.individual_id,
    link.expires_at,
    link.created_at,
  ]);
}

export interface LinkRow {
  token_hash: string;
  individual_id: string;
  expires_at: Date;
  used_at: Date | null;
  replaced_at: Date | null;
}

/** Locked: two tabs opening the same link at once spend it once. `tokenHashes`: its digest under each key of the ring. */
export async function findLinkForUpdate(db: Executor, tokenHashes: string[]): Promise<LinkRow | undefined> {
  const rows = await db.query<LinkRow>(
    'SELECT token_hash, individual_id, expires_at, used_at, replaced_at FROM verification_links WHERE token_hash = ANY ($1::text[]) FOR UPDATE',
    [tokenHashes],
  );
  return rows[0];
}

/** Spends the link, its digest stored again under the current key (`currentHash`) if it was another's. */
export async function spendLink(db: Executor, tokenHash: string, currentHash: string, at: Date): Promise<void> {
  await db.query('UPDATE verification_links SET used_at = $2, token_hash = $3 WHERE token_hash = $1', [tokenHash, at, currentHash]);
}

export async function findIndividual(db: Executor, id: string, options: { lock?: boolean } = {}): Promise<IndividualRow | undefined> {
  const rows = await db.query<IndividualRow>(`SELECT ${individualColumns} FROM verification_individuals WHERE id = $1${options.lock ? ' FOR UPDATE' : ''}`, [id]);
  return rows[0];
}

/** When the person first opened a link of theirs (links are kept, spent, after the session they began). */
export async function firstOpenedAt(db: Executor, individualId: string): Promise<Date | null> {
  const [row] = await db.query<{ at: Date | null }>('SELECT min(used_at) AS at FROM verification_links WHERE individual_id = $1', [individualId]);
  return row?.at ?? null;
}

export async function setIndividualStatus(db: Executor, id: string, status: IndividualStatus, at: Date): Promise<void> {
  await db.query('UPDATE verification_individuals SET status = $2, updated_at = $3 WHERE id = $1', [id, status, at]);
}

// ---- Sessions ----

export async function insertSession(db: Executor, session: { token_hash: string; individual_id: string; expires_at: Date; created_at: Date }): Promise<void> {
  await db.query('INSERT INTO verification_sessions (token_hash, individual_id, expires_at, created_at) VALUES ($1, $2, $3, $4)', [
    session.token_hash,
    session.individual_id,
    session.expires_at,
    session.created_at,
  ]);
}

/**
 * What each call of the hosted flow needs first, in one statement: the session if it still works (not
 * revoked, not expired; `tokenHashes` its digest under each key of the ring), its individual and their
 * latest attempt.
 */
export interface LiveSession {
  token_hash: string;
  expires_at: Date;
  individual: IndividualRow;
  /** The latest submitted attempt; undefined before the first submit. */
  latest: LatestAttempt | undefined;
}

type LatestAttempt = Pick<AttemptRow, 'number' | 'status'>;

/** The individual `i`'s latest attempt as `latest_number` and `latest_status` (null before the first), for a join. */
const latestAttemptColumns = 'a.number AS latest_number, a.status AS latest_status';
const latestAttemptJoin = 'LEFT JOIN LATERAL (SELECT number, status FROM verification_attempts WHERE individual_id = i.id ORDER BY number DESC LIMIT 1) a ON true';
type WithLatest<R> = R & { latest_number: number | null; latest_status: AttemptStatus | null };

/** A row of the join without its latest attempt's columns, and that attempt. */
function splitLatest<R extends object>(row: WithLatest<R>): [R, LatestAttempt | undefined] {
  const { latest_number, latest_status, ...rest } = row;
  return [rest as unknown as R, latest_number === null ? undefined : { number: latest_number, status: latest_status! }];
}

export async function findLiveSessionIndividual(db: Executor, tokenHashes: string[], now: Date): Promise<LiveSession | undefined> {
  const [row] = await db.query<WithLatest<IndividualRow & { session_token_hash: string; session_expires_at: Date }>>(
    `SELECT ${individualColumnsOfI}, s.token_hash AS session_token_hash, s.expires_at AS session_expires_at, ${latestAttemptColumns}
     FROM verification_sessions s
     JOIN verification_individuals i ON i.id = s.individual_id
     ${latestAttemptJoin}
     WHERE s.token_hash = ANY ($1::text[]) AND s.revoked_at IS NULL AND s.expires_at > $2`,
    [tokenHashes, now],
  );
  if (!row) return undefined;
  const [{ session_token_hash, session_expires_at, ...individual }, latest] = splitLatest(row);
  return { token_hash: session_token_hash, expires_at: session_expires_at, individual, latest };
}

/**
 * Submit's lock: the individual alone (not the request, which a partner's people share), with its latest
 * attempt and who pays, read in the same statement.
 */
export async function lockIndividualForSubmit(
  db: Executor,
  id: string,
): Promise<{ individual: IndividualRow; latest: LatestAttempt | undefined; contactId: string | null } | undefined> {
  const [row] = await db.query<WithLatest<IndividualRow & { request_contact_id: string | null }>>(
    `SELECT ${individualColumnsOfI}, r.contact_id AS request_contact_id, ${latestAttemptColumns}
     FROM verification_individuals i
     JOIN verification_requests r ON r.id = i.request_id
     ${latestAttemptJoin}
     WHERE i.id = $1
     FOR UPDATE OF i`,
    [id],
  );
  if (!row) return undefined;
  const [{ request_contact_id, ...individual }, latest] = splitLatest(row);
  return { individual, contactId: request_contact_id, latest };
}

/** A session found under a previous key: its digest is stored again under the current one. */
export async function rehashSession(db: Executor, previousHash: string, currentHash: string): Promise<void> {
  await db.query('UPDATE verification_sessions SET token_hash = $2 WHERE token_hash = $1', [previousHash, currentHash]);
}

export async function revokeSessions(db: Executor, individualId: string, at: Date): Promise<void> {
  await db.query('UPDATE verification_sessions SET revoked_at = $2 WHERE individual_id = $1 AND revoked_at IS NULL', [individualId, at]);
}

/** The individual a provider's subject belongs to, if any still does. */
export async function findIndividualBySubject(db: Executor, subjectRef: string): Promise<IndividualRow | undefined> {
  const rows = await db.query<IndividualRow>(`SELECT ${individualColumns} FROM verification_individuals WHERE subject_ref = $1`, [subjectRef]);
  return rows[0];
}

/** Records the individual's provider subject once: false when another request recorded one first. */
export async function setSubjectRef(db: Executor, individualId: string, subjectRef: string, at: Date): Promise<boolean> {
  const rows = await db.query('UPDATE verification_individuals SET subject_ref = $2, updated_at = $3 WHERE id = $1 AND subject_ref IS NULL RETURNING id', [individualId, subjectRef, at]);
  return rows.length === 1;
}

/** A submit counts an attempt; an attempt that could not be checked at all is uncounted (delta -1). */
export async function countAttempt(db: Executor, id: string, delta: 1 | -1, at: Date): Promise<void> {
  await db.query('UPDATE verification_individuals SET attempt_count = attempt_count + $2, updated_at = $3 WHERE id = $1', [id, delta, at]);
}

/** An outcome: the status, the latest attempt's checks and the individual's risk; completed_at for a terminal one. */
export async function recordOutcome(
  db: Executor,
  id: string,
  outcome: { status: IndividualStatus; checkResults?: CheckResultItem[]; riskLevel: RiskLevel; completedAt: Date | null; manualOverride?: boolean },
  at: Date,
): Promise<void> {
  await db.query(
    `UPDATE verification_individuals SET status = $2, check_results = coalesce($3::jsonb, check_results), risk_level = $4, completed_at = $5,
       manual_override = coalesce($6, manual_override), updated_at = $7 WHERE id = $1`,
    [id, outcome.status, outcome.checkResults ? JSON.stringify(outcome.checkResults) : null, outcome.riskLevel, outcome.completedAt, outcome.manualOverride ?? null, at],
  );
}

// ---- Attempts ----

export type AttemptStatus = 'CHECKING' | 'PASSED' | 'MANUAL_REVIEW' | 'RETRY' | 'FAILED' | 'LOCKED_OUT' | 'UNAVAILABLE';

export interface AttemptRow {
  individual_id: string;
  number: number;
  status: AttemptStatus;
  submitted_at: Date;
  checked_at: Date | null;
}

const attemptColumns = 'individual_id, number, status, submitted_at, checked_at';

export async function latestAttempt(db: Executor, individualId: string): Promise<AttemptRow | undefined> {
  const rows = await db.query<AttemptRow>(`SELECT ${attemptColumns} FROM verification_attempts WHERE individual_id = $1 ORDER BY number DESC LIMIT 1`, [individualId]);
  return rows[0];
}

export async function findAttempt(db: Executor, individualId: string, number: number, options: { lock?: boolean } = {}): Promise<AttemptRow | undefined> {
  const rows = await db.query<AttemptRow>(`SELECT ${attemptColumns} FROM verification_attempts WHERE individual_id = $1 AND number = $2${options.lock ? ' FOR UPDATE' : ''}`, [
    individualId,
    number,
  ]);
  return rows[0];
}

export async function listAttempts(db: Executor, individualId: string): Promise<AttemptRow[]> {
  return db.query<AttemptRow>(`SELECT ${attemptColumns} FROM verification_attempts WHERE individual_id = $1 ORDER BY number`, [individualId]);
}

/** The attempt a submit starts, and its count on the individual, as held writes (Queryable.write). */
export async function writeSubmittedAttempt(db: Executor, attempt: { individual_id: string; number: number; submitted_at: Date }): Promise<void> {
  await db.write("INSERT INTO verification_attempts (individual_id, number, status, submitted_at) VALUES ($1, $2, 'CHECKING', $3)", [
    attempt.individual_id,
    attempt.number,
    attempt.submitted_at,
  ]);
  await db.write('UPDATE verification_individuals SET attempt_count = attempt_count + 1, updated_at = $2 WHERE id = $1', [attempt.individual_id, attempt.submitted_at]);
}

export async function finishAttempt(db: Executor, individualId: string, number: number, status: Exclude<AttemptStatus, 'CHECKING'>, at: Date): Promise<void> {
  await db.query('UPDATE verification_attempts SET status = $3, checked_at = $4 WHERE individual_id = $1 AND number = $2', [individualId, number, status, at]);
}

// ---- Decisions ----

export async function insertDecision(db: Executor, decision: { individual_id: string; operator_id: string; decision: 'PASS' | 'FAIL'; note: string; decided_at: Date }): Promise<void> {
  await db.query('INSERT INTO verification_decisions (individual_id, operator_id, decision, note, decided_at) VALUES ($1, $2, $3, $4, $5)', [
    decision.individual_id,
    decision.operator_id,
    decision.decision,
    decision.note,
    decision.decided_at,
  ]);
}

export interface DecisionRow {
  individual_id: string;
  operator_id: string;
  decision: 'PASS' | 'FAIL';
  note: string;
  decided_at: Date;
}

export async function listDecisions(db: Executor, individualIds: string[]): Promise<DecisionRow[]> {
  return db.query<DecisionRow>('SELECT individual_id, operator_id, decision, note, decided_at FROM verification_decisions WHERE individual_id = ANY($1::text[])', [individualIds]);
}

export async function findLink(db: Executor, tokenHashes: string[]): Promise<LinkRow | undefined> {
  const rows = await db.query<LinkRow>('SELECT token_hash, individual_id, expires_at, used_at, replaced_at FROM verification_links WHERE token_hash = ANY ($1::text[])', [tokenHashes]);
  return rows[0];
}
