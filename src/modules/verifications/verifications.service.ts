// Verification requests, as the partner sees them: create one (bound to a lookup or hand-built), read and
// list them, confirm a hand-built structure, add people, and mint the single-use links that are sent to
// them. The person's own steps and the checks come with the hosted flow.
//
// The request status follows CONTRACT §6's table (docs/verifications.md):
//   create with a lookup → READY_TO_SEND; AUSTRAC_CDD hand-built → UBO_REVIEW, or READY_TO_SEND when
//   structureConfirmed; TPB_POI hand-built → DRAFT; UBO_REVIEW ⇄ READY_TO_SEND by structure-confirmation
//   (or an individual added); links → VERIFICATIONS_SENT; every individual terminal → COMPLETED.
import type { Digester } from '../../platform/keys/key-ring.ts';
import type { Clock } from '../../platform/clock.ts';
import { randomToken } from '../../platform/crypto.ts';
import type { Database, Tx } from '../../platform/db/database.ts';
import { AppError, fieldProblems, notFound, validationError, type FieldProblem } from '../../platform/errors.ts';
import { toPage } from '../../platform/http/pagination.ts';
import { newId } from '../../platform/ids.ts';
import type { Outbox } from '../../platform/outbox.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { verificationIndividualAdded, verificationRequestCreated } from '../webhooks/events/verifications.events.ts';
import { partiesOf, roleOf, type BoundParty, type VerificationRole } from './roles.ts';
import * as repo from './verifications.repository.ts';
import { terminalStatuses, type AddIndividualBody, type CreateVerificationBody, type Individual, type IndividualStatus, type RequestStatus, type Verification } from './verifications.schemas.ts';

/** What binding needs to know of a lookup (the lookups service answers it). */
export interface LookupBinding {
  status: 'PENDING' | 'COMPLETED' | 'FAILED';
  scope: 'FULL' | 'ASIC_ONLY' | 'UBO_ONLY';
  entityName: string | null;
  individuals: Array<{ idvEntityId: string; role: string }>;
}

interface NewIndividual {
  externalId: string | null;
  idvEntityId: string | null;
  role: VerificationRole;
  roleDescription: string | null;
}

export function createVerificationService(deps: {
  db: Database;
  clock: Clock;
  outbox: Outbox;
  /** Digests of link tokens (platform/keys). */
  linkTokens: Pick<Digester, 'digest'>;
  publicBaseUrl: string;
  linkLifetimeDays: number;
  maxAttempts: number;
  lookups: {
    bindingOf(tx: Tx, tenant: Tenant, id: string): Promise<LookupBinding | undefined>;
    entityNameOf(executor: Database | Tx, tenant: Tenant, id: string): Promise<string | null>;
  };
}) {
  const { db, clock, outbox } = deps;

  function toIndividual(row: repo.IndividualRow): Individual {
    return {
      id: row.id,
      externalId: row.external_id,
      idvEntityId: row.idv_entity_id,
      role: row.role,
      roleDescription: row.role_description,
      status: row.status,
      attemptCount: row.attempt_count,
      maxAttempts: row.max_attempts,
      manualOverride: row.manual_override,
      completedAt: row.completed_at?.toISOString() ?? null,
      checkResults: row.check_results,
      createdAt: row.created_at.toISOString(),
    };
  }

  async function toVerifications(tenant: Tenant, rows: repo.RequestRow[], executor: Database | Tx = db): Promise<Verification[]> {
    const individuals = await repo.listIndividuals(executor, rows.map((r) => r.id));
    return Promise.all(
      rows.map(async (row) => {
        const own = individuals.filter((i) => i.request_id === row.id);
        return {
          id: row.id,
          mode: row.mode,
          status: row.status,
          lookupRequestId: row.lookup_id,
          entityName: row.entity_name ?? (row.lookup_id ? await deps.lookups.entityNameOf(executor, tenant, row.lookup_id) : null),
          contactId: row.contact_id,
          structureConfirmed: row.structure_confirmed,
          riskLevel: row.risk_level,
          completedAt: row.completed_at?.toISOString() ?? null,
          issueList: row.issue_list,
          checkResults: own.flatMap((i) => i.check_results),
          individuals: own.map(toIndividual),
          createdAt: row.created_at.toISOString(),
          updatedAt: row.updated_at.toISOString(),
        };
      }),
    );
  }

  /** The individuals a lookup binding makes: every party, or the listed ones (each must be on the lookup). */
  function boundIndividuals(binding: LookupBinding, listed: CreateVerificationBody['individuals']): NewIndividual[] {
    const parties = new Map<string, BoundParty>(partiesOf(binding.individuals).map((p) => [p.idvEntityId, p]));
    if (!listed) return [...parties.values()].map((p) => ({ ...p, externalId: null }));
    const problems: FieldProblem[] = [];
    const seen = new Set<string>();
    listed.forEach((entry, i) => {
      const party = entry.idvEntityId === undefined ? undefined : parties.get(entry.idvEntityId);
      if (entry.idvEntityId === undefined) problems.push({ pointer: `/individuals/${i}/idvEntityId`, message: 'is required when the request is bound to a lookup: name the party to verify' });
      else if (!party) problems.push({ pointer: `/individuals/${i}/idvEntityId`, message: `${entry.idvEntityId} is not a party of lookup's individuals[]` });
      else if (seen.has(entry.idvEntityId)) problems.push({ pointer: `/individuals/${i}/idvEntityId`, message: `${entry.idvEntityId} is listed twice` });
      if (entry.idvEntityId) seen.add(entry.idvEntityId);
    });
    if (problems.length) throw fieldProblems(problems);
    return listed.map((entry) => {
      const party = parties.get(entry.idvEntityId!)!;
      return {
        idvEntityId: party.idvEntityId,
        externalId: entry.externalId ?? null,
        role: entry.role === undefined ? party.role : roleOf(entry.role),
        roleDescription: entry.roleDescription ?? party.roleDescription,
      };
    });
  }

  /** The lookup binding rules of CONTRACT §6, in order; the lookup's individuals when it may be bound. */
  async function bind(tx: Tx, tenant: Tenant, lookupId: string): Promise<LookupBinding> {
    const binding = await deps.lookups.bindingOf(tx, tenant, lookupId);
    if (!binding) throw new AppError('LOOKUP_NOT_OWNED', `Business lookup ${lookupId} is not one of yours`, { pointer: '/lookupRequestId' });
    if (binding.scope === 'ASIC_ONLY') {
      throw validationError('/lookupRequestId', `Business lookup ${lookupId} is ASIC_ONLY: it has no ownership to verify; bind a FULL or UBO_ONLY lookup`);
    }
    if (binding.status !== 'COMPLETED') throw new AppError('LOOKUP_NOT_COMPLETED', `Business lookup ${lookupId} is ${binding.status}; bind it once it is COMPLETED`, { pointer: '/lookupRequestId' });
    return binding;
  }

  async function insertIndividuals(tx: Tx, tenant: Tenant, requestId: string, people: NewIndividual[], now: Date): Promise<void> {
    for (const person of people) {
      const id = newId('individual', now.getTime());
      await repo.insertIndividual(tx, {
        id,
        request_id: requestId,
        partner_id: tenant.partnerId,
        external_id: person.externalId,
        idv_entity_id: person.idvEntityId,
        role: person.role,
        role_description: person.roleDescription,
        max_attempts: deps.maxAttempts,
        created_at: now,
      });
      await outbox.emit(tx, verificationIndividualAdded, {
        partnerId: tenant.partnerId,
        payload: { verificationRequestId: requestId, individualId: id, ...(person.externalId ? { externalId: person.externalId } : {}), role: person.role, status: 'PENDING' },
      });
    }
  }

  async function lockedRequest(tx: Tx, tenant: Tenant, id: string): Promise<repo.RequestRow> {
    const row = await repo.findRequest(tx, tenant, id, { lock: true });
    if (!row) throw notFound(`Verification request ${id}`);
    if (row.status === 'COMPLETED') throw new AppError('INVALID_STATE', `Verification request ${id} is COMPLETED; nothing more can be done on it`);
    return row;
  }

  async function reread(tx: Tx, tenant: Tenant, id: string): Promise<Verification> {
    const [verification] = await toVerifications(tenant, [(await repo.findRequest(tx, tenant, id))!], tx);
    return verification!;
  }

  return {
    /** In the caller's transaction; the route has passed the billing gate for a contactId first. */
    async create(tx: Tx, tenant: Tenant, body: CreateVerificationBody): Promise<Verification> {
      const now = clock.now();
      const id = newId('verification', now.getTime());
      let status: RequestStatus;
      let people: NewIndividual[];
      if (body.lookupRequestId !== undefined) {
        const binding = await bind(tx, tenant, body.lookupRequestId);
        people = boundIndividuals(binding, body.individuals);
        status = 'READY_TO_SEND';
      } else {
        const problems: FieldProblem[] = (body.individuals ?? []).flatMap((entry, i) =>
          entry.idvEntityId === undefined ? [] : [{ pointer: `/individuals/${i}/idvEntityId`, message: 'is only for a request bound to a lookup (lookupRequestId)' }],
        );
        if (problems.length) throw fieldProblems(problems);
        people = (body.individuals ?? []).map((entry) => ({ externalId: entry.externalId ?? null, idvEntityId: null, role: roleOf(entry.role), roleDescription: entry.roleDescription ?? null }));
        status = body.mode === 'TPB_POI' ? 'DRAFT' : body.structureConfirmed === true ? 'READY_TO_SEND' : 'UBO_REVIEW';
      }
      await repo.insertRequest(tx, {
        id,
        partner_id: tenant.partnerId,
        mode: body.mode,
        status,
        lookup_id: body.lookupRequestId ?? null,
        entity_name: body.entityName ?? null,
        contact_id: body.contactId ?? null,
        structure_confirmed: body.lookupRequestId !== undefined || body.structureConfirmed === true,
        created_at: now,
      });
      await outbox.emit(tx, verificationRequestCreated, {
        partnerId: tenant.partnerId,
        payload: { verificationRequestId: id, mode: body.mode, status: status as 'DRAFT' | 'UBO_REVIEW' | 'READY_TO_SEND', lookupRequestId: body.lookupRequestId ?? null },
      });
      await insertIndividuals(tx, tenant, id, people, now);
      return reread(tx, tenant, id);
    },

    async get(tenant: Tenant, id: string): Promise<Verification> {
      const row = await repo.findRequest(db, tenant, id);
      if (!row) throw notFound(`Verification request ${id}`);
      return (await toVerifications(tenant, [row]))[0]!;
    },

    /** Oldest first, as the API lists them; `newestFirst` for the portal. */
    async list(tenant: Tenant, query: { limit: number; from: number; status?: RequestStatus; lookupRequestId?: string; newestFirst?: boolean }) {
      const page = toPage(await repo.listRequests(db, tenant, query), query);
      return { ...page, data: await toVerifications(tenant, page.data) };
    },

    /** How many requests the partner made since `since`, by status (the portal's overview). */
    async countSince(tenant: Tenant, since: Date): Promise<Partial<Record<RequestStatus, number>>> {
      return Object.fromEntries((await repo.countRequestsSince(db, tenant, since)).map((r) => [r.status, r.n]));
    },

    /** The partner's individuals in `status` (MANUAL_REVIEW: waiting for an operator), the longest waiting first. */
    async individualsInStatus(tenant: Tenant, status: IndividualStatus, limit: number) {
      const { rows, total } = await repo.listIndividualsInStatus(db, tenant, status, limit);
      return {
        total,
        data: rows.map((r) => ({ id: r.id, verificationRequestId: r.request_id, externalId: r.external_id, role: r.role, since: r.updated_at.toISOString() })),
      };
    },

    /**
     * Each individual's latest link, by individual id: when it was minted, until when it works, and when it
     * was opened. The link itself is never kept, so it can never be shown again.
     */
    async linkStatesOf(tenant: Tenant, id: string) {
      const row = await repo.findRequest(db, tenant, id);
      if (!row) throw notFound(`Verification request ${id}`);
      const individuals = await repo.listIndividuals(db, [id]);
      const links = await repo.listLatestLinks(db, individuals.map((i) => i.id));
      return new Map(
        links.map((l) => [
          l.individual_id,
          { mintedAt: l.created_at.toISOString(), expiresAt: l.expires_at.toISOString(), openedAt: l.used_at?.toISOString() ?? null },
        ]),
      );
    },

    /** UBO_REVIEW ⇄ READY_TO_SEND for a hand-built request; a bound lookup's structure is not the partner's to undo. */
    async confirmStructure(tenant: Tenant, id: string, confirmed: boolean): Promise<Verification> {
      return db.transaction(async (tx) => {
        const row = await lockedRequest(tx, tenant, id);
        const now = clock.now();
        if (row.lookup_id) {
          if (!confirmed) throw new AppError('INVALID_STATE', `Verification request ${id} is bound to lookup ${row.lookup_id}, whose structure is authoritative; it cannot be unconfirmed`);
        } else if (row.status === 'UBO_REVIEW' || row.status === 'READY_TO_SEND') {
          await repo.updateRequest(tx, id, { status: confirmed ? 'READY_TO_SEND' : 'UBO_REVIEW', structureConfirmed: confirmed }, now);
        } else if (row.status === 'DRAFT') {
          await repo.updateRequest(tx, id, { structureConfirmed: confirmed }, now);
        } else {
          throw new AppError('INVALID_STATE', `Verification request ${id} is ${row.status}; its structure can be confirmed in UBO_REVIEW or READY_TO_SEND`);
        }
        return reread(tx, tenant, id);
      });
    },

    /** A person added to a hand-built READY_TO_SEND request sends its structure back to UBO_REVIEW. */
    async addIndividual(tx: Tx, tenant: Tenant, id: string, body: AddIndividualBody): Promise<Individual> {
      const row = await lockedRequest(tx, tenant, id);
      const now = clock.now();
      await insertIndividuals(tx, tenant, id, [{ externalId: body.externalId ?? null, idvEntityId: null, role: roleOf(body.role), roleDescription: body.roleDescription ?? null }], now);
      if (!row.lookup_id && row.status === 'READY_TO_SEND') await repo.updateRequest(tx, id, { status: 'UBO_REVIEW', structureConfirmed: false }, now);
      const individuals = await repo.listIndividuals(tx, [id]);
      return toIndividual(individuals.at(-1)!);
    },

    /**
     * A fresh single-use link for each individual asked for (all that are not finished by default); each
     * replaces the individual's earlier link. The URLs are answered here only.
     */
    async mintLinks(tenant: Tenant, id: string, individualIds: string[] | undefined) {
      return db.transaction(async (tx) => {
        const row = await lockedRequest(tx, tenant, id);
        if (row.status === 'UBO_REVIEW') {
          throw new AppError('STRUCTURE_NOT_CONFIRMED', `Verification request ${id} is in UBO_REVIEW; confirm its structure (PUT …/structure-confirmation) before sending links`);
        }
        const individuals = await repo.listIndividuals(tx, [id]);
        let chosen: repo.IndividualRow[];
        if (individualIds) {
          const problems: FieldProblem[] = [];
          chosen = individualIds.flatMap((individualId, i) => {
            const found = individuals.find((ind) => ind.id === individualId);
            if (!found) problems.push({ pointer: `/individualIds/${i}`, message: `${individualId} is not an individual of this request` });
            else if (terminalStatuses.includes(found.status)) problems.push({ pointer: `/individualIds/${i}`, message: `${individualId} is ${found.status}: finished, no link can be sent` });
            return found ? [found] : [];
          });
          if (problems.length) throw fieldProblems(problems);
        } else {
          chosen = individuals.filter((ind) => !terminalStatuses.includes(ind.status));
        }
        if (chosen.length === 0) throw new AppError('INVALID_STATE', `Verification request ${id} has no individual waiting for a link; add one first`);
        const now = clock.now();
        const expiresAt = new Date(now.getTime() + deps.linkLifetimeDays * 86_400_000);
        const minted = [];
        for (const individual of chosen) {
          const token = randomToken(32);
          await repo.replaceLiveLink(tx, individual.id, now);
          // A new link is a new start: a session opened with an earlier one ends with it.
          await repo.revokeSessions(tx, individual.id, now);
          await repo.insertLink(tx, { token_hash: deps.linkTokens.digest(token), individual_id: individual.id, expires_at: expiresAt, created_at: now });
          minted.push({ id: individual.id, externalId: individual.external_id, verificationUrl: `${deps.publicBaseUrl}/v/${token}`, expiresAt: expiresAt.toISOString() });
        }
        if (row.status !== 'VERIFICATIONS_SENT') await repo.updateRequest(tx, id, { status: 'VERIFICATIONS_SENT' }, now);
        return { individuals: minted };
      });
    },
  };
}

export type VerificationService = ReturnType<typeof createVerificationService>;
