// The person's side of a verification link: its first use exchanges it for a session (the link is spent,
// so it cannot be shared; the session lets the flow survive a reload), and the session says who asked
// and why. Then the steps: details, document and selfie go to the identity provider (PVS keeps none of
// them), and submit starts an attempt, whose checks run in a job (verification-checks.service.ts). The
// first submit charges the individual's price, to the request's contact when it has one.
import type { Digester } from '../../platform/keys/key-ring.ts';
import type { Clock } from '../../platform/clock.ts';
import { randomToken } from '../../platform/crypto.ts';
import type { Database } from '../../platform/db/database.ts';
import { AppError, fieldProblems, notFound, type FieldProblem } from '../../platform/errors.ts';
import { cleanImage } from '../../platform/images.ts';
import type { Outbox } from '../../platform/outbox.ts';
import type { JobQueue } from '../../platform/jobs/queue.ts';
import { tenantOf } from '../../platform/tenancy.ts';
import type { IdentityDocument, IdentityDocumentFields, IdentityDisclosure, IdentityDocumentType, IdentityImage, IdentityProvider, IdentityStep, PersonDetails, SaveResult } from '../../providers/identity/identity-provider.ts';
import type { ChargeService } from '../billing/charges.service.ts';
import type { LookupService } from '../lookups/lookups.service.ts';
import { isCountryCode } from '../screening/formats/countries.ts';
import { verificationIndividualInProgress } from '../webhooks/events/verifications.events.ts';
import { checkJobKey, verificationCheckJob } from './verifications.jobs.ts';
import * as repo from './verifications.repository.ts';
import { terminalStatuses } from './verifications.schemas.ts';

const tokenShape = /^[A-Za-z0-9_-]{43}$/;

export interface SessionView {
  expiresAt: string;
  individual: { role: string; roleDescription: string | null; status: string };
  partner: { name: string };
  attemptsRemaining: number;
  /** The steps saved with the identity provider, in flow order. */
  completedSteps: IdentityStep[];
  /** The latest submitted attempt; null before the first submit. */
  attempt: { number: number; status: repo.AttemptStatus } | null;
}

/**
 * What `/v/{token}` shows: nothing (unknown link), why not (410), the start, or the flow where it was.
 * `entityName` is the business the person is asked about (the request's, or its bound lookup's), for the
 * page's sentence; it is not in the session API's answer.
 */
export type LinkPage =
  | { kind: 'unknown' }
  | { kind: 'invalid'; reason: 'SPENT' | 'REPLACED' | 'EXPIRED' | 'FINISHED' }
  | { kind: 'start'; partnerName: string; role: string; roleDescription: string | null; entityName: string | null; provider: ProviderTerms }
  | { kind: 'resume'; view: SessionView; entityName: string | null; provider: ProviderTerms };

/** What the page tells the person of the identity provider: the documents it takes, and who gets their data where. */
export interface ProviderTerms {
  documentTypes: readonly IdentityDocumentType[];
  disclosure: IdentityDisclosure | null;
}

/** A live session as each hosted call finds it (one statement: verifications.repository.ts). */
export interface Session {
  individual: repo.IndividualRow;
  expiresAt: Date;
  latest: repo.LiveSession['latest'];
}

export interface DocumentUpload extends IdentityDocumentFields {
  front: Uint8Array;
  back?: Uint8Array;
}

export function createVerificationSessionService(deps: {
  db: Database;
  clock: Clock;
  outbox: Outbox;
  /** The key links are digested with (the partner side mints them). */
  /** Digests of link and session tokens (platform/keys): stored under the current key, found under any. */
  linkTokens: Digester;
  sessionTokens: Digester;
  sessionLifetimeHours: number;
  identity: IdentityProvider;
  charges: Pick<ChargeService, 'chargeAccepted' | 'chargeNewWork'>;
  queue: JobQueue;
  partnerName(partnerId: string): Promise<string>;
  /** A bound lookup's entity name, when the request has none of its own. */
  lookups: Pick<LookupService, 'entityNameOf'>;
}) {
  const { db, clock, outbox } = deps;
  const provider: ProviderTerms = { documentTypes: deps.identity.documentTypes, disclosure: deps.identity.disclosure };

  /** The business the individual is verified for: the request's entity name, or its bound lookup's. */
  async function entityNameOf(individual: repo.IndividualRow): Promise<string | null> {
    const request = await repo.findRequestById(db, individual.request_id);
    if (!request) return null;
    return request.entity_name ?? (request.lookup_id ? await deps.lookups.entityNameOf(db, tenantOf(request.partner_id), request.lookup_id) : null);
  }

  /** The steps saved so far (none before the subject exists); the provider not answering is a 503. */
  async function savedSteps(individual: repo.IndividualRow, options: { tolerant?: boolean } = {}): Promise<IdentityStep[]> {
    if (!individual.subject_ref) return [];
    const missing = await deps.identity.missing(individual.subject_ref);
    if (!missing.ok && options.tolerant) return [];
    if (!missing.ok) throw identityUnavailable();
    return completed(missing.missing);
  }

  /**
   * The session's answer. What the caller already holds is passed in (the session's statement read the
   * latest attempt; a saved step answers what is still missing), so a step's answer costs no statement.
   * `tolerant`: a provider outage shows no step saved rather than failing (the link was spent already).
   */
  async function viewOf(
    session: { individual: repo.IndividualRow; expiresAt: Date; latest?: repo.LiveSession['latest'] },
    options: { tolerant?: boolean; completedSteps?: IdentityStep[] } = {},
  ): Promise<SessionView> {
    const { individual } = session;
    const attempt = 'latest' in session ? session.latest : await repo.latestAttempt(db, individual.id);
    return {
      expiresAt: session.expiresAt.toISOString(),
      individual: { role: individual.role, roleDescription: individual.role_description, status: individual.status },
      partner: { name: await deps.partnerName(individual.partner_id) },
      attemptsRemaining: Math.max(0, individual.max_attempts - individual.attempt_count),
      completedSteps: options.completedSteps ?? (await savedSteps(individual, options)),
      attempt: attempt ? { number: attempt.number, status: attempt.status } : null,
    };
  }

  /** Steps are taken while the individual is IN_PROGRESS and no attempt is being checked. */
  function assertStepsOpen(session: Session): void {
    assertOpen(session.individual);
    if (session.latest?.status === 'CHECKING') {
      throw new AppError('INVALID_STATE', 'Your documents are being checked; nothing can be changed until the checks finish');
    }
  }

  /** A step saved: the session's answer, with the steps the provider says are done now. */
  function savedView(session: Session, saved: SaveResult): Promise<SessionView> {
    refusedOrDown(saved);
    return viewOf(session, { completedSteps: completed(saved.missing) });
  }

  /** The image checked by its bytes, without metadata, or a problem at the field's pointer. */
  function imageAt(pointer: string, bytes: Uint8Array, problems: FieldProblem[]): IdentityImage | undefined {
    const cleaned = cleanImage(bytes);
    if (cleaned.ok) return { contentType: cleaned.image.contentType, bytes: cleaned.image.bytes };
    problems.push({ pointer, message: cleaned.message });
    return undefined;
  }

  return {
    /** Spends the link for a session; the individual is IN_PROGRESS from its first opening. */
    async open(linkToken: string): Promise<SessionView & { sessionToken: string }> {
      if (!tokenShape.test(linkToken)) throw notFound('The verification link');
      const opened = await db.transaction(async (tx) => {
        const link = await repo.findLinkForUpdate(tx, deps.linkTokens.candidates(linkToken));
        if (!link) throw notFound('The verification link');
        const now = clock.now();
        if (link.used_at) throw new AppError('LINK_INVALID', 'This verification link was already opened; continue on the device where it was opened, or ask for a new link');
        if (link.replaced_at) throw new AppError('LINK_INVALID', 'This verification link was replaced by a newer one; use the latest link you were sent');
        if (link.expires_at <= now) throw new AppError('LINK_INVALID', 'This verification link has expired; ask for a new one');
        const individual = (await repo.findIndividual(tx, link.individual_id, { lock: true }))!;
        if (terminalStatuses.includes(individual.status)) throw new AppError('LINK_INVALID', 'This verification is already finished; there is nothing more to do');
        await repo.spendLink(tx, link.token_hash, deps.linkTokens.digest(linkToken), now);
        const sessionToken = randomToken(32);
        const expiresAt = new Date(now.getTime() + deps.sessionLifetimeHours * 3600_000);
        await repo.insertSession(tx, { token_hash: deps.sessionTokens.digest(sessionToken), individual_id: individual.id, expires_at: expiresAt, created_at: now });
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
      return { sessionToken: opened.sessionToken, ...(await viewOf(opened, { tolerant: true })) };
    },

    /** The individual a session token stands for, or undefined (unknown, expired, or ended by a new link). */
    async individualOf(sessionToken: string | undefined): Promise<Session | undefined> {
      if (!sessionToken || !tokenShape.test(sessionToken)) return undefined;
      const session = await repo.findLiveSessionIndividual(db, deps.sessionTokens.candidates(sessionToken), clock.now());
      if (!session) return undefined;
      // Found under a previous key (SECRET_KEY was rotated): stored again under the current one.
      if (!deps.sessionTokens.isCurrent(session.token_hash)) await repo.rehashSession(db, session.token_hash, deps.sessionTokens.digest(sessionToken));
      return { individual: session.individual, expiresAt: session.expires_at, latest: session.latest };
    },

    view: (session: Session) => viewOf(session),

    /** How long a session lasts (the page's cookie lasts as long). */
    lifetimeSeconds: deps.sessionLifetimeHours * 3600,

    /**
     * The person's details go to the identity provider (a subject is made for them on their first step);
     * PVS keeps only the subject's reference. Saving again replaces what was saved.
     */
    async saveDetails(session: Session, details: PersonDetails): Promise<SessionView> {
      assertStepsOpen(session);
      const problems = detailsProblems(details, clock.now());
      if (problems.length) throw fieldProblems(problems);
      const subjectRef = await subjectOf(session.individual);
      return savedView(session, await deps.identity.saveDetails(subjectRef, details));
    },

    /** The identity document: its fields and images (JPEG or PNG by their bytes, ≤ 10 MiB, metadata stripped). */
    async saveDocument(session: Session, upload: DocumentUpload): Promise<SessionView> {
      assertStepsOpen(session);
      const { front, back, ...fields } = upload;
      const problems = documentProblems(fields, clock.now());
      if (!deps.identity.documentTypes.includes(fields.type)) {
        problems.unshift({ pointer: '/type', message: `cannot be checked here; use ${acceptedDocuments(deps.identity.documentTypes)}` });
      }
      const frontImage = imageAt('/front', front, problems);
      const backImage = back && imageAt('/back', back, problems);
      if (problems.length) throw fieldProblems(problems);
      const document: IdentityDocument = { ...fields, front: frontImage!, ...(backImage ? { back: backImage } : {}) };
      return savedView(session, await deps.identity.saveDocument(await subjectOf(session.individual), document));
    },

    async saveSelfie(session: Session, image: Uint8Array): Promise<SessionView> {
      assertStepsOpen(session);
      const problems: FieldProblem[] = [];
      const selfie = imageAt('/image', image, problems);
      if (!selfie) throw fieldProblems(problems);
      return savedView(session, await deps.identity.saveSelfie(await subjectOf(session.individual), selfie));
    },

    /**
     * Starts an attempt: every step must be saved. The attempt is counted, its check job enqueued and,
     * on the first submit, the individual's price charged, all in one transaction. The answer is the
     * attempt's status: CHECKING, until the job records an outcome.
     */
    async submit(session: Session): Promise<{ status: repo.AttemptStatus; attemptsRemaining: number }> {
      assertStepsOpen(session);
      const saved = await savedSteps(session.individual);
      const absent = (['details', 'document', 'selfie'] as const).filter((step) => !saved.includes(step));
      if (absent.length) throw new AppError('INVALID_STATE', `Not everything is there yet: add your ${absent.join(', ')} first`);
      return db.transaction(async (tx) => {
        // The individual alone is locked: the request's other people submit beside it.
        const { individual: locked, latest, contactId } = (await repo.lockIndividualForSubmit(tx, session.individual.id))!;
        assertOpen(locked);
        if (latest?.status === 'CHECKING') throw new AppError('INVALID_STATE', 'Your documents are already being checked');
        if (locked.attempt_count >= locked.max_attempts) throw new AppError('INVALID_STATE', 'No attempts are left');
        const now = clock.now();
        const number = (latest?.number ?? 0) + 1;
        // The attempt, its count, the charge and the check job are held writes: one statement at the commit.
        await repo.writeSubmittedAttempt(tx, { individual_id: locked.id, number, submitted_at: now });
        // The price is charged once per individual, at its first submit: an individual with an attempt
        // has its charge already (they are written together). A contact is charged whatever its state now
        // (chargeAccepted); the partner's charge is one more held write.
        if (!latest) {
          const tenant = tenantOf(locked.partner_id);
          const work = { product: 'VERIFICATION_INDIVIDUAL' as const, referenceId: locked.id };
          if (contactId) await deps.charges.chargeAccepted(tx, tenant, { payer: { billedTo: 'CONTACT', contactId }, ...work });
          else await deps.charges.chargeNewWork(tx, tenant, { payer: { billedTo: 'PARTNER' }, ...work });
        }
        await deps.queue.enqueueHeld(tx, verificationCheckJob, { individualId: locked.id, attempt: number }, { key: checkJobKey(locked.id, number) });
        return { status: 'CHECKING' as const, attemptsRemaining: Math.max(0, locked.max_attempts - locked.attempt_count - 1) };
      });
    },

    /**
     * What the page at /v/{token} shows. A session cookie of the link's own individual resumes the flow
     * whatever became of the link (it was spent opening that session); otherwise the link must be live.
     * Reading never spends the link: only the page's call after consent does, so a link preview cannot.
     */
    async linkPage(linkToken: string, sessionToken: string | undefined): Promise<LinkPage> {
      if (!tokenShape.test(linkToken)) return { kind: 'unknown' };
      const link = await repo.findLink(db, deps.linkTokens.candidates(linkToken));
      if (!link) return { kind: 'unknown' };
      const session = await this.individualOf(sessionToken);
      if (session && session.individual.id === link.individual_id) {
        return { kind: 'resume', view: await viewOf(session), entityName: await entityNameOf(session.individual), provider };
      }
      if (link.used_at) return { kind: 'invalid', reason: 'SPENT' };
      if (link.replaced_at) return { kind: 'invalid', reason: 'REPLACED' };
      if (link.expires_at <= clock.now()) return { kind: 'invalid', reason: 'EXPIRED' };
      const individual = (await repo.findIndividual(db, link.individual_id))!;
      if (terminalStatuses.includes(individual.status)) return { kind: 'invalid', reason: 'FINISHED' };
      return {
        kind: 'start',
        partnerName: await deps.partnerName(individual.partner_id),
        role: individual.role,
        roleDescription: individual.role_description,
        entityName: await entityNameOf(individual),
        provider,
      };
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

const completed = (missing: readonly IdentityStep[]): IdentityStep[] => (['details', 'document', 'selfie'] as const).filter((step) => !missing.includes(step));

/** A step the provider refused is the person's to correct, at the field it names; an outage is a 503. */
function refusedOrDown(saved: SaveResult): asserts saved is Extract<SaveResult, { ok: true }> {
  if (saved.ok) return;
  if (saved.kind === 'rejected') throw fieldProblems([{ pointer: saved.pointer, message: saved.message }]);
  throw identityUnavailable();
}

const documentNames: Record<IdentityDocumentType, string> = { PASSPORT: 'a passport', DRIVER_LICENCE: 'an Australian driver licence', MEDICARE: 'a Medicare card' };

/** `a passport or an Australian driver licence` */
export function acceptedDocuments(types: readonly IdentityDocumentType[]): string {
  const names = types.map((type) => documentNames[type]);
  return names.length > 1 ? `${names.slice(0, -1).join(', ')} or ${names.at(-1)}` : (names[0] ?? 'no document');
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
  if (details.address.country === 'AU') {
    // Not every country has states or postcodes; Australia has both.
    if (!details.address.state) problems.push({ pointer: '/address/state', message: 'is required for an Australian address' });
    if (details.address.postcode === undefined) problems.push({ pointer: '/address/postcode', message: 'is required for an Australian address' });
    else if (!/^[0-9]{4}$/.test(details.address.postcode)) problems.push({ pointer: '/address/postcode', message: 'must be 4 digits for an Australian address' });
  }
  return problems;
}

export type VerificationSessionService = ReturnType<typeof createVerificationSessionService>;

/** What the schema cannot judge of a document: the issuing country and state, an expiry that has not passed. */
export function documentProblems(document: IdentityDocumentFields, now: Date): FieldProblem[] {
  const problems: FieldProblem[] = [];
  if (!isCountryCode(document.issuingCountry)) problems.push({ pointer: '/issuingCountry', message: 'must be a country code such as AU' });
  if (document.type !== 'PASSPORT' && document.issuingCountry !== 'AU') problems.push({ pointer: '/issuingCountry', message: 'must be AU for a driver licence or Medicare card' });
  if (document.type === 'DRIVER_LICENCE' && !document.issuingState) problems.push({ pointer: '/issuingState', message: 'is required for a driver licence: the state or territory that issued it' });
  if (document.type === 'MEDICARE' && !document.cardNumber) problems.push({ pointer: '/cardNumber', message: 'is required for a Medicare card: the number beside your name' });
  if (document.expiryDate && new Date(`${document.expiryDate}T23:59:59Z`) < now) problems.push({ pointer: '/expiryDate', message: 'has passed: the document has expired' });
  return problems;
}
