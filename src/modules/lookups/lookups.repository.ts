// Every SQL statement about business lookups, their idv entities and their read budget. The writes of a
// lookup's create and settlement are held writes (Queryable.write): each transaction sends them as one
// statement. None of them touches a row another of them inserts (an individual refers to its idv entity,
// which foreign keys allow).
import type { Executor } from '../../platform/db/database.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import type { LookupScope } from '../billing/prices.ts';
import type { PartyCounts, PartyRole, StoredStructure } from './lookup-result.ts';
import type { RegisterFacts } from './register-reading.ts';

export interface LookupRow {
  id: string;
  partner_id: string;
  abn: string | null;
  acn: string | null;
  scope: LookupScope;
  contact_id: string | null;
  status: 'PENDING' | 'COMPLETED' | 'FAILED';
  failure_reason: 'NOT_FOUND' | 'IDENTIFIER_MISMATCH' | 'REGISTER_UNAVAILABLE' | null;
  entity_name: string | null;
  entity_type: RegisterFacts['entity']['type'] | null;
  registry: StoredRegistry | null;
  registry_retrieved_at: Date | null;
  ownership: StoredStructure | null;
  structure_as_of: Date | null;
  party_counts: PartyCounts | null;
  ubo_count: number | null;
  created_at: Date;
  updated_at: Date;
  completed_at: Date | null;
}

/** What the registry view shows, as read. */
export type StoredRegistry = Pick<RegisterFacts, 'abr' | 'asic' | 'officersSource'>;

const lookupColumns = `id, partner_id, abn, acn, scope, contact_id, status, failure_reason, entity_name, entity_type, registry,
  registry_retrieved_at, ownership, structure_as_of, party_counts, ubo_count, created_at, updated_at, completed_at`;

export async function insertLookup(db: Executor, row: Pick<LookupRow, 'id' | 'partner_id' | 'abn' | 'acn' | 'scope' | 'contact_id' | 'created_at'>): Promise<void> {
  await db.write(
    `INSERT INTO business_lookups (id, partner_id, abn, acn, scope, contact_id, status, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, 'PENDING', $7, $7)`,
    [row.id, row.partner_id, row.abn, row.acn, row.scope, row.contact_id, row.created_at],
  );
}

export async function findLookup(db: Executor, tenant: Tenant, id: string): Promise<LookupRow | undefined> {
  const rows = await db.query<LookupRow>(`SELECT ${lookupColumns} FROM business_lookups WHERE partner_id = $1 AND id = $2`, [tenant.partnerId, id]);
  return rows[0];
}

/** For the lookup job, which has only the id; locked so that one attempt at a time finishes it. */
export async function lockLookupForJob(db: Executor, id: string): Promise<LookupRow | undefined> {
  const rows = await db.query<LookupRow>(`SELECT ${lookupColumns} FROM business_lookups WHERE id = $1 FOR UPDATE`, [id]);
  return rows[0];
}

export async function findLookupForJob(db: Executor, id: string): Promise<LookupRow | undefined> {
  const rows = await db.query<LookupRow>(`SELECT ${lookupColumns} FROM business_lookups WHERE id = $1`, [id]);
  return rows[0];
}

export async function listLookups(db: Executor, tenant: Tenant, query: { limit: number; from: number; status?: string }): Promise<LookupRow[]> {
  return db.query<LookupRow>(
    `SELECT ${lookupColumns} FROM business_lookups WHERE partner_id = $1 AND ($2::text IS NULL OR status = $2) ORDER BY id DESC LIMIT $3 OFFSET $4`,
    [tenant.partnerId, query.status ?? null, query.limit + 1, query.from],
  );
}

/** How many of the partner's lookups were created since `since`, by status (the portal's overview). */
export async function countLookupsSince(db: Executor, tenant: Tenant, since: Date): Promise<Array<{ status: LookupRow['status']; n: number }>> {
  const rows = await db.query<{ status: LookupRow['status']; n: string | number }>(
    'SELECT status, count(*) AS n FROM business_lookups WHERE partner_id = $1 AND created_at >= $2 GROUP BY status',
    [tenant.partnerId, since],
  );
  return rows.map((r) => ({ status: r.status, n: Number(r.n) }));
}

export async function completeLookup(
  db: Executor,
  id: string,
  done: { entity: RegisterFacts['entity']; registry: StoredRegistry; structure: StoredStructure; partyCounts: PartyCounts; at: Date },
): Promise<void> {
  await db.write(
    `UPDATE business_lookups SET status = 'COMPLETED', entity_name = $2, entity_type = $3, registry = $4, registry_retrieved_at = $7,
       ownership = $5, structure_as_of = $7, party_counts = $6, ubo_count = ($6::jsonb ->> 'beneficialOwners')::integer,
       completed_at = $7, updated_at = $7
     WHERE id = $1`,
    [id, done.entity.name, done.entity.type, JSON.stringify(done.registry), JSON.stringify(done.structure), JSON.stringify(done.partyCounts), done.at],
  );
}

export async function failLookup(db: Executor, id: string, reason: NonNullable<LookupRow['failure_reason']>, at: Date): Promise<void> {
  await db.write(`UPDATE business_lookups SET status = 'FAILED', failure_reason = $2, completed_at = $3, updated_at = $3 WHERE id = $1`, [id, reason, at]);
}

export async function insertIdvEntity(
  db: Executor,
  row: { id: string; partner_id: string; lookup_id: string; party_ref: string; given_names: string; family_name: string; created_at: Date },
): Promise<void> {
  await db.write(
    `INSERT INTO idv_entities (id, partner_id, lookup_id, party_ref, given_names, family_name, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [row.id, row.partner_id, row.lookup_id, row.party_ref, row.given_names, row.family_name, row.created_at],
  );
}

export async function insertIndividual(
  db: Executor,
  row: { lookup_id: string; idv_entity_id: string; role: PartyRole; ownership_percent: number | null; position: number },
): Promise<void> {
  await db.write(`INSERT INTO lookup_individuals (lookup_id, idv_entity_id, role, ownership_percent, position) VALUES ($1, $2, $3, $4, $5)`, [
    row.lookup_id,
    row.idv_entity_id,
    row.role,
    row.ownership_percent,
    row.position,
  ]);
}

export interface IndividualRow {
  idv_entity_id: string;
  role: PartyRole;
  ownership_percent: string | null;
  given_names: string;
  family_name: string;
}

export async function listIndividuals(db: Executor, lookupId: string): Promise<IndividualRow[]> {
  return db.query<IndividualRow>(
    `SELECT i.idv_entity_id, i.role, i.ownership_percent::text AS ownership_percent, e.given_names, e.family_name
     FROM lookup_individuals i JOIN idv_entities e ON e.id = i.idv_entity_id WHERE i.lookup_id = $1 ORDER BY i.position`,
    [lookupId],
  );
}

export interface IdvEntityRow {
  id: string;
  party_ref: string;
  given_names: string;
  family_name: string;
}

export async function findIdvEntities(db: Executor, lookupId: string, ids: string[]): Promise<IdvEntityRow[]> {
  return db.query<IdvEntityRow>('SELECT id, party_ref, given_names, family_name FROM idv_entities WHERE lookup_id = $1 AND id = ANY($2::text[])', [lookupId, ids]);
}

/** Every party the lookup found, by idv entity id. */
export async function listIdvEntities(db: Executor, lookupId: string): Promise<IdvEntityRow[]> {
  return db.query<IdvEntityRow>('SELECT id, party_ref, given_names, family_name FROM idv_entities WHERE lookup_id = $1', [lookupId]);
}

/** Spends one read of the lookup's budget for the day; false when none is left. */
export async function spendRead(db: Executor, lookupId: string, day: string, budget: number): Promise<boolean> {
  const rows = await db.query(
    `INSERT INTO lookup_reads (lookup_id, day, reads) VALUES ($1, $2, 1)
     ON CONFLICT (lookup_id, day) DO UPDATE SET reads = lookup_reads.reads + 1 WHERE lookup_reads.reads < $3
     RETURNING reads`,
    [lookupId, day, budget],
  );
  return rows.length > 0;
}
