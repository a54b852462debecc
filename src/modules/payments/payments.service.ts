// ATO payments, as the partner sees them: create one with its hosted link, read and list them, cancel
// one, regenerate its link. Taking the card is the hosted page's (payment-links.service.ts).
import type { Digester, Sealer } from '../../platform/keys/key-ring.ts';
import type { Clock } from '../../platform/clock.ts';
import { randomToken } from '../../platform/crypto.ts';
import type { Database, Tx } from '../../platform/db/database.ts';
import { AppError, fieldProblems, notFound, type FieldProblem } from '../../platform/errors.ts';
import { toPage } from '../../platform/http/pagination.ts';
import { newId } from '../../platform/ids.ts';
import type { Outbox } from '../../platform/outbox.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { paymentCancelled, paymentCreated, paymentLinkRegenerated } from '../webhooks/events/payments.events.ts';
import { readPrn } from './prn.ts';
import * as repo from './payments.repository.ts';
import { metadataLimits, type CreatePaymentBody, type Payment, type PaymentStatus } from './payments.schemas.ts';

/** What the payment services share: sealing the PRN, the token digest, the view and the event payload. */
export interface PaymentCodec {
  sealPrn(prn: string): string;
  openPrn(sealed: string): string;
  /** A link token's digest to store, under the current key. */
  hashToken(token: string): string;
  /** Its digest under each key of the ring, to find it (a link found under a previous key expires with its token). */
  tokenHashes(token: string): string[];
}

export function toPayment(row: repo.PaymentRow, codec: PaymentCodec, paymentUrl?: string): Payment {
  const open = row.status === 'CREATED' || row.status === 'PROCESSING';
  return {
    id: row.id,
    status: row.status,
    amount: row.amount,
    commissionAmount: row.commission_amount,
    currency: 'AUD',
    prn: codec.openPrn(row.prn),
    description: row.description,
    contactId: row.contact_id,
    metadata: row.metadata,
    ...(paymentUrl ? { paymentUrl } : {}),
    linkExpiresAt: open && row.link_expires_at ? row.link_expires_at.toISOString() : null,
    attempts: row.attempts,
    failureReason: row.failure_reason,
    completedAt: row.completed_at?.toISOString() ?? null,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

/** SPEC's payment event fields, and nothing else (the outbox adds type, occurredAt and eventId). */
export function eventPayload(row: repo.PaymentRow) {
  return { id: row.id, amount: row.amount, status: row.status, commissionAmount: row.commission_amount, metadata: row.metadata };
}

/** Basis points of the amount, to the nearest cent, halves up; integers throughout (amount × bps < 2^53). */
export function commissionOf(amount: number, bps: number): number {
  return Math.floor((amount * bps + 5_000) / 10_000);
}

const cancellable: readonly PaymentStatus[] = ['CREATED', 'PROCESSING'];

export function createPaymentService(deps: {
  db: Database;
  clock: Clock;
  outbox: Outbox;
  codec: PaymentCodec;
  publicBaseUrl: string;
  linkLifetimeHours: number;
  maxAmount: number;
  /** The partner's commission in basis points, read in this transaction. */
  commissionBps(tx: Tx, tenant: Tenant): Promise<number>;
  /** Whether the contact exists for this partner and is not archived (billing's, read in this transaction). */
  isActiveContact(tx: Tx, tenant: Tenant, contactId: string): Promise<boolean>;
}) {
  const { db, clock, outbox, codec } = deps;

  /** A new link for the payment, in the caller's transaction: its URL, shown once. */
  async function mintLink(tx: Tx, paymentId: string, now: Date): Promise<string> {
    const token = randomToken(32);
    await repo.insertLink(tx, { token_hash: codec.hashToken(token), payment_id: paymentId, expires_at: new Date(now.getTime() + deps.linkLifetimeHours * 3600_000), created_at: now });
    return `${deps.publicBaseUrl}/p/${token}`;
  }

  async function lockedPayment(tx: Tx, tenant: Tenant, id: string): Promise<repo.PaymentRow> {
    const row = await repo.findPayment(tx, tenant, id, { lock: true });
    if (!row) throw notFound(`Payment ${id}`);
    return row;
  }

  /** Every problem with the fields the schema cannot judge, in words, with its pointer. */
  function problemsOf(body: CreatePaymentBody): { prn: string; problems: FieldProblem[] } {
    const problems: FieldProblem[] = [];
    const prn = readPrn(body.prn);
    if (!prn.ok) problems.push({ pointer: '/prn', message: prn.message });
    if (body.amount > deps.maxAmount) problems.push({ pointer: '/amount', message: `must be at most ${deps.maxAmount} cents ($${(deps.maxAmount / 100).toFixed(2)})` });
    for (const key of Object.keys(body.metadata ?? {})) {
      if (key.length < 1 || key.length > metadataLimits.maxKeyLength || !metadataLimits.keyPattern.test(key)) {
        problems.push({ pointer: `/metadata/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`, message: 'keys are 1 to 40 letters, digits, `_`, `.`, `:` or `-`' });
      }
    }
    return { prn: prn.ok ? prn.prn : '', problems };
  }

  return {
    async create(tx: Tx, tenant: Tenant, body: CreatePaymentBody): Promise<Payment> {
      const { prn, problems } = problemsOf(body);
      if (problems.length > 0) throw fieldProblems(problems);
      if (body.contactId !== undefined && !(await deps.isActiveContact(tx, tenant, body.contactId))) {
        throw new AppError('CONTACT_INVALID', `Contact ${body.contactId} is unknown or archived`, { pointer: '/contactId' });
      }
      const now = clock.now();
      const id = newId('payment', now.getTime());
      const metadata = body.metadata ?? {};
      await repo.insertPayment(tx, {
        id,
        partner_id: tenant.partnerId,
        amount: body.amount,
        commission_amount: commissionOf(body.amount, await deps.commissionBps(tx, tenant)),
        prn: codec.sealPrn(prn),
        description: body.description ?? null,
        contact_id: body.contactId ?? null,
        metadata,
        created_at: now,
      });
      const url = await mintLink(tx, id, now);
      const row = (await repo.findPayment(tx, tenant, id))!;
      await outbox.emit(tx, paymentCreated, { partnerId: tenant.partnerId, payload: eventPayload(row) });
      return toPayment(row, codec, url);
    },

    async get(tenant: Tenant, id: string): Promise<Payment> {
      const row = await repo.findPayment(db, tenant, id);
      if (!row) throw notFound(`Payment ${id}`);
      return toPayment(row, codec);
    },

    /** Oldest first, as the API lists them; `newestFirst` for the portal. */
    async list(tenant: Tenant, query: { limit: number; from: number; status?: PaymentStatus; contactId?: string; newestFirst?: boolean }) {
      const page = toPage(await repo.listPayments(db, tenant, query), query);
      return { ...page, data: page.data.map((row) => toPayment(row, codec)) };
    },

    /** CREATED or PROCESSING only, and not while a card is being charged (its outcome decides first). */
    async cancel(tenant: Tenant, id: string): Promise<Payment> {
      return db.transaction(async (tx) => {
        const row = await lockedPayment(tx, tenant, id);
        if (!cancellable.includes(row.status)) {
          throw new AppError('INVALID_STATE', `Payment ${id} is ${row.status}; only CREATED or PROCESSING payments can be cancelled`);
        }
        if (await repo.findChargingAttempt(tx, id)) {
          throw new AppError('INVALID_STATE', `Payment ${id} is PROCESSING with a card charge under way; cancel it once the charge has an outcome (seconds)`, { retryAfter: 5 });
        }
        const cancelled = (await repo.setStatus(tx, id, cancellable, { status: 'CANCELLED', completed: true }, clock.now()))!;
        await outbox.emit(tx, paymentCancelled, { partnerId: tenant.partnerId, payload: eventPayload(cancelled) });
        return toPayment(cancelled, codec);
      });
    },

    /** A new link in the caller's transaction; the old one answers 410 from now on. */
    async regenerateLink(tx: Tx, tenant: Tenant, id: string): Promise<Payment> {
      const row = await lockedPayment(tx, tenant, id);
      if (!cancellable.includes(row.status)) {
        throw new AppError('INVALID_STATE', `Payment ${id} is ${row.status}; links are for CREATED or PROCESSING payments`);
      }
      const now = clock.now();
      await repo.replaceLiveLink(tx, id, now);
      const url = await mintLink(tx, id, now);
      const current = (await repo.findPayment(tx, tenant, id))!;
      await outbox.emit(tx, paymentLinkRegenerated, { partnerId: tenant.partnerId, payload: { ...eventPayload(current), newUrl: url } });
      return toPayment(current, codec, url);
    },
  };
}

export type PaymentService = ReturnType<typeof createPaymentService>;

/** The codec from the keys services.ts derives from SECRET_KEY. */
export function paymentCodec(keys: { linkTokens: Pick<Digester, 'digest' | 'candidates'>; sealer: Pick<Sealer, 'seal' | 'open'> }): PaymentCodec {
  return { sealPrn: keys.sealer.seal, openPrn: keys.sealer.open, hashToken: keys.linkTokens.digest, tokenHashes: keys.linkTokens.candidates };
}
