// Delivery history, manual retry and test events.
import type { Clock } from '../../platform/clock.ts';
import type { Database } from '../../platform/db/database.ts';
import { AppError, notFound } from '../../platform/errors.ts';
import { toPage } from '../../platform/http/pagination.ts';
import type { Outbox } from '../../platform/outbox.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { notificationEnvelope } from './body.ts';
import { subscribedDestinationIds } from './destinations.repository.ts';
import { eventCatalogue } from './events/index.ts';
import { createNotifications } from './fan-out.ts';
import * as repo from './notifications.repository.ts';
import type { WebhookNotification, WebhookNotificationDetail } from './webhooks.schemas.ts';

const sealedCategories = new Set(eventCatalogue.filter((d) => d.sealed).map((d) => d.category));

function toNotification(row: repo.NotificationView): WebhookNotification {
  const payload =
    row.payload && !sealedCategories.has(row.category)
      ? notificationEnvelope({ id: row.event_id, type: row.type, occurredAt: row.occurred_at, payload: row.payload, test: row.test })
      : null;
  return {
    id: row.id,
    eventId: row.event_id,
    type: row.type,
    category: row.category as WebhookNotification['category'],
    destinationId: row.destination_id,
    status: row.status,
    webhookAttempts: row.attempts,
    nextAttemptAt: row.status === 'PENDING' ? (row.next_attempt_at?.toISOString() ?? null) : null,
    lastAttemptAt: row.last_attempt_at?.toISOString() ?? null,
    lastResponseStatus: row.last_response_status,
    deliveredAt: row.delivered_at?.toISOString() ?? null,
    retryOf: row.retry_of,
    createdAt: row.created_at.toISOString(),
    payload,
  };
}

/** `monitoring` + `alert_created` → the definition of `monitoring.alert.created`. */
export function findTestDefinition(type: string, variant: string) {
  return eventCatalogue.find((d) => d.type.startsWith(`${type}.`) && d.type.slice(type.length + 1).replace(/\./g, '_') === variant);
}

export function testVariants(type: string): string[] {
  return eventCatalogue.filter((d) => d.type.startsWith(`${type}.`)).map((d) => d.type.slice(type.length + 1).replace(/\./g, '_'));
}

export function createNotificationService(deps: {
  db: Database;
  clock: Clock;
  outbox: Outbox;
  isMonitoringEligible: (tenant: Tenant) => Promise<boolean>;
  onCreated: () => void;
}) {
  async function load(tenant: Tenant, id: string): Promise<repo.NotificationView> {
    const row = await repo.findNotification(deps.db, tenant, id);
    if (!row) throw notFound(`Webhook notification ${id}`);
    return row;
  }

  function noDestination(category: string): AppError {
    return new AppError('INVALID_STATE', `No enabled webhook destination is subscribed to ${category}; add the category to a destination first`);
  }

  return {
    /** How many notifications wait for delivery, across partners (for metrics; no partner's detail). */
    countPending: () => repo.countPending(deps.db),

    async list(tenant: Tenant, query: { limit: number; from: number; type?: string; status?: string; category?: string }) {
      const rows = await repo.listNotifications(deps.db, tenant, query, query);
      return toPage(rows.map(toNotification), query);
    },

    async get(tenant: Tenant, id: string): Promise<WebhookNotificationDetail> {
      const row = await load(tenant, id);
      const attempts = await repo.listAttempts(deps.db, row.id);
      return {
        ...toNotification(row),
        attempts: attempts.map((a) => ({
          attempt: a.attempt,
          startedAt: a.started_at.toISOString(),
          durationMs: a.duration_ms,
          statusCode: a.status_code,
          errorClass: a.error_class,
          responseExcerpt: a.response_excerpt,
        })),
      };
    },

    async getForPayment(tenant: Tenant, paymentId: string, id: string): Promise<WebhookNotification> {
      const row = await repo.findPaymentNotification(deps.db, tenant, paymentId, id);
      if (!row) throw notFound(`Webhook notification ${id} of payment ${paymentId}`);
      return toNotification(row);
    },

    /** SPEC rule 5: new notifications, one per destination subscribed now, each with its own attempts. */
    async retry(tenant: Tenant, id: string): Promise<{ data: WebhookNotification[] }> {
      const created = await deps.db.transaction(async (tx) => {
        const row = await repo.findNotification(tx, tenant, id);
        if (!row) throw notFound(`Webhook notification ${id}`);
        if (!row.payload || sealedCategories.has(row.category)) {
          throw new AppError('PAYLOAD_EXPIRED', 'The payload of this notification is no longer held (33 h retention; deed analysis results are delivered once)');
        }
        const destinations = await subscribedDestinationIds(tx, tenant.partnerId, row.category);
        if (destinations.length === 0) throw noDestination(row.category);
        const event = { id: row.event_id, partnerId: tenant.partnerId, type: row.type, category: row.category };
        const ids = await createNotifications(tx, event, destinations, deps.clock.now(), row.id);
        tx.afterCommit(deps.onCreated);
        return repo.findNotificationsByIds(tx, ids);
      });
      return { data: created.map(toNotification) };
    },

    /** A signed sample event (`"test": true`) to the destinations subscribed to its category. */
    async sendTest(tenant: Tenant, type: string, variant: string): Promise<{ data: WebhookNotification[] }> {
      const definition = findTestDefinition(type, variant);
      if (!definition?.example) {
        throw new AppError('VALIDATION_ERROR', `Unknown variant ${variant} of ${type}; use one of ${testVariants(type).join(', ')}`, { pointer: '/variant' });
      }
      if (definition.category === 'MONITORING' && !(await deps.isMonitoringEligible(tenant))) {
        throw new AppError('FORBIDDEN', 'Monitoring events are delivered only to partners eligible for monitoring');
      }
      const created = await deps.db.transaction(async (tx) => {
        if ((await subscribedDestinationIds(tx, tenant.partnerId, definition.category)).length === 0) throw noDestination(definition.category);
        const event = await deps.outbox.emit(tx, definition, { partnerId: tenant.partnerId, payload: definition.example, test: true });
        return repo.findNotificationsOfEvent(tx, event.id);
      });
      return { data: created.map(toNotification) };
    },
  };
}

export type NotificationService = ReturnType<typeof createNotificationService>;
