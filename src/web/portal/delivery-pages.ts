// The delivery history in the portal: notifications filtered by type, status and category and paged like
// GET /v1/webhook-notifications (`?limit=&from=`), one notification with its attempts, and "Retry now",
// the API's manual retry. Every read goes through the notification service, scoped by the viewer's
// partner, so another partner's notification answers 404.
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { categories } from '../../modules/webhooks/events/index.ts';
import type { WebhookNotification } from '../../modules/webhooks/webhooks.schemas.ts';
import { AppError } from '../../platform/errors.ts';
import type { HttpApp } from '../../platform/http/types.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { sendPage, tenantOfViewer, viewerOf } from '../area.ts';
import type { Html } from '../html.ts';
import { notice } from '../ui.ts';
import { recordChange } from './destination-changes.ts';
import { deliveryListPage, deliveryPage, deliveryStatuses, type DestinationNames } from './delivery-views.ts';
import type { PortalDeps } from './portal-deps.ts';

// The API's query, except that an empty filter (the form's "Any …") means no filter.
const oneOf = (values: readonly string[]) => Type.Optional(Type.Union(['', ...values].map((v) => Type.Literal(v))));
const ListQuery = Type.Object({
  type: Type.Optional(Type.String({ maxLength: 100 })),
  status: oneOf(deliveryStatuses),
  category: oneOf(categories),
  limit: Type.Integer({ minimum: 1, maximum: 100, default: 20 }),
  from: Type.Integer({ minimum: 0, maximum: 1_000_000, default: 0 }),
});
const IdParams = Type.Object({ id: Type.String({ maxLength: 100 }) });
const DetailQuery = Type.Object({ retried: Type.Optional(Type.String({ maxLength: 2000 })) });

export function registerDeliveryPages(app: HttpApp, deps: PortalDeps): void {
  /** The URLs of the partner's destinations (a partner has a handful; removed ones show by id). */
  async function destinationNames(tenant: Tenant): Promise<DestinationNames> {
    const names: DestinationNames = new Map();
    for (let from: number | null = 0; from !== null && from < 1000; ) {
      const page: Awaited<ReturnType<typeof deps.destinations.list>> = await deps.destinations.list(tenant, { limit: 100, from });
      for (const d of page.data) names.set(d.id, d.url);
      from = page.nextFrom;
    }
    return names;
  }

  async function showNotification(request: FastifyRequest, reply: FastifyReply, id: string, extra: { message?: Html; retried?: WebhookNotification[]; status?: number } = {}) {
    const tenant = tenantOfViewer(request);
    const notification = await deps.notifications.get(tenant, id);
    const body = deliveryPage({ notification, destinations: await destinationNames(tenant), csrf: viewerOf(request).session.csrfToken, ...extra });
    return sendPage(reply, { title: 'Notification', current: 'deliveries', body, status: extra.status });
  }

  app.get('/deliveries', { schema: { querystring: ListQuery } }, async (request, reply) => {
    const tenant = tenantOfViewer(request);
    const { limit, from } = request.query;
    const filters = { type: request.query.type?.trim() || undefined, status: request.query.status || undefined, category: request.query.category || undefined };
    const page = await deps.notifications.list(tenant, { limit, from, ...filters });
    const body = deliveryListPage({ page, filters, destinations: await destinationNames(tenant) });
    return sendPage(reply, { title: 'Deliveries', current: 'deliveries', body });
  });

  app.get('/deliveries/:id', { schema: { params: IdParams, querystring: DetailQuery } }, async (request, reply) => {
    const tenant = tenantOfViewer(request);
    let retried: WebhookNotification[] | undefined;
    if (request.query.retried) {
      // Ids from our own redirect after a retry; read through the service, so only the viewer's own show.
      const found = await Promise.all(
        request.query.retried
          .split(',')
          .slice(0, 20)
          .map((id) => deps.notifications.get(tenant, id).catch((e: unknown) => (e instanceof AppError && e.code === 'NOT_FOUND' ? undefined : Promise.reject(e)))),
      );
      retried = found.filter((n) => n !== undefined);
    }
    return showNotification(request, reply, request.params.id, { retried });
  });

  app.post('/deliveries/:id/retry', { schema: { params: IdParams } }, async (request, reply) => {
    const tenant = tenantOfViewer(request);
    let created: { data: WebhookNotification[] };
    try {
      created = await deps.notifications.retry(tenant, request.params.id);
    } catch (error) {
      // The payload gone (410) or no destination subscribed now (409): said on the notification's page.
      if (!(error instanceof AppError) || !['PAYLOAD_EXPIRED', 'INVALID_STATE'].includes(error.code)) throw error;
      return showNotification(request, reply, request.params.id, { message: notice('error', error.message), status: error.status });
    }
    const ids = created.data.map((n) => n.id);
    await recordChange(deps, request, { action: 'notification.retried', targetId: request.params.id, detail: { notificationIds: ids } });
    // To a page of its own, so that reloading it does not send the event yet again.
    return reply.redirect(`/portal/deliveries/${request.params.id}?retried=${ids.join(',')}`, 303);
  });
}
