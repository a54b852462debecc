// The bytes a destination receives, and the headers that sign them.
import { signWebhook } from '../../../sdk/verify-webhook.js';

type EventForBody = { id: string; type: string; occurredAt: Date; payload: Record<string, unknown>; test: boolean };

/** SPEC's flat body: `type` first, the event's own fields, `occurredAt`, plus `eventId` (and `test` for samples). */
export function notificationEnvelope(event: EventForBody): Record<string, unknown> {
  return {
    type: event.type,
    eventId: event.id,
    ...event.payload,
    occurredAt: event.occurredAt.toISOString(),
    ...(event.test ? { test: true } : {}),
  };
}

/** The exact bytes sent, and signed. */
export function notificationBody(event: EventForBody): string {
  return JSON.stringify(notificationEnvelope(event));
}

export function signedHeaders(args: {
  body: string;
  timestamp: number;
  secret: string;
  previousSecret?: string;
  eventId: string;
  notificationId: string;
}): Record<string, string> {
  const timestamp = String(args.timestamp);
  return {
    'content-type': 'application/json',
    'user-agent': 'PVS-Webhooks/1.0',
    'x-timestamp': timestamp,
    'x-signature': signWebhook(args.secret, timestamp, args.body),
    ...(args.previousSecret ? { 'x-signature-previous': signWebhook(args.previousSecret, timestamp, args.body) } : {}),
    'x-event-id': args.eventId,
    'x-notification-id': args.notificationId,
  };
}
