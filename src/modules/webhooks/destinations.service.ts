// Webhook destinations: where a partner's events go, and the secrets that sign them.
import type { Clock } from '../../platform/clock.ts';
import { randomToken } from '../../platform/crypto.ts';
import type { Database, Tx } from '../../platform/db/database.ts';
import { AppError, notFound, validationError } from '../../platform/errors.ts';
import { toPage } from '../../platform/http/pagination.ts';
import { newId } from '../../platform/ids.ts';
import type { PayloadSealer } from '../../platform/outbox.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import * as repo from './destinations.repository.ts';
import { categories } from './events/define.ts';
import { checkDestinationUrl, checkResolvedAddresses, type Environment } from './url-policy.ts';
import type { CreateDestinationBody, DestinationWithSecret, UpdateDestinationBody, WebhookDestination } from './webhooks.schemas.ts';

/** How long the previous secret keeps signing (in x-signature-previous) after a rotation. */
export const previousSecretHours = 24;

export function newWebhookSecret(): string {
  return `whsec_${randomToken(32)}`;
}

function toDestination(row: repo.DestinationRow): WebhookDestination {
  return {
    id: row.id,
    url: row.url,
    categories: row.categories as WebhookDestination['categories'],
    enabled: row.enabled,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

export function createDestinationService(deps: {
  db: Database;
  clock: Clock;
  environment: Environment;
  secrets: PayloadSealer;
  resolve?: Parameters<typeof checkResolvedAddresses>[1];
}) {
  /** The URL rules; in production also where the host resolves (before any transaction: DNS is network). */
  async function checkUrl(url: string, pointer = '/url'): Promise<string> {
    const checked = checkDestinationUrl(url, deps.environment);
    if (!checked.ok) throw validationError(pointer, `url ${checked.message}`);
    if (deps.environment === 'production') {
      const resolved = await checkResolvedAddresses(checked.url.hostname, deps.resolve);
      if (!resolved.ok) throw validationError(pointer, `url ${resolved.message}`);
    }
    return checked.url.toString();
  }

  async function load(db: Database | Tx, tenant: Tenant, id: string): Promise<repo.DestinationRow> {
    const row = await repo.findDestination(db, tenant, id);
    if (!row) throw notFound(`Webhook destination ${id}`);
    return row;
  }

  return {
    checkUrl,

    /** Creates a destination in the caller's transaction; `url` has passed checkUrl. */
    async create(tx: Tx, tenant: Tenant, input: CreateDestinationBody & { url: string }): Promise<DestinationWithSecret> {
      const now = deps.clock.now();
      const secret = newWebhookSecret();
      const row = {
        id: newId('destination', now.getTime()),
        partner_id: tenant.partnerId,
        url: input.url,
        categories: input.categories ?? [...categories],
        enabled: input.enabled ?? true,
        secret_sealed: deps.secrets.seal(secret),
        created_at: now,
        updated_at: now,
      };
      await repo.insertDestination(tx, row);
      return { ...toDestination({ ...row, previous_secret_sealed: null, previous_secret_expires_at: null }), secret };
    },

    async list(tenant: Tenant, page: { limit: number; from: number }) {
      return toPage((await repo.listDestinations(deps.db, tenant, page)).map(toDestination), page);
    },

    async get(tenant: Tenant, id: string): Promise<WebhookDestination> {
      return toDestination(await load(deps.db, tenant, id));
    },

    async update(tenant: Tenant, id: string, changes: UpdateDestinationBody): Promise<WebhookDestination> {
      const url = changes.url === undefined ? undefined : await checkUrl(changes.url);
      const row = await repo.updateDestination(deps.db, tenant, id, { ...changes, url }, deps.clock.now());
      if (!row) throw notFound(`Webhook destination ${id}`);
      return toDestination(row);
    },

    /** Notifications already made for it fail at their next attempt; nothing new is made for it. */
    async remove(tenant: Tenant, id: string): Promise<WebhookDestination> {
      const row = await repo.deleteDestination(deps.db, tenant, id, deps.clock.now());
      if (!row) throw notFound(`Webhook destination ${id}`);
      return toDestination(row);
    },

    /** In `db` when given: the portal rotates in the transaction that records its form (sent once). */
    async rotateSecret(tenant: Tenant, id: string, db: Database | Tx = deps.db): Promise<DestinationWithSecret> {
      const now = deps.clock.now();
      const secret = newWebhookSecret();
      const previousUntil = new Date(now.getTime() + previousSecretHours * 3600_000);
      const row = await repo.rotateSecret(db, tenant, id, deps.secrets.seal(secret), previousUntil, now);
      if (!row) throw notFound(`Webhook destination ${id}`);
      return { ...toDestination(row), secret };
    },

    /** For the CLI and admin commands, which have a partner id rather than a token. */
    assertCategories(list: string[]): void {
      // The API's schema says the same (minItems 1, uniqueItems); the CLI's list reaches here unchecked.
      if (list.length === 0) throw new AppError('VALIDATION_ERROR', `Give at least one category of ${categories.join(', ')}`, { pointer: '/categories' });
      const repeated = list.filter((c, i) => list.indexOf(c) !== i);
      if (repeated.length) throw new AppError('VALIDATION_ERROR', `Categories repeated: ${[...new Set(repeated)].join(', ')}`, { pointer: '/categories' });
      const unknown = list.filter((c) => !(categories as readonly string[]).includes(c));
      if (unknown.length) throw new AppError('VALIDATION_ERROR', `Unknown categories ${unknown.join(', ')}; use ${categories.join(', ')}`, { pointer: '/categories' });
    },
  };
}

export type DestinationService = ReturnType<typeof createDestinationService>;
