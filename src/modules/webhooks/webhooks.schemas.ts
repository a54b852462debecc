import { Type, type Static } from '@sinclair/typebox';
import { ListQuery } from '../../platform/http/pagination.ts';
import { optionalBodyKeyword } from '../../platform/http/validation.ts';
import { categories } from './events/define.ts';

const Category = Type.Union(
  categories.map((c) => Type.Literal(c)),
  { description: 'PAYMENTS, VERIFICATIONS, BUSINESS_LOOKUPS, CONTACT_BILLING, DEED_ANALYSIS or MONITORING.' },
);
const Categories = Type.Array(Category, { minItems: 1, maxItems: categories.length, uniqueItems: true, description: 'Event categories to receive; all by default.' });
const DateTime = Type.String({ format: 'date-time' });
const NullableDateTime = Type.Union([DateTime, Type.Null()]);

export const WebhookDestination = Type.Object(
  {
    id: Type.String(),
    url: Type.String(),
    categories: Type.Array(Category),
    enabled: Type.Boolean(),
    createdAt: DateTime,
    updatedAt: DateTime,
  },
  { $id: 'WebhookDestination', title: 'WebhookDestination' },
);
export type WebhookDestination = Static<typeof WebhookDestination>;

export const DestinationWithSecret = Type.Object(
  {
    ...WebhookDestination.properties,
    secret: Type.Optional(
      Type.String({ description: 'The signing secret (`whsec_…`): in this response only (absent from an Idempotency-Key replay). Stored encrypted.' }),
    ),
  },
  { $id: 'WebhookDestinationWithSecret', title: 'WebhookDestinationWithSecret' },
);
export type DestinationWithSecret = Static<typeof DestinationWithSecret>;

export const CreateDestinationBody = Type.Object(
  {
    url: Type.String({ maxLength: 2048, description: 'https (in sandbox, http to localhost too).' }),
    categories: Type.Optional(Categories),
    enabled: Type.Optional(Type.Boolean({ default: true })),
  },
  { additionalProperties: false },
);
export type CreateDestinationBody = Static<typeof CreateDestinationBody>;

export const UpdateDestinationBody = Type.Object(
  { url: Type.Optional(Type.String({ maxLength: 2048 })), categories: Type.Optional(Categories), enabled: Type.Optional(Type.Boolean()) },
  { additionalProperties: false, minProperties: 1 },
);
export type UpdateDestinationBody = Static<typeof UpdateDestinationBody>;

export const IdParams = Type.Object({ id: Type.String({ maxLength: 64 }) });

const Status = Type.Union([Type.Literal('PENDING'), Type.Literal('DELIVERED'), Type.Literal('FAILED')]);

export const WebhookNotification = Type.Object(
  {
    id: Type.String(),
    eventId: Type.String({ description: 'Stable across retries and destinations: de-duplicate on it.' }),
    type: Type.String(),
    category: Category,
    destinationId: Type.String(),
    status: Status,
    webhookAttempts: Type.Integer({ description: 'Attempts made so far (at most 10).' }),
    nextAttemptAt: NullableDateTime,
    lastAttemptAt: NullableDateTime,
    lastResponseStatus: Type.Union([Type.Integer(), Type.Null()]),
    deliveredAt: NullableDateTime,
    retryOf: Type.Union([Type.String(), Type.Null()], { description: 'The notification a manual retry was made from.' }),
    createdAt: DateTime,
    payload: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()], {
      description: 'The body sent; null after 33 hours, and always for DEED_ANALYSIS.',
    }),
  },
  { $id: 'WebhookNotification', title: 'WebhookNotification' },
);
export type WebhookNotification = Static<typeof WebhookNotification>;

export const WebhookAttempt = Type.Object(
  {
    attempt: Type.Integer(),
    startedAt: DateTime,
    durationMs: Type.Integer(),
    statusCode: Type.Union([Type.Integer(), Type.Null()]),
    errorClass: Type.String({ description: 'NONE, HTTP_STATUS, REDIRECT, TIMEOUT, CONNECTION_REFUSED, CONNECTION_ERROR or ADDRESS_REFUSED.' }),
    responseExcerpt: Type.Union([Type.String({ maxLength: 1024 }), Type.Null()], { description: 'At most 1 KB of your answer.' }),
  },
  { $id: 'WebhookAttempt', title: 'WebhookAttempt' },
);

export const WebhookNotificationDetail = Type.Object(
  { ...WebhookNotification.properties, attempts: Type.Array(WebhookAttempt) },
  { $id: 'WebhookNotificationDetail', title: 'WebhookNotificationDetail' },
);
export type WebhookNotificationDetail = Static<typeof WebhookNotificationDetail>;

export const NotificationListQuery = ListQuery({
  type: Type.Optional(Type.String({ maxLength: 100 })),
  status: Type.Optional(Status),
  category: Type.Optional(Category),
});

export const NewNotifications = Type.Object({ data: Type.Array(WebhookNotification) });

const TestEventFields = {
  type: Type.Union(['payment', 'verification', 'business-lookup', 'contact', 'deed-analysis', 'monitoring'].map((t) => Type.Literal(t)), {
    description: 'The event prefix.',
  }),
  variant: Type.String({ maxLength: 100, description: 'The rest of the event type, dots as underscores: `alert_created`, `individual_passed`, `succeeded`.' }),
};
// Optional: the parameters may come in the query alone, with no body at all.
export const TestEventBody = Type.Object(
  { type: Type.Optional(TestEventFields.type), variant: Type.Optional(TestEventFields.variant) },
  { additionalProperties: false, [optionalBodyKeyword]: true },
);
export const TestEventQuery = Type.Object({ type: Type.Optional(TestEventFields.type), variant: Type.Optional(TestEventFields.variant) }, { additionalProperties: false });
export const PaymentNotificationParams = Type.Object({ paymentId: Type.String({ maxLength: 64 }), notificationId: Type.String({ maxLength: 64 }) });
