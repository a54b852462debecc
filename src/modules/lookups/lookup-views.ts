// The registry and ownership views of a completed lookup. They answer what the lookup stored and never
// read the registers again, except the owners' personal details, which are read live for each ownership
// answer and never stored. Each answer spends one read of the lookup's daily budget, after the
// If-None-Match check: a 304 spends nothing.
import { createHash } from 'node:crypto';
import type { Clock } from '../../platform/clock.ts';
import type { Database } from '../../platform/db/database.ts';
import { AppError, notFound } from '../../platform/errors.ts';
import type { Logger } from '../../platform/logger.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import type { Registers } from '../../providers/register/index.ts';
import type { PersonDetails } from '../../providers/register/ownership-report.ts';
import type { ScreeningService } from '../screening/screening.service.ts';
import type { Ownership, Registry } from './lookups.schemas.ts';
import * as repo from './lookups.repository.ts';

/** A view's answer: its body, or null when the caller's If-None-Match still holds (304). */
export interface ViewAnswer<T> {
  etag: string;
  body: T | null;
  /** False when the answer lacks a live part that a later read may get: not to be kept or revalidated. */
  cacheable: boolean;
}

export function createLookupViews(deps: { db: Database; clock: Clock; logger: Logger; registers: Registers; screening: Pick<ScreeningService, 'screenPerson' | 'currentVersion'>; readBudget: number }) {
  const { db, clock } = deps;

  async function completedLookup(tenant: Tenant, id: string): Promise<repo.LookupRow> {
    const row = await repo.findLookup(db, tenant, id);
    if (!row) throw notFound(`Business lookup ${id}`);
    if (row.status !== 'COMPLETED') throw new AppError('INVALID_STATE', `Business lookup ${id} is ${row.status}; its registry and ownership can be read once it is COMPLETED`);
    return row;
  }

  /** Spends one of today's reads (UTC days); 429 with Retry-After until the next day when none is left. */
  async function spendRead(row: repo.LookupRow): Promise<void> {
    const now = clock.now();
    const day = now.toISOString().slice(0, 10);
    if (await repo.spendRead(db, row.id, day, deps.readBudget)) return;
    const nextDay = Date.parse(`${day}T00:00:00.000Z`) + 86_400_000;
    throw new AppError(
      'READ_BUDGET_EXHAUSTED',
      `Business lookup ${row.id} has had its ${deps.readBudget} registry and ownership reads for today (UTC). Keep the answers you have (they carry an ETag and may be cached for 5 minutes), or run a new lookup for fresh register data.`,
      { retryAfter: Math.ceil((nextDay - now.getTime()) / 1000) },
    );
  }

  /** Screens an owner now; the summary carries categories only, never the list entry. */
  async function screeningOf(name: { givenNames: string; familyName: string }, details: PersonDetails | undefined) {
    const result = await deps.screening.screenPerson({
      names: [`${name.givenNames} ${name.familyName}`],
      dateOfBirth: details?.dateOfBirth ?? undefined,
      countries: details?.address ? [details.address.country] : undefined,
    });
    return { status: result.outcome, categories: [...new Set(result.matches.flatMap((m) => m.entry.categories))].sort() };
  }

  return {
    async registry(tenant: Tenant, id: string, ifNoneMatch: string | undefined): Promise<ViewAnswer<Registry>> {
      const row = await completedLookup(tenant, id);
      const etag = etagOf(['registry', row.id, row.updated_at.toISOString()]);
      if (etagMatches(ifNoneMatch, etag)) return { etag, body: null, cacheable: true };
      await spendRead(row);
      const { abr, asic, officersSource } = row.registry!;
      return {
        etag,
        cacheable: true,
        body: {
          lookupRequestId: row.id,
          retrievedAt: row.registry_retrieved_at!.toISOString(),
          abr: abr && {
            abn: abr.abn,
            status: abr.status,
            statusFrom: abr.statusFrom,
            entityName: abr.entityName,
            entityType: abr.entityType,
            gstRegisteredFrom: abr.gstRegisteredFrom,
            businessNames: abr.businessNames,
            state: abr.state,
            postcode: abr.postcode,
          },
          asic: asic && {
            acn: asic.acn,
            name: asic.name,
            type: asic.type,
            class: asic.class,
            status: asic.status,
            registeredOn: asic.registeredOn,
            deregisteredOn: asic.deregisteredOn,
          },
          officersSource,
        },
      };
    },

    async ownership(tenant: Tenant, id: string, ifNoneMatch: string | undefined): Promise<ViewAnswer<Ownership>> {
      const row = await completedLookup(tenant, id);
      // A new screening list version changes the answer, so it is part of the tag.
      const listVersion = await deps.screening.currentVersion();
      const etag = etagOf(['ownership', row.id, row.updated_at.toISOString(), String(listVersion)]);
      if (etagMatches(ifNoneMatch, etag)) return { etag, body: null, cacheable: true };
      await spendRead(row);

      const structure = row.ownership!;
      const owners = structure.beneficialOwners;
      const entities = new Map((await repo.findIdvEntities(db, row.id, owners.map((o) => o.idvEntityId))).map((e) => [e.id, e]));
      let personalDetails: Ownership['personalDetails'] = 'NOT_APPLICABLE';
      let details = new Map<string, PersonDetails>();
      if (owners.length > 0) {
        const read = await deps.registers.reports.personDetails([...entities.values()].map((e) => e.party_ref));
        personalDetails = read.ok ? 'AVAILABLE' : 'UNAVAILABLE';
        if (read.ok) details = new Map(read.value.map((d) => [d.partyRef, d]));
        else deps.logger.warn({ lookupId: row.id, reason: read.reason }, 'owners’ personal details could not be read');
      }
      const beneficialOwners = await Promise.all(
        owners.map(async (owner) => {
          const entity = entities.get(owner.idvEntityId)!;
          const person = details.get(entity.party_ref);
          const name = { givenNames: entity.given_names, familyName: entity.family_name };
          return {
            idvEntityId: owner.idvEntityId,
            name,
            dateOfBirth: person?.dateOfBirth ?? null,
            address: person?.address ?? null,
            ownershipPercent: owner.ownershipPercent,
            screening: await screeningOf(name, person),
          };
        }),
      );
      // Without the owners' details the answer must not be kept: its own tag, which the next read will not
      // compute, makes a conditional read fetch the details again instead of a 304 for the gap.
      const complete = personalDetails !== 'UNAVAILABLE';
      return {
        etag: complete ? etag : etagOf([etag, 'personal-details-unavailable']),
        cacheable: complete,
        body: {
          lookupRequestId: row.id,
          structureAsOf: row.structure_as_of?.toISOString() ?? null,
          ownershipSource: structure.ownershipSource,
          complete: structure.complete,
          truncated: structure.truncated,
          traversalComplete: structure.traversalComplete,
          reason: structure.reason,
          completeness: structure.completeness,
          // Structures stored before nodes carried their numbers answer null for them.
          nodes: structure.nodes.map((n) => ({ ...n, acn: n.acn ?? null, abn: n.abn ?? null })),
          edges: structure.edges,
          blockedNodes: structure.blockedNodes,
          unlinkedOwners: structure.unlinkedOwners,
          personalDetails,
          beneficialOwners,
        },
      };
    },
  };
}

/** Weak: the ownership answer's live parts (personal details) may differ byte for byte under one tag. */
function etagOf(parts: string[]): string {
  return `W/"${createHash('sha256').update(parts.join('\n')).digest('base64url').slice(0, 27)}"`;
}

/** RFC 9110 §13.1.2: `*` or a list of tags, compared weakly. */
function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  return header.split(',').some((tag) => opaque(tag) === opaque(etag));
}
