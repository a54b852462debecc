// The billing module's wiring: contacts, card links, charges with the billing gate, billing runs against the
// gateway the composition root chose, their jobs and /v1 routes (see README.md).
import type { KeyRing } from '../../platform/keys/key-ring.ts';
import type { Config } from '../../config.ts';
import type { Clock } from '../../platform/clock.ts';
import type { Database, Tx } from '../../platform/db/database.ts';
import type { Idempotency } from '../../platform/http/idempotency.ts';
import { defineJob, type JobDefinition } from '../../platform/jobs/job.ts';
import type { JobQueue } from '../../platform/jobs/queue.ts';
import type { Logger } from '../../platform/logger.ts';
import type { Module } from '../../platform/module.ts';
import type { Outbox } from '../../platform/outbox.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import type { PaymentGateway } from '../../providers/gateway/gateway.ts';
import type { PartnerService } from '../partners/partners.service.ts';
import { createBillingRunService, type BillingRunService } from './billing-runs.service.ts';
import { captureRunJob, detachCardJob, refundChargeJob, sweepStuckRunsJob } from './billing.jobs.ts';
import { createCardLinkService, type CardLinkService } from './card-links.service.ts';
import { registerChargeRoutes } from './charges.routes.ts';
import { createChargeService, type ChargeService } from './charges.service.ts';
import * as contactsRepo from './contacts.repository.ts';
import { registerContactRoutes } from './contacts.routes.ts';
import { createContactService, type ContactService, type ContactWatchers } from './contacts.service.ts';
import { priceListFrom, type PriceSettings } from './prices.ts';

export { billingJobSpecs } from './billing.jobs.ts';

export interface BillingModuleDeps {
  db: Database;
  clock: Clock;
  logger: Logger;
  outbox: Outbox;
  queue: JobQueue;
  gateway: PaymentGateway;
  config: PriceSettings &
    Pick<Config, 'PUBLIC_BASE_URL' | 'CARD_LINK_HOURS' | 'BILLING_RUN_WINDOW_SECONDS' | 'BILLING_SWEEP_AFTER_HOURS'>;
  /** Card link token digests (platform/keys). */
  keyRing: Pick<KeyRing, 'digester'>;
  idempotency: Idempotency;
  /** The partner's name on the hosted card page. */
  partners: Pick<PartnerService, 'getOwn'>;
  /** Told when a contact is renamed or archived (monitoring's subscriptions). */
  watchers: ContactWatchers;
}

export interface BillingServices {
  contacts: ContactService;
  cardLinks: CardLinkService;
  charges: ChargeService;
  billingRuns: BillingRunService;
}

export interface BillingModule extends Module<BillingServices> {
  /** Whether the contact exists for this partner and is not archived, read in the caller's transaction (payments). */
  isActiveContact(tx: Tx, tenant: Tenant, contactId: string): Promise<boolean>;
}

export function createBillingModule(deps: BillingModuleDeps): BillingModule {
  const { db, clock, outbox, queue, gateway, config } = deps;
  const prices = priceListFrom(config);
  const billingRuns = createBillingRunService({
    db,
    clock,
    gateway,
    outbox,
    queue,
    logger: deps.logger.child({ module: 'billing' }),
    sweepAfterSeconds: config.BILLING_SWEEP_AFTER_HOURS * 3600,
  });
  const charges = createChargeService({ db, clock, prices, outbox, queue, runWindowSeconds: config.BILLING_RUN_WINDOW_SECONDS });
  const contacts = createContactService({ db, clock, outbox, queue, watchers: deps.watchers });
  const cardLinks = createCardLinkService({
    db,
    clock,
    linkTokens: deps.keyRing.digester('card-link-tokens'),
    publicBaseUrl: config.PUBLIC_BASE_URL,
    lifetimeHours: config.CARD_LINK_HOURS,
    gateway,
    prices,
    outbox,
    queue,
    runs: billingRuns,
    partnerName: async (tenant) => (await deps.partners.getOwn(tenant)).name,
  });

  const jobs = [
    defineJob({ ...captureRunJob, concurrency: 4, handler: (payload, ctx) => billingRuns.capture(payload.billingRunId, ctx) }),
    defineJob({ ...refundChargeJob, handler: (payload, ctx) => billingRuns.refund(payload.chargeId, ctx) }),
    defineJob({ ...detachCardJob, handler: (payload) => billingRuns.detach(payload.paymentMethodRef) }),
    // One sweep at a time: two slots due together (a worker back after a pause) would look up the same runs twice.
    defineJob({ ...sweepStuckRunsJob, concurrency: 1, handler: () => billingRuns.sweep() }),
  ] as JobDefinition[];

  return {
    services: { contacts, cardLinks, charges, billingRuns },
    async isActiveContact(tx, tenant, contactId) {
      const contact = await contactsRepo.findContact(tx, tenant, contactId, { lock: 'share' });
      return contact !== undefined && contact.archived_at === null;
    },
    jobs,
    routes: {
      partner(api) {
        registerContactRoutes(api, { contacts, cardLinks, idempotency: deps.idempotency });
        registerChargeRoutes(api, { charges });
      },
    },
  };
}
