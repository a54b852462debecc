// The person's side of a verification link: its first use exchanges it for a session (the link is spent,
// so it cannot be shared; the session lets the flow survive a reload), and the session says who asked
// and why. The details, document, selfie and submit steps build on the session.
import type { Clock } from '../../platform/clock.ts';
import { hmacHex, randomToken } from '../../platform/crypto.ts';
import type { Database } from '../../platform/db/database.ts';
import { AppError, notFound } from '../../platform/errors.ts';
import type { Outbox } from '../../platform/outbox.ts';
import { verificationIndividualInProgress } from '../webhooks/events/verifications.events.ts';
import * as repo from './verifications.repository.ts';
import { terminalStatuses } from './verifications.schemas.ts';

const tokenShape = /^[A-Za-z0-9_-]{43}$/;

export interface SessionView {
  expiresAt: string;
  individual: { role: string; roleDescription: string | null; status: string };
  partner: { name: string };
  attemptsRemaining: number;
}

export function createVerificationSessionService(deps: {
  db: Database;
  clock: Clock;
  outbox: Outbox;
  /** The key links are digested with (the partner side mints them). */
  linkKey: Buffer;
  sessionKey: Buffer;
  sessionLifetimeHours: number;
  partnerName(partnerId: string): Promise<string>;
}) {
  const { db, clock, outbox } = deps;

  async function viewOf(individual: repo.IndividualRow, expiresAt: Date): Promise<SessionView> {
    return {
      expiresAt: expiresAt.toISOString(),
      individual: { role: individual.role, roleDescription: individual.role_description, status: individual.status },
      partner: { name: await deps.partnerName(individual.partner_id) },
      attemptsRemaining: Math.max(0, individual.max_attempts - individual.attempt_count),
    };
  }

  return {
    /** Spends the link for a session; the individual is IN_PROGRESS from its first opening. */
    async open(linkToken: string): Promise<SessionView & { sessionToken: string }> {
      if (!tokenShape.test(linkToken)) throw notFound('The verification link');
      const opened = await db.transaction(async (tx) => {
        const link = await repo.findLinkForUpdate(tx, hmacHex(deps.linkKey, linkToken));
        if (!link) throw notFound('The verification link');
        const now = clock.now();
        if (link.used_at) throw new AppError('LINK_INVALID', 'This verification link was already opened; continue on the device where it was opened, or ask for a new link');
        if (link.replaced_at) throw new AppError('LINK_INVALID', 'This verification link was replaced by a newer one; use the latest link you were sent');
        if (link.expires_at <= now) throw new AppError('LINK_INVALID', 'This verification link has expired; ask for a new one');
        const individual = (await repo.findIndividual(tx, link.individual_id, { lock: true }))!;
        if (terminalStatuses.includes(individual.status)) throw new AppError('LINK_INVALID', 'This verification is already finished; there is nothing more to do');
        await repo.spendLink(tx, link.token_hash, now);
        const sessionToken = randomToken(32);
        const expiresAt = new Date(now.getTime() + deps.sessionLifetimeHours * 3600_000);
        await repo.insertSession(tx, { token_hash: hmacHex(deps.sessionKey, sessionToken), individual_id: individual.id, expires_at: expiresAt, created_at: now });
        if (individual.status === 'PENDING') {
          await repo.setIndividualStatus(tx, individual.id, 'IN_PROGRESS', now);
          await outbox.emit(tx, verificationIndividualInProgress, {
            partnerId: individual.partner_id,
            payload: {
              verificationRequestId: individual.request_id,
              individualId: individual.id,
              ...(individual.external_id ? { externalId: individual.external_id } : {}),
              status: 'IN_PROGRESS',
            },
          });
        }
        return { sessionToken, expiresAt, individual: { ...individual, status: individual.status === 'PENDING' ? ('IN_PROGRESS' as const) : individual.status } };
      });
      return { sessionToken: opened.sessionToken, ...(await viewOf(opened.individual, opened.expiresAt)) };
    },

    /** The individual a session token stands for, or undefined (unknown, expired, or ended by a new link). */
    async individualOf(sessionToken: string | undefined): Promise<{ individual: repo.IndividualRow; expiresAt: Date } | undefined> {
      if (!sessionToken || !tokenShape.test(sessionToken)) return undefined;
      const session = await repo.findLiveSession(db, hmacHex(deps.sessionKey, sessionToken), clock.now());
      const individual = session && (await repo.findIndividual(db, session.individual_id));
      return individual ? { individual, expiresAt: session.expires_at } : undefined;
    },

    view: viewOf,
  };
}

export type VerificationSessionService = ReturnType<typeof createVerificationSessionService>;
