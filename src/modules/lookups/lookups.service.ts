// Business lookups: created billed and PENDING, settled by a job that reads the registers, read back as a
// record, a registry view and an ownership view.
//
// Invariants:
// - The lookup, its charge and its job are written in one transaction, and the charge is the first write:
//   a contact that cannot be billed leaves nothing behind (the gate, checked with the contact locked).
//   Billed to the partner, the three are held writes (Queryable.write): one statement, one round trip.
// - The job settles a lookup once: its writes (record, idv entities, event, voided charge) commit with the
//   job's own completion. A worker that dies before that leaves the lookup PENDING for the next attempt.
// - The registry and ownership views are lookup-views.ts.
import type { Logger } from '../../platform/logger.ts';
import type { Clock } from '../../platform/clock.ts';
import type { Database, Tx } from '../../platform/db/database.ts';
import { AppError, notFound, type FieldProblem } from '../../platform/errors.ts';
import { toPage } from '../../platform/http/pagination.ts';
import { newId } from '../../platform/ids.ts';
import type { JobContext } from '../../platform/jobs/job.ts';
import type { JobQueue } from '../../platform/jobs/queue.ts';
import type { Outbox } from '../../platform/outbox.ts';
import { tenantOf, type Tenant } from '../../platform/tenancy.ts';
import type { Registers } from '../../providers/register/index.ts';
import type { ChargeService, Payer } from '../billing/charges.service.ts';
import { lookupProduct } from '../billing/prices.ts';
import type { ScreeningService } from '../screening/screening.service.ts';
import { businessLookupCompleted, businessLookupFailed } from '../webhooks/events/lookups.events.ts';
import { abnProblem, acnProblem, digitsOf } from './identifiers.ts';
import { buildLookupResult, type LookupResult } from './lookup-result.ts';
import type { CreateLookupBody, Lookup, LookupSummary } from './lookups.schemas.ts';
import { createLookupViews } from './lookup-views.ts';
import { processLookupJob } from './lookups.jobs.ts';
import * as repo from './lookups.repository.ts';
import { readRegisters, type RegisterFacts, type RegisterReading } from './register-reading.ts';

/** A register party as a verification compares it: the name the register gave, the date of birth it holds now (YYYY-MM-DD). */
export interface RegisterPerson {
  givenNames: string;
  familyName: string;
  dateOfBirth: string | null;
}

export interface LookupRequest {
  abn: string | null;
  acn: string | null;
  scope: 'FULL' | 'ASIC_ONLY' | 'UBO_ONLY';
  contactId: string | null;
}

type Outcome = { kind: 'COMPLETED'; facts: RegisterFacts; result: LookupResult } | { kind: 'FAILED'; reason: NonNullable<repo.LookupRow['failure_reason']> };

/** Thrown to have the job try again: the register did not answer. */
class RegisterUnavailableError extends Error {
  override name = 'RegisterUnavailableError';
}

/** Spaces stripped, check digits valid, at least one of the two; every problem named with its pointer. */
export function lookupRequestOf(body: CreateLookupBody): LookupRequest {
  const problems: FieldProblem[] = [];
  for (const [field, problemOf] of [['abn', abnProblem], ['acn', acnProblem]] as const) {
    const value = body[field];
    const problem = value === undefined ? undefined : problemOf(value);
    if (problem) problems.push({ pointer: `/${field}`, message: `${field} ${problem}` });
  }
  if (body.abn === undefined && body.acn === undefined) problems.push({ pointer: '/abn', message: 'give abn or acn (or both)' });
  if (problems.length > 0) throw new AppError('VALIDATION_ERROR', problems.map((p) => p.message).join('; '), { errors: problems });
  return {
    abn: body.abn === undefined ? null : digitsOf(body.abn),
    acn: body.acn === undefined ? null : digitsOf(body.acn),
    scope: body.scope ?? 'FULL',
    contactId: body.contactId ?? null,
  };
}

export function createLookupService(deps: {
  db: Database;
  clock: Clock;
  logger: Logger;
  registers: Registers;
  charges: Pick<ChargeService, 'chargeNewWork' | 'voidCharge'>;
  outbox: Outbox;
  queue: JobQueue;
  screening: Pick<ScreeningService, 'screenPerson' | 'currentVersion'>;
  readBudget: number;
}) {
  const { db, clock } = deps;
  const views = createLookupViews(deps);

  async function toLookup(row: repo.LookupRow): Promise<Lookup> {
    const individuals = row.status === 'COMPLETED' ? await repo.listIndividuals(db, row.id) : [];
    return {
      ...toSummary(row),
      individuals: individuals.map((i) => ({
        idvEntityId: i.idv_entity_id,
        role: i.role,
        name: `${i.given_names} ${i.family_name}`,
        ownershipPercent: i.ownership_percent === null ? null : Number(i.ownership_percent),
      })),
    };
  }

  /** What the job will write: parties with new idv entity ids, or the failure. Throws on a structure the traversal refuses. */
  function outcomeOf(reading: RegisterReading): Outcome {
    if (reading.kind !== 'FOUND') return { kind: 'FAILED', reason: reading.kind === 'FAILED' ? reading.reason : 'REGISTER_UNAVAILABLE' };
    const at = clock.now().getTime();
    const ids = new Map<string, string>();
    const idOf = (partyRef: string) => ids.get(partyRef) ?? ids.set(partyRef, newId('idvEntity', at)).get(partyRef)!;
    return { kind: 'COMPLETED', facts: reading.facts, result: buildLookupResult(reading.facts, idOf) };
  }

  async function settle(tx: Tx, row: repo.LookupRow, outcome: Outcome): Promise<void> {
    const tenant = tenantOf(row.partner_id);
    const now = clock.now();
    if (outcome.kind === 'FAILED') {
      const { reason } = outcome;
      await repo.failLookup(tx, row.id, reason, now);
      await deps.charges.voidCharge(tx, tenant, { product: lookupProduct(row.scope), referenceId: row.id, reason: `business lookup failed: ${reason}` });
      await deps.outbox.emit(tx, businessLookupFailed, { partnerId: row.partner_id, payload: { lookupRequestId: row.id, channelPartnerId: row.partner_id, failureReason: reason } });
      return;
    }
    const { facts, result } = outcome;
    let position = 0;
    for (const party of result.parties) {
      await repo.insertIdvEntity(tx, {
        id: party.idvEntityId,
        partner_id: row.partner_id,
        lookup_id: row.id,
        party_ref: party.partyRef,
        given_names: party.givenNames,
        family_name: party.familyName,
        created_at: now,
      });
      for (const role of party.roles) {
        await repo.insertIndividual(tx, { lookup_id: row.id, idv_entity_id: party.idvEntityId, role: role.role, ownership_percent: role.ownershipPercent, position: position++ });
      }
    }
    await repo.completeLookup(tx, row.id, {
      entity: facts.entity,
      registry: { abr: facts.abr, asic: facts.asic, officersSource: facts.officersSource },
      structure: result.structure,
      partyCounts: result.partyCounts,
      at: now,
    });
    await deps.outbox.emit(tx, businessLookupCompleted, {
      partnerId: row.partner_id,
      payload: {
        lookupRequestId: row.id,
        channelPartnerId: row.partner_id,
        entity: facts.entity,
        individuals: result.parties.map((p) => ({ idvEntityId: p.idvEntityId })),
      },
    });
  }

  return {
    /** In the caller's transaction (with its Idempotency-Key): the charge, the lookup and its job. */
    async create(tx: Tx, tenant: Tenant, request: LookupRequest): Promise<{ lookupRequestId: string }> {
      const now = clock.now();
      const id = newId('lookup', now.getTime());
      const payer: Payer = request.contactId ? { billedTo: 'CONTACT', contactId: request.contactId } : { billedTo: 'PARTNER' };
      await deps.charges.chargeNewWork(tx, tenant, { payer, product: lookupProduct(request.scope), referenceId: id });
      await repo.insertLookup(tx, { id, partner_id: tenant.partnerId, abn: request.abn, acn: request.acn, scope: request.scope, contact_id: request.contactId, created_at: now });
      await deps.queue.enqueueHeld(tx, processLookupJob, { lookupId: id }, { key: `lookup:${id}` });
      return { lookupRequestId: id };
    },

    /** The job: read the registers (outside any transaction), then settle the lookup with the job's completion. */
    async process(lookupId: string, ctx: JobContext): Promise<void> {
      const row = await repo.findLookupForJob(db, lookupId);
      if (!row || row.status !== 'PENDING') return;
      const lastAttempt = ctx.attempt >= ctx.maxAttempts;
      let outcome: Outcome;
      try {
        const reading = await readRegisters(deps.registers, row);
        if (reading.kind === 'UNAVAILABLE' && !lastAttempt) throw new RegisterUnavailableError(`Business lookup ${lookupId}: ${reading.detail}`);
        outcome = outcomeOf(reading);
      } catch (error) {
        // A provider that throws, or answers a structure the traversal refuses, is a bug: tried again like
        // an outage, and on the last attempt the lookup fails rather than staying PENDING for ever.
        if (!lastAttempt) throw error;
        deps.logger.error({ err: error, lookupId }, 'business lookup could not use the register answer; failing it');
        outcome = { kind: 'FAILED', reason: 'REGISTER_UNAVAILABLE' };
      }
      await ctx.complete(async (tx) => {
        const locked = await repo.lockLookupForJob(tx, lookupId);
        if (locked?.status === 'PENDING') await settle(tx, locked, outcome);
      });
    },

    async get(tenant: Tenant, id: string): Promise<Lookup> {
      const row = await repo.findLookup(db, tenant, id);
      if (!row) throw notFound(`Business lookup ${id}`);
      return toLookup(row);
    },

    async list(tenant: Tenant, query: { limit: number; from: number; status?: string }) {
      return toPage((await repo.listLookups(db, tenant, query)).map(toSummary), query);
    },

    /**
     * The portal's list: the API's summaries, each with the completeness the lookup stored. Reads no
     * register and spends no read budget (the ownership view does both).
     */
    async listWithCompleteness(tenant: Tenant, query: { limit: number; from: number; status?: string }) {
      const page = toPage(await repo.listLookups(db, tenant, query), query);
      return { ...page, data: page.data.map((row) => ({ ...toSummary(row), completeness: row.ownership?.completeness ?? null })) };
    },

    /**
     * What the lookup stored of its ownership structure, for showing without a read of the ownership view:
     * its completeness and why, and how many blocked nodes and unlinked owners it has. Never the owners'
     * personal details. Undefined until the lookup is COMPLETED.
     */
    async storedStructureOf(tenant: Tenant, id: string) {
      const row = await repo.findLookup(db, tenant, id);
      if (!row) throw notFound(`Business lookup ${id}`);
      const structure = row.ownership;
      if (row.status !== 'COMPLETED' || !structure) return undefined;
      return {
        completeness: structure.completeness,
        reason: structure.reason,
        ownershipSource: structure.ownershipSource,
        complete: structure.complete,
        truncated: structure.truncated,
        blockedNodes: structure.blockedNodes.length,
        unlinkedOwners: structure.unlinkedOwners.length,
        structureAsOf: row.structure_as_of?.toISOString() ?? null,
      };
    },

    /** How many lookups the partner made since `since`, by status. */
    async countSince(tenant: Tenant, since: Date): Promise<Partial<Record<repo.LookupRow['status'], number>>> {
      return Object.fromEntries((await repo.countLookupsSince(db, tenant, since)).map((r) => [r.status, r.n]));
    },

    registry: views.registry,
    ownership: views.ownership,

    /**
     * What a verification bound to this lookup needs (read in the caller's transaction): its state, scope,
     * entity name and its parties with their roles, in register order. Undefined for a lookup that is not
     * the partner's or does not exist.
     */
    async bindingOf(tx: Tx, tenant: Tenant, id: string) {
      const row = await repo.findLookup(tx, tenant, id);
      if (!row) return undefined;
      const parties = row.status === 'COMPLETED' ? await repo.listIndividuals(tx, id) : [];
      return {
        status: row.status,
        scope: row.scope,
        entityName: row.entity_name,
        individuals: parties.map((p) => ({ idvEntityId: p.idv_entity_id, role: p.role })),
      };
    },

    /** A bound lookup's entity name, for showing on its verification (never copied: a sole trader's is a person's). */
    async entityNameOf(executor: Database | Tx, tenant: Tenant, id: string): Promise<string | null> {
      return (await repo.findLookup(executor, tenant, id))?.entity_name ?? null;
    },

    /**
     * What a verification's entity report prints of its bound lookup: the registry identity and the
     * ownership structure as the lookup stored them. No register is read, so no read budget is spent.
     * Undefined unless the lookup is the partner's and COMPLETED.
     */
    async reportFactsOf(tenant: Tenant, id: string) {
      const row = await repo.findLookup(deps.db, tenant, id);
      if (!row || row.status !== 'COMPLETED') return undefined;
      return {
        registry: row.registry && { retrievedAt: row.registry_retrieved_at!, abr: row.registry.abr, asic: row.registry.asic },
        structure: row.ownership,
        structureAsOf: row.structure_as_of,
      };
    },

    /** Each party's name as the register gave it, by idv entity id: what a verified name is compared with. */
    async registerNamesOf(tenant: Tenant, id: string): Promise<Map<string, { givenNames: string; familyName: string }>> {
      const row = await repo.findLookup(deps.db, tenant, id);
      if (!row) return new Map();
      return new Map((await repo.listIdvEntities(deps.db, row.id)).map((e) => [e.id, { givenNames: e.given_names, familyName: e.family_name }]));
    },

    /**
     * Parties of this lookup as the register holds them now: the names PVS kept and the dates of birth it
     * never keeps, read live from the UBO-report provider for a verification to compare with what a
     * person entered (decision 122). A party the provider no longer knows has no date of birth. This is
     * PVS's own check, not the partner's read of the registers, so no read of the daily budget is spent.
     * `ok: false` when the provider does not answer. The dates are never logged.
     */
    async registerPeopleOf(tenant: Tenant, id: string, idvEntityIds: string[]): Promise<{ ok: true; people: Map<string, RegisterPerson> } | { ok: false }> {
      const row = idvEntityIds.length > 0 ? await repo.findLookup(deps.db, tenant, id) : undefined;
      const entities = row ? await repo.findIdvEntities(deps.db, row.id, idvEntityIds) : [];
      if (entities.length === 0) return { ok: true, people: new Map() };
      const read = await deps.registers.reports.personDetails(entities.map((e) => e.party_ref));
      if (!read.ok && read.reason === 'UNAVAILABLE') {
        deps.logger.warn({ lookupId: id, reason: read.reason }, 'register parties’ personal details could not be read');
        return { ok: false };
      }
      const born = new Map(read.ok ? read.value.map((d) => [d.partyRef, d.dateOfBirth]) : []);
      return {
        ok: true,
        people: new Map(entities.map((e) => [e.id, { givenNames: e.given_names, familyName: e.family_name, dateOfBirth: born.get(e.party_ref) ?? null }])),
      };
    },
  };
}

export type LookupService = ReturnType<typeof createLookupService>;

function toSummary(row: repo.LookupRow): LookupSummary {
  const completed = row.status === 'COMPLETED';
  return {
    lookupRequestId: row.id,
    status: row.status,
    scope: row.scope,
    abn: row.abn,
    acn: row.acn,
    failureReason: row.failure_reason,
    contactId: row.contact_id,
    entity: completed ? { name: row.entity_name!, type: row.entity_type! } : null,
    partyCounts: completed ? row.party_counts : null,
    uboCount: completed ? row.ubo_count : null,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    completedAt: row.completed_at?.toISOString() ?? null,
  };
}
