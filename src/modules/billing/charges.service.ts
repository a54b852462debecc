// The billing gate and charges: what later capabilities call around paid work.
//   const payer = await billing.gate(tenant, body.contactId);        // before anything is written
//   await db.transaction(async (tx) => { …the work…; await billing.charge(tx, tenant, { payer, … }); });
//   …and if the work then fails on our side: await billing.voidCharge(tx, tenant, { product, referenceId, reason }).
import type { Clock } from '../../platform/clock.ts';
import type { Database, Tx } from '../../platform/db/database.ts';
import { AppError, notFound } from '../../platform/errors.ts';
import { toPage } from '../../platform/http/pagination.ts';
import { newId } from '../../platform/ids.ts';
import type { JobQueue } from '../../platform/jobs/queue.ts';
import type { Outbox } from '../../platform/outbox.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { contactBillingRunCreated } from '../webhooks/events/billing.events.ts';
import { captureRunJob, refundChargeJob } from './billing.jobs.ts';
import type { Charge } from './billing.schemas.ts';
import * as repo from './charges.repository.ts';
import * as contacts from './contacts.repository.ts';
import type { PriceList, Product } from './prices.ts';
import { closeVoidedRun } from './voided-runs.ts';

/** Who pays for a piece of work: the partner's account (the default) or a contact's saved card. */
export type Payer = { billedTo: 'PARTNER' } | { billedTo: 'CONTACT'; contactId: string };

function toCharge(row: repo.ChargeRow): Charge {
  return {
    id: row.id,
    contactId: row.contact_id,
    billedTo: row.billed_to,
    product: row.product as Product,
    referenceId: row.reference_id,
    amount: row.amount,
    status: row.status,
    billingRunId: row.billing_run_id,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

/** The gate's rules, in order: the contact exists and is active, is not blocked, and has a card. */
function assertBillable(contact: contacts.ContactRow | undefined, contactId: string, pointer: string): void {
  if (!contact) throw new AppError('CONTACT_INVALID', `Contact ${contactId} was not found`, { pointer });
  if (contact.archived_at) throw new AppError('CONTACT_INVALID', `Contact ${contactId} is archived`, { pointer });
  if (contact.billing_blocked) throw new AppError('CONTACT_BILLING_BLOCKED', `Billing to contact ${contactId} is blocked by your account (PATCH billingBlocked: false to allow it)`);
  if (contact.payment_failed_at) {
    throw new AppError('CONTACT_BILLING_BLOCKED', `Contact ${contactId} has an unpaid billing run; it is billable again once a retry succeeds or a new card is saved (card-link)`);
  }
  if (!contact.payment_method_ref) throw new AppError('PAYMENT_METHOD_REQUIRED', `Contact ${contactId} has no saved card; send them a card link first`);
}

export function createChargeService(deps: { db: Database; clock: Clock; prices: PriceList; outbox: Outbox; queue: JobQueue; runWindowSeconds: number }) {
  const { db, clock } = deps;

  /** The contact's open run, opened (with its event and capture job) if there is none. */
  async function runFor(tx: Tx, tenant: Tenant, contactId: string, firstAmount: number): Promise<string> {
    // A few tries: the open run the insert ran into may close before it can be locked.
    for (let attempt = 0; attempt < 3; attempt++) {
      const now = clock.now();
      const captureAt = new Date(now.getTime() + deps.runWindowSeconds * 1000);
      const opened = await repo.openRun(tx, { id: newId('billingRun', now.getTime()), partner_id: tenant.partnerId, contact_id: contactId, capture_at: captureAt, at: now });
      if (opened) {
        await deps.outbox.emit(tx, contactBillingRunCreated, {
          partnerId: tenant.partnerId,
          payload: { contactId, channelPartnerId: tenant.partnerId, billingRunId: opened.id, amount: firstAmount },
        });
        await deps.queue.enqueue(tx, captureRunJob, { billingRunId: opened.id }, { runAt: captureAt, key: `billing-run:${opened.id}:attempt:1` });
        return opened.id;
      }
      const open = await repo.findOpenRun(tx, contactId);
      if (open) return open.id;
    }
    throw new Error(`Could not open a billing run for contact ${contactId}`);
  }

  const service = {
    /**
     * Who pays: the partner when no contact is named; else the contact, if it can be billed. Throws
     * CONTACT_INVALID (unknown, another partner's, archived), CONTACT_BILLING_BLOCKED or PAYMENT_METHOD_REQUIRED.
     */
    async gate(tenant: Tenant, contactId?: string | null, pointer = '/contactId'): Promise<Payer> {
      if (contactId === undefined || contactId === null) return { billedTo: 'PARTNER' };
      assertBillable(await contacts.findContact(db, tenant, contactId), contactId, pointer);
      return { billedTo: 'CONTACT', contactId };
    },

    /**
     * Records the charge for one piece of work in the caller's transaction, so the work and its charge
     * commit together or not at all. A contact's charge joins the contact's open billing run. The
     * contact is checked again here, locked, so a card removed or a block set since the gate counts.
     * Charging the same work again (a retried job) answers the first charge.
     */
    async charge(tx: Tx, tenant: Tenant, input: { payer: Payer; product: Product; referenceId: string }, options: { gate?: boolean } = {}): Promise<Charge> {
      const existing = await repo.findChargeByReference(tx, tenant, input.product, input.referenceId);
      if (existing) return toCharge(existing);
      const now = clock.now();
      const contactId = input.payer.billedTo === 'CONTACT' ? input.payer.contactId : null;
      if (contactId && options.gate !== false) assertBillable(await contacts.findContact(tx, tenant, contactId, { lock: 'share' }), contactId, '/contactId');
      const amount = deps.prices[input.product];
      const runId = contactId ? await runFor(tx, tenant, contactId, amount) : null;
      const row = await repo.insertCharge(tx, {
        id: newId('charge', now.getTime()),
        partner_id: tenant.partnerId,
        contact_id: contactId,
        billed_to: input.payer.billedTo,
        product: input.product,
        reference_id: input.referenceId,
        amount,
        status: contactId ? 'PENDING' : 'BILLED',
        billing_run_id: runId,
        created_at: now,
      });
      return toCharge(row);
    },

    /**
     * The charge for work accepted earlier, when it is done later (a verification's individual is charged
     * when the person submits their first attempt; the gate ran when the request was created). The
     * contact is charged whatever its state now: the person doing the work is not the one to tell about
     * a contact's billing, and a contact that cannot pay shows as a failed billing run, as any decline.
     */
    chargeAccepted(tx: Tx, tenant: Tenant, input: { payer: Payer; product: Product; referenceId: string }): Promise<Charge> {
      return service.charge(tx, tenant, input, { gate: false });
    },

    /**
     * `charge` for work created in this same transaction, whose reference cannot have a charge yet. The
     * partner's charge is a held write (Queryable.write), so the work, its charge and its job can reach
     * the database as one statement; a contact's charge takes `charge`'s path, which reads and locks.
     */
    async chargeNewWork(tx: Tx, tenant: Tenant, input: { payer: Payer; product: Product; referenceId: string }): Promise<void> {
      if (input.payer.billedTo === 'CONTACT') {
        await service.charge(tx, tenant, input);
        return;
      }
      const now = clock.now();
      await repo.writeCharge(tx, {
        id: newId('charge', now.getTime()),
        partner_id: tenant.partnerId,
        contact_id: null,
        billed_to: 'PARTNER',
        product: input.product,
        reference_id: input.referenceId,
        amount: deps.prices[input.product],
        status: 'BILLED',
        billing_run_id: null,
        created_at: now,
      });
    },

    /**
     * The work failed on our side: the charge is void. If the card already paid for it (or an attempt
     * that includes it is out), a job refunds it once the attempt settles. Undefined when there was none.
     */
    async voidCharge(tx: Tx, tenant: Tenant, input: { product: Product; referenceId: string; reason: string }): Promise<Charge | undefined> {
      const row = await repo.findChargeByReference(tx, tenant, input.product, input.referenceId);
      if (!row || row.status === 'VOID') return row && toCharge(row);
      const now = clock.now();
      await repo.voidCharge(tx, row.id, input.reason, now);
      const run = row.billing_run_id ? await repo.findRun(tx, row.billing_run_id) : undefined;
      if (run && (run.status === 'CAPTURING' || run.status === 'CAPTURED')) {
        await deps.queue.enqueue(tx, refundChargeJob, { chargeId: row.id }, { key: `refund:${row.id}` });
      }
      // A declined run with nothing left to pay is settled, and no longer blocks the contact.
      if (run?.status === 'FAILED' && (await repo.sumRunCharges(tx, run.id)) === 0) {
        const voided = await repo.voidFailedRun(tx, run.id, now);
        if (voided) await closeVoidedRun(tx, deps, voided, now);
      }
      return toCharge({ ...row, status: 'VOID', updated_at: now });
    },

    async list(tenant: Tenant, query: { limit: number; from: number; contactId?: string }) {
      return toPage((await repo.listCharges(db, tenant, query)).map(toCharge), query);
    },

    /**
     * Why a contact is blocked by a declined billing run: each unpaid run with the decline and when it is
     * tried again (null: not until a new card is saved). The portal's contact page.
     */
    async failedRunsOf(tenant: Tenant, contactId: string) {
      return (await repo.listFailedRuns(db, tenant, contactId)).map((run) => ({
        id: run.id,
        amount: run.amount,
        attempts: run.attempts,
        failureReason: run.failure_reason,
        merchantAdviceCode: run.merchant_advice_code,
        nextRetryAt: run.next_retry_at?.toISOString() ?? null,
      }));
    },

    async get(tenant: Tenant, id: string): Promise<Charge> {
      const row = await repo.findCharge(db, tenant, id);
      if (!row) throw notFound(`Charge ${id}`);
      return toCharge(row);
    },
  };
  return service;
}

export type ChargeService = ReturnType<typeof createChargeService>;
