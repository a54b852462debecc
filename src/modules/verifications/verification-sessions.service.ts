// The person's side of a verification link: its first use exchanges it for a session (the link is spent,
// so it cannot be shared; the session lets the flow survive a reload), and the session says who asked
// and why. The details, document, selfie and submit steps build on the session.
import type { Clock } from '../../platform/clock.ts';
import { hmacHex, randomToken } from '../../platform/crypto.ts';
import type { Database } from '../../platform/db/database.ts';
import { AppError, notFound, type FieldProblem } from '../../platform/errors.ts';
import type { Outbox } from '../../platform/outbox.ts';
import type { IdentityProvider, PersonDetails } from '../../providers/identity/identity-provider.ts';
import { isCountryCode } from '../screening/formats/countries.ts';
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
  identity: IdentityProvider;
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

    /**
     * The person's details go to the identity provider (a subject is made for them on their first step);
     * PVS keeps only the subject's reference. Saving again replaces what was saved.
     */
    async saveDetails(individual: repo.IndividualRow, details: PersonDetails): Promise<void> {
      assertOpen(individual);
      const problems = detailsProblems(details, clock.now());
      if (problems.length) throw new AppError('VALIDATION_ERROR', problems.map((p) => `${p.pointer} ${p.message}`).join('; '), { errors: problems });
      const subjectRef = await subjectOf(individual);
      const saved = await deps.identity.saveDetails(subjectRef, details);
      if (!saved.ok) throw identityUnavailable();
    },
  };

  /** The individual's subject at the provider, made on first use (outside any transaction: it is a call). */
  async function subjectOf(individual: repo.IndividualRow): Promise<string> {
    if (individual.subject_ref) return individual.subject_ref;
    const created = await deps.identity.createSubject();
    if (!created.ok) throw identityUnavailable();
    if (await repo.setSubjectRef(db, individual.id, created.subjectRef, clock.now())) return created.subjectRef;
    // Another request of the same person made one first: use it, and let the provider forget this one.
    await deps.identity.forget(created.subjectRef);
    return (await repo.findIndividual(db, individual.id))!.subject_ref!;
  }
}

/** Steps are taken while the individual is IN_PROGRESS: not before the link is opened, not once checks have an outcome. */
function assertOpen(individual: repo.IndividualRow): void {
  if (individual.status !== 'IN_PROGRESS') {
    throw new AppError('INVALID_STATE', `This verification is ${individual.status}; nothing can be changed now`);
  }
}

function identityUnavailable(): AppError {
  return new AppError('SERVICE_UNAVAILABLE', 'The identity service did not answer; your details were not lost. Try again in a moment', { retryAfter: 5 });
}

/** What the schema cannot judge, in the person's words: a real date of birth, a real country, an Australian postcode. */
export function detailsProblems(details: PersonDetails, now: Date): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const born = new Date(`${details.dateOfBirth}T00:00:00Z`);
  if (born > now) problems.push({ pointer: '/dateOfBirth', message: 'cannot be in the future' });
  else if (born < new Date('1900-01-01T00:00:00Z')) problems.push({ pointer: '/dateOfBirth', message: 'must be after 1 January 1900' });
  if (!isCountryCode(details.address.country)) problems.push({ pointer: '/address/country', message: 'must be a country code such as AU' });
  if (details.address.country === 'AU' && !/^[0-9]{4}$/.test(details.address.postcode)) problems.push({ pointer: '/address/postcode', message: 'must be 4 digits for an Australian address' });
  return problems;
}

export type VerificationSessionService = ReturnType<typeof createVerificationSessionService>;
