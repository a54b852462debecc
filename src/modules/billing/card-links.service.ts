// Card links: a single-use URL a partner sends to a contact, leading to the hosted card page. The token
// is shown once and never stored, only its HMAC; a new link for the contact replaces the old one.
// The card number never reaches PVS: the page tokenises it with the gateway, PVS gets the token.
import type { Digester } from '../../platform/keys/key-ring.ts';
import type { Static } from '@sinclair/typebox';
import type { Clock } from '../../platform/clock.ts';
import { randomToken } from '../../platform/crypto.ts';
import type { Database, Tx } from '../../platform/db/database.ts';
import { AppError, notFound } from '../../platform/errors.ts';
import type { JobQueue } from '../../platform/jobs/queue.ts';
import type { Outbox } from '../../platform/outbox.ts';
import { tenantOf, type Tenant } from '../../platform/tenancy.ts';
import type { HostedFields, PaymentGateway } from '../../providers/gateway/gateway.ts';
import { contactCardSaved } from '../webhooks/events/billing.events.ts';
import { detachCardJob } from './billing.jobs.ts';
import type { BillingRunService } from './billing-runs.service.ts';
import type { Card, CardLink, SavedCard } from './billing.schemas.ts';
import * as repo from './contacts.repository.ts';
import { billingStatusOf, cardOf } from './contacts.service.ts';
import { productLabels, type PriceList, type Product } from './prices.ts';

const tokenShape = /^[A-Za-z0-9_-]{43}$/;

export type LinkState = 'USED' | 'REPLACED' | 'EXPIRED' | 'UNKNOWN';

/** What the hosted page shows: the form, or why the link no longer works. */
export type CardPageView =
  | { state: 'LIVE'; partnerName: string; expiresAt: Date; hostedFields: HostedFields; prices: Array<{ label: string; amount: number }> }
  | { state: LinkState };

const linkMessages: Record<Exclude<LinkState, 'UNKNOWN'>, string> = {
  USED: 'This card link was already used; ask for a new one to change the card',
  REPLACED: 'This card link was replaced by a newer one; use the latest link you were sent',
  EXPIRED: 'This card link has expired; ask for a new one',
};

export function createCardLinkService(deps: {
  db: Database;
  clock: Clock;
  /** Card link token digests (platform/keys); a link found under a previous key expires with its token (24 h). */
  linkTokens: Pick<Digester, 'digest' | 'candidates'>;
  publicBaseUrl: string;
  lifetimeHours: number;
  gateway: PaymentGateway;
  prices: PriceList;
  outbox: Outbox;
  queue: JobQueue;
  runs: Pick<BillingRunService, 'retryAfterNewCard'>;
  partnerName(tenant: Tenant): Promise<string>;
}) {
  const { db, clock } = deps;

  function stateOf(link: repo.CardLinkRow | undefined, now: Date): LinkState | 'LIVE' {
    if (!link) return 'UNKNOWN';
    if (link.used_at) return 'USED';
    if (link.replaced_at) return 'REPLACED';
    if (link.expires_at <= now) return 'EXPIRED';
    return 'LIVE';
  }

  async function liveLink(token: string): Promise<{ link: repo.CardLinkRow; contact: repo.ContactRow } | { state: LinkState }> {
    if (!tokenShape.test(token)) return { state: 'UNKNOWN' };
    const link = await repo.findCardLink(db, deps.linkTokens.candidates(token));
    const state = stateOf(link, clock.now());
    if (state !== 'LIVE') return { state };
    const contact = await repo.findContact(db, tenantOf(link!.partner_id), link!.contact_id);
    // An archived contact's link stops working, as a replaced one does.
    if (!contact || contact.archived_at) return { state: 'REPLACED' };
    return { link: link!, contact };
  }

  return {
    /** Mints the contact's link in the caller's transaction; the earlier one stops working. */
    async mint(tx: Tx, tenant: Tenant, contactId: string): Promise<CardLink> {
      const contact = await repo.findContact(tx, tenant, contactId, { lock: true });
      if (!contact) throw notFound(`Contact ${contactId}`);
      if (contact.archived_at) throw new AppError('INVALID_STATE', `Contact ${contactId} is ARCHIVED; card links are for active contacts`);
      const now = clock.now();
      const token = randomToken(32);
      const expiresAt = new Date(now.getTime() + deps.lifetimeHours * 3600_000);
      await repo.replaceCardLink(tx, tenant, { token_hash: deps.linkTokens.digest(token), contact_id: contactId, expires_at: expiresAt, created_at: now });
      return { url: `${deps.publicBaseUrl}/c/${token}`, expiresAt: expiresAt.toISOString() };
    },

    async view(token: string): Promise<CardPageView> {
      const live = await liveLink(token);
      if ('state' in live) return live;
      const partnerName = await deps.partnerName(tenantOf(live.link.partner_id));
      const prices = (Object.keys(productLabels) as Product[]).map((p) => ({ label: productLabels[p], amount: deps.prices[p] }));
      return { state: 'LIVE', partnerName, expiresAt: live.link.expires_at, hostedFields: deps.gateway.hostedFields(), prices };
    },

    /** The hosted page hands over the gateway's token: the card is saved for off-session charges. */
    async saveCard(token: string, paymentToken: string): Promise<Static<typeof SavedCard>> {
      const live = await liveLink(token);
      if ('state' in live) {
        if (live.state === 'UNKNOWN') throw notFound('The card link');
        throw new AppError('LINK_INVALID', linkMessages[live.state]);
      }
      const { link, contact } = live;
      const tenant = tenantOf(link.partner_id);
      const attached = await deps.gateway.attach({
        token: paymentToken,
        customerRef: contact.gateway_customer_ref,
        contactId: contact.id,
        idempotencyKey: `card-link:${link.token_hash.slice(0, 32)}:${paymentToken}`,
      });
      if (!attached.ok && attached.kind === 'declined') {
        throw new AppError('CARD_DECLINED', attached.message, { extensions: { declineCode: attached.declineCode } });
      }
      if (!attached.ok) throw new AppError('SERVICE_UNAVAILABLE', 'The payment gateway did not answer; try again in a moment', { retryAfter: 5 });

      const outcome = await db.transaction(async (tx) => {
        const now = clock.now();
        const before = await repo.findContact(tx, tenant, contact.id, { lock: true });
        const spent = await repo.spendCardLink(tx, link.token_hash, now);
        if (!spent) {
          // Another request spent the link first. Unless it saved this same card, the gateway forgets this one.
          if (before?.payment_method_ref !== attached.paymentMethodRef) await deps.queue.enqueue(tx, detachCardJob, { paymentMethodRef: attached.paymentMethodRef });
          return undefined;
        }
        const row = await repo.saveCard(tx, tenant, contact.id, { customerRef: attached.customerRef, paymentMethodRef: attached.paymentMethodRef, ...attached.card }, now);
        const card = cardOf(row) as Card;
        await deps.outbox.emit(tx, contactCardSaved, { partnerId: tenant.partnerId, payload: { contactId: contact.id, channelPartnerId: tenant.partnerId, card } });
        if (before?.payment_method_ref && before.payment_method_ref !== attached.paymentMethodRef) {
          await deps.queue.enqueue(tx, detachCardJob, { paymentMethodRef: before.payment_method_ref });
        }
        await deps.runs.retryAfterNewCard(tx, contact.id, attached.paymentMethodRef);
        return { billingStatus: billingStatusOf(row), card };
      });
      if (!outcome) throw new AppError('LINK_INVALID', linkMessages.USED);
      return outcome;
    },
  };
}

export type CardLinkService = ReturnType<typeof createCardLinkService>;
