// The webhook destination `pvs listen` receives at, through the partner's own webhook-destinations
// API. One destination per listening URL: a destination already at that exact URL (a listen stopped
// with --keep, or one that could not remove its own) is reused rather than doubled, so that every event
// reaches this listener once. The signing secret is shown by PVS only when a destination is created or
// its secret rotated, so a reused destination's secret is rotated: that is the only way to learn it.
import { categories } from '../../modules/webhooks/events/define.ts';
import type { DestinationWithSecret, WebhookDestination } from '../../modules/webhooks/webhooks.schemas.ts';
import type { PartnerClient } from './partner-client.ts';
import { PvsRefusalError } from './partner-client.ts';

export interface ListenDestination {
  id: string;
  secret: string;
  /** Set when an existing destination was taken over: what was done to it, for the start-up line. */
  reused?: string;
}

interface Page<T> {
  data: T[];
  nextFrom: number | null;
}

/** Creates the destination at `url`, subscribed to every category, or takes over the one already there. */
export async function openDestination(client: PartnerClient, url: string): Promise<ListenDestination> {
  const existing = await findDestination(client, url);
  if (!existing) {
    const created = await createDestination(client, url);
    return { id: created.id, secret: secretOf(created) };
  }
  const changes: string[] = [];
  const allCategories = categories.every((c) => existing.categories.includes(c));
  if (!allCategories || !existing.enabled) {
    await client.request<WebhookDestination>('PATCH', `/v1/webhook-destinations/${existing.id}`, { categories: [...categories], enabled: true });
    if (!allCategories) changes.push('subscribed it to all categories');
    if (!existing.enabled) changes.push('enabled it');
  }
  const rotated = await client.request<DestinationWithSecret>('POST', `/v1/webhook-destinations/${existing.id}/rotate-secret`);
  changes.push('rotated its secret (the old one also signs, as x-signature-previous, for 24 h)');
  return { id: existing.id, secret: secretOf(rotated), reused: changes.join(', ') };
}

/** Removes it; `gone` when it was removed meanwhile (in the portal, by another listen). */
export async function removeDestination(client: PartnerClient, id: string): Promise<'removed' | 'gone'> {
  try {
    await client.request<WebhookDestination>('DELETE', `/v1/webhook-destinations/${id}`);
    return 'removed';
  } catch (error) {
    if (error instanceof PvsRefusalError && error.status === 404) return 'gone';
    throw error;
  }
}

async function findDestination(client: PartnerClient, url: string): Promise<WebhookDestination | undefined> {
  for (let from: number | null = 0; from !== null; ) {
    const page: Page<WebhookDestination> = await client.request('GET', `/v1/webhook-destinations?limit=100&from=${from}`);
    const match = page.data.find((d) => d.url === url);
    if (match) return match;
    from = page.nextFrom;
  }
  return undefined;
}

async function createDestination(client: PartnerClient, url: string): Promise<DestinationWithSecret> {
  try {
    // No categories: PVS subscribes a new destination to all of them.
    return await client.request<DestinationWithSecret>('POST', '/v1/webhook-destinations', { url });
  } catch (error) {
    if (error instanceof PvsRefusalError && error.code === 'VALIDATION_ERROR') {
      throw new PvsRefusalError(
        `${error.message}\npvs listen is for a sandbox PVS on your own machine: only the sandbox accepts an http destination on localhost.`,
        error.status,
        error.code,
      );
    }
    throw error;
  }
}

function secretOf(destination: DestinationWithSecret): string {
  if (!destination.secret) throw new PvsRefusalError(`PVS answered destination ${destination.id} without its signing secret`, 200, undefined);
  return destination.secret;
}
