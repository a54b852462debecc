// The payments module's wiring: ATO payments as partners create them, the hosted payment link that takes
// the card through the gateway the composition root chose, the settle job, and the /v1 routes (see README.md).
import type { Config } from '../../config.ts';
import type { Clock } from '../../platform/clock.ts';
import type { KeyRing } from '../../platform/keys/key-ring.ts';
import type { Database, Tx } from '../../platform/db/database.ts';
import type { Idempotency } from '../../platform/http/idempotency.ts';
import { defineJob, type JobDefinition } from '../../platform/jobs/job.ts';
import type { JobQueue } from '../../platform/jobs/queue.ts';
import type { Module } from '../../platform/module.ts';
import type { Outbox } from '../../platform/outbox.ts';
import { tenantOf, type Tenant } from '../../platform/tenancy.ts';
import type { PaymentGateway } from '../../providers/gateway/gateway.ts';
import type { PartnerService } from '../partners/partners.service.ts';
import { createPaymentLinkService, type PaymentLinkService } from './payment-links.service.ts';
import { settleAttemptJob } from './payments.jobs.ts';
import { registerPaymentRoutes } from './payments.routes.ts';
import { createPaymentService, paymentCodec, type PaymentService } from './payments.service.ts';

export { paymentJobSpecs } from './payments.jobs.ts';

export interface PaymentModuleDeps {
  db: Database;
  clock: Clock;
  outbox: Outbox;
  queue: JobQueue;
  gateway: PaymentGateway;
  config: Pick<Config, 'PUBLIC_BASE_URL' | 'PAYMENT_LINK_HOURS' | 'PAYMENT_MAX_AMOUNT'>;
  /** Seals payment reference numbers (platform/keys). */
  keyRing: Pick<KeyRing, 'sealer' | 'digester'>;
  idempotency: Idempotency;
  /** The partner's name on the hosted payment page. */
  partners: Pick<PartnerService, 'getOwn'>;
  /** The partner's commission in basis points, read in this transaction (the partners module). */
  commissionBps(tx: Tx, tenant: Tenant): Promise<number>;
  /** Whether the contact exists for this partner and is not archived, read in this transaction (billing). */
  isActiveContact(tx: Tx, tenant: Tenant, contactId: string): Promise<boolean>;
}

export function createPaymentModule(deps: PaymentModuleDeps): Module<{ payments: PaymentService; paymentLinks: PaymentLinkService }> {
  const { db, clock, outbox, config } = deps;
  const codec = paymentCodec({ linkTokens: deps.keyRing.digester('payment-link-tokens'), sealer: deps.keyRing.sealer('payment-prns') });
  const payments = createPaymentService({
    db,
    clock,
    outbox,
    codec,
    publicBaseUrl: config.PUBLIC_BASE_URL,
    linkLifetimeHours: config.PAYMENT_LINK_HOURS,
    maxAmount: config.PAYMENT_MAX_AMOUNT,
    commissionBps: deps.commissionBps,
    isActiveContact: deps.isActiveContact,
  });
  const paymentLinks = createPaymentLinkService({
    db,
    clock,
    codec,
    gateway: deps.gateway,
    outbox,
    queue: deps.queue,
    settleAfterSeconds: 60,
    partnerName: async (partnerId) => (await deps.partners.getOwn(tenantOf(partnerId))).name,
  });
  const jobs = [
    defineJob({ ...settleAttemptJob, concurrency: 4, handler: (payload, ctx) => paymentLinks.settle(payload.paymentId, payload.attempt, ctx) }),
  ] as JobDefinition[];
  return {
    services: { payments, paymentLinks },
    jobs,
    routes: { partner: (api) => registerPaymentRoutes(api, { payments, idempotency: deps.idempotency }) },
  };
}
