// The identity provider on Onfido (API v3.6, through @onfido/api). A subject is PVS's own reference
// (`onf_…`, onfido-store.ts) for an Onfido applicant, made at the details step; each step saved is
// uploaded to that applicant and replaces the one before in PVS's record (onfido-steps.ts); an attempt is
// one Onfido check (onfido-checks.ts), whose reports onfido-results.ts reads as PVS checks.
//
// Invariants:
// - PVS's tables hold only Onfido's ids, the document type and sides, attempt numbers and times. What a
//   person gave, and what Onfido found, is read live from Onfido when verify and evidence need it.
// - One check per attempt, paid once: the check is recorded against the attempt, and before making one
//   the applicant's checks are searched for the attempt's tag (`pvs-attempt-<n>`), so a crash between
//   Onfido making the check and PVS recording it never makes a second.
// - Onfido's checks run for seconds to hours: verify answers `pending` until the check completes, asking
//   again later (sooner when Onfido's `check.completed` webhook arrives: `notification`).
// - Nothing Onfido sends back reaches a message, an error or a log line except statuses, error types,
//   field names and ids (onfido-errors.ts).
import { randomBytes } from 'node:crypto';
import type { Clock } from '../../../platform/clock.ts';
import type { Database } from '../../../platform/db/database.ts';
import type { Logger } from '../../../platform/logger.ts';
import type { IdentityNotification, IdentityProvider, IdentityStep, SaveResult } from '../identity-provider.ts';
import { createOnfidoChecks } from './onfido-checks.ts';
import { createOnfidoClient, type OnfidoRegion } from './onfido-client.ts';
import { createOnfidoSteps, type StepSaved } from './onfido-steps.ts';
import * as store from './onfido-store.ts';

export interface OnfidoIdentityOptions {
  db: Database;
  clock: Clock;
  apiToken: string;
  region: OnfidoRegion;
  /** The token of the Onfido webhook that signs `check.completed` events. */
  webhookToken: string;
  /** Another address for the API, ending in its version; the region's own by default. */
  apiUrl?: string;
  logger?: Pick<Logger, 'info' | 'warn'>;
  /** Per call (default 20 s); an upload or a download may take three times as long. */
  timeoutMs?: number;
}

const places: Record<OnfidoRegion, string> = { eu: 'the European Union', us: 'the United States', ca: 'Canada' };

export function createOnfidoIdentity(options: OnfidoIdentityOptions): IdentityProvider {
  const { db, clock } = options;
  if (!options.webhookToken) throw new Error('Onfido identity: no webhook token was configured (ONFIDO_WEBHOOK_TOKEN).');
  const onfido = createOnfidoClient(options);

  async function subjectOf(subjectRef: string): Promise<store.OnfidoSubjectRow> {
    const subject = await store.findSubject(db, subjectRef);
    if (!subject) throw new Error(`Onfido identity: no subject ${subjectRef}`);
    return subject;
  }

  const steps = createOnfidoSteps({ db, clock, onfido, subjectOf });

  /** What PVS recorded of the applicant's steps: Onfido is not asked. */
  async function missingOf(subjectRef: string): Promise<IdentityStep[]> {
    const subject = await subjectOf(subjectRef);
    const document = await store.listDocument(db, subjectRef);
    const missing: IdentityStep[] = [];
    if (!subject.applicant_id) missing.push('details');
    if (document.length === 0) missing.push('document');
    if (!subject.live_photo_id) missing.push('selfie');
    return missing;
  }

  async function withMissing(subjectRef: string, saving: Promise<StepSaved>): Promise<SaveResult> {
    const saved = await saving;
    return saved.ok ? { ok: true, missing: await missingOf(subjectRef) } : saved;
  }
  const checks = createOnfidoChecks({ db, clock, onfido, logger: options.logger });

  return {
    name: 'onfido',
    // No Medicare card: it has no photo to compare the selfie with.
    documentTypes: ['PASSPORT', 'DRIVER_LICENCE'],
    disclosure: { recipient: 'Onfido', location: places[options.region] },
    // The typed number, expiry and country are checked at the step and not sent (onfido-applicant.ts).
    documentFields: 'READ',

    async createSubject() {
      // Nothing goes to Onfido yet: an applicant needs a first and last name.
      const subjectRef = `onf_${randomBytes(16).toString('base64url')}`;
      await store.insertSubject(db, subjectRef, clock.now());
      return { ok: true, subjectRef };
    },

    saveDetails: (subjectRef, details) => withMissing(subjectRef, steps.saveDetails(subjectRef, details)),
    saveDocument: (subjectRef, document) => withMissing(subjectRef, steps.saveDocument(subjectRef, document)),
    saveSelfie: (subjectRef, selfie) => withMissing(subjectRef, steps.saveSelfie(subjectRef, selfie)),
    missing: async (subjectRef) => ({ ok: true, missing: await missingOf(subjectRef) }),

    async verify(subjectRef, { attempt }) {
      if (!Number.isInteger(attempt) || attempt < 1) throw new Error(`Onfido identity: attempt ${attempt} is not a positive integer`);
      return checks.verify(await subjectOf(subjectRef), attempt);
    },

    async evidence(subjectRef, { includeScans }) {
      const subject = await store.findSubject(db, subjectRef);
      if (!subject) return { ok: false, kind: 'not_found', message: `PVS holds no Onfido applicant for subject ${subjectRef}.` };
      return checks.evidence(subject, includeScans);
    },

    async forget(subjectRef) {
      // Every applicant made for the subject: the current one and those of earlier attempts.
      for (const applicantId of await store.applicantIdsOf(db, subjectRef)) {
        const deleted = await onfido.call('applicant delete', (api, o) => api.deleteApplicant(applicantId, o));
        // A 404/410 is an applicant already gone; a 422 would be a request we got wrong.
        if (!deleted.ok && deleted.kind === 'unavailable') return deleted;
        if (!deleted.ok && deleted.kind === 'validation') throw new Error('Onfido applicant delete: refused');
      }
      await store.deleteSubject(db, subjectRef);
      return { ok: true };
    },

    async notification(rawBody, headers): Promise<IdentityNotification> {
      const header = headers['x-sha2-signature'];
      const signature = Array.isArray(header) ? header[0] : header;
      if (!signature || !/^[0-9a-f]{64}$/i.test(signature)) return { ok: false, kind: 'bad_signature', message: 'The X-SHA2-Signature header is missing or is not a hex SHA-256 HMAC.' };
      const sdk = await onfido.sdk();
      let event: ReturnType<InstanceType<typeof sdk.WebhookEventVerifier>['readPayload']>;
      try {
        event = new sdk.WebhookEventVerifier(options.webhookToken).readPayload(rawBody, signature);
      } catch (error) {
        if (error instanceof sdk.OnfidoInvalidSignatureError) return { ok: false, kind: 'bad_signature', message: 'The X-SHA2-Signature is not the HMAC of the body under ONFIDO_WEBHOOK_TOKEN.' };
        if (error instanceof SyntaxError) return { ok: true, kind: 'ignored', reason: 'a signed body that is not JSON' };
        throw error;
      }
      const action = event.payload?.action;
      if (action !== 'check.completed' || event.payload?.resource_type !== 'check') {
        return { ok: true, kind: 'ignored', reason: `event ${typeof action === 'string' && /^[a-z_.]{1,60}$/.test(action) ? action : '(no action)'}` };
      }
      const checkId = event.payload.object?.id;
      const row = checkId ? await store.findCheckById(db, checkId) : undefined;
      if (!row) return { ok: true, kind: 'ignored', reason: 'a check PVS has no record of' };
      return { ok: true, kind: 'checks_finished', subjectRef: row.subject_ref, attempt: row.attempt };
    },
  };
}
