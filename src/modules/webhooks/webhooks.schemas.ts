import { Type, type Static } from '@sinclair/typebox';
import { ListQuery } from '../../platform/http/pagination.ts';
import { exampleId } from '../../platform/ids.ts';
import { categories } from './events/define.ts';
import { exampleDelivery } from './events/example.ts';
import { businessLookupCompleted } from './events/lookups.events.ts';

const Category = Type.Union(
  categories.map((c) => Type.Literal(c)),
  { description: 'PAYMENTS, VERIFICATIONS, BUSINESS_LOOKUPS, CONTACT_BILLING, DEED_ANALYSIS or MONITORING.' },
);
const Categories = Type.Array(Category, { minItems: 1, maxItems: categories.length, uniqueItems: true, description: 'Event categories to receive; all by default.' });
const DateTime = Type.String({ format: 'date-time' });
const NullableDateTime = Type.Union([DateTime, Type.Null()]);

// One destination for lookups, verifications and payments, and the lookup's notification delivered to it.
const destinationExample = {
  id: exampleId('destination'),
  url: 'https://partner.example/webhooks/pvs',
  categories: ['BUSINESS_LOOKUPS', 'VERIFICATIONS', 'PAYMENTS'],
  enabled: true,
  createdAt: '2026-11-21T10:00:00.000Z',
  updatedAt: '2026-11-21T10:00:00.000Z',
};
const notificationExample = {
  id: exampleId('notification'),
  eventId: exampleId('event'),
  type: 'business-lookup.completed',
  category: 'BUSINESS_LOOKUPS',
  destinationId: exampleId('destination'),
  status: 'DELIVERED',
  webhookAttempts: 1,
  nextAttemptAt: null,
  lastAttemptAt: '2026-11-21T10:20:03.000Z',
  lastResponseStatus: 200,
  deliveredAt: '2026-11-21T10:20:03.000Z',
  retryOf: null,
  createdAt: '2026-11-21T10:20:02.000Z',
  payload: {
    type: 'business-lookup.completed',
    eventId: exampleId('event'),
    lookupRequestId: exampleId('lookup'),
    channelPartnerId: exampleId('partner'),
    entity: { name: 'WATTLE CREEK LOGISTICS PTY LTD', type: 'COMPANY' },
    individuals: [1, 2, 3].map((n) => ({ idvEntityId: exampleId('idvEntity', n) })),
    occurredAt: '2026-11-21T10:20:02.000Z',
  },
};

export const WebhookDestination = Type.Object(
  {
    id: Type.String(),
    url: Type.String(),
    categories: Type.Array(Category),
    enabled: Type.Boolean(),
    createdAt: DateTime,
    updatedAt: DateTime,
  },
  { $id: 'WebhookDestination', title: 'WebhookDestination', examples: [destinationExample] },
);
export type WebhookDestination = Static<typeof WebhookDestination>;

export const DestinationWithSecret = Type.Object(
  {
    ...WebhookDestination.properties,
    secret: Type.Optional(
      Type.String({ description: 'The signing secret (`whsec_…`): in this response only (absent from an Idempotency-Key replay). Stored encrypted.' }),
    ),
  },
  { $id: 'WebhookDestinationWithSecret', title: 'WebhookDestinationWithSecret', examples: [{ ...destinationExample, secret: 'whsec_4Z3E8_ccRo4Oc9VONflwLoFTnnHFJmqghUimHLWwzM8' }] },
);
export type DestinationWithSecret = Static<typeof DestinationWithSecret>;

export const CreateDestinationBody = Type.Object(
  {
    url: Type.String({ maxLength: 2048, description: 'https (in sandbox, http to localhost too).' }),
    categories: Type.Optional(Categories),
    enabled: Type.Optional(Type.Boolean({ default: true })),
  },
  { additionalProperties: false, examples: [{ url: destinationExample.url, categories: destinationExample.categories }] },
);
export type CreateDestinationBody = Static<typeof CreateDestinationBody>;

export const UpdateDestinationBody = Type.Object(
  { url: Type.Optional(Type.String({ maxLength: 2048 })), categories: Type.Optional(Categories), enabled: Type.Optional(Type.Boolean()) },
  { additionalProperties: false, minProperties: 1, examples: [{ categories: [...destinationExample.categories, 'MONITORING'] }] },
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
  { $id: 'WebhookNotification', title: 'WebhookNotification', examples: [notificationExample] },
);
export type WebhookNotification = Static<typeof WebhookNotification>;

const attemptExample = { attempt: 1, startedAt: '2026-11-21T10:20:02.800Z', durationMs: 212, statusCode: 200, errorClass: 'NONE', responseExcerpt: '{"received":true}' };

export const WebhookAttempt = Type.Object(
  {
    attempt: Type.Integer(),
    startedAt: DateTime,
    durationMs: Type.Integer(),
    statusCode: Type.Union([Type.Integer(), Type.Null()]),
    errorClass: Type.String({ description: 'NONE, HTTP_STATUS, REDIRECT, TIMEOUT, CONNECTION_REFUSED, CONNECTION_ERROR or ADDRESS_REFUSED.' }),
    responseExcerpt: Type.Union([Type.String({ maxLength: 1024 }), Type.Null()], { description: 'At most 1 KB of your answer.' }),
  },
  { $id: 'WebhookAttempt', title: 'WebhookAttempt', examples: [attemptExample] },
);

export const WebhookNotificationDetail = Type.Object(
  { ...WebhookNotification.properties, attempts: Type.Array(WebhookAttempt) },
  { $id: 'WebhookNotificationDetail', title: 'WebhookNotificationDetail', examples: [{ ...notificationExample, attempts: [attemptExample] }] },
);
export type WebhookNotificationDetail = Static<typeof WebhookNotificationDetail>;

export const NotificationListQuery = ListQuery({
  type: Type.Optional(Type.String({ maxLength: 100, description: 'Only notifications of this event type.', examples: ['business-lookup.completed'] })),
  status: Type.Optional(Status),
  category: Type.Optional(Category),
});

export const NewNotifications = Type.Object(
  { data: Type.Array(WebhookNotification) },
  // What TestEventBody's example sends: the event's sample (the event reference's example, marked `test`)
  // to the one destination subscribed to BUSINESS_LOOKUPS, not delivered yet.
  {
    examples: [
      {
        data: [
          {
            ...notificationExample,
            status: 'PENDING',
            webhookAttempts: 0,
            nextAttemptAt: notificationExample.createdAt,
            lastAttemptAt: null,
            lastResponseStatus: null,
            deliveredAt: null,
            payload: { ...exampleDelivery(businessLookupCompleted), test: true },
          },
        ],
      },
    ],
  },
);

// The one way the document shows: a JSON body. The route also takes the two as query parameters, with no
// body, as the first clients sent them (webhooks.routes.ts).
export const TestEventBody = Type.Object(
  {
    type: Type.Union(['payment', 'verification', 'business-lookup', 'contact', 'deed-analysis', 'monitoring'].map((t) => Type.Literal(t)), {
      description: 'The event prefix.',
    }),
    variant: Type.String({ maxLength: 100, description: 'The rest of the event type, dots as underscores: `alert_created`, `individual_passed`, `succeeded`.' }),
  },
  { additionalProperties: false, examples: [{ type: 'business-lookup', variant: 'completed' }] },
);
export type TestEventBody = Static<typeof TestEventBody>;
export const PaymentNotificationParams = Type.Object({ paymentId: Type.String({ maxLength: 64 }), notificationId: Type.String({ maxLength: 64 }) });
