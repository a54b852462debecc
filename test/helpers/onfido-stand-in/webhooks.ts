// check.completed notifications, as Onfido sends them: a JSON POST whose `X-SHA2-Signature` header is the
// hex HMAC-SHA256 of the raw body under the webhook's token (what @onfido/api's WebhookEventVerifier
// checks). A delivery the receiver does not take (no 2xx, or no answer) is tried again after a short,
// growing pause, a few times, then dropped; Onfido does the same over a longer time.
import { createHmac } from 'node:crypto';

/** The pauses before the second, third and fourth tries. */
export const retryDelaysMs = [200, 600, 1800];

export interface WebhookSender {
  setUrl(url: string | null): void;
  checkCompleted(check: { id: string; completedAt: string; href: string }): void;
  signature(rawBody: string | Buffer): string;
  close(): void;
}

export function createWebhookSender(options: {
  token: string;
  url: string | null;
  /** The body about to be sent, checked against the spec's `webhook_event` schema. */
  check(body: unknown): string[];
  onViolation(violation: string): void;
}): WebhookSender {
  let url = options.url;
  const closing = new AbortController();
  const timers = new Set<NodeJS.Timeout>();
  const signature = (rawBody: string | Buffer) => createHmac('sha256', options.token).update(rawBody).digest('hex');

  const attempt = async (target: string, rawBody: string, tries: number): Promise<void> => {
    let delivered = false;
    try {
      const res = await fetch(target, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-SHA2-Signature': signature(rawBody) },
        body: rawBody,
        signal: AbortSignal.any([closing.signal, AbortSignal.timeout(5_000)]),
      });
      await res.arrayBuffer();
      delivered = res.ok;
    } catch {
      // No answer: tried again below, as a non-2xx is.
    }
    const delay = retryDelaysMs[tries - 1];
    if (delivered || delay === undefined || closing.signal.aborted) return;
    const timer = setTimeout(() => {
      timers.delete(timer);
      void attempt(target, rawBody, tries + 1);
    }, delay);
    timers.add(timer);
  };

  return {
    setUrl: (next) => (url = next),
    signature,
    checkCompleted: (check) => {
      if (!url) return;
      const event = { payload: { resource_type: 'check', action: 'check.completed', object: { id: check.id, status: 'complete', completed_at_iso8601: check.completedAt, href: check.href } } };
      for (const problem of options.check(event)) options.onViolation(`webhook check.completed: ${problem}`);
      void attempt(url, JSON.stringify(event), 1);
    },
    close: () => {
      closing.abort();
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
    },
  };
}
