import { Type } from '@sinclair/typebox';
import { AppError } from '../../platform/errors.ts';
import { IdempotencyHeaders, type Idempotency } from '../../platform/http/idempotency.ts';
import { ListQuery, Page } from '../../platform/http/pagination.ts';
import type { PartnerApi } from '../../platform/http/partner-api.ts';
import type { DestinationService } from './destinations.service.ts';
import type { NotificationService } from './notifications.service.ts';
import {
  CreateDestinationBody,
  DestinationWithSecret,
  IdParams,
  NewNotifications,
  NotificationListQuery,
  PaymentNotificationParams,
  TestEventBody,
  UpdateDestinationBody,
  WebhookDestination,
  WebhookNotification,
  WebhookNotificationDetail,
} from './webhooks.schemas.ts';

export function registerWebhookRoutes(api: PartnerApi, deps: { destinations: DestinationService; notifications: NotificationService; idempotency: Idempotency }): void {
  const tags = ['webhooks'];
  const { destinations, notifications } = deps;

  api.post(
    '/webhook-destinations',
    {
      schema: {
        tags,
        summary: 'Add a webhook destination',
        description: 'Answers the signing secret once. A replay of the same Idempotency-Key answers without it: PVS never shows a secret twice; rotate it.',
        operationId: 'createWebhookDestination',
        headers: Type.Object(IdempotencyHeaders),
        body: CreateDestinationBody,
        response: { 201: DestinationWithSecret },
      },
    },
    async (request, reply) => {
      const url = await destinations.checkUrl(request.body.url);
      return deps.idempotency.run(request, reply, 201, (tx) => destinations.create(tx, request.tenant, { ...request.body, url }), {
        stored: ({ secret: _secret, ...destination }) => destination,
      });
    },
  );

  api.get(
    '/webhook-destinations',
    { schema: { tags, summary: 'List webhook destinations', operationId: 'listWebhookDestinations', querystring: ListQuery(), response: { 200: Page(WebhookDestination) } } },
    async (request) => destinations.list(request.tenant, request.query),
  );

  api.get(
    '/webhook-destinations/:id',
    { schema: { tags, summary: 'One webhook destination', operationId: 'getWebhookDestination', params: IdParams, response: { 200: WebhookDestination } } },
    async (request) => destinations.get(request.tenant, request.params.id),
  );

  api.patch(
    '/webhook-destinations/:id',
    {
      schema: {
        tags,
        summary: 'Change the URL, categories or enabled flag of a destination',
        operationId: 'updateWebhookDestination',
        params: IdParams,
        body: UpdateDestinationBody,
        response: { 200: WebhookDestination },
      },
    },
    async (request) => destinations.update(request.tenant, request.params.id, request.body),
  );

  api.delete(
    '/webhook-destinations/:id',
    {
      schema: {
        tags,
        summary: 'Remove a destination',
        description: 'Nothing more is sent to it; its pending notifications fail.',
        operationId: 'deleteWebhookDestination',
        params: IdParams,
        response: { 200: WebhookDestination },
      },
    },
    async (request) => destinations.remove(request.tenant, request.params.id),
  );

  api.post(
    '/webhook-destinations/:id/rotate-secret',
    {
      schema: {
        tags,
        summary: 'Replace the signing secret',
        description: 'Answers the new secret once. For 24 hours deliveries also carry x-signature-previous, signed with the old secret.',
        operationId: 'rotateWebhookSecret',
        params: IdParams,
        response: { 200: DestinationWithSecret },
      },
    },
    async (request) => destinations.rotateSecret(request.tenant, request.params.id),
  );

  api.get(
    '/webhook-notifications',
    {
      schema: {
        tags,
        summary: 'Delivery history, newest first',
        operationId: 'listWebhookNotifications',
        querystring: NotificationListQuery,
        response: { 200: Page(WebhookNotification) },
      },
    },
    async (request) => notifications.list(request.tenant, request.query),
  );

  api.post(
    '/webhook-notifications/test',
    {
      // Undocumented, kept for the clients that send it: `?type=…&variant=…`, with or without a body, fills
      // in what the body leaves out. The document shows the body alone: one way to send the two.
      preValidation: async (request) => {
        // Any other query parameter is refused, as on every route (conventions.md).
        const unknown = Object.keys(request.query as object).find((name) => name !== 'type' && name !== 'variant');
        if (unknown) throw new AppError('VALIDATION_ERROR', `query:${unknown} is not a known parameter; remove it`, { pointer: `query:${unknown}` });
        const body: unknown = request.body ?? {};
        if (typeof body !== 'object' || body === null || Array.isArray(body)) return;
        const { type, variant } = request.query as { type?: unknown; variant?: unknown };
        request.body = { ...(type === undefined ? {} : { type }), ...(variant === undefined ? {} : { variant }), ...body } as typeof request.body;
      },
      schema: {
        tags,
        summary: 'Send a signed sample event',
        description:
          'Sends a sample of `type` + `variant` (`monitoring` + `alert_created` → `monitoring.alert.created`), marked `"test": true`, to your destinations subscribed to its category. 409 INVALID_STATE when no enabled destination is subscribed to it.',
        operationId: 'sendTestWebhook',
        body: TestEventBody,
        response: { 202: NewNotifications },
      },
    },
    async (request, reply) => {
      reply.code(202);
      return notifications.sendTest(request.tenant, request.body.type, request.body.variant);
    },
  );

  api.get(
    '/webhook-notifications/:id',
    {
      schema: {
        tags,
        summary: 'One notification with its attempts',
        operationId: 'getWebhookNotification',
        params: IdParams,
        response: { 200: WebhookNotificationDetail },
      },
    },
    async (request) => notifications.get(request.tenant, request.params.id),
  );

  api.post(
    '/webhook-notifications/:id/retry',
    {
      schema: {
        tags,
        summary: 'Send a notification again',
        description:
          'Queues the event again for every destination subscribed to its category now, as new notifications with their own attempt limit. 410 PAYLOAD_EXPIRED once the payload is gone (33 h; deed analysis results are delivered once).',
        operationId: 'retryWebhookNotification',
        params: IdParams,
        response: { 202: NewNotifications },
      },
    },
    async (request, reply) => {
      reply.code(202);
      return notifications.retry(request.tenant, request.params.id);
    },
  );

  api.get(
    '/channel-payments/:paymentId/webhook-notifications/:notificationId',
    {
      schema: {
        tags,
        summary: 'One notification of a payment',
        operationId: 'getPaymentWebhookNotification',
        params: PaymentNotificationParams,
        response: { 200: WebhookNotification },
      },
    },
    async (request) => notifications.getForPayment(request.tenant, request.params.paymentId, request.params.notificationId),
  );
}
