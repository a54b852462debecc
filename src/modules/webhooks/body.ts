// The bytes a destination receives, and the headers that sign them.
import { signWebhook } from '../../../sdk/verify-webhook.js';

/** SPEC's flat body: `type` first, the event's own fields, `occurredAt`, plus `eventId` (and `test` for samples). */
export function notificationBody(event: { id: string; type: string; occurredAt: Date; payload: Record<string, unknown>; test: boolean }): string {
  return JSON.stringify({
    type: event.type,
    eventId: event.id,
    ...event.payload,
    occurredAt: event.occurredAt.toISOString(),
    ...(event.test ? { test: true } : {}),
  });
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
