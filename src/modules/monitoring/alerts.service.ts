// Monitoring alerts as partners (and, through the same service, operators) read and decide them. An
// alert is decided once: TRUE_MATCH confirms it, FALSE_POSITIVE dismisses it. Operators see every
// partner's alerts, with the contact as screened and their own notes, in the console.
import type { Clock } from '../../platform/clock.ts';
import type { Database, Tx } from '../../platform/db/database.ts';
import { AppError, notFound } from '../../platform/errors.ts';
import { toPage } from '../../platform/http/pagination.ts';
import type { Outbox } from '../../platform/outbox.ts';
import { tenantOf, type Tenant } from '../../platform/tenancy.ts';
import { monitoringAlertUpdated } from '../webhooks/events/monitoring.events.ts';
import * as repo from './monitoring.repository.ts';
import type { Alert, AlertStatus, DecisionBody } from './monitoring.schemas.ts';
import { product } from './screener.ts';

/** Who decides: the partner through the API, or a PVS operator. */
export type Decider = { kind: 'PARTNER'; apiClientId: string } | { kind: 'OPERATOR'; operatorId: string };

export function toAlert(row: repo.AlertWithEntryRow): Alert {
  return {
    id: row.id,
    contactId: row.contact_id,
    status: row.status,
    categories: row.categories,
    score: row.score,
    listVersion: row.list_version,
    matchedName: row.matched_name,
    features: row.features as Alert['features'],
    entry: {
      list: row.list,
      entryId: row.entry_id,
      kind: row.entry_kind,
      name: row.entry_name,
      aliases: row.entry_aliases,
      datesOfBirth: row.entry_dates_of_birth,
      countries: row.entry_countries,
      categories: row.entry_categories,
      source: row.entry_source,
    },
    decision:
      row.decision === null
        ? null
        : {
            decision: row.decision,
            // An operator's note is for PVS's review record, not the partner (as in the reports).
            note: row.decided_by_kind === 'PARTNER' ? row.note : null,
            decidedBy: row.decided_by_kind!,
            decidedAt: row.decided_at!.toISOString(),
          },
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

/** An alert as an operator sees it: whose, the contact as screened, and every decision's note. */
export interface OperatorAlert extends Alert {
  partnerId: string;
  contact: { name: string; screenAs: string | null; countries: string[] };
  decision: (NonNullable<Alert['decision']> & { decidedById: string }) | null;
}

export function toOperatorAlert(row: repo.OperatorAlertRow): OperatorAlert {
  const alert = toAlert(row);
  return {
    ...alert,
    partnerId: row.partner_id,
    contact: { name: row.contact_name, screenAs: row.contact_screen_as, countries: row.contact_countries ?? [] },
    decision: alert.decision && { ...alert.decision, note: row.note, decidedById: row.decided_by! },
  };
}

export function createAlertService(deps: { db: Database; clock: Clock; outbox: Outbox; isEligible(tenant: Tenant): Promise<boolean> }) {
  const { db } = deps;

  async function requireEligible(tenant: Tenant): Promise<void> {
    if (!(await deps.isEligible(tenant))) throw new AppError('FORBIDDEN', 'Monitoring is available only to partners eligible for it');
  }

  async function get(tenant: Tenant, id: string): Promise<Alert> {
    const row = await repo.findAlert(db, tenant, id);
    if (!row) throw notFound(`Monitoring alert ${id}`);
    return toAlert(row);
  }

  async function decide(tenant: Tenant, id: string, body: DecisionBody, decider: Decider, options: { inTransaction?: (tx: Tx) => Promise<void> } = {}): Promise<Alert> {
    if (decider.kind === 'PARTNER') await requireEligible(tenant);
    await db.transaction(async (tx) => {
      const now = deps.clock.now();
      const status = body.decision === 'TRUE_MATCH' ? 'CONFIRMED' : 'DISMISSED';
      const by = decider.kind === 'PARTNER' ? decider.apiClientId : decider.operatorId;
      const decided = await repo.decideAlert(tx, tenant, id, { decision: body.decision, status, note: body.note ?? null, byKind: decider.kind, by, at: now });
      if (!decided) {
        const existing = await repo.findAlert(tx, tenant, id);
        if (!existing) throw notFound(`Monitoring alert ${id}`);
        throw new AppError('INVALID_STATE', `Monitoring alert ${id} is ${existing.status}: it was decided already and cannot be decided again`);
      }
      await deps.outbox.emit(tx, monitoringAlertUpdated, {
        partnerId: tenant.partnerId,
        occurredAt: now,
        payload: { contactId: decided.contact_id, product, monitoringAlertId: id, categories: decided.categories, status },
      });
      // The console's audit entry, written with the decision or not at all.
      await options.inTransaction?.(tx);
    });
    return get(tenant, id);
  }

  return {
    async list(tenant: Tenant, query: { limit: number; from: number; status?: AlertStatus; contactId?: string }) {
      await requireEligible(tenant);
      return toPage((await repo.listAlerts(db, tenant, query)).map(toAlert), query);
    },

    async get(tenant: Tenant, id: string): Promise<Alert> {
      await requireEligible(tenant);
      return get(tenant, id);
    },

    decide,

    /** For operators: every partner's alerts, OPEN first. */
    async listForOperators(query: { limit: number; from: number; status?: AlertStatus }) {
      return toPage((await repo.listAllAlerts(db, query)).map(toOperatorAlert), query);
    },

    async getForOperators(id: string): Promise<OperatorAlert> {
      const row = await repo.findAnyAlert(db, id);
      if (!row) throw notFound(`Monitoring alert ${id}`);
      return toOperatorAlert(row);
    },

    /** An operator's decision, on whichever partner's alert it is; INVALID_STATE when already decided. */
    async decideAsOperator(id: string, body: DecisionBody, operatorId: string, options: { inTransaction?: (tx: Tx, alert: { partnerId: string }) => Promise<void> } = {}): Promise<OperatorAlert> {
      const row = await repo.findAnyAlert(db, id);
      if (!row) throw notFound(`Monitoring alert ${id}`);
      // The alert names its partner; the decision then runs exactly as a partner's would, scoped to it.
      const inTransaction = options.inTransaction && ((tx: Tx) => options.inTransaction!(tx, { partnerId: row.partner_id }));
      await decide(tenantOf(row.partner_id), id, body, { kind: 'OPERATOR', operatorId }, { inTransaction });
      return toOperatorAlert((await repo.findAnyAlert(db, id))!);
    },
  };
}

export type AlertService = ReturnType<typeof createAlertService>;
