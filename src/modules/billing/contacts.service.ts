// Contacts: a partner's own customers, who may pay for checks with a saved card.
import type { Clock } from '../../platform/clock.ts';
import type { Database, Tx } from '../../platform/db/database.ts';
import { AppError, notFound } from '../../platform/errors.ts';
import { toPage } from '../../platform/http/pagination.ts';
import { newId } from '../../platform/ids.ts';
import type { JobQueue } from '../../platform/jobs/queue.ts';
import type { Outbox } from '../../platform/outbox.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { contactCardRemoved } from '../webhooks/events/billing.events.ts';
import { detachCardJob } from './billing.jobs.ts';
import type { BillingStatus, Contact, CreateContactBody, UpdateContactBody } from './billing.schemas.ts';
import * as repo from './contacts.repository.ts';

export function billingStatusOf(row: repo.ContactRow): BillingStatus {
  if (row.billing_blocked || row.payment_failed_at) return 'BLOCKED';
  return row.payment_method_ref ? 'BILLABLE' : 'NO_PAYMENT_METHOD';
}

export function cardOf(row: repo.ContactRow): Contact['card'] {
  if (!row.payment_method_ref) return null;
  return { brand: row.card_brand!, last4: row.card_last4!, expMonth: row.card_exp_month!, expYear: row.card_exp_year! };
}

export function toContact(row: repo.ContactRow): Contact {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    externalId: row.external_id,
    billingStatus: billingStatusOf(row),
    billingBlocked: row.billing_blocked,
    card: cardOf(row),
    archivedAt: row.archived_at?.toISOString() ?? null,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

/** Other capabilities that follow a contact's changes, inside the transaction that makes them (monitoring). */
export interface ContactWatchers {
  contactRenamed(tx: Tx, tenant: Tenant, contactId: string): Promise<void>;
  contactArchived(tx: Tx, tenant: Tenant, contactId: string): Promise<void>;
}

export function createContactService(deps: { db: Database; clock: Clock; outbox: Outbox; queue: JobQueue; watchers?: ContactWatchers }) {
  const { db, clock } = deps;

  return {
    async create(tx: Tx, tenant: Tenant, input: CreateContactBody): Promise<Contact> {
      const now = clock.now();
      const row = await repo.insertContact(tx, {
        id: newId('contact', now.getTime()),
        partner_id: tenant.partnerId,
        name: input.name.trim(),
        email: input.email ?? null,
        external_id: input.externalId ?? null,
        created_at: now,
      });
      return toContact(row);
    },

    /** Oldest first, as the API lists them; the portal asks newest first and may filter by billing status. */
    async list(tenant: Tenant, query: { limit: number; from: number; externalId?: string; billingStatus?: BillingStatus; newestFirst?: boolean }) {
      return toPage((await repo.listContacts(db, tenant, query)).map(toContact), query);
    },

    /** Contacts (not archived) that checks cannot be billed to now: blocked by you or by a declined billing run. */
    async listBlocked(tenant: Tenant, limit: number): Promise<{ total: number; data: Contact[] }> {
      const { rows, total } = await repo.listBlockedContacts(db, tenant, limit);
      return { total, data: rows.map(toContact) };
    },

    async get(tenant: Tenant, id: string): Promise<Contact> {
      const row = await repo.findContact(db, tenant, id);
      if (!row) throw notFound(`Contact ${id}`);
      return toContact(row);
    },

    async update(tenant: Tenant, id: string, changes: UpdateContactBody): Promise<Contact> {
      return db.transaction(async (tx) => {
        const before = await repo.findContact(tx, tenant, id, { lock: true });
        const name = changes.name?.trim();
        const row = await repo.updateContact(tx, tenant, id, { ...changes, name }, clock.now());
        if (row) {
          if (name !== undefined && name !== before?.name) await deps.watchers?.contactRenamed(tx, tenant, id);
          return toContact(row);
        }
        if (before?.archived_at) throw new AppError('INVALID_STATE', `Contact ${id} is ARCHIVED and cannot be changed`);
        throw notFound(`Contact ${id}`);
      });
    },

    /** No new charges may name it, and it is no longer monitored; runs already open are still captured. */
    async archive(tenant: Tenant, id: string): Promise<Contact> {
      return db.transaction(async (tx) => {
        const row = await repo.archiveContact(tx, tenant, id, clock.now());
        if (!row) throw notFound(`Contact ${id}`);
        await deps.watchers?.contactArchived(tx, tenant, id);
        return toContact(row);
      });
    },

    /** Forgets the saved card (and tells the gateway to, by a job). Removing no card changes nothing. */
    async removeCard(tenant: Tenant, id: string): Promise<Contact> {
      return db.transaction(async (tx) => {
        const before = await repo.findContact(tx, tenant, id, { lock: true });
        if (!before) throw notFound(`Contact ${id}`);
        if (!before.payment_method_ref) return toContact(before);
        const row = await repo.removeCard(tx, tenant, id, clock.now());
        await deps.outbox.emit(tx, contactCardRemoved, { partnerId: tenant.partnerId, payload: { contactId: id, channelPartnerId: tenant.partnerId } });
        await deps.queue.enqueue(tx, detachCardJob, { paymentMethodRef: before.payment_method_ref });
        return toContact(row!);
      });
    },
  };
}

export type ContactService = ReturnType<typeof createContactService>;
