// The sandbox identity provider: a faithful stand-in for a document-verification service, with its own
// tables (the sandbox_identity_* ones, which nothing else reads). It keeps what a person saves, sealed at
// rest, replaces a step saved again, runs the checks of an attempt once and answers a repeat with the
// first answer, keeps what each verified attempt ran on as its evidence, and forgets a subject entirely.
// What the checks find is chosen by the last name the person entered (sandbox-identity-outcomes.ts).
//
// Sealing, with the key ring's sealer of purpose `sandbox-identity`: fields as JSON sealed text, images as
// sealed bytes with the step id and side as associated data, so that a sealed picture cannot be moved to
// another person's row and still open.
import { randomBytes, randomUUID } from 'node:crypto';
import type { Clock } from '../../platform/clock.ts';
import type { Sealer } from '../../platform/keys/key-ring.ts';
import type { Database, Executor } from '../../platform/db/database.ts';
import type {
  ClaimedIdentity,
  IdentityDocument,
  IdentityDocumentFields,
  IdentityEvidence,
  IdentityImage,
  IdentityProvider,
  IdentityStep,
  IdentityUnavailable,
  PersonDetails,
  Verification,
} from './identity-provider.ts';
import { behaviourOf, outcomeOf, type SandboxOutcome } from './sandbox-identity-outcomes.ts';

const steps: readonly IdentityStep[] = ['details', 'document', 'selfie'];

type Side = 'front' | 'back' | 'selfie';

const unavailable: IdentityUnavailable = {
  ok: false,
  kind: 'unavailable',
  message: 'The sandbox identity provider is unavailable for this person (last name Unavailable).',
};

/** How long the simulated outage of a person named Unavailable lasts, from their first check. */
export const sandboxOutageMs = 60 * 60_000;

interface SubjectRow {
  outage_until: Date | null;
  details_id: string | null;
  document_id: string | null;
  selfie_id: string | null;
}

const subjectColumns = 'outage_until, details_id, document_id, selfie_id';

const missingOf = (subject: SubjectRow): IdentityStep[] => steps.filter((step) => subject[`${step}_id`] === null);

interface StepRow {
  id: string;
  step: IdentityStep;
  fields_sealed: string | null;
}

interface AttemptRow {
  attempt: number;
  details_id: string;
  document_id: string;
  selfie_id: string;
  outcome: SandboxOutcome;
  verified_at: Date;
}

export function fullNameOf(details: PersonDetails): string {
  return [details.firstName, details.middleName, details.lastName]
    .map((part) => part?.trim().replace(/\s+/g, ' '))
    .filter(Boolean)
    .join(' ');
}

function claimedIdentity(details: PersonDetails, document: IdentityDocumentFields): ClaimedIdentity {
  return { fullName: fullNameOf(details), dateOfBirth: details.dateOfBirth, country: document.issuingCountry, residenceCountry: details.address.country };
}

export function createSandboxIdentity(deps: { db: Database; clock: Clock; sealer: Sealer }): IdentityProvider {
  const { db, clock, sealer } = deps;

  // Images reach the database as bytea on PostgreSQL (pg sends a Buffer as binary: no encoding, half the
  // bytes of hex), and as hex text on PGlite, whose serialiser turns a Buffer parameter into a string byte
  // by byte (about 0.4 s for 1.5 MB, on the event loop) where decode() is one call.
  const asHex = db.kind === 'pglite';
  const bytesParameter = (bytes: Buffer) => (asHex ? bytes.toString('hex') : bytes);
  const bytesColumn = (parameter: string) => (asHex ? `decode(${parameter}::text, 'hex')` : `${parameter}::bytea`);
  const bytesRead = (column: string) => (asHex ? `encode(${column}, 'hex') AS ${column}` : column);
  const bytesOf = (value: string | Buffer) => (typeof value === 'string' ? Buffer.from(value, 'hex') : value);

  /** Locks the subject for the rest of the transaction; a step saved for a subject never created is a bug. */
  async function lockSubject(tx: Executor, subjectRef: string): Promise<SubjectRow> {
    const [subject] = await tx.query<SubjectRow>(`SELECT ${subjectColumns} FROM sandbox_identity_subjects WHERE ref = $1 FOR UPDATE`, [subjectRef]);
    if (!subject) throw new Error(`Sandbox identity: no subject ${subjectRef}`);
    return subject;
  }

  /**
   * A person named Unavailable meets an outage: it begins at their first check and lasts an hour, as a
   * provider's outage would, so a job that keeps trying gets through once it ends.
   */
  async function inOutage(tx: Executor, subjectRef: string, outageUntil: Date | null, start: boolean): Promise<boolean> {
    const now = clock.now();
    if (outageUntil === null && start) {
      await tx.query('UPDATE sandbox_identity_subjects SET outage_until = $2 WHERE ref = $1', [subjectRef, new Date(now.getTime() + sandboxOutageMs)]);
      return true;
    }
    return outageUntil === null ? !start : now < outageUntil;
  }

  /** The subject's current steps, as its row names them. */
  async function currentSteps(tx: Executor, subject: SubjectRow): Promise<Map<IdentityStep, StepRow>> {
    const ids = steps.map((step) => subject[`${step}_id`]).filter((id): id is string => id !== null);
    if (ids.length === 0) return new Map();
    const rows = await tx.query<StepRow>('SELECT id, step, fields_sealed FROM sandbox_identity_steps WHERE id = ANY($1::text[])', [ids]);
    return new Map(rows.map((row) => [row.step, row]));
  }

  /**
   * One statement, so atomic on its own: the subject's row points at the new step (the UPDATE locks it
   * against another save), the step and its images are inserted, and the steps of this kind it replaces
   * are deleted, unless a verified attempt ran on one: then it stays, as that attempt's evidence. The
   * statement's snapshot does not hold the new step, so the DELETE cannot reach it; a step left over by
   * two saves at the same moment goes with the next save. `images`: at most two (a document's sides).
   */
  async function saveStep(subjectRef: string, step: IdentityStep, fields: object | null, images: Array<[Side, IdentityImage]>): Promise<{ ok: true; missing: IdentityStep[] }> {
    const id = randomUUID();
    const fieldsSealed = fields === null ? null : sealer.seal(JSON.stringify(fields));
    const sealed = images.map(([side, image]) => bytesParameter(sealer.sealBytes(image.bytes, `${id}:${side}`)));
    const [subject] = await db.query<SubjectRow>(
      `WITH subject AS (
         UPDATE sandbox_identity_subjects SET ${step}_id = $3 WHERE ref = $1 RETURNING ${subjectColumns}
       ), saved AS (
         INSERT INTO sandbox_identity_steps (id, subject_ref, step, fields_sealed, saved_at) SELECT $3, $1, $2, $4, $5 FROM subject
       ), pictures AS (
         INSERT INTO sandbox_identity_images (step_id, side, content_type, sealed)
         SELECT $3, i.side, i.content_type, i.sealed FROM subject,
           (VALUES ($6::text, $7::text, ${bytesColumn('$8')}), ($9::text, $10::text, ${bytesColumn('$11')})) AS i (side, content_type, sealed)
         WHERE i.side IS NOT NULL
       ), replaced AS (
         DELETE FROM sandbox_identity_steps s WHERE s.subject_ref = $1 AND s.step = $2
           AND NOT EXISTS (SELECT 1 FROM sandbox_identity_attempts a WHERE s.id IN (a.details_id, a.document_id, a.selfie_id))
       )
       SELECT ${subjectColumns} FROM subject`,
      [subjectRef, step, id, fieldsSealed, clock.now(), ...[0, 1].flatMap((i) => (images[i] ? [images[i][0], images[i][1].contentType, sealed[i]] : [null, null, null]))],
    );
    if (!subject) throw new Error(`Sandbox identity: no subject ${subjectRef}`);
    return { ok: true, missing: missingOf(subject) };
  }

  function openFields<T>(row: { fields_sealed: string | null }): T {
    if (row.fields_sealed === null) throw new Error('Sandbox identity: a step without fields');
    return JSON.parse(sealer.open(row.fields_sealed)) as T;
  }

  async function readFields<T>(tx: Executor, stepId: string): Promise<T> {
    const [row] = await tx.query<{ fields_sealed: string | null }>('SELECT fields_sealed FROM sandbox_identity_steps WHERE id = $1', [stepId]);
    if (!row) throw new Error(`Sandbox identity: step ${stepId} is gone`);
    return openFields<T>(row);
  }

  async function readImages(tx: Executor, stepIds: string[]): Promise<Map<Side, IdentityImage>> {
    const rows = await tx.query<{ step_id: string; side: Side; content_type: IdentityImage['contentType']; sealed: string | Buffer }>(
      `SELECT step_id, side, content_type, ${bytesRead('sealed')} FROM sandbox_identity_images WHERE step_id = ANY($1::text[])`,
      [stepIds],
    );
    return new Map(rows.map((r) => [r.side, { contentType: r.content_type, bytes: sealer.openBytes(bytesOf(r.sealed), `${r.step_id}:${r.side}`) }]));
  }

  async function verification(tx: Executor, row: AttemptRow): Promise<Verification> {
    const details = await readFields<PersonDetails>(tx, row.details_id);
    const document = await readFields<IdentityDocumentFields>(tx, row.document_id);
    return { ok: true, attempt: row.attempt, ...row.outcome, claimed: claimedIdentity(details, document) };
  }

  const attemptColumns = 'attempt, details_id, document_id, selfie_id, outcome, verified_at';

  return {
    name: 'sandbox',
    documentTypes: ['PASSPORT', 'DRIVER_LICENCE', 'MEDICARE'],
    disclosure: null,
    documentFields: 'ENTERED',

    async createSubject() {
      const subjectRef = `sbx_subject_${randomBytes(16).toString('base64url')}`;
      await db.query('INSERT INTO sandbox_identity_subjects (ref, created_at) VALUES ($1, $2)', [subjectRef, clock.now()]);
      return { ok: true, subjectRef };
    },

    saveDetails: (subjectRef, details) => saveStep(subjectRef, 'details', details, []),

    saveDocument(subjectRef, document: IdentityDocument) {
      const { front, back, ...fields } = document;
      return saveStep(subjectRef, 'document', fields, back ? [['front', front], ['back', back]] : [['front', front]]);
    },

    saveSelfie: (subjectRef, selfie) => saveStep(subjectRef, 'selfie', null, [['selfie', selfie]]),

    async missing(subjectRef) {
      const [subject] = await db.query<SubjectRow>(`SELECT ${subjectColumns} FROM sandbox_identity_subjects WHERE ref = $1`, [subjectRef]);
      if (!subject) throw new Error(`Sandbox identity: no subject ${subjectRef}`);
      return { ok: true, missing: missingOf(subject) };
    },

    async verify(subjectRef, { attempt }) {
      if (!Number.isInteger(attempt) || attempt < 1) throw new Error(`Sandbox identity: attempt ${attempt} is not a positive integer`);
      return db.transaction(async (tx) => {
        const subject = await lockSubject(tx, subjectRef);
        const [done] = await tx.query<AttemptRow>(`SELECT ${attemptColumns} FROM sandbox_identity_attempts WHERE subject_ref = $1 AND attempt = $2`, [
          subjectRef,
          attempt,
        ]);
        if (done) return verification(tx, done);

        const saved = await currentSteps(tx, subject);
        const absent = steps.filter((step) => !saved.has(step));
        if (absent.length > 0) throw new Error(`Sandbox identity: subject ${subjectRef} cannot be verified without its ${absent.join(', ')}`);
        const [details, document, selfie] = [saved.get('details')!, saved.get('document')!, saved.get('selfie')!];
        const behaviour = behaviourOf(openFields<PersonDetails>(details).lastName);
        if (behaviour === 'unavailable' && (await inOutage(tx, subjectRef, subject.outage_until, true))) return unavailable;
        const outcome = outcomeOf(behaviour === 'unavailable' ? 'pass' : behaviour, openFields<IdentityDocumentFields>(document).type);
        const [row] = await tx.query<AttemptRow>(
          `INSERT INTO sandbox_identity_attempts (subject_ref, attempt, details_id, document_id, selfie_id, outcome, verified_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING ${attemptColumns}`,
          [subjectRef, attempt, details.id, document.id, selfie.id, JSON.stringify(outcome), clock.now()],
        );
        return verification(tx, row!);
      });
    },

    async evidence(subjectRef, { includeScans }) {
      return db.transaction(async (tx) => {
        const [subject] = await tx.query<SubjectRow>(`SELECT ${subjectColumns} FROM sandbox_identity_subjects WHERE ref = $1`, [subjectRef]);
        if (!subject) return { ok: false, kind: 'not_found', message: `The identity provider holds nothing for subject ${subjectRef}.` };
        const current = (await currentSteps(tx, subject)).get('details');
        if (current && behaviourOf(openFields<PersonDetails>(current).lastName) === 'unavailable' && (await inOutage(tx, subjectRef, subject.outage_until, false))) return unavailable;

        const [last] = await tx.query<AttemptRow>(
          `SELECT ${attemptColumns} FROM sandbox_identity_attempts WHERE subject_ref = $1 ORDER BY attempt DESC LIMIT 1`,
          [subjectRef],
        );
        if (!last) return { ok: true, evidence: null };
        const { claimed, checks, faceMatch } = await verification(tx, last);
        const evidence: IdentityEvidence = {
          attempt: last.attempt,
          verifiedAt: last.verified_at,
          details: await readFields<PersonDetails>(tx, last.details_id),
          document: await readFields<IdentityDocumentFields>(tx, last.document_id),
          claimed,
          faceMatch,
          checks,
        };
        if (includeScans) {
          const images = await readImages(tx, [last.document_id, last.selfie_id]);
          evidence.document = { ...evidence.document, front: images.get('front'), ...(images.has('back') ? { back: images.get('back') } : {}) };
          evidence.selfie = images.get('selfie');
        }
        return { ok: true, evidence };
      });
    },

    async forget(subjectRef) {
      // The steps, their images and the attempts go with the subject (ON DELETE CASCADE).
      await db.query('DELETE FROM sandbox_identity_subjects WHERE ref = $1', [subjectRef]);
      return { ok: true };
    },
  };
}
