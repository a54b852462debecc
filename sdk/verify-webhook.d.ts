export type WebhookHeaders = Record<string, string | string[] | undefined> | { get(name: string): string | null };

export type VerifyResult = { ok: true; timestamp: number } | { ok: false; status: 400 | 401; reason: string };

export function signWebhook(secret: string, timestamp: string | number, rawBody: string | Buffer): string;

export function verifyWebhook(
  secret: string,
  headers: WebhookHeaders,
  rawBody: string | Buffer,
  options?: { toleranceSeconds?: number; now?: Date },
): VerifyResult;
