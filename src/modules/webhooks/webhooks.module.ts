// The webhooks module's wiring. It gives the house its outbox: the event catalogue, sealed payloads and the
// fan-out of every event to the partner's destinations, written in the emitting transaction. Then the
// destinations and notifications services with their /v1 routes, the dispatchers that deliver (one per
// worker process, woken at once by this process's new notifications), and the payload purge job.
import type { Config } from '../../config.ts';
import type { Clock } from '../../platform/clock.ts';
import type { KeyRing } from '../../platform/keys/key-ring.ts';
import type { GuardedDatabase } from '../../platform/db/availability.ts';
import type { Idempotency } from '../../platform/http/idempotency.ts';
import { defineJob, type JobDefinition } from '../../platform/jobs/job.ts';
import type { JobQueue } from '../../platform/jobs/queue.ts';
import type { Logger } from '../../platform/logger.ts';
import type { Module } from '../../platform/module.ts';
import { createOutbox, type Outbox } from '../../platform/outbox.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { createDeliverer } from './delivery.ts';
import { createDestinationService, type DestinationService } from './destinations.service.ts';
import { createDispatcher, type Dispatcher, type DispatcherOptions } from './dispatcher.ts';
import { eventCatalogue } from './events/index.ts';
import { webhookFanOut } from './fan-out.ts';
import { createNotificationService, type NotificationService } from './notifications.service.ts';
import { purgeExpiredPayloads } from './notifications.repository.ts';
import { payloadRetentionHours, purgePayloadsJob } from './webhooks.jobs.ts';
import { registerWebhookRoutes } from './webhooks.routes.ts';
import type { Metrics } from '../../platform/metrics/metrics.ts';

export { webhookJobSpecs } from './webhooks.jobs.ts';

export interface WebhookModuleDeps {
  /** Behind the availability guard: a dispatcher waits for the database to come back. */
  db: GuardedDatabase;
  clock: Clock;
  logger: Logger;
  queue: JobQueue;
  config: Pick<Config, 'ENVIRONMENT'>;
  /** Seals event payloads and destinations' signing secrets (platform/keys). */
  keyRing: Pick<KeyRing, 'sealer'>;
  idempotency: Idempotency;
  /** Monitoring events go only to partners eligible for monitoring (the partners module). */
  isMonitoringEligible(tenant: Tenant): Promise<boolean>;
  /** [0, 1): the jitter of webhook retries (tests fix it). */
  random?: () => number;
  /** Delivery attempts by outcome and their lag (pvs_webhook_*). */
  metrics?: Pick<Metrics, 'webhookDelivery'>;
}

export interface WebhookServices {
  outbox: Outbox;
  destinations: DestinationService;
  notifications: NotificationService;
  /** The webhook dispatcher of a worker process; `flushDelayMs`: how long an outcome may wait to be recorded with others. */
  createDispatcher(options?: Pick<DispatcherOptions, 'flushDelayMs'>): Dispatcher;
}

export function createWebhookModule(deps: WebhookModuleDeps): Module<WebhookServices> {
  const { db, clock, config } = deps;
  // Each kind of sealed value has its own key, derived from the key ring's.
  const payloadSealer = deps.keyRing.sealer('event-payloads');
  const webhookSecrets = deps.keyRing.sealer('webhook-secrets');
  // New notifications wake this process's dispatchers at once; others find them at their next poll.
  const dispatchers = new Set<Dispatcher>();
  const wakeDispatchers = () => dispatchers.forEach((d) => d.nudge());
  const outbox = createOutbox({
    clock,
    queue: deps.queue,
    catalogue: eventCatalogue,
    sealer: payloadSealer,
    listeners: [webhookFanOut({ clock, onCreated: wakeDispatchers })],
  });
  const deliverer = createDeliverer({ environment: config.ENVIRONMENT });
  const destinations = createDestinationService({ db, clock, environment: config.ENVIRONMENT, secrets: webhookSecrets });
  const notifications = createNotificationService({ db, clock, outbox, isMonitoringEligible: deps.isMonitoringEligible, onCreated: wakeDispatchers });

  const jobs: JobDefinition[] = [
    defineJob({
      ...purgePayloadsJob,
      handler: async () => {
        const now = clock.now();
        await purgeExpiredPayloads(db, new Date(now.getTime() - payloadRetentionHours * 3600_000), now);
      },
    }),
  ] as JobDefinition[];

  return {
    services: {
      outbox,
      destinations,
      notifications,
      createDispatcher(options = {}) {
        const dispatcher = createDispatcher({
          ...options,
          db,
          clock,
          deliverer,
          openSecret: webhookSecrets.open,
          openPayload: payloadSealer.open,
          logger: deps.logger.child({ role: 'webhooks' }),
          random: deps.random,
          availability: db.availability,
          metrics: deps.metrics,
        });
        dispatchers.add(dispatcher);
        return dispatcher;
      },
    },
    jobs,
    routes: { partner: (api) => registerWebhookRoutes(api, { destinations, notifications, idempotency: deps.idempotency }) },
    close: () => deliverer.close(),
  };
}
