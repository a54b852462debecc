// Partners: made by `pvs partner create` or an operator in the console, which also lists them, changes
// their monitoring eligibility and commission, and disables or enables them. A disabled partner's
// clients get no new tokens and their tokens stop working (partners.repository.ts isClientActive); its
// portal users cannot sign in. Nothing is deleted.
import type { Clock } from '../../platform/clock.ts';
import { digestSecret } from '../../platform/crypto.ts';
import { newClientSecret } from './api-clients.service.ts';
import type { Database, Tx } from '../../platform/db/database.ts';
import { notFound, validationError } from '../../platform/errors.ts';
import { toPage } from '../../platform/http/pagination.ts';
import { newId } from '../../platform/ids.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import * as repo from './partners.repository.ts';
import { commissionBpsRange, type CreatedPartner, type CreatePartnerInput, type OperatorPartner, type Partner, type UpdatePartnerInput } from './partners.schemas.ts';

/** Work done in the change's own transaction (the console's audit entry), so one is never without the other. */
type InTransaction<T> = { inTransaction?: (tx: Tx, result: T) => Promise<void> };

/** What an update changed, field by field; empty when nothing did. */
export type PartnerChanges = Partial<Record<'monitoringEligible' | 'commissionBps', { from: boolean | number; to: boolean | number }>>;

export interface PartnerService {
  create(input: CreatePartnerInput, options?: InTransaction<CreatedPartner>): Promise<CreatedPartner>;
  getOwn(tenant: Tenant): Promise<Partner>;
  count(): Promise<number>;
  /** The partner's name and whether an operator disabled it; undefined when it does not exist. */
  standing(tenant: Tenant): Promise<{ name: string; disabled: boolean } | undefined>;
  /** For operators: every partner, newest first. */
  list(page: { limit: number; from: number }): Promise<{ data: OperatorPartner[]; limit: number; from: number; nextFrom: number | null }>;
  /** For operators: any partner by id; NOT_FOUND when there is none. */
  get(id: string): Promise<OperatorPartner>;
  /** Partners' names by id, for lists that show whose a row is. */
  namesOf(ids: string[]): Promise<Map<string, string>>;
  /** Monitoring eligibility and commission (0–10000 bps: VALIDATION_ERROR at /commissionBps otherwise). */
  update(id: string, input: UpdatePartnerInput, options?: InTransaction<PartnerChanges>): Promise<{ partner: OperatorPartner; changes: PartnerChanges }>;
  /** Disables or enables; `changed` is false when it already was so (and nothing is written). */
  setDisabled(id: string, disabled: boolean, options?: InTransaction<OperatorPartner>): Promise<{ partner: OperatorPartner; changed: boolean }>;
}

export function toPartner(row: repo.PartnerRow): Partner {
  return {
    id: row.id,
    name: row.name,
    environment: row.environment,
    monitoringEligible: row.monitoring_eligible,
    commissionBps: row.commission_bps,
    createdAt: row.created_at.toISOString(),
  };
}

export function toOperatorPartner(row: repo.PartnerRow): OperatorPartner {
  return { ...toPartner(row), disabledAt: row.disabled_at?.toISOString() ?? null };
}

function checkCommission(bps: number | undefined): void {
  if (bps === undefined) return;
  if (!Number.isInteger(bps) || bps < commissionBpsRange.minimum || bps > commissionBpsRange.maximum) {
    throw validationError('/commissionBps', `must be a whole number of basis points from ${commissionBpsRange.minimum} to ${commissionBpsRange.maximum}`);
  }
}

export function createPartnerService(deps: { db: Database; clock: Clock; environment: 'sandbox' | 'production' }): PartnerService {
  async function lockedPartner(tx: Tx, id: string): Promise<repo.PartnerRow> {
    const row = await repo.findPartner(tx, id, { lock: true });
    if (!row) throw notFound(`Partner ${id}`);
    return row;
  }

  return {
    async create(input, options = {}) {
      checkCommission(input.commissionBps);
      const now = deps.clock.now();
      const partnerId = newId('partner', now.getTime());
      const clientId = newId('apiClient', now.getTime());
      const clientSecret = newClientSecret();
      const secretHash = digestSecret(clientSecret);
      const created: CreatedPartner = { partnerId, name: input.name, monitoringEligible: input.monitoring ?? false, commissionBps: input.commissionBps ?? 0, clientId, clientSecret };
      await deps.db.transaction(async (tx) => {
        await repo.insertPartner(tx, {
          id: partnerId,
          name: input.name,
          environment: deps.environment,
          monitoring_eligible: input.monitoring ?? false,
          commission_bps: input.commissionBps ?? 0,
          created_at: now,
        });
        await repo.insertApiClient(tx, { id: clientId, partnerId, secretHash, createdAt: now });
        await options.inTransaction?.(tx, created);
      });
      return created;
    },

    async getOwn(tenant) {
      const row = await repo.findOwnPartner(deps.db, tenant);
      if (!row) throw notFound('The partner');
      return toPartner(row);
    },

    count: () => repo.countPartners(deps.db),

    async standing(tenant) {
      const row = await repo.findOwnPartner(deps.db, tenant);
      return row && { name: row.name, disabled: row.disabled_at != null };
    },

    async list(page) {
      return toPage((await repo.listPartners(deps.db, page)).map(toOperatorPartner), page);
    },

    async get(id) {
      const row = await repo.findPartner(deps.db, id);
      if (!row) throw notFound(`Partner ${id}`);
      return toOperatorPartner(row);
    },

    async namesOf(ids) {
      const unique = [...new Set(ids)];
      return new Map(unique.length === 0 ? [] : (await repo.findPartnerNames(deps.db, unique)).map((p) => [p.id, p.name]));
    },

    async update(id, input, options = {}) {
      checkCommission(input.commissionBps);
      return deps.db.transaction(async (tx) => {
        const row = await lockedPartner(tx, id);
        const next = { monitoring_eligible: input.monitoringEligible ?? row.monitoring_eligible, commission_bps: input.commissionBps ?? row.commission_bps };
        const changes: PartnerChanges = {};
        if (next.monitoring_eligible !== row.monitoring_eligible) changes.monitoringEligible = { from: row.monitoring_eligible, to: next.monitoring_eligible };
        if (next.commission_bps !== row.commission_bps) changes.commissionBps = { from: row.commission_bps, to: next.commission_bps };
        if (Object.keys(changes).length > 0) {
          await repo.updatePartner(tx, id, next);
          await options.inTransaction?.(tx, changes);
        }
        return { partner: toOperatorPartner({ ...row, ...next }), changes };
      });
    },

    async setDisabled(id, disabled, options = {}) {
      return deps.db.transaction(async (tx) => {
        const row = await lockedPartner(tx, id);
        if ((row.disabled_at != null) === disabled) return { partner: toOperatorPartner(row), changed: false };
        const disabledAt = disabled ? deps.clock.now() : null;
        await repo.setPartnerDisabled(tx, id, disabledAt);
        const partner = toOperatorPartner({ ...row, disabled_at: disabledAt });
        await options.inTransaction?.(tx, partner);
        return { partner, changed: true };
      });
    },
  };
}
